"""The prompt: instructions, k worked examples, the note (paper 001's three blocks).

The blocks are plain text with fixed headers, so the same prompt works on a
completions endpoint, a chat endpoint and a model trained on this template
(``deid train generative``), where the answer starts right after
``### Answer``.  Worked examples are synthetic notes from
:mod:`deid_core.synth` with their gold spans written in the schema: no real
text is ever placed in a prompt as an example.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deid_core.recognizers.generative.chunking import plan_chunks
from deid_core.recognizers.generative.schema import entities_from_gold, render

_TYPES = (
    "name (role patient or clinician; relatives count as patient), age, date (with its ISO form as normalized), "
    "place (kind facility or location), address, phone, email, id (with its subtype), url, device"
)

INSTRUCTIONS = {
    "xml": (
        "List every identifier in the note. Types: " + _TYPES + ". "
        "Copy each one exactly as written. Write one element per identifier inside <phi>...</phi>; "
        "give a name's other spellings as <variant> elements. Write <phi></phi> if there are none."
    ),
    "json": (
        "List every identifier in the note. Types: " + _TYPES + ". "
        'Copy each one exactly as written. Answer with one JSON object {"phi": [...]} whose items have '
        '"type" and "text" (and "role", "kind", "subtype", "variants", "normalized" where they apply). '
        'Answer {"phi": []} if there are none.'
    ),
}


#: A one-line instruction for small models trained on this template
#: (``deid train generative``), whose context is better spent on the note.
BRIEF_INSTRUCTIONS = {
    "xml": "List the identifiers as <phi> XML.",
    "json": 'List the identifiers as {"phi": [...]} JSON.',
}
INSTRUCTION_STYLES = ("standard", "brief")


@dataclass(frozen=True)
class Example:
    """A worked example: a synthetic note and the answer in the chosen format."""

    text: str
    answer: str


def build_prompt(note: str, examples: Sequence[Example], fmt: str, style: str = "standard") -> str:
    if fmt not in INSTRUCTIONS:
        raise ValueError(f"unknown annotation format {fmt!r} (known: {', '.join(INSTRUCTIONS)})")
    if style not in INSTRUCTION_STYLES:
        raise ValueError(f"unknown instruction style {style!r} (known: {', '.join(INSTRUCTION_STYLES)})")
    parts = ["### Instructions", (INSTRUCTIONS if style == "standard" else BRIEF_INSTRUCTIONS)[fmt]]
    for ex in examples:
        parts += ["### Example note", ex.text, "### Example answer", ex.answer]
    parts += ["### Note", note, "### Answer", ""]
    return "\n".join(parts)


def few_shot_examples(k: int, fmt: str, *, seed: int = 7, max_chars: int = 600) -> list[Example]:
    """``k`` synthetic examples from different registers, each at most ``max_chars`` long.

    A long synthetic note contributes its first chunk, with the gold spans
    that lie wholly inside it.
    """
    if k < 0:
        raise ValueError(f"few_shot must be >= 0, got {k}")
    if k == 0:
        return []
    from deid_core.synth import generate_notes

    examples: list[Example] = []
    used: set[str] = set()
    for note in generate_notes(max(12, 4 * k), seed):
        if note.register in used:
            continue
        chunk = plan_chunks(note.text, max_chars, 0)[0]
        text = chunk.text_of(note.text)
        spans = [s for s in note.spans if s.end <= chunk.end]
        if not spans:
            continue
        used.add(note.register)
        examples.append(Example(text, render(entities_from_gold(text, spans), fmt)))
        if len(examples) == k:
            return examples
    raise ValueError(f"cannot draw {k} few-shot examples from distinct registers")
