"""Format-preserving encryption of identifiers (ID, PHONE).

An identifier is split into *content* (letters and digits) and a skeleton
of everything else, which stays in place.  Each content position keeps its
character class and script: a digit stays a digit of its own script
(``１２３`` stays fullwidth, ``٣`` Arabic-Indic) and a letter stays a letter
of the same case and alphabet (ASCII, fullwidth, Latin-1, Greek, Cyrillic),
so the case pattern survives.  A letter or digit of any other script cannot
be format-preserved and the span is masked.  The ``radix62`` alphabet
instead encrypts ASCII alphanumeric content over ``[0-9A-Za-z]`` (numeric
content over radix 10), as the paper's engine does; it keeps length and
punctuation but not classes or case.

The content is a number in a mixed-radix domain of size ``N``; the tweak is
a keyed digest of (entity, class pattern), so the same content encrypts the
same way whatever punctuation or script surrounds it.

* ``N >= 10**6``: FF1 (libffx, NIST SP 800-38G) by default, or FF3-1 (the
  ``ff3`` package) for compatibility with the paper.  FF3-1 works on radix-10
  numeral strings, so a mixed domain is encoded in decimal and cycle-walked
  back inside ``[0, N)``.
* ``N < 10**6``: too small for either cipher (the NIST draft forbids it, and
  the paper's pad-and-truncate makes about 35% of 3-5 digit values collide).
  The map is instead a keyed *cyclic* permutation of ``[0, N)``: a bijection
  on every length with no fixed points, that the key holder inverts: the
  domain in a keyed random order (AES-CTR keys) read as one cycle.  A
  shape's first few values are stepped by one numpy pass over its keys; a
  shape in steady use gets its table, drawn once and cached within a budget
  of entries rather than a count of shapes.  Both give the same map.
* Content beyond the cipher's maximum (FF3-1: 56 decimal digits; FF1: a
  configured ceiling) falls back to a keyed HMAC stream that still keeps each
  position's class.  That map is one-way.

Phone numbers keep what is not the subscriber's: a leading label ("Tel:"),
the country code after ``+`` (and the North American trunk ``1``), and an
extension's label ("x", "ext.") stay as written; the number and the
extension digits are encrypted apart, so a number has one surrogate with or
without its extension.
"""

from __future__ import annotations

import re
import string
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

import numpy as np
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from ff3 import FF3Cipher
from ffx import FF1
from phonenumbers import COUNTRY_CODE_TO_REGION_CODE

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


def _run(first: int, count: int, skip: tuple[int, ...] = ()) -> str:
    return "".join(chr(c) for c in range(first, first + count) if c not in skip)


#: Alphabets other than ASCII, each with the code its positions carry in the tweak.
_ALPHABETS: dict[str, str] = {
    _run(0xFF21, 26): "A", _run(0xFF41, 26): "a",  # fullwidth Latin
    _run(0xC0, 31, (0xD7,)): "À", _run(0xDF, 33, (0xF7,)): "à",  # Latin-1 letters
    _run(0x391, 25, (0x3A2,)): "Γ", _run(0x3B1, 25): "γ",  # Greek
    _run(0x410, 32): "Д", _run(0x430, 32): "д",  # Cyrillic
    "⁰¹²³⁴⁵⁶⁷⁸⁹": "9",
}
_ALPHABET_OF: dict[str, str] = {ch: a for a in _ALPHABETS for ch in a}
_CODES: dict[str, str] = {DIGITS: "9", UPPER: "A", LOWER: "a", RADIX62: "*", **_ALPHABETS}


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
        return "".join(_CODES.get(a, "9") for a in self.alphabets)  # any other: a script's ten digits

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
    """The alphabet a content character is encrypted over; None for the skeleton."""
    if not ch.isalnum():
        return None
    if ch.isascii():
        if alphabet == "radix62":
            return RADIX62
        if ch.isdigit():
            return DIGITS
        return UPPER if ch.isupper() else LOWER
    if ch.isdecimal():  # Unicode puts every script's digits 0-9 in one run
        zero = ord(ch) - unicodedata.decimal(ch)
        return _run(zero, 10)
    if ch in _ALPHABET_OF:
        return _ALPHABET_OF[ch]
    raise FpeError(f"no format-preserving alphabet for {unicodedata.name(ch, 'this character').lower()}")


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


#: Valid country calling codes; they are prefix-free, so "+4420..." reads as 44.
_COUNTRY_CODES = frozenset(str(code) for code in COUNTRY_CODE_TO_REGION_CODE)
_PHONE_LABEL = re.compile(r"(?:tel|phone|ph|fax|cell|mobile|mob|pager)(?![a-z])\s*[.:]?\s*", re.I)
_COUNTRY = re.compile(r"[+＋]\s*(?P<digits>\d{1,15})")
_TRUNK = re.compile(r"1(?=[\s.\-(])")  # North American "1-800-...", "1 (617) ..."
_EXTENSION = re.compile(
    r"(?P<label>\s*[,;]?\s*(?:extension|extn|ext|x|#)\.?\s*)(?P<digits>\d{1,6})\s*$", re.I
)


