"""Messages carry whole patients: the one rule for cutting item ids into messages.

The resolve stage propagates a name found in one note to the patient's
other notes; it can only do so for notes handed to it together.  Every
sender (the producer, a resume, the sweeper, a redelivery split) therefore
cuts a stage's items with :func:`item_chunks`, which never splits an
item's ``patient_group``.
"""

from __future__ import annotations

from collections.abc import Sequence

from deid_core.detection import token_batches
from deid_core.notes import pack_groups, patient_groups


def item_chunks(ids: Sequence[int], groups: Sequence[int | None], size: int) -> list[list[int]]:
    """``ids`` in chunks of about ``size``; items of one group share a chunk (``None``: alone)."""
    return [[ids[i] for i in chunk] for chunk in pack_groups(patient_groups(groups), size)]


def token_chunks(ids: Sequence[int], groups: Sequence[int | None], tokens: Sequence[int], size: int, budget: int) -> list[list[int]]:
    """:func:`item_chunks`, with each chunk's whole groups also packed within a token budget (GPU stages)."""
    out: list[list[int]] = []
    index = {item: i for i, item in enumerate(ids)}
    for chunk in item_chunks(ids, groups, size):
        members = patient_groups([groups[index[item]] for item in chunk])
        sizes = [sum(tokens[index[chunk[i]]] for i in g) for g in members]
        for packed in token_batches(sizes, budget):
            out.append([chunk[i] for g in packed for i in members[g]])
    return out
