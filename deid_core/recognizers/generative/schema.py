"""The typed annotation a generative model writes, and its map to our categories.

Paper 001's ten types cover the direct identifiers of HIPAA Safe Harbor::

    <phi>
    <name role="patient">Sawhney, Olga<variant>Olga</variant></name>
    <age>6 d</age>
    <date normalized="2021-12-10">12-10-2021</date>
    <place kind="facility">Mercy Pediatrics</place>
    <address>14 Elm St, Dover, NH 03820</address>
    <phone>(951)555-5000</phone>
    <email>kc@example.org</email>
    <id subtype="mrn">80636083</id>
    <url>https://example.org/x</url>
    <device>pump SN 99812</device>
    </phi>

The same entities as JSON: ``{"phi": [{"type": "name", "role": "patient",
"text": "...", "variants": [...]}, ...]}``.

A name's ``role`` and a place's ``kind`` decide PATIENT vs DOCTOR and
HOSPITAL vs LOCATION: the label map is looked up as ``type:attribute`` first,
then as the bare type, so a site can re-map either level.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from deid_core.recognizers.base import LabelMap
from deid_core.spans import Category, Span

#: The schema's element types, in the order the prompt lists them.
ENTITY_TYPES: tuple[str, ...] = ("name", "age", "date", "place", "address", "phone", "email", "id", "url", "device")

#: The one attribute each type may carry (besides a date's ``normalized``).
ATTRIBUTE_OF: Mapping[str, str] = {"name": "role", "place": "kind", "id": "subtype"}

NAME_ROLES: tuple[str, ...] = ("patient", "clinician")
PLACE_KINDS: tuple[str, ...] = ("facility", "location")
ID_TYPES: tuple[str, ...] = ("mrn", "account", "ssn", "license", "insurance", "case", "other")

ROOT = "phi"


@dataclass(frozen=True)
class Entity:
    """One identifier as the model wrote it: surface text plus typed attributes."""

    type: str
    text: str
    attribute: str | None = None
    variants: tuple[str, ...] = ()
    normalized: str | None = None
    #: The output stopped inside this element, so its last string may be cut short.
    truncated: bool = False

    def strings(self) -> tuple[str, ...]:
        """Every surface form to ground in the note: the text, then its variants."""
        return (self.text, *self.variants)

    def label(self) -> str:
        return f"{self.type}:{self.attribute}" if self.attribute else self.type


def default_label_map() -> LabelMap:
    """Schema labels to categories; ``type:attribute`` keys win over bare types."""
    return LabelMap(
        {
            "name": Category.PATIENT,
            "name:patient": Category.PATIENT,
            "name:relative": Category.PATIENT,
            "name:clinician": Category.DOCTOR,
            "name:doctor": Category.DOCTOR,
            "name:staff": Category.DOCTOR,
            "age": Category.AGE,
            "date": Category.DATE,
            "place": Category.LOCATION,
            "place:facility": Category.HOSPITAL,
            "place:hospital": Category.HOSPITAL,
            "place:location": Category.LOCATION,
            "address": Category.LOCATION,
            "phone": Category.PHONE,
            "email": Category.WEB,
            "url": Category.WEB,
            "id": Category.ID,
            "device": Category.ID,
        },
        strip_bio=False,
    )


def category_of(entity: Entity, label_map: LabelMap) -> Category:
    """``type:attribute`` when the map knows it, else the bare type (an unknown type raises)."""
    if entity.attribute:
        specific = entity.label()
        if specific in label_map:
            return label_map.map(specific)
    return label_map.map(entity.type)


# ---------------------------------------------------------------------------
# Writing the schema (few-shot answers, training targets)
# ---------------------------------------------------------------------------


def to_xml(entities: Iterable[Entity]) -> str:
    lines = [f"<{ROOT}>"]
    for e in entities:
        attrs = ""
        if e.attribute and e.type in ATTRIBUTE_OF:
            attrs += f" {ATTRIBUTE_OF[e.type]}={quoteattr(e.attribute)}"
        if e.normalized and e.type == "date":
            attrs += f" normalized={quoteattr(e.normalized)}"
        body = escape(e.text) + "".join(f"<variant>{escape(v)}</variant>" for v in e.variants)
        lines.append(f"<{e.type}{attrs}>{body}</{e.type}>")
    lines.append(f"</{ROOT}>")
    return "\n".join(lines)


def to_json(entities: Iterable[Entity]) -> str:
    items = []
    for e in entities:
        item: dict[str, object] = {"type": e.type, "text": e.text}
        if e.attribute and e.type in ATTRIBUTE_OF:
            item[ATTRIBUTE_OF[e.type]] = e.attribute
        if e.variants:
            item["variants"] = list(e.variants)
        if e.normalized and e.type == "date":
            item["normalized"] = e.normalized
        items.append(item)
    return json.dumps({ROOT: items}, ensure_ascii=False)


def render(entities: Sequence[Entity], fmt: str) -> str:
    if fmt == "xml":
        return to_xml(entities)
    if fmt == "json":
        return to_json(entities)
    raise ValueError(f"unknown annotation format {fmt!r} (known: xml, json)")


# ---------------------------------------------------------------------------
# Constraints for guided decoding on a server
# ---------------------------------------------------------------------------


def json_schema() -> dict:
    """A JSON Schema of the JSON form, for a server's structured output."""
    return {
        "type": "object",
        "properties": {
            ROOT: {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string", "enum": list(ENTITY_TYPES)},
                        "text": {"type": "string", "minLength": 1, "maxLength": 200},
                        "role": {"type": "string", "enum": list(NAME_ROLES)},
                        "kind": {"type": "string", "enum": list(PLACE_KINDS)},
                        "subtype": {"type": "string", "maxLength": 20},
                        "variants": {"type": "array", "items": {"type": "string", "maxLength": 200}},
                        "normalized": {"type": "string", "maxLength": 40},
                    },
                    "required": ["type", "text"],
                    "additionalProperties": True,
                },
            }
        },
        "required": [ROOT],
        "additionalProperties": False,
    }


