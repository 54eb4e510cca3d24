"""Label crosswalk applied to gold at scoring time (paper 000, Table S6).

Corpora annotated under other conventions carry other labels and other
boundaries: i2b2 2014 tags most ages as a bare number and every address
component on its own, whereas our convention (docs/annotation.md) includes
the age unit and takes a whole address as one span.  Scoring such gold
as-is would measure the boundary convention instead of detection, so the
crosswalk relabels, drops the labels that are not scored, extends AGE over
a following unit and merges adjacent address components.

An unknown label is an error, never silently dropped: a typo in a label map
would otherwise remove gold spans and inflate recall.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from deid_core.evaluation.documents import EvalDocument, EvalInputError, SourceDocument, SourceSpan
from deid_core.spans import Category, Span, SpanError


class CrosswalkError(EvalInputError):
    """A label the crosswalk has no rule for."""


@dataclass(frozen=True, slots=True)
class LabelRule:
    """What one source label becomes. ``category=None`` excludes it from scoring."""

    category: Category | None
    extend_age_unit: bool = False
    merge_adjacent: bool = False


def normalise_label(label: str) -> str:
    return label.strip().upper().replace("_", "-").replace(" ", "-")


# "72 years old", "72-year-old", "72yo", "72 y/o", "18 months": the unit that
# may follow a bare age number, with at most one space or hyphen before it.
_AGE_UNIT = re.compile(
    r"""
    (?:[ \t\u00a0]?-[ \t\u00a0]?|[ \t\u00a0])?
    (?:
        y/o | y\.[ ]?o\. | yo
      | (?:years?|yrs?|months?|mos?|weeks?|wks?|days?)(?:[ -]old)?
    )
    (?![A-Za-z0-9/])
    """,
    re.VERBOSE | re.IGNORECASE,
)


def age_unit_end(text: str, end: int) -> int:
    """The end offset after an age unit that directly follows ``end`` (or ``end``)."""
    m = _AGE_UNIT.match(text, end)
    return m.end() if m else end


def _rules(mapping: Mapping[str, LabelRule]) -> Mapping[str, LabelRule]:
    return MappingProxyType({normalise_label(k): v for k, v in mapping.items()})


_STRAIGHT = {c.value: LabelRule(c) for c in Category}


@dataclass(frozen=True)
class Crosswalk:
    """A configurable label map with per-label boundary rules.

    ``merge_separators`` are the only characters allowed between two
    address components that are merged into one span.
    """

    rules: Mapping[str, LabelRule] = field(default_factory=lambda: _rules(_STRAIGHT))
    merge_separators: str = " ,."

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", _rules(self.rules))

    # Construction -----------------------------------------------------
    @classmethod
    def identity(cls) -> "Crosswalk":
        """Our own categories straight through, no boundary rules."""
        return cls(_STRAIGHT)

    @classmethod
    def i2b2(cls) -> "Crosswalk":
        """Table S6 of paper 000, plus the i2b2 subtypes the table leaves out.

        The extra subtypes follow docs/annotation.md: SSN, account, licence
        and vehicle numbers are IDs, IP addresses are WEB, room numbers are
        LOCATION (not merged: they are not address components) and a
        department is a practice name, so HOSPITAL.  Our own categories pass
        straight through, so BRAT files in our labels score unchanged.
        """
        loc = LabelRule(Category.LOCATION, merge_adjacent=True)
        table: dict[str, LabelRule] = dict(_STRAIGHT)
        table.update(
            {
                "AGE": LabelRule(Category.AGE, extend_age_unit=True),
                **{
                    k: LabelRule(Category.ID)
                    for k in ("MEDICALRECORD", "IDNUM", "USERNAME", "DEVICE", "HEALTHPLAN", "BIOID")
                },
                **{k: loc for k in ("CITY", "STATE", "STREET", "ZIP", "COUNTRY", "LOCATION-OTHER")},
                "FAX": LabelRule(Category.PHONE),
                "EMAIL": LabelRule(Category.WEB),
                "URL": LabelRule(Category.WEB),
                "ORGANIZATION": LabelRule(None),
                "PROFESSION": LabelRule(None),
                # Not in Table S6; see the docstring.
                **{k: LabelRule(Category.ID) for k in ("SSN", "ACCOUNT", "LICENSE", "VEHICLE")},
                "IPADDR": LabelRule(Category.WEB),
                "ROOM": LabelRule(Category.LOCATION),
                "DEPARTMENT": LabelRule(Category.HOSPITAL),
            }
        )
        return cls(table)

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, "Category | str | None | LabelRule"], **kwargs) -> "Crosswalk":
        """Build from ``{label: category name | Category | None | LabelRule}``."""
        rules: dict[str, LabelRule] = {}
        for label, target in mapping.items():
            if not isinstance(label, str) or not label.strip():
                raise CrosswalkError(f"crosswalk labels must be non-empty strings, got {label!r}")
            if isinstance(target, LabelRule):
                rules[label] = target
            elif target is None:
                rules[label] = LabelRule(None)
            else:
                try:
                    rules[label] = LabelRule(Category.parse(target))
                except SpanError as exc:
                    raise CrosswalkError(f"crosswalk label {label!r}: {exc}") from None
        return cls(rules, **kwargs)

    def with_rules(self, extra: Mapping[str, "Category | str | None | LabelRule"]) -> "Crosswalk":
        merged = dict(self.rules)
        merged.update(Crosswalk.from_mapping(extra).rules)
        return Crosswalk(merged, self.merge_separators)

    # Application ------------------------------------------------------
    def rule_for(self, label: str, where: str = "") -> LabelRule:
        try:
            return self.rules[normalise_label(label)]
        except KeyError:
            known = ", ".join(sorted(self.rules))
            prefix = f"{where}: " if where else ""
            raise CrosswalkError(f"{prefix}no crosswalk rule for label {label!r} (known: {known})") from None

    def apply(self, doc: SourceDocument, *, boundaries: bool = True) -> EvalDocument:
        """Relabel ``doc``; with ``boundaries``, also extend ages and merge addresses.

        Boundary rules belong to gold annotated under another convention;
        applied to predictions they would repair the recognizer's output.
        """
        where = f"{doc.origin or '?'}: document {doc.id!r}"
        kept: list[tuple[SourceSpan, LabelRule]] = []
        for raw in doc.spans:
            rule = self.rule_for(raw.label, where)
            if rule.category is not None:
                kept.append((raw, rule))
        if boundaries and doc.text is None and kept:
            raise EvalInputError(f"{where}: boundary rules need the document text")
        text = doc.text or ""

        out: list[Span] = []
        mergeable: dict[Category, list[tuple[int, int, str]]] = {}
        for raw, rule in kept:
            category = rule.category
            assert category is not None
            end = age_unit_end(text, raw.end) if boundaries and rule.extend_age_unit else raw.end
            if boundaries and rule.merge_adjacent:
                mergeable.setdefault(category, []).append((raw.start, end, raw.label))
            else:
                out.append(Span(raw.start, end, category, raw.score, raw.source or raw.label))
        for category, parts in mergeable.items():
            out.extend(self._merge(text, category, parts))
        out.sort(key=lambda s: (s.start, s.end, s.category.value))
        return EvalDocument(doc.id, doc.text, tuple(out))

    def _merge(self, text: str, category: Category, parts: list[tuple[int, int, str]]) -> list[Span]:
        parts = sorted(parts)
        merged: list[Span] = []
        start, end, labels = parts[0][0], parts[0][1], [parts[0][2]]
        for s, e, label in parts[1:]:
            gap = text[end:s] if s > end else ""
            if all(ch in self.merge_separators for ch in gap):
                end = max(end, e)
                labels.append(label)
            else:
                merged.append(Span(start, end, category, 1.0, "+".join(labels)))
                start, end, labels = s, e, [label]
        merged.append(Span(start, end, category, 1.0, "+".join(labels)))
        return merged
