"""The recognizer kinds a mix may name, in one registry.

``rules`` runs on any CPU; ``encoder`` and ``generative`` are model kinds
that the fleet routes to GPU queues when a GPU worker serves them.  The
configuration validator, the mix builder, the fleet's stage plan and its
queues all read this table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class RecognizerKind:
    name: str
    gpu: bool
    help: str


KINDS: dict[str, RecognizerKind] = {
    k.name: k
    for k in (
        RecognizerKind("rules", False, "patterns, lists and context rules; nothing downloaded"),
        RecognizerKind("encoder", True, "a token classifier loaded from a local directory"),
        RecognizerKind("generative", True, "an instruction-tuned LLM behind vLLM or transformers"),
    )
}
KIND_NAMES: tuple[str, ...] = tuple(KINDS)
GPU_KINDS: frozenset[str] = frozenset(k for k, v in KINDS.items() if v.gpu)


def check_kinds(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` as a tuple, or ValueError: empty, an unknown kind, or one named twice."""
    if not names:
        raise ValueError(f"must be a non-empty list drawn from {', '.join(KIND_NAMES)}")
    bad = [n for n in names if n not in KINDS]
    if bad:
        raise ValueError(f"unknown {', '.join(map(str, bad))} (known: {', '.join(KIND_NAMES)})")
    if len(set(names)) != len(names):
        raise ValueError("names a recognizer twice")
    return tuple(names)
