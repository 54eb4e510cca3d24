"""Lenient reading of what the strict reader rejects: every salvage is named.

A truncated or malformed annotation still lists identifiers, and an
identifier the model wrote down is one we can ground and mask; throwing the
whole output away would leave them in the text.  Each repair appends a
short code (``unclosed_element``, ``truncated_final_element``...) to the
annotation, and the QC layer records them on the note's report.
"""

from __future__ import annotations

import json
import re

from deid_core.recognizers.generative.parse import clean_text, entity_from_item, make_entity, tokens, AnnotationParseError
from deid_core.recognizers.generative.schema import ENTITY_TYPES, ROOT, Entity, ParsedAnnotation

_CUT_TAG = re.compile(r"<[^<>]*$")


def repair_xml(raw: str) -> ParsedAnnotation:
    """Salvage the elements of a malformed or cut-off XML annotation."""
    result = ParsedAnnotation(strict=False)
    repairs = result.repairs
    body = raw
    cut = _CUT_TAG.search(body)
    if cut is not None:
        body = body[: cut.start()]
        repairs.append("cut_tag_dropped")
    entities: list[Entity] = []
    seen_root = False
    closed_root = False
    current: tuple[str, dict[str, str]] | None = None
    text = ""
    variants: list[str] = []
    in_variant = False
    variant_text = ""

    def finish(truncated: bool) -> None:
        nonlocal current
        assert current is not None
        if in_variant and clean_text(variant_text):
            variants.append(clean_text(variant_text))
        value = clean_text(text)
        if value:
            entities.append(make_entity(current[0], current[1], value, variants, truncated))
        else:
            repairs.append("empty_element_dropped")
        current = None

    for tok in tokens(body):
        if closed_root:
            if tok.kind != "text" or tok.text.strip():
                repairs.append("text_after_root_dropped")
                break
            continue
        if tok.kind == "text":
            if in_variant:
                variant_text += tok.text
            elif current is not None and not variants:
                text += tok.text
            elif tok.text.strip():
                repairs.append("stray_text_dropped")
            continue
        if tok.name == ROOT:
            if tok.kind == "open" and not seen_root:
                seen_root = True
            elif tok.kind == "close":
                if current is not None:
                    repairs.append("unclosed_element")
                    finish(False)
                closed_root = True
            elif tok.kind == "empty":
                closed_root = seen_root = True
            else:
                repairs.append("nested_root_dropped")
            continue
        if tok.name == "variant" and current is not None and current[0] == "name":
            if tok.kind == "open":
                if in_variant:
                    repairs.append("unclosed_element")
                    if clean_text(variant_text):
                        variants.append(clean_text(variant_text))
                in_variant, variant_text = True, ""
            elif tok.kind == "close" and in_variant:
                in_variant = False
                if clean_text(variant_text):
                    variants.append(clean_text(variant_text))
            continue
        if tok.name in ENTITY_TYPES and tok.kind == "open":
            if not seen_root:
                repairs.append("missing_root")
                seen_root = True
            if current is not None:
                repairs.append("unclosed_element")
                finish(False)
                in_variant = False
            current, text, variants = (tok.name, tok.attrs), "", []
            continue
        if current is not None and tok.kind == "close" and tok.name == current[0]:
            if in_variant:
                repairs.append("unclosed_element")
            finish(False)
            in_variant = False
            continue
        if tok.kind == "close" and tok.name in ENTITY_TYPES:
            repairs.append("mismatched_close_dropped")
            if current is not None:
                finish(False)
                in_variant = False
            continue
        repairs.append(f"unknown_element_dropped:{tok.name}"[:60])
    if current is not None:
        repairs.append("truncated_final_element")
        finish(True)
    if seen_root and not closed_root:
        repairs.append("missing_root_close")
    result.entities = entities
    result.usable = bool(entities) or (seen_root and closed_root)
    return result


def repair_json(raw: str) -> ParsedAnnotation:
    """Keep the complete items of a cut-off JSON array; drop items that do not fit the schema."""
    result = ParsedAnnotation(strict=False)
    start = raw.find("{")
    if start < 0:
        result.usable = False
        result.repairs.append("no_json_object")
        return result
    if start > 0 and raw[:start].strip():
        result.repairs.append("stray_text_dropped")
    body = raw[start:]
    doc = None
    decoder = json.JSONDecoder()
    try:
        doc, end = decoder.raw_decode(body)
        if body[end:].strip():
            result.repairs.append("text_after_root_dropped")
    except json.JSONDecodeError:
        # Cut after the last complete item and close the array and object.
        for m in reversed(list(re.finditer(r"\}", body))):
            try:
                doc = json.loads(body[: m.end()] + "]}")
                result.repairs.append("truncated_items_dropped")
                break
            except json.JSONDecodeError:
                continue
        if doc is None:
            try:
                doc = json.loads(body.rstrip().rstrip(",") + "]}")
                result.repairs.append("missing_close")
            except json.JSONDecodeError:
                result.usable = False
                result.repairs.append("unreadable_json")
                return result
    items = doc.get(ROOT) if isinstance(doc, dict) else None
    if not isinstance(items, list):
        result.usable = False
        result.repairs.append("no_phi_array")
        return result
    for item in items:
        try:
            result.entities.append(entity_from_item(item))
        except AnnotationParseError:
            result.repairs.append("invalid_item_dropped")
    return result


def repair(raw: str, fmt: str) -> ParsedAnnotation:
    if fmt == "xml":
        return repair_xml(raw)
    if fmt == "json":
        return repair_json(raw)
    raise ValueError(f"unknown annotation format {fmt!r}")
