"""Synthetic notes to token-classification windows.

Tokens take BIO labels from the gold spans they overlap: ``B-`` on the first
token of a span, ``I-`` on the rest, sub-word pieces included, so that the
recognizer's decoding (B- splits only at word gaps) reads them back whole.
The train/held-out split is by patient: a held-out note never shares a
patient, and so a name, with a training note.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from deid_core.records import RecordError, read_jsonl
from deid_core.recognizers.encoder import plan_windows, special_template
from deid_core.spans import SCORED_CATEGORIES, Span, SpanError, span_from_dict

#: The default encoder's label set: O plus B-/I- for the nine scored categories.
BIO_LABELS: tuple[str, ...] = ("O",) + tuple(f"{p}-{c.value}" for c in SCORED_CATEGORIES for p in ("B", "I"))
IGNORE_INDEX = -100


@dataclass(frozen=True, slots=True)
class TrainWindow:
    input_ids: tuple[int, ...]
    labels: tuple[int, ...]


def token_labels(offsets: Sequence[tuple[int, int]], spans: Sequence[Span], label_ids: dict[str, int]) -> list[int]:
    """One BIO label id per token; a token takes the first gold span it overlaps."""
    ordered = sorted(spans, key=lambda s: (s.start, s.end))
    out: list[int] = []
    seen: set[int] = set()
    k = 0
    for start, end in offsets:
        while k < len(ordered) and ordered[k].end <= start:
            k += 1
        label = "O"
        if end > start:
            for i in range(k, len(ordered)):
                s = ordered[i]
                if s.start >= end:
                    break
                if s.start < end and start < s.end:
                    label = ("I-" if i in seen else "B-") + s.category.value
                    seen.add(i)
                    break
        out.append(label_ids[label])
    return out


def note_windows(
    text: str,
    spans: Sequence[Span],
    tokenizer: Any,
    max_length: int,
    overlap: int,
    label_ids: dict[str, int],
) -> list[TrainWindow]:
    """Windows of one note, cut exactly as the recognizer cuts them at inference."""
    prefix, suffix = special_template(tokenizer)
    enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
    ids = list(enc["input_ids"])
    labels = token_labels([(int(a), int(b)) for a, b in enc["offset_mapping"]], spans, label_ids)
    budget = max_length - len(prefix) - len(suffix)
    out = []
    for w in plan_windows(len(ids), budget, overlap):
        out.append(
            TrainWindow(
                tuple(prefix + ids[w.start : w.end] + suffix),
                tuple([IGNORE_INDEX] * len(prefix) + labels[w.start : w.end] + [IGNORE_INDEX] * len(suffix)),
            )
        )
    return out


def split_by_patient(notes: Sequence[Any], heldout_fraction: float, seed: int) -> tuple[list[Any], list[Any]]:
    """(train, held-out) with no patient on both sides; the order of notes is kept."""
    if not 0.0 < heldout_fraction < 1.0:
        raise ValueError(f"heldout_fraction must be in (0, 1), got {heldout_fraction}")
    patients = sorted({n.patient_id for n in notes})
    if len(patients) < 2:
        raise ValueError("need notes from at least two patients to hold some out")
    random.Random(seed).shuffle(patients)
    n_held = min(len(patients) - 1, max(1, round(len(patients) * heldout_fraction)))
    held = set(patients[:n_held])
    train = [n for n in notes if n.patient_id not in held]
    heldout = [n for n in notes if n.patient_id in held]
    return train, heldout


@dataclass(frozen=True, slots=True)
class GoldNote:
    """A hand-written note with its gold spans, used beside the generated ones."""

    id: str
    patient_id: str | None
    text: str
    spans: tuple[Span, ...]


def read_gold_notes(path: Any) -> list[GoldNote]:
    """Gold JSONL (``{id, patient_id?, text, spans}``); any bad record stops training, naming it."""
    notes: list[GoldNote] = []
    for rec in read_jsonl(path):
        if isinstance(rec, RecordError):
            raise ValueError(f"{path}: {rec}")
        raw = rec.data.get("spans")
        if not isinstance(raw, list):
            raise ValueError(f"{path}: note {rec.id!r} has no spans list")
        try:
            spans = tuple(span_from_dict(rec.id, i, s) for i, s in enumerate(raw))
        except SpanError as exc:
            raise ValueError(f"{path}: {exc}") from None
        if any(s.end > len(rec.data["text"]) for s in spans):
            raise ValueError(f"{path}: note {rec.id!r} has a span past the end of its text")
        # OTHER is unscored and has no label in the encoder's set.
        spans = tuple(s for s in spans if s.category in SCORED_CATEGORIES)
        notes.append(GoldNote(rec.id, rec.data.get("patient_id"), rec.data["text"], spans))
    return notes
