"""Strict reading of a model's annotation: well-formed or an error that says why.

The XML reader is a small hand tokenizer, not an XML library: the schema is
flat (one level of elements, variants inside names), and a hand reader
cannot be made to fetch entities or DTDs, so model output is never more
than text to it.  :mod:`repair` shares the tokenizer and reads what the
strict reader rejects.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from deid_core.recognizers.generative.schema import ATTRIBUTE_OF, ENTITY_TYPES, ROOT, Entity, ParsedAnnotation


class AnnotationParseError(ValueError):
    """The output is not a well-formed annotation in the schema."""


_TAG = re.compile(r"<(/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'))*)\s*(/?)>")
_ATTR = re.compile(r"([\w:.-]+)\s*=\s*(?:\"([^\"<>]*)\"|'([^'<>]*)')")


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "open", "close", "empty", "text"
    name: str
    attrs: dict[str, str]
    text: str
    start: int


def tokens(raw: str) -> Iterator[Token]:
    """Tags and the text between them; a ``<`` that starts no complete tag is text."""
    pos = 0
    for m in _TAG.finditer(raw):
        if m.start() > pos:
            yield Token("text", "", {}, raw[pos : m.start()], pos)
        closing, name, attr_src, selfclose = m.groups()
        attrs = {a: html.unescape(v if v is not None else w) for a, v, w in _ATTR.findall(attr_src)}
        kind = "close" if closing else "empty" if selfclose else "open"
        yield Token(kind, name.lower(), attrs, m.group(0), m.start())
        pos = m.end()
    if pos < len(raw):
        yield Token("text", "", {}, raw[pos:], pos)


def clean_text(text: str) -> str:
    return " ".join(html.unescape(text).split())


def make_entity(type_: str, attrs: dict[str, str], text: str, variants: list[str], truncated: bool = False) -> Entity:
    attr_name = ATTRIBUTE_OF.get(type_)
    attribute = attrs.get(attr_name, "").strip().lower() or None if attr_name else None
    normalized = attrs.get("normalized", "").strip() or None if type_ == "date" else None
    return Entity(type_, text, attribute, tuple(variants), normalized, truncated)


def parse_xml(raw: str) -> ParsedAnnotation:
    """The entities of a well-formed ``<phi>`` document; anything else raises."""
    body = raw.strip()
    if not body:
        raise AnnotationParseError("empty output")
    toks = list(tokens(body))
    if not toks or toks[0].kind not in ("open", "empty") or toks[0].name != ROOT:
        raise AnnotationParseError(f"output does not start with <{ROOT}>")
    if toks[0].kind == "empty":
        if len(toks) > 1:
            raise AnnotationParseError(f"content after <{ROOT}/>")
        return ParsedAnnotation([])
    if toks[-1].kind != "close" or toks[-1].name != ROOT:
        raise AnnotationParseError(f"output does not end with </{ROOT}>")
    entities: list[Entity] = []
    current: tuple[str, dict[str, str]] | None = None
    text = ""
    variants: list[str] = []
    in_variant = False
    variant_text = ""
    for tok in toks[1:-1]:
        if tok.kind == "text":
            if in_variant:
                variant_text += tok.text
            elif current is not None and not variants:
                text += tok.text
            elif tok.text.strip():
                raise AnnotationParseError(f"stray text {tok.text.strip()[:30]!r} at {tok.start}")
        elif tok.kind == "open" and current is None:
            if tok.name not in ENTITY_TYPES:
                raise AnnotationParseError(f"unknown element <{tok.name}>")
            current, text, variants = (tok.name, tok.attrs), "", []
        elif tok.kind == "open" and tok.name == "variant" and current is not None and current[0] == "name" and not in_variant:
            in_variant, variant_text = True, ""
        elif tok.kind == "close" and in_variant and tok.name == "variant":
            in_variant = False
            if clean_text(variant_text):
                variants.append(clean_text(variant_text))
        elif tok.kind == "close" and current is not None and not in_variant and tok.name == current[0]:
            value = clean_text(text)
            if not value:
                raise AnnotationParseError(f"empty <{current[0]}> at {tok.start}")
            entities.append(make_entity(current[0], current[1], value, variants))
            current = None
        else:
            raise AnnotationParseError(f"unexpected {tok.text!r} at {tok.start}")
    if current is not None:
        raise AnnotationParseError(f"<{current[0]}> is never closed")
    return ParsedAnnotation(entities)


def entity_from_item(item: object) -> Entity:
    """One JSON array item as an entity; raises on a missing or mistyped field."""
    if not isinstance(item, dict):
        raise AnnotationParseError("an item is not an object")
    type_ = item.get("type")
    text = item.get("text")
    if not isinstance(type_, str) or type_.lower() not in ENTITY_TYPES:
        raise AnnotationParseError(f"unknown type {type_!r}")
    if not isinstance(text, str) or not clean_text(text):
        raise AnnotationParseError(f"item of type {type_!r} has no text")
    raw_variants = item.get("variants", [])
    if not isinstance(raw_variants, list) or not all(isinstance(v, str) for v in raw_variants):
        raise AnnotationParseError("variants must be a list of strings")
    attrs = {k: v for k, v in item.items() if isinstance(v, str)}
    variants = [clean_text(v) for v in raw_variants if clean_text(v)]
    return make_entity(type_.lower(), attrs, clean_text(text), variants)


def parse_json(raw: str) -> ParsedAnnotation:
    body = raw.strip()
    if not body:
        raise AnnotationParseError("empty output")
    try:
        doc = json.loads(body)
    except json.JSONDecodeError as exc:
        raise AnnotationParseError(f"not JSON: {exc.msg} at {exc.pos}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get(ROOT), list):
        raise AnnotationParseError(f'JSON output needs an object with a "{ROOT}" array')
    return ParsedAnnotation([entity_from_item(item) for item in doc[ROOT]])


def parse_strict(raw: str, fmt: str) -> ParsedAnnotation:
    if fmt == "xml":
        return parse_xml(raw)
    if fmt == "json":
        return parse_json(raw)
    raise ValueError(f"unknown annotation format {fmt!r}")
