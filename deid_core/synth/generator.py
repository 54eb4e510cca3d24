"""Seeded generation of synthetic notes with exact gold spans.

Everything random flows from one ``random.Random(seed)``: no global state, so
the same seed gives byte-identical output, and a shorter run is a prefix of a
longer one with the same seed.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from deid_core.spans import Span, span_to_dict, validate_spans

from .builder import NoteBuilder, TrapSpan
from .names import build_name_pools
from .profiles import ADULT, CHILD, ELDER, Cast, Patient, draw_patient, first_visit_date, visit_dates
from .registers import COMPATIBLE, WRITERS, NoteContext

#: Register names, in a fixed order.
#: Registers a corpus holds unless ``registers`` says otherwise.
REGISTERS: tuple[str, ...] = tuple(w for w in WRITERS if w != "icu_nursing")
#: Registers written only when named: adding one to the default would change every seed's corpus.
OPT_IN_REGISTERS: tuple[str, ...] = ("icu_nursing",)
ALL_REGISTERS: tuple[str, ...] = tuple(WRITERS)

#: Optional-detail multipliers: from sparse (a nursing note with no name) to dense.
_DENSITIES = (0.15, 0.4, 0.7, 1.0, 1.4)
_NOTES_PER_PATIENT = (1, 1, 2, 2, 3, 4)


@dataclass(frozen=True)
class SyntheticNote:
    id: str
    patient_id: str
    register: str
    text: str
    spans: tuple[Span, ...]
    #: Where the unlabelled look-alikes sit (times, vitals, eponyms, ...).
    traps: tuple[TrapSpan, ...] = ()

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "patient_id": self.patient_id,
            "register": self.register,
            "text": self.text,
            "spans": [span_to_dict(s, full=False) for s in self.spans],
        }


def _selected(registers: Sequence[str] | None) -> list[str]:
    if registers is None:
        return list(REGISTERS)
    if isinstance(registers, str):
        raise TypeError("registers must be a sequence of register names, not one string")
    chosen: list[str] = []
    for name in registers:
        if name not in WRITERS:
            raise ValueError(f"unknown register {name!r} (known: {', '.join(ALL_REGISTERS)})")
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise ValueError("registers must name at least one register")
    return chosen


def _group_for(first_register: str, rng: random.Random) -> str:
    if first_register == "pediatrics_note":
        return CHILD
    if first_register == "geriatrics_note":
        return ELDER
    roll = rng.random()
    if first_register in COMPATIBLE[CHILD] and roll < 0.1:
        return CHILD
    return ELDER if roll > 0.9 else ADULT


def generate_notes(n: int, seed: int, *, registers: Sequence[str] | None = None, recase: float = 0.0) -> list[SyntheticNote]:
    """``n`` notes; patients get 1-4 notes each, the first register cycling so all appear.

    ``recase``: the share of notes of any register written wholly in upper
    or lower case (half each), as real notes often are.  The ICU nursing
    register is mostly upper or lower case whatever ``recase`` says.
    """
    return generate_notes_and_patients(n, seed, registers=registers, recase=recase)[0]


def _note_case(register: str, recase: float, rng: random.Random) -> Callable[[str], str] | None:
    """The whole-note case transform, drawn only where one can apply, so other corpora stay as they were."""
    if register == "icu_nursing":
        return rng.choice((str.upper, str.upper, str.upper, str.lower, str.lower, None))
    if recase > 0 and rng.random() < recase:
        return rng.choice((str.upper, str.lower))
    return None


def generate_notes_and_patients(
    n: int, seed: int, *, registers: Sequence[str] | None = None, recase: float = 0.0
) -> tuple[list[SyntheticNote], list[Patient]]:
    """:func:`generate_notes` and the profiles of the patients they are about (for their records)."""
    if not 0.0 <= recase <= 1.0:
        raise ValueError(f"recase must be in [0, 1], got {recase!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    selected = _selected(registers)
    rng = random.Random(seed)
    pools = build_name_pools(seed)
    cast = Cast(pools)
    order = list(selected)
    rng.shuffle(order)
    notes: list[SyntheticNote] = []
    patients: list[Patient] = []
    patient_index = 0
    while len(notes) < n:
        first = order[patient_index % len(order)]
        group = _group_for(first, rng)
        compatible = [r for r in selected if r in COMPATIBLE[group]]
        count = rng.choice(_NOTES_PER_PATIENT)
        start = first_visit_date(rng)
        patient = draw_patient(f"s{seed}-p{patient_index:05d}", group, start, pools, cast, rng)
        # Drawn for the full count even when n cuts the patient short, so a
        # shorter run stays a prefix of a longer one.
        dates = visit_dates(start, count, rng)
        kinds = [first] + [rng.choice(compatible) for _ in range(count - 1)]
        patients.append(patient)
        for register, when in zip(kinds, dates):
            if len(notes) == n:
                break
            ctx = NoteContext(rng, patient, when, cast, rng.choice(_DENSITIES))
            builder = NoteBuilder(case=_note_case(register, recase, rng))
            WRITERS[register](ctx, builder)
            text, spans, traps = builder.build()
            note_id = f"s{seed}-n{len(notes):06d}"
            notes.append(SyntheticNote(note_id, patient.patient_id, register, text, validate_spans(note_id, text, spans), traps))
        patient_index += 1
    return notes, patients


def write_jsonl(notes: Iterable[SyntheticNote], path: str | Path) -> int:
    """One JSON object per line (UTF-8, ``\\n`` endings); returns the count written."""
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for note in notes:
            fh.write(json.dumps(note.to_json(), ensure_ascii=False))
            fh.write("\n")
            count += 1
    return count
