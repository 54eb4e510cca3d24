"""Readers for gold and predicted spans: our JSONL, i2b2 2014 XML, BRAT standoff.

Every reader fails with an :class:`EvalInputError` that names the file and
the line, record or tag, because a silently skipped gold span would inflate
recall.  The one tolerated defect is a prediction record that reports an
``error`` (a note the recognizer could not process): it is scored as a note
with no predictions and listed in the report, which is the conservative
reading of a failure.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Sequence

from deid_core.evaluation.crosswalk import Crosswalk
from deid_core.evaluation.documents import (
    EvalDocument,
    EvalInputError,
    PredictionIssue,
    SourceDocument,
    SourceSpan,
)
from deid_core.spans import Span

Format = Literal["jsonl", "i2b2", "brat"]
FORMATS: tuple[str, ...] = ("jsonl", "i2b2", "brat")


@dataclass(frozen=True, slots=True)
class PredictionSet:
    documents: tuple[EvalDocument, ...]
    issues: tuple[PredictionIssue, ...]


# ----------------------------------------------------------------------------
# Shared checks


def _offset(value: object, what: str, where: str, *, text_ok: bool = False) -> int:
    """An integer offset; XML attributes are text, so ``text_ok`` accepts digits."""
    if text_ok and isinstance(value, str) and re.fullmatch(r"\d+", value.strip()):
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise EvalInputError(f"{where}: {what} must be a non-negative integer, got {value!r}")
    return value


def _check_span(start: int, end: int, text: str | None, where: str) -> None:
    if start < 0 or start >= end:
        raise EvalInputError(f"{where}: span [{start}, {end}) needs 0 <= start < end")
    if text is not None and end > len(text):
        raise EvalInputError(f"{where}: span [{start}, {end}) lies outside the text ({len(text)} characters)")


def _check_unique(docs: Sequence[SourceDocument], path: Path) -> None:
    seen: dict[str, str] = {}
    for doc in docs:
        if doc.id in seen:
            raise EvalInputError(f"{path}: document id {doc.id!r} appears twice ({seen[doc.id]} and {doc.origin})")
        seen[doc.id] = doc.origin


# ----------------------------------------------------------------------------
# JSONL


def _jsonl_span(raw: object, index: int, text: str | None, where: str) -> SourceSpan:
    spot = f"{where}: span {index}"
    if not isinstance(raw, dict):
        raise EvalInputError(f"{spot}: a span must be a JSON object")
    label = raw.get("label", raw.get("category"))
    if not isinstance(label, str) or not label.strip():
        raise EvalInputError(f"{spot}: missing or non-string 'label'")
    start = _offset(raw.get("start"), "'start'", spot)
    end = _offset(raw.get("end"), "'end'", spot)
    _check_span(start, end, text, spot)
    score = raw.get("score", 1.0)
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise EvalInputError(f"{spot}: 'score' must be a number, got {score!r}")
    source = raw.get("source", "")
    return SourceSpan(start, end, label, float(score), str(source) if source is not None else "")


def read_jsonl(path: Path | str, *, gold: bool) -> tuple[list[SourceDocument], list[PredictionIssue]]:
    """Gold lines ``{id, text, spans}``; prediction lines ``{id, spans}`` or ``{id, error}``."""
    path = Path(path)
    docs: list[SourceDocument] = []
    issues: list[PredictionIssue] = []
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise EvalInputError(f"{path}: cannot read: {exc.strerror}") from None
    with fh:
        for number, raw_line in enumerate(fh, start=1):
            if not raw_line.strip():
                continue
            where = f"{path}:{number}"
            try:
                data = json.loads(raw_line.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise EvalInputError(f"{where}: not valid UTF-8 (byte {exc.start})") from None
            except json.JSONDecodeError as exc:
                raise EvalInputError(f"{where}: malformed JSON: {exc.msg} at column {exc.colno}") from None
            if not isinstance(data, dict):
                raise EvalInputError(f"{where}: a record must be a JSON object")
            rid = data.get("id")
            valid_id = isinstance(rid, (str, int)) and not isinstance(rid, bool)
            if not gold and "error" in data:
                record_id = str(rid) if valid_id else None
                issues.append(PredictionIssue(record_id, where, str(data["error"])))
                if record_id is not None:
                    docs.append(SourceDocument(record_id, None, (), where))
                continue
            if not valid_id:
                raise EvalInputError(f"{where}: missing or invalid 'id'")
            rid = str(rid)
            where = f"{where}: record {rid!r}"
            text = data.get("text")
            if text is not None and not isinstance(text, str):
                raise EvalInputError(f"{where}: 'text' must be a string")
            if gold and text is None:
                raise EvalInputError(f"{where}: gold records need a 'text'")
            raw_spans = data.get("spans", [])
            if not isinstance(raw_spans, list):
                raise EvalInputError(f"{where}: 'spans' must be a list")
            spans = tuple(_jsonl_span(s, i, text, where) for i, s in enumerate(raw_spans))
            docs.append(SourceDocument(rid, text, spans, f"{path}:{number}"))
    _check_unique(docs, path)
    return docs, issues


# ----------------------------------------------------------------------------
# i2b2 2014 XML


def _i2b2_file(path: Path, verify_text: bool) -> SourceDocument:
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise EvalInputError(f"{path}: malformed XML: {exc}") from None
    except OSError as exc:
        raise EvalInputError(f"{path}: cannot read: {exc.strerror}") from None
    text_el = root.find("TEXT")
    if text_el is None:
        raise EvalInputError(f"{path}: no <TEXT> element")
    text = text_el.text or ""
    spans: list[SourceSpan] = []
    tags = root.find("TAGS")
    for index, tag in enumerate(tags if tags is not None else ()):
        where = f"{path}: tag {tag.get('id') or index} <{tag.tag}>"
        label = tag.get("TYPE")
        if not label or not label.strip():
            raise EvalInputError(f"{where}: missing TYPE attribute")
        start = _offset(tag.get("start"), "start", where, text_ok=True)
        end = _offset(tag.get("end"), "end", where, text_ok=True)
        _check_span(start, end, text, where)
        quoted = tag.get("text")
        if verify_text and quoted is not None and quoted != text[start:end]:
            raise EvalInputError(
                f"{where}: text attribute {quoted!r} differs from the note at [{start}, {end}): {text[start:end]!r}"
            )
        spans.append(SourceSpan(start, end, label))
    return SourceDocument(path.stem, text, tuple(spans), str(path))


def read_i2b2(path: Path | str, *, verify_text: bool = True) -> list[SourceDocument]:
    """One i2b2 XML file or a directory of them; the document id is the file stem."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".xml" and p.is_file())
        if not files:
            raise EvalInputError(f"{path}: no .xml files")
    elif path.is_file():
        files = [path]
    else:
        raise EvalInputError(f"{path}: no such file or directory")
    docs = [_i2b2_file(f, verify_text) for f in files]
    _check_unique(docs, path)
    return docs


