"""JSONL in and out, one record per line, with errors that name the line.

Reading never stops at a bad line: each line yields either a parsed object
or a :class:`RecordError` naming the line (and the record id when it has
one), so one bad record cannot take the rest of a batch with it.  Output is
written to a temporary file beside the target and renamed into place, so a
crash never leaves a half-written output file.
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, TextIO

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


@dataclass(frozen=True, slots=True)
class Record:
    line: int
    data: dict

    @property
    def id(self) -> str:
        return str(self.data["id"])


def read_jsonl(path: Path | str, *, require_text: bool = True) -> Iterator[Record | RecordError]:
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield RecordError(number, None, f"not valid UTF-8 (byte {exc.start})")
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                yield RecordError(number, None, f"malformed JSON: {exc.msg} at column {exc.colno}")
                continue
            if not isinstance(data, dict):
                yield RecordError(number, None, "a record must be a JSON object")
                continue
            rid = data.get("id")
            if rid is None or not isinstance(rid, (str, int)) or isinstance(rid, bool):
                yield RecordError(number, None, "missing or invalid 'id'")
                continue
            if require_text and not isinstance(data.get("text"), str):
                yield RecordError(number, str(rid), "missing or non-string 'text'")
                continue
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


@contextmanager
def atomic_writer(path: Path | str) -> Iterator[TextIO]:
    """Write to a temporary file and rename it over ``path`` only on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            yield fh
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def dump(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False)
