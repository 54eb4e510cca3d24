"""JSONL in and out, one record per line, with errors that name the line.

Reading never stops at a bad line: each line yields either a parsed object
or a :class:`RecordError` naming the line (and the record id when it has
one), so one bad record cannot take the rest of a batch with it.  Strings
that JSON allows but no output can carry (lone surrogates such as
``"\\ud800"``, NUL, Unicode non-characters) are such errors, and so are a
text over the size limit and, where asked, an id seen on an earlier line.
Output is written to a temporary file beside the target and renamed into
place, so a crash never leaves a half-written output file, and a run that
raises :class:`KeepPrevious` leaves the previous output as it was.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, TextIO

from deid_core.spans import Span, SpanError, span_from_dict


@dataclass(frozen=True, slots=True)
class RecordError:
    line: int
    record_id: str | None
    message: str

    def __str__(self) -> str:
        who = f"record {self.record_id!r}" if self.record_id is not None else "record"
        return f"line {self.line}: {who}: {self.message}"

    def to_dict(self) -> dict:
        return {"id": self.record_id, "line": self.line, "error": self.message}


#: Lone surrogates, NUL and the Unicode non-characters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF).
_UNUSABLE = re.compile(
    "[\ud800-\udfff\x00\ufdd0-\ufdef"
    + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17))
    + "]"
)
#: Strings free of NUL and the Basic Multilingual Plane's non-characters, as an ASCII regular
#: expression that JSON Schema (ECMA-262), Rust and Python all read; for request schemas.  Lone
#: surrogates are left out: no UTF-8 text holds one, and regex engines over scalar values cannot name them.
USABLE_STRING = r"^[^\u0000\ufdd0-\ufdef\ufffe\uffff]*$"


def unusable_character(value: object, path: str = "") -> str | None:
    """Say where ``value`` (a decoded JSON value) holds a character no record may carry, or None."""
    if isinstance(value, str):
        found = _UNUSABLE.search(value)
        if found is None:
            return None
        code = ord(found.group())
        kind = "NUL" if code == 0 else "a lone surrogate" if 0xD800 <= code <= 0xDFFF else "a non-character"
        return f"{path or 'the value'} holds {kind} (U+{code:04X}) at character {found.start()}"
    if isinstance(value, dict):
        for name, item in value.items():
            where = f"{path}.{name}" if path else str(name)
            problem = unusable_character(name, f"a field name in {path or 'the record'}") or unusable_character(item, where)
            if problem:
                return problem
    elif isinstance(value, list):
        for i, item in enumerate(value):
            problem = unusable_character(item, f"{path}[{i}]")
            if problem:
                return problem
    return None


def too_long(text: str, max_note_chars: int | None) -> str | None:
    """The error for a note text over the configured size limit, or None."""
    if max_note_chars is None or len(text) <= max_note_chars:
        return None
    return f"'text' has {len(text)} characters, over the limit of {max_note_chars} (limits.max_note_chars)"


@dataclass(frozen=True, slots=True)
class Record:
    line: int
    data: dict

    @property
    def id(self) -> str:
        return str(self.data["id"])


def json_lines(lines: Iterable[bytes | str]) -> Iterator[tuple[int, Any, str | None]]:
    """``(line number, parsed value, None)`` or ``(line number, None, why not)``
    for each non-blank line, so every reader fails a bad line alone."""
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield number, None, f"not valid UTF-8 (byte {exc.start})"
                continue
        if not raw.strip():
            continue
        try:
            yield number, json.loads(raw), None
        except json.JSONDecodeError as exc:
            yield number, None, f"malformed JSON: {exc.msg} at column {exc.colno}"
        except RecursionError:
            yield number, None, "malformed JSON: nested too deeply"


def read_jsonl(
    path: Path | str,
    *,
    require_text: bool = True,
    max_note_chars: int | None = None,
    unique_ids: bool = False,
) -> Iterator[Record | RecordError]:
    """Each line as a :class:`Record` or a :class:`RecordError`; ``max_note_chars``
    bounds ``text``, and with ``unique_ids`` a repeated id fails the later line."""
    first_line: dict[str, int] = {}
    with open(path, "rb") as fh:
        for number, data, error in json_lines(fh):
            if error is not None:
                yield RecordError(number, None, error)
                continue
            if not isinstance(data, dict):
                yield RecordError(number, None, "a record must be a JSON object")
                continue
            rid = data.get("id")
            if rid is None or not isinstance(rid, (str, int)) or isinstance(rid, bool) or unusable_character(rid):
                yield RecordError(number, None, "missing or invalid 'id'")
                continue
            rid = str(rid)
            problem = unusable_character(data)
            if problem:
                yield RecordError(number, rid, problem)
                continue
            text = data.get("text")
            if require_text and not isinstance(text, str):
                yield RecordError(number, rid, "missing or non-string 'text'")
                continue
            problem = too_long(text, max_note_chars) if isinstance(text, str) else None
            if problem:
                yield RecordError(number, rid, problem)
                continue
            if unique_ids:
                if rid in first_line:
                    yield RecordError(number, rid, f"duplicate id: lines {first_line[rid]} and {number} share it")
                    continue
                first_line[rid] = number
            yield Record(number, data)


def parse_spans(record: Record) -> tuple[Span, ...]:
    raw = record.data.get("spans", [])
    if not isinstance(raw, list):
        raise SpanError(f"note {record.id!r}: 'spans' must be a list")
    return tuple(span_from_dict(record.id, i, s) for i, s in enumerate(raw))


def optional_str(record: Record, field: str) -> str | None:
    value = record.data.get(field)
    if value is None:
        return None
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value)
    raise ValueError(f"'{field}' must be a string")


class KeepPrevious(Exception):
    """Raised inside :func:`atomic_writer` to discard what was written and leave ``path`` as it was."""


@contextmanager
def atomic_writer(path: Path | str) -> Iterator[TextIO]:
    """Write to a temporary file and rename it over ``path`` only on success.

    Raising :class:`KeepPrevious` in the block (a run in which no record
    succeeded) discards the temporary file and is not propagated.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            yield fh
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if not isinstance(exc, KeepPrevious):
            raise


def dump(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False)
