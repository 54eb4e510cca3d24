"""Format-preserving encryption of identifiers (ID, PHONE).

An identifier is split into *content* (ASCII letters and digits) and a
skeleton of everything else, which stays in place.  Each content position
keeps its character class: a digit stays a digit (radix 10) and a letter
stays a letter of the same case, so the case pattern survives.  The
``radix62`` alphabet instead encrypts alphanumeric content over
``[0-9A-Za-z]`` (numeric content over radix 10), as the paper's engine does;
it keeps length and punctuation but not classes or case.

The content is a number in a mixed-radix domain of size ``N``; the tweak is
a keyed digest of (entity, class pattern), so the same content encrypts the
same way whatever punctuation surrounds it.

* ``N >= 10**6``: FF1 (libffx, NIST SP 800-38G) by default, or FF3-1 (the
  ``ff3`` package) for compatibility with the paper.  FF3-1 works on radix-10
  numeral strings, so a mixed domain is encoded in decimal and cycle-walked
  back inside ``[0, N)``.
* ``N < 10**6``: too small for either cipher (the NIST draft forbids it, and
  the paper's pad-and-truncate makes about 35% of 3-5 digit values collide).
  The domain is instead permuted by a keyed shuffle (Sattolo's cyclic
  Fisher-Yates) driven by an AES-CTR keystream: a bijection on every length,
  with no fixed points, that the key holder inverts.
* Content beyond the cipher's maximum (FF3-1: 56 decimal digits; FF1: a
  configured ceiling) falls back to a keyed HMAC stream that still keeps each
  position's class.  That map is one-way.
"""

from __future__ import annotations

import string
from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from ff3 import FF3Cipher
from ffx import FF1

from deid_core.keys import Purpose, StudyKey, keyed_digest

FpeMode = Literal["ff1", "ff3-1"]
FpeAlphabet = Literal["per-class", "radix62"]

MIN_CIPHER_DOMAIN = 10**6
FF3_MAX_DIGITS = 56
FF1_MAX_CONTENT = 256

DIGITS = string.digits
UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
RADIX62 = DIGITS + UPPER + LOWER


class FpeError(ValueError):
    """The value cannot be format-preserved; the caller masks the span."""


@dataclass(frozen=True, slots=True)
class _Shape:
    """Where the content characters sit and which alphabet each one uses."""

    positions: tuple[int, ...]
    alphabets: tuple[str, ...]

    @property
    def domain(self) -> int:
        n = 1
        for a in self.alphabets:
            n *= len(a)
        return n

    @property
    def signature(self) -> str:
        return "".join({DIGITS: "9", UPPER: "A", LOWER: "a", RADIX62: "*"}[a] for a in self.alphabets)

    def to_int(self, chars: list[str]) -> int:
        x = 0
        for ch, alphabet in zip(chars, self.alphabets):
            x = x * len(alphabet) + alphabet.index(ch)
        return x

    def from_int(self, x: int) -> list[str]:
        out = []
        for alphabet in reversed(self.alphabets):
            x, r = divmod(x, len(alphabet))
            out.append(alphabet[r])
        return out[::-1]


def _alphabet_of(ch: str, alphabet: FpeAlphabet) -> str | None:
    if not ch.isascii() or not ch.isalnum():
        return None
    if alphabet == "radix62":
        return RADIX62
    if ch.isdigit():
        return DIGITS
    return UPPER if ch.isupper() else LOWER


def _shape(text: str, alphabet: FpeAlphabet) -> _Shape:
    if alphabet == "radix62" and all(ch.isdigit() for ch in text if ch.isascii() and ch.isalnum()):
        alphabet = "per-class"  # the paper encrypts numeric content over radix 10
    positions, alphabets = [], []
    for i, ch in enumerate(text):
        a = _alphabet_of(ch, alphabet)
        if a is not None:
            positions.append(i)
            alphabets.append(a)
    if not positions:
        raise FpeError("identifier has no letters or digits to encrypt")
    return _Shape(tuple(positions), tuple(alphabets))


