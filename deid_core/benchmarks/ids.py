"""Cost of short identifiers over many shapes: the small-domain permutation's price.

Identifiers of under 10**6 values are permuted by a keyed small-domain
permutation per (entity, class pattern).  A corpus whose IDs spread over many
patterns pays for every pattern it meets; this benchmark puts the same number
of five-character IDs through one pattern and through many, each under a
fresh key so nothing is cached from a previous run.
"""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass

from deid_core.anonymizer.fpe import IdCipher
from deid_core.keys import StudyKey

_CLASSES = {"9": "0123456789", "A": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "a": "abcdefghijklmnopqrstuvwxyz"}


@dataclass(frozen=True)
class IdShapeCost:
    label: str
    shapes: int
    ids: int
    seconds: float

    @property
    def ms_per_id(self) -> float:
        return 1000 * self.seconds / self.ids


def shape_patterns(count: int) -> list[str]:
    """``count`` five-character patterns with four letters or digits ("A9-9a"), all under 10**6 values."""
    patterns = ["".join(p[:2]) + "-" + "".join(p[2:]) for p in itertools.product("9Aa", repeat=4)]
    if count > len(patterns):
        raise ValueError(f"at most {len(patterns)} patterns")
    return patterns[:count]


def sample_ids(patterns: list[str], n: int, seed: int) -> list[str]:
    """``n`` IDs, taken round-robin over the patterns (the worst order for a small cache)."""
    rng = random.Random(seed)
    return [
        "".join(rng.choice(_CLASSES[c]) if c in _CLASSES else c for c in patterns[i % len(patterns)])
        for i in range(n)
    ]


def measure(patterns: list[str], n: int, seed: int, label: str) -> IdShapeCost:
    cipher = IdCipher(StudyKey.generate("benchmark"))
    values = sample_ids(patterns, n, seed)
    start = time.perf_counter()
    for value in values:
        cipher.encrypt(value, entity="ID")
    return IdShapeCost(label, len(patterns), n, time.perf_counter() - start)


def run_id_benchmark(n: int = 400, shapes: int = 80, seed: int = 5) -> list[IdShapeCost]:
    return [
        measure(["99999"], n, seed, "one shape"),
        measure(shape_patterns(shapes), n, seed, f"{shapes} shapes"),
    ]


def format_id_costs(results: list[IdShapeCost]) -> str:
    lines = [f"{'run':<12} {'shapes':>6} {'ids':>6} {'seconds':>8} {'ms/id':>8}"]
    for r in results:
        lines.append(f"{r.label:<12} {r.shapes:>6} {r.ids:>6} {r.seconds:>8.2f} {r.ms_per_id:>8.2f}")
    return "\n".join(lines)


if __name__ == "__main__":
    print("short identifiers (five characters, seed 5), each run under a fresh key")
    print(format_id_costs(run_id_benchmark()))
