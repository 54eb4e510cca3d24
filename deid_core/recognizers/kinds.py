"""The recognizer kinds a mix may name, in one registry.

``rules`` runs on any CPU; ``encoder`` and ``generative`` are model kinds
that the fleet routes to GPU queues when a GPU worker serves them.  The
configuration validator, the mix builder, the fleet's stage plan and its
queues all read this table.
"""

from __future__ import annotations

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
