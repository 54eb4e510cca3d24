"""The one note type of the core: an id, its text and its patient.

Detection, propagation, the pipeline and the fleet's stages all pass
:class:`ClinicalNote`; what a stage adds (spans, a store's row id) travels
beside it, not in a second note class.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClinicalNote:
    id: str
    text: str
    patient_id: str | None = None


def patient_groups(patients: Sequence[Hashable | None]) -> list[list[int]]:
    """Indices grouped by patient (an id, or any key standing for one), in order of each patient's first note.

    A note without a patient is a group of its own: nothing propagates
    into or out of it, so it may travel with any other group.
    """
    groups: dict[object, list[int]] = {}
    for i, patient in enumerate(patients):
        groups.setdefault(("note", i) if patient is None else ("patient", patient), []).append(i)
    return list(groups.values())


def pack_groups(groups: Sequence[Sequence[int]], size: int) -> list[list[int]]:
    """Whole groups packed in order into chunks of about ``size`` items.

    A chunk never splits a group; a group larger than ``size`` is a chunk
    of its own.
    """
    if size < 1:
        raise ValueError("chunk size must be at least 1")
    chunks: list[list[int]] = []
    current: list[int] = []
    for group in groups:
        if current and len(current) + len(group) > size:
            chunks.append(current)
            current = []
        current.extend(group)
    if current:
        chunks.append(current)
    return chunks