def _ascii_digits(digits: str) -> str:
    return "".join(str(unicodedata.decimal(d)) for d in digits)


def _phone_parts(text: str) -> tuple[str, str, str, str]:
    """(kept prefix, number, extension label, extension digits) of a phone number."""
    label = _PHONE_LABEL.match(text)
    head = label.end() if label and label.end() < len(text) else 0
    country = _COUNTRY.match(text, head)
    if country:
        # An unknown code is kept as far as three digits, so the kept part of a
        # surrogate reads back the same and the key holder can invert it.
        digits = _ascii_digits(country.group("digits"))
        code = next((digits[:n] for n in (1, 2, 3) if digits[:n] in _COUNTRY_CODES), digits[:3])
        head = country.start("digits") + len(code)
    elif _TRUNK.match(text, head) and sum(c.isalnum() for c in text[head + 1 :]) == 10:
        head += 1
    ext = _EXTENSION.search(text, head)
    if ext is None:
        return text[:head], text[head:], "", ""
    return text[:head], text[head : ext.start()], ext.group("label"), ext.group("digits")


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
        if entity != "PHONE":
            return self._apply_content(text, entity, forward=forward)
        kept, number, label, extension = _phone_parts(text)
        if not extension and not any(c.isalnum() for c in number):
            raise FpeError("phone number has no digits to encrypt")
        if any(c.isalnum() for c in number):
            number = self._apply_content(number, entity, forward=forward)
        out = kept + number
        if extension:
            out += label + self._apply_content(extension, "PHONE.extension", forward=forward)
        return out

    def _apply_content(self, text: str, entity: str, *, forward: bool) -> str:
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
                step = lambda v: _small_domain_step(self._small_key, tweak, n, v, forward)  # noqa: E731
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
        numeric = set(shape.signature) == {"9"}  # digits of any script
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


class _TableCache:
    """The most recently used permutation tables, within a budget of entries.

    A table costs 4 bytes an entry, so the budget, not a count of shapes, is
    what bounds a worker's memory."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._tables: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._entries = 0
        self._lock = threading.Lock()

    def peek(self, key: tuple) -> np.ndarray | None:
        with self._lock:
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
            return table

    def put(self, key: tuple, table: np.ndarray) -> np.ndarray:
        with self._lock:
            if key not in self._tables:
                self._tables[key] = table
                self._entries += len(table)
            while self._entries > self.budget and len(self._tables) > 1:
                _, old = self._tables.popitem(last=False)
                self._entries -= len(old)
        return table


#: 2**25 entries (128 MiB) hold every table of a corpus of many short-ID shapes
#: (80 four-character patterns take 15 million entries).
_TABLES = _TableCache(2**25)
#: A shape's first values are looked up without a table (one pass over its
#: keys, no sort); from this many on, its table is drawn once and kept.
_UNTABLED_USES = 8
_uses: dict[tuple, int] = {}
_INDEX_BITS = 20  # 2**20 > 10**6: the low bits of a key name its value


def _order_keys(key: bytes, tweak: bytes, n: int) -> np.ndarray:
    """One distinct keyed 64-bit number per value of ``range(n)``: 44 bits of AES-CTR
    keystream above the value itself, so sorting them is a keyed random order."""
    nonce = keyed_digest(key, "cyclic-order", tweak, str(n))[:16]
    keystream = Cipher(algorithms.AES(key), modes.CTR(nonce)).encryptor().update(bytes(8 * n))
    high = np.frombuffer(keystream, dtype="<u8") & np.uint64(~((1 << _INDEX_BITS) - 1) & (2**64 - 1))
    return high | np.arange(n, dtype=np.uint64)


def _small_domain_step(key: bytes, tweak: bytes, n: int, x: int, forward: bool) -> int:
    """Where ``x`` goes under a keyed random cyclic permutation of ``range(n)`` (n < 10**6),
    or under its inverse.

    The values in a keyed random order form one cycle, each mapping to the
    next (the inverse: to the previous): a keyed random cyclic permutation,
    so no identifier is ever its own surrogate.  A shape seen only a few times
    is stepped by one pass over its keys; a frequent one through its table."""
    table = _TABLES.peek((key, tweak, n, forward))
    if table is not None:
        return int(table[x])
    shape = (key, tweak, n)
    _uses[shape] = _uses.get(shape, 0) + 1
    if len(_uses) > 4096:
        _uses.clear()
    keys = _order_keys(key, tweak, n)
    if _uses[shape] <= _UNTABLED_USES:
        own = keys[x]
        if forward:
            later = keys[keys > own]
            nxt = later.min() if later.size else keys.min()
        else:
            earlier = keys[keys < own]
            nxt = earlier.max() if earlier.size else keys.max()
        return int(nxt) & ((1 << _INDEX_BITS) - 1)
    order = (np.sort(keys) & np.uint64((1 << _INDEX_BITS) - 1)).astype(np.uint32)
    nxt = np.roll(order, -1 if forward else 1)
    table = np.empty(n, dtype=np.uint32)
    table[order] = nxt
    return int(_TABLES.put((key, tweak, n, forward), table)[x])
