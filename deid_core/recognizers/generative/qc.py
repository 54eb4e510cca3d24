"""The QC layer of paper 001: repair, pattern matches, escalation, each one recorded.

1. Repair: an output the strict reader rejects is read leniently
   (:mod:`repair`); what was salvaged is named on the report.
2. Patterns: the fixed-format categories (dates, phones, IDs, web
   addresses, ages) are matched by the rule recognizers of
   :mod:`deid_core.recognizers.rules` and added where the model left
   them out.
3. Escalation: a note whose output was unreadable, empty (or wholly
   ungrounded), or implausibly sparse for its length goes to the fallback recognizer (rules or encoder)
   as well, and their spans are united.  With no fallback, an unreadable
   note fails closed: its output says nothing trustworthy about the note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deid_core.recognizers.base import NoteContext, Recognizer, RecognizerError
from deid_core.recognizers.generative.parse import AnnotationParseError, parse_strict
from deid_core.recognizers.generative.repair import repair
from deid_core.recognizers.generative.schema import ParsedAnnotation
from deid_core.detection import check_spans
from deid_core.spans import Span

PATTERN_KINDS: tuple[str, ...] = ("date", "phone", "id", "web", "age")


def read_output(raw: str, fmt: str) -> ParsedAnnotation:
    """Strict parse, else the lenient one; an empty output is a valid empty annotation."""
    if not raw.strip():
        return ParsedAnnotation([])
    try:
        return parse_strict(raw, fmt)
    except AnnotationParseError:
        return repair(raw, fmt)


@dataclass(frozen=True)
class QCConfig:
    """When the QC layer adds pattern matches and when it escalates.

    ``min_density`` is grounded model spans per 1,000 characters; paper 001's
    training notes carry about 11, the ICU notes it failed on about 1.
    """

    patterns: tuple[str, ...] = PATTERN_KINDS
    escalate: bool = True
    empty_min_chars: int = 200
    sparse_min_chars: int = 800
    min_density: float = 1.0

    def __post_init__(self) -> None:
        bad = [p for p in self.patterns if p not in PATTERN_KINDS]
        if bad:
            raise ValueError(f"unknown pattern kind(s) {', '.join(bad)} (known: {', '.join(PATTERN_KINDS)})")
        if self.empty_min_chars < 0 or self.sparse_min_chars < 0 or self.min_density < 0:
            raise ValueError("empty_min_chars, sparse_min_chars and min_density must be >= 0")


def _pattern_recognizers(kinds: Sequence[str]) -> list[Recognizer]:
    from deid_core.recognizers.rules.ages import age_recognizer
    from deid_core.recognizers.rules.dates import DateRecognizer
    from deid_core.recognizers.rules.ids import id_recognizer
    from deid_core.recognizers.rules.phones import phone_recognizer
    from deid_core.recognizers.rules.web import web_recognizer

    factories = {"date": DateRecognizer, "phone": phone_recognizer, "id": id_recognizer, "web": web_recognizer, "age": age_recognizer}
    return [factories[k]() for k in kinds]


@dataclass
class QCOutcome:
    spans: list[Span]
    actions: list[str]
    pattern_spans_added: int = 0
    fallback_spans_added: int = 0
    escalated: str | None = None


class QualityControl:
    def __init__(self, config: QCConfig | None = None, fallback: Recognizer | None = None) -> None:
        self.config = config or QCConfig()
        self.fallback = fallback
        self._patterns = _pattern_recognizers(self.config.patterns)

    def escalation_reason(self, text: str, *, unreadable: bool, strings: int, model_spans: int) -> str | None:
        c = self.config
        if unreadable:
            return "unparseable"
        if model_spans == 0 and len(text.strip()) >= c.empty_min_chars:
            # Nothing usable came back: no strings at all, or none found in the note.
            return "empty" if strings == 0 else "ungrounded"
        if len(text) >= c.sparse_min_chars and model_spans * 1000 / len(text) < c.min_density:
            return "sparse"
        return None

    def apply(
        self,
        note_id: str | None,
        text: str,
        model_spans: Sequence[Span],
        *,
        unreadable: bool,
        strings: int,
        context: NoteContext | None = None,
    ) -> QCOutcome:
        out = QCOutcome(list(model_spans), [])
        found = list(model_spans)
        for recognizer in self._patterns:
            for s in recognizer.analyze(text):
                if not any(s.overlaps(m) for m in found):
                    out.spans.append(s)
                    found.append(s)
                    out.pattern_spans_added += 1
        if out.pattern_spans_added:
            out.actions.append(f"patterns_added:{out.pattern_spans_added}")
        distinct = len({(s.start, s.end) for s in model_spans})
        reason = self.escalation_reason(text, unreadable=unreadable, strings=strings, model_spans=distinct)
        if reason is None or not self.config.escalate:
            if reason is not None:
                out.actions.append(f"escalation_off:{reason}")
            return out
        if self.fallback is None:
            if reason == "unparseable":
                raise RecognizerError(
                    f"note {note_id!r}: the generative output could not be read and no fallback recognizer is configured"
                )
            out.actions.append(f"escalation_skipped:{reason}:no_fallback")
            return out
        try:
            extra = self.fallback.analyze(text, context=context)
        except RecognizerError:
            raise
        except Exception as exc:  # fail closed: the note fails rather than passing half-checked
            raise RecognizerError(f"note {note_id!r}: fallback recognizer {self.fallback.name!r} failed: {type(exc).__name__}") from exc
        extra = check_spans(f"fallback {self.fallback.name}", text, extra)
        out.fallback_spans_added = sum(1 for s in extra if not any(s.overlaps(m) for m in found))
        out.spans.extend(extra)
        out.escalated = reason
        out.actions.append(f"escalated:{reason}:{self.fallback.name}")
        return out
