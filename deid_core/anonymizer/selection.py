"""Keyed selection from a surrogate pool.

Values found in the pool map to their successor in a keyed order of the
pool: a bijection on the pool with no fixed points, so two distinct pool
values never share a surrogate and no value maps to itself.  Values outside
the pool fall back to keyed selection, ``HMAC(subkey, value) mod |pool|``,
as the paper's construction does, skipping the value itself.
"""

from __future__ import annotations

from typing import Sequence

from deid_core.keys import keyed_digest, keyed_index


class KeyedPool:
    def __init__(self, subkey: bytes, values: Sequence[str], *, label: str) -> None:
        unique = sorted({v for v in values if v}, key=str.casefold)
        if len(unique) < 2:
            raise ValueError(f"surrogate pool {label!r} needs at least two entries")
        self._subkey = keyed_digest(subkey, "pool", label)
        self._order = sorted(unique, key=lambda v: keyed_digest(self._subkey, v.casefold()))
        self._position = {v.casefold(): i for i, v in enumerate(self._order)}
        self.label = label

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, value: str) -> bool:
        return value.casefold() in self._position

    def surrogate(self, value: str) -> str:
        folded = value.casefold()
        pos = self._position.get(folded)
        n = len(self._order)
        if pos is None:
            pos = keyed_index(self._subkey, folded, n)
            if self._order[pos].casefold() == folded:  # unreachable for pool values, kept for safety
                pos = (pos + 1) % n
            return self._order[pos]
        return self._order[(pos + 1) % n]

    def original(self, surrogate: str) -> str | None:
        """Inverse for in-pool values (the key holder's view); None if unknown."""
        pos = self._position.get(surrogate.casefold())
        return None if pos is None else self._order[(pos - 1) % len(self._order)]
