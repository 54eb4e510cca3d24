"""Keyed bijections that pick surrogate words.

:class:`KeyedPool`: values found in the pool map to their successor in a
keyed order of the pool, a bijection on the pool with no fixed points, so
two distinct pool values never share a surrogate and no value maps to
itself.  Values outside the pool fall back to keyed selection,
``HMAC(subkey, value) mod |pool|``, as the paper's construction does,
skipping the value itself; that fallback is many-to-one, so callers that
must stay injective map outside values with :class:`ShapeCipher` instead.

:class:`ShapeCipher`: a keyed permutation of lower-case ASCII words that
keeps the length and, from three letters on, which positions hold a vowel
(``aeiouy``) and which a consonant.  It is FF1 (NIST SP 800-38G, from
``libffx``) over the integer domain of that shape, cycle-walked past a
reserved set of words, so it is a bijection on the words outside that set
and never lands in it.  Two-letter shapes hold too few words for the
cipher (36 all-vowel words), so two-letter words are permuted among all
676.  Shapes of fewer than 10**6 words are below the domain NIST asks of
FF1; ``allow_small_domain`` accepts them down to 100.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Collection, Sequence

from ffx import FF1

from deid_core.keys import keyed_digest, keyed_index

VOWELS = "aeiouy"
CONSONANTS = "".join(c for c in string.ascii_lowercase if c not in VOWELS)


class KeyedPool:
    """Keyed successor map on a pool; values that fold alike are one entry
    (the first in sorted order stands for them)."""

    def __init__(
        self,
        subkey: bytes,
        values: Sequence[str],
        *,
        label: str,
        fold: Callable[[str], str] = str.casefold,
    ) -> None:
        entries: dict[str, str] = {}
        for value in sorted({v for v in values if v}, key=lambda v: (fold(v), v)):
            entries.setdefault(fold(value), value)
        if len(entries) < 2:
            raise ValueError(f"surrogate pool {label!r} needs at least two entries")
        self._fold = fold
        self._subkey = keyed_digest(subkey, "pool", label)
        self._order = sorted(entries.values(), key=lambda v: keyed_digest(self._subkey, fold(v)))
        self._position = {fold(v): i for i, v in enumerate(self._order)}
        self.label = label

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, value: str) -> bool:
        return self._fold(value) in self._position

    @property
    def keys(self) -> Collection[str]:
        """The folded form of every entry."""
        return self._position.keys()

    def surrogate(self, value: str) -> str:
        folded = self._fold(value)
        pos = self._position.get(folded)
        n = len(self._order)
        if pos is None:
            pos = keyed_index(self._subkey, folded, n)
            if self._fold(self._order[pos]) == folded:  # unreachable for pool values, kept for safety
                pos = (pos + 1) % n
            return self._order[pos]
        return self._order[(pos + 1) % n]

    def original(self, surrogate: str) -> str | None:
        """Inverse for in-pool values (the key holder's view); None if unknown."""
        pos = self._position.get(self._fold(surrogate))
        return None if pos is None else self._order[(pos - 1) % len(self._order)]


class ShapeCipher:
    """Keyed bijection on lower-case ASCII words outside ``reserved``, shape kept."""

    def __init__(self, subkey: bytes, *, label: str, reserved: Collection[str]) -> None:
        self._ff1 = FF1(keyed_digest(subkey, "shape", label), allow_small_domain=True)
        self._reserved = reserved

    def encrypt(self, word: str) -> str:
        """The word's image; ``word`` must be outside the reserved set."""
        return self._walk(word, forward=True)

    def decrypt(self, word: str) -> str:
        """Inverse of :meth:`encrypt` (the key holder's view)."""
        return self._walk(word, forward=False)

    def _walk(self, word: str, *, forward: bool) -> str:
        if len(word) < 2 or not (word.isascii() and word.isalpha() and word.islower()):
            raise ValueError("the shape cipher takes lower-case ASCII words of two letters or more")
        if word in self._reserved:
            raise ValueError("a reserved word is outside the cipher's domain")
        alphabets = _alphabets(word)
        domain = 1
        for alphabet in alphabets:
            domain *= len(alphabet)
        tweak = "".join("v" if a is VOWELS else "c" if a is CONSONANTS else "*" for a in alphabets).encode()
        move = 1 if forward else -1
        x = 0
        for ch, alphabet in zip(word, alphabets):
            x = x * len(alphabet) + alphabet.index(ch)
        # One keyed cycle through the whole shape (FF1 conjugating a rotation), so no word maps to itself.
        while True:  # cycle-walk past reserved words; ends at the latest back at ``word``
            x = self._ff1.decrypt_int((self._ff1.encrypt_int(x, domain=domain, tweak=tweak) + move) % domain, domain=domain, tweak=tweak)
            out = _unrank(x, alphabets)
            if out not in self._reserved:
                return out


def _alphabets(word: str) -> tuple[str, ...]:
    if len(word) == 2:
        return (string.ascii_lowercase,) * 2
    return tuple(VOWELS if c in VOWELS else CONSONANTS for c in word)


def _unrank(x: int, alphabets: tuple[str, ...]) -> str:
    out = []
    for alphabet in reversed(alphabets):
        x, r = divmod(x, len(alphabet))
        out.append(alphabet[r])
    return "".join(reversed(out))
