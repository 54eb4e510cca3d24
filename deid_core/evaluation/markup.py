"""Hand-written gold notes with inline markup, turned into our JSONL.

People write held-out notes more reliably with the labels inline than with
character offsets.  A note starts with a header line ``=== NOTE_ID
PATIENT_ID``; each identifier is written ``{X:text}`` where X is one letter:

    P PATIENT   R DOCTOR   D DATE   A AGE   I ID
    T PHONE     L LOCATION H HOSPITAL W WEB  O OTHER

Run ``python -m deid_core.evaluation.markup NOTES.md > NOTES.jsonl``.
"""

from __future__ import annotations

import json
import re
import sys

from deid_core.spans import Category

LETTERS = {
    "P": Category.PATIENT,
    "R": Category.DOCTOR,
    "D": Category.DATE,
    "A": Category.AGE,
    "I": Category.ID,
    "T": Category.PHONE,
    "L": Category.LOCATION,
    "H": Category.HOSPITAL,
    "W": Category.WEB,
    "O": Category.OTHER,
}
_HEADER = re.compile(r"^=== (\S+) (\S+)[ \t]*$", re.M)
_MARK = re.compile(r"\{([A-Z]):([^{}]+)\}")


class MarkupError(ValueError):
    pass


def parse_markup(source: str) -> list[dict]:
    """Records ``{id, patient_id, text, spans}`` in file order."""
    headers = list(_HEADER.finditer(source))
    if not headers:
        raise MarkupError("no '=== NOTE_ID PATIENT_ID' header found")
    records, seen = [], set()
    for i, header in enumerate(headers):
        note_id, patient_id = header.group(1), header.group(2)
        if note_id in seen:
            raise MarkupError(f"note {note_id!r} appears twice")
        seen.add(note_id)
        body = source[header.end() + 1 : headers[i + 1].start() if i + 1 < len(headers) else len(source)]
        text, spans, pos = [], [], 0
        length = 0
        for m in _MARK.finditer(body):
            if m.group(1) not in LETTERS:
                raise MarkupError(f"note {note_id!r}: unknown label letter {m.group(1)!r}")
            text.append(body[pos : m.start()])
            length += m.start() - pos
            value = m.group(2)
            if value != value.strip():
                raise MarkupError(f"note {note_id!r}: a marked value starts or ends with whitespace")
            spans.append({"start": length, "end": length + len(value), "label": LETTERS[m.group(1)].value})
            text.append(value)
            length += len(value)
            pos = m.end()
        text.append(body[pos:])
        joined = "".join(text)
        if "{" in joined or "}" in joined:
            raise MarkupError(f"note {note_id!r}: unbalanced or malformed braces")
        records.append({"id": note_id, "patient_id": patient_id, "text": joined, "spans": spans})
    return records


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m deid_core.evaluation.markup NOTES.md > NOTES.jsonl", file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as fh:
        for record in parse_markup(fh.read()):
            print(json.dumps(record, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