def xml_regex() -> str:
    """A regular expression of the XML form, for a server's regex-guided decoding."""
    value = r"[^<>\n]{1,200}"
    role = "|".join(NAME_ROLES)
    kind = "|".join(PLACE_KINDS)
    elements = [
        rf'<name role="({role})">{value}(<variant>{value}</variant>){{0,8}}</name>',
        rf'<date( normalized="[0-9-]{{4,10}}")?>{value}</date>',
        rf'<place kind="({kind})">{value}</place>',
        rf'<id subtype="[a-z_]{{1,20}}">{value}</id>',
    ] + [rf"<{t}>{value}</{t}>" for t in ("age", "address", "phone", "email", "url", "device")]
    return rf"<{ROOT}>(\n({'|'.join(elements)})){{0,200}}\n</{ROOT}>"


# ---------------------------------------------------------------------------
# Gold spans to the schema (few-shot examples and training targets)
# ---------------------------------------------------------------------------

_ID_CUES = (
    ("mrn", re.compile(r"\b(mrn|mr#|medical record|record)\b", re.I)),
    ("ssn", re.compile(r"\b(ssn|social)\b", re.I)),
    ("account", re.compile(r"\b(acct|account|fin|encounter|csn)\b", re.I)),
    ("insurance", re.compile(r"\b(insurance|member|policy|plan|medicaid|medicare)\b", re.I)),
    ("license", re.compile(r"\b(license|npi|dea)\b", re.I)),
    ("case", re.compile(r"\b(case|accession|specimen)\b", re.I)),
)


def _id_type(text: str, start: int) -> str:
    before = text[max(0, start - 24) : start]
    for name, cue in _ID_CUES:
        if cue.search(before):
            return name
    return "other"


def normalize_date(surface: str) -> str | None:
    """ISO form of a written date at its own precision (``2021``, ``2021-12``, ``2021-12-10``), if it parses."""
    from deid_core.dates import DateParseError, DateShifter

    try:
        parsed = DateShifter(reference=_dt.date(2000, 1, 1)).parse(surface)
    except (DateParseError, ValueError):
        return None
    d = parsed.date
    if parsed.granularity == "year":
        return f"{d.year:04d}" if parsed.has_year else None
    if parsed.granularity == "month":
        return f"{d.year:04d}-{d.month:02d}" if parsed.has_year else f"--{d.month:02d}"
    return d.isoformat() if parsed.has_year else f"--{d.month:02d}-{d.day:02d}"


def _name_tokens(surface: str) -> set[str]:
    return {t for t in re.findall(r"[^\W\d_]{2,}", surface.lower())}


def entities_from_gold(text: str, spans: Sequence[Span]) -> list[Entity]:
    """The annotation a perfect model would write for ``text`` with these gold spans.

    Each distinct surface form appears once (grounding finds every occurrence);
    names of one role that share a word become one entity with variants.
    OTHER spans are left out: the schema has no type for them.
    """
    out: list[Entity] = []
    seen: set[tuple[str, str]] = set()
    names: dict[str, list[list[str]]] = {"patient": [], "clinician": []}
    order: list[tuple[str, int]] = []
    for s in sorted(spans, key=lambda x: (x.start, x.end)):
        surface = " ".join(text[s.start : s.end].split())
        key = (s.category.value, surface.lower())
        if s.category is Category.OTHER or key in seen:
            continue
        seen.add(key)
        cat = s.category
        if cat in (Category.PATIENT, Category.DOCTOR):
            role = "patient" if cat is Category.PATIENT else "clinician"
            tokens = _name_tokens(surface)
            for group in names[role]:
                if tokens & set().union(*(_name_tokens(g) for g in group)):
                    group.append(surface)
                    break
            else:
                names[role].append([surface])
                order.append((role, len(names[role]) - 1))
                out.append(Entity("name", surface, role))  # placeholder, filled below
            continue
        if cat is Category.DATE:
            out.append(Entity("date", surface, normalized=normalize_date(surface)))
        elif cat is Category.AGE:
            out.append(Entity("age", surface))
        elif cat is Category.HOSPITAL:
            out.append(Entity("place", surface, "facility"))
        elif cat is Category.LOCATION:
            out.append(Entity("address", surface) if any(ch.isdigit() for ch in surface) else Entity("place", surface, "location"))
        elif cat is Category.PHONE:
            out.append(Entity("phone", surface))
        elif cat is Category.WEB:
            out.append(Entity("email" if "@" in surface and "/" not in surface else "url", surface))
        elif cat is Category.ID:
            out.append(Entity("id", surface, _id_type(text, s.start)))
    # Replace each name placeholder by its group, in first-mention order.
    groups = iter(order)
    filled: list[Entity] = []
    for e in out:
        if e.type == "name":
            role, index = next(groups)
            first, *rest = names[role][index]
            filled.append(Entity("name", first, role, tuple(rest)))
        else:
            filled.append(e)
    return filled


@dataclass
class ParsedAnnotation:
    """Entities read from one model output, and how the reading went."""

    entities: list[Entity] = field(default_factory=list)
    strict: bool = True  # parsed without any repair
    repairs: list[str] = field(default_factory=list)
    usable: bool = True  # False: nothing could be read from a non-empty output