# ----------------------------------------------------------------------------
# BRAT standoff

_FRAGMENT = re.compile(r"(\d+) (\d+)")


def _brat_fragments(offsets: str, where: str) -> list[tuple[int, int]]:
    frags: list[tuple[int, int]] = []
    for part in offsets.split(";"):
        m = _FRAGMENT.fullmatch(part.strip())
        if not m:
            raise EvalInputError(f"{where}: bad offsets {offsets!r} (want 'start end' or 'start end;start end')")
        frags.append((int(m.group(1)), int(m.group(2))))
    return sorted(frags)


def _join_fragments(text: str, frags: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Fragments separated only by whitespace (a wrapped line) are one span.

    Other gaps hold text that is not part of the identifier, so each
    fragment stays its own span rather than one span over non-PHI text.
    """
    joined = [frags[0]]
    for s, e in frags[1:]:
        ps, pe = joined[-1]
        if s <= pe or not text[pe:s].strip():
            joined[-1] = (ps, max(pe, e))
        else:
            joined.append((s, e))
    return joined


def _read_text(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as fh:  # keep \r: offsets count it
            return fh.read()
    except UnicodeDecodeError as exc:
        raise EvalInputError(f"{path}: not valid UTF-8 (byte {exc.start})") from None
    except OSError as exc:
        raise EvalInputError(f"{path}: cannot read: {exc.strerror}") from None


def _brat_pair(ann: Path, txt: Path, verify_text: bool) -> SourceDocument:
    text = _read_text(txt)
    lines = _read_text(ann).split("\n")
    spans: list[SourceSpan] = []
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r")
        if not line.startswith("T"):
            continue  # attributes, relations, events, notes: not spans
        where = f"{ann}:{number}"
        fields = line.split("\t")
        if len(fields) < 2 or " " not in fields[1]:
            raise EvalInputError(f"{where}: malformed text-bound annotation {line!r}")
        where = f"{where}: {fields[0]}"
        label, offsets = fields[1].split(" ", 1)
        frags = _brat_fragments(offsets, where)
        for s, e in frags:
            _check_span(s, e, text, where)
        if verify_text and len(fields) > 2:
            expected = " ".join(text[s:e] for s, e in frags)
            if " ".join(fields[2].split()) != " ".join(expected.split()):
                raise EvalInputError(f"{where}: text {fields[2]!r} differs from the note at {offsets}: {expected!r}")
        for s, e in _join_fragments(text, frags):
            spans.append(SourceSpan(s, e, label, 1.0, ""))
    return SourceDocument(ann.stem, text, tuple(spans), str(ann))


def read_brat(path: Path | str, *, verify_text: bool = True) -> list[SourceDocument]:
    """A directory of ``.txt``/``.ann`` pairs, or one ``.ann`` (or ``.txt``) file of a pair."""
    path = Path(path)
    if path.is_dir():
        anns = sorted(p for p in path.iterdir() if p.suffix == ".ann" and p.is_file())
        txts = sorted(p for p in path.iterdir() if p.suffix == ".txt" and p.is_file())
        unannotated = [t for t in txts if not t.with_suffix(".ann").exists()]
        if unannotated:
            raise EvalInputError(f"{unannotated[0]}: no .ann file beside it (an unannotated note is not PHI-free)")
        if not anns:
            raise EvalInputError(f"{path}: no .ann files")
    elif path.is_file() and path.suffix in (".ann", ".txt"):
        anns = [path.with_suffix(".ann")]
    else:
        raise EvalInputError(f"{path}: not a BRAT directory or .ann/.txt file")
    docs = []
    for ann in anns:
        txt = ann.with_suffix(".txt")
        if not txt.exists():
            raise EvalInputError(f"{ann}: no .txt file beside it")
        if not ann.exists():
            raise EvalInputError(f"{txt}: no .ann file beside it")
        docs.append(_brat_pair(ann, txt, verify_text))
    _check_unique(docs, path)
    return docs


# ----------------------------------------------------------------------------
# Entry points


def detect_format(path: Path | str) -> str:
    """Guess the format from the path: a .jsonl file, .xml files, or .ann files."""
    path = Path(path)
    if path.is_dir():
        suffixes = {p.suffix.lower() for p in path.iterdir() if p.is_file()}
        if ".ann" in suffixes:
            return "brat"
        if ".xml" in suffixes:
            return "i2b2"
        raise EvalInputError(f"{path}: cannot tell the format (no .ann or .xml files inside); name it explicitly")
    if not path.exists():
        raise EvalInputError(f"{path}: no such file or directory")
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    if suffix == ".xml":
        return "i2b2"
    if suffix in (".ann", ".txt"):
        return "brat"
    raise EvalInputError(f"{path}: cannot tell the format from the suffix {suffix!r}; name it explicitly")


def read_source(
    path: Path | str, fmt: str | None = None, *, gold: bool = True
) -> tuple[list[SourceDocument], list[PredictionIssue]]:
    fmt = fmt or detect_format(path)
    if fmt == "jsonl":
        return read_jsonl(path, gold=gold)
    if fmt == "i2b2":
        return read_i2b2(path), []
    if fmt == "brat":
        return read_brat(path), []
    raise EvalInputError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


def default_crosswalk(fmt: str) -> Crosswalk:
    """Our JSONL is in our categories already; i2b2 and BRAT get Table S6."""
    return Crosswalk.identity() if fmt == "jsonl" else Crosswalk.i2b2()


def load_gold(path: Path | str, fmt: str | None = None, crosswalk: Crosswalk | None = None) -> tuple[EvalDocument, ...]:
    """Gold documents with the crosswalk (labels and boundary rules) applied."""
    fmt = fmt or detect_format(path)
    docs, _ = read_source(path, fmt, gold=True)
    walk = crosswalk or default_crosswalk(fmt)
    return tuple(walk.apply(d, boundaries=True) for d in docs)


def load_predictions(
    path: Path | str,
    fmt: str | None = None,
    crosswalk: Crosswalk | None = None,
    *,
    boundaries: bool = False,
) -> PredictionSet:
    """Predicted documents relabelled by the crosswalk; boundary rules off by default."""
    fmt = fmt or detect_format(path)
    docs, issues = read_source(path, fmt, gold=False)
    walk = crosswalk or default_crosswalk(fmt)
    return PredictionSet(tuple(walk.apply(d, boundaries=boundaries) for d in docs), tuple(issues))


@dataclass(frozen=True, slots=True)
class ScoredPair:
    """One gold document with the predictions made on it."""

    id: str
    text: str
    gold: tuple[Span, ...]
    predicted: tuple[Span, ...]


def pair_documents(
    gold: Sequence[EvalDocument], predictions: Sequence[EvalDocument]
) -> tuple[list[ScoredPair], list[PredictionIssue]]:
    """Join predictions to gold by id.

    A gold note without predictions scores as one with none (every gold span
    missed) and is reported; predictions for notes outside the gold cannot be
    scored and are reported.  Predictions whose offsets or text do not fit
    the gold note are an error: they were made on a different text.
    """
    issues: list[PredictionIssue] = []
    by_id: dict[str, EvalDocument] = {}
    for doc in predictions:
        if doc.id in by_id:
            raise EvalInputError(f"predictions: document id {doc.id!r} appears twice")
        by_id[doc.id] = doc
    pairs: list[ScoredPair] = []
    gold_ids: set[str] = set()
    for g in gold:
        if g.id in gold_ids:
            raise EvalInputError(f"gold: document id {g.id!r} appears twice")
        gold_ids.add(g.id)
        if g.text is None:
            raise EvalInputError(f"gold: document {g.id!r} has no text")
        p = by_id.get(g.id)
        if p is None:
            issues.append(PredictionIssue(g.id, "predictions", "no predictions for this gold note (scored as none)"))
            pairs.append(ScoredPair(g.id, g.text, g.spans, ()))
            continue
        if p.text is not None and p.text != g.text:
            raise EvalInputError(f"predictions: document {g.id!r}: text differs from the gold text")
        for i, s in enumerate(p.spans):
            if s.end > len(g.text):
                raise EvalInputError(
                    f"predictions: document {g.id!r}: span {i} [{s.start}, {s.end}) lies outside "
                    f"the gold text ({len(g.text)} characters)"
                )
        pairs.append(ScoredPair(g.id, g.text, g.spans, p.spans))
    for pid in by_id:
        if pid not in gold_ids:
            issues.append(PredictionIssue(pid, "predictions", "no gold note with this id (not scored)"))
    return pairs, issues


__all__ = [
    "FORMATS",
    "PredictionSet",
    "ScoredPair",
    "default_crosswalk",
    "detect_format",
    "load_gold",
    "load_predictions",
    "pair_documents",
    "read_brat",
    "read_i2b2",
    "read_jsonl",
    "read_source",
]