class IdCipher:
    """Keyed, format-preserving, invertible map on identifiers."""

    def __init__(self, key: StudyKey, *, mode: FpeMode = "ff1", alphabet: FpeAlphabet = "per-class") -> None:
        if mode not in ("ff1", "ff3-1"):
            raise ValueError(f"unknown FPE mode {mode!r} (ff1 or ff3-1)")
        if alphabet not in ("per-class", "radix62"):
            raise ValueError(f"unknown FPE alphabet {alphabet!r} (per-class or radix62)")
        self.mode = mode
        self.alphabet = alphabet
        self._tweak_key = key.subkey(Purpose.IDS_TWEAK)
        self._small_key = key.subkey(Purpose.IDS_SMALL)
        self._fallback_key = key.subkey(Purpose.IDS_FALLBACK)
        if mode == "ff1":
            self._ff1 = FF1(key.subkey(Purpose.IDS_FF1), radix=10)
        else:
            self._ff3 = FF3Cipher(key.subkey(Purpose.IDS_FF3).hex(), "00" * 7, radix=10)

    # -- public ---------------------------------------------------------
    def encrypt(self, text: str, *, entity: str) -> str:
        return self._apply(text, entity, forward=True)

    def decrypt(self, text: str, *, entity: str) -> str:
        """Inverse of :meth:`encrypt` (the key holder's view); not for fallback values."""
        return self._apply(text, entity, forward=False)

    def may_fix(self, text: str) -> bool:
        """Whether this value's surrogate may equal it: only inside a cipher's domain
        (a random permutation of N >= 10**6 values fixes about one of them)."""
        shape = _shape(text, self.alphabet)
        return shape.domain >= MIN_CIPHER_DOMAIN and not self._beyond_cipher(shape)

    def is_invertible(self, text: str) -> bool:
        shape = _shape(text, self.alphabet)
        return not self._beyond_cipher(shape)

    # -- internals ------------------------------------------------------
    def _apply(self, text: str, entity: str, *, forward: bool) -> str:
        shape = _shape(text, self.alphabet)
        chars = [text[i] for i in shape.positions]
        tweak = keyed_digest(self._tweak_key, entity, shape.signature)
        if self._beyond_cipher(shape):
            if not forward:
                raise FpeError("identifiers beyond the cipher's length use a one-way fallback")
            new_chars = self._fallback(shape, chars, tweak)
        else:
            n = shape.domain
            if n < MIN_CIPHER_DOMAIN:
                table = _small_domain_permutation(self._small_key, tweak, n, forward)
                step = table.__getitem__
            else:
                step = lambda v: self._cipher_int(v, n, shape, tweak, forward)  # noqa: E731
            # radix62 content with a letter must stay so, or the inverse would
            # read it as numeric: cycle-walk until it has one.
            needs_letter = RADIX62 in shape.alphabets
            y = step(shape.to_int(chars))
            new_chars = shape.from_int(y)
            while needs_letter and all(c.isdigit() for c in new_chars):
                y = step(y)
                new_chars = shape.from_int(y)
        out = list(text)
        for pos, ch in zip(shape.positions, new_chars):
            out[pos] = ch
        return "".join(out)

    def _beyond_cipher(self, shape: _Shape) -> bool:
        if shape.domain < MIN_CIPHER_DOMAIN:
            return False
        if self.mode == "ff3-1":
            return len(str(shape.domain - 1)) > FF3_MAX_DIGITS
        return len(shape.positions) > FF1_MAX_CONTENT

    def _cipher_int(self, x: int, n: int, shape: _Shape, tweak: bytes, forward: bool) -> int:
        numeric = all(a == DIGITS for a in shape.alphabets)
        if self.mode == "ff1":
            if numeric:
                width = len(shape.alphabets)
                s = str(x).zfill(width)
                t = tweak[:16]
                return int(self._ff1.encrypt(s, tweak=t) if forward else self._ff1.decrypt(s, tweak=t))
            op = self._ff1.encrypt_int if forward else self._ff1.decrypt_int
            return op(x, domain=n, tweak=tweak[:16])
        # FF3-1 over decimal strings; cycle-walk keeps the result inside [0, n).
        width = len(str(n - 1))
        t = tweak[:7].hex()
        op = self._ff3.encrypt_with_tweak if forward else self._ff3.decrypt_with_tweak
        y = x
        while True:
            y = int(op(str(y).zfill(width), t))
            if y < n:
                return y

    def _fallback(self, shape: _Shape, chars: list[str], tweak: bytes) -> list[str]:
        stream = b""
        counter = 0
        content = "".join(chars)
        while len(stream) < 2 * len(chars):
            stream += keyed_digest(self._fallback_key, tweak, content, counter.to_bytes(4, "big"))
            counter += 1
        out = []
        for i, alphabet in enumerate(shape.alphabets):
            v = int.from_bytes(stream[2 * i : 2 * i + 2], "big") % len(alphabet)
            out.append(alphabet[v])
        return out


@lru_cache(maxsize=64)
def _small_domain_permutation(key: bytes, tweak: bytes, n: int, forward: bool) -> array:
    """A keyed random cyclic permutation of ``range(n)`` (or its inverse), n < 10**6."""
    if not forward:
        perm = _small_domain_permutation(key, tweak, n, True)
        inverse = array("I", bytes(4 * n))
        for i, v in enumerate(perm):
            inverse[v] = i
        return inverse
    nonce = keyed_digest(key, "fisher-yates", tweak, str(n))[:16]
    encryptor = Cipher(algorithms.AES(key), modes.CTR(nonce)).encryptor()
    randoms = array("Q", encryptor.update(bytes(8 * n)))
    # Sattolo's variant of Fisher-Yates (j < i) draws a uniform random cyclic
    # permutation: no identifier is ever its own surrogate.
    perm = array("I", range(n))
    for i in range(n - 1, 0, -1):
        j = randoms[i] % i
        perm[i], perm[j] = perm[j], perm[i]
    return perm
