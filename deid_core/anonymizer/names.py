"""PATIENT and DOCTOR surrogates: keyed, per token, consistent across forms.

A name span is cut into words and the separators between them, which are
kept exactly, so "Lopez, Maria" becomes "Surname, Given".  Each word is then
one of:

* an honorific ("Dr.", "Mrs", "Prof.") or a credential or generational
  suffix ("MD", "PA-C", "Ph.D.", "Jr.", "III"): kept as written;
* an initial ("M.", "J.R."): each letter goes through a keyed permutation
  of the 26 letters with no fixed points, case kept;
* a name: each part between hyphens or apostrophes ("Garcia-Lopez",
  "O'Brien") is replaced on its own.

**One surrogate per token.**  A name part is folded (:func:`pools.fold`:
accents, case and letters such as "ø" folded), so "Lopez", "López" and
"LOPEZ" are one token.  A known first name is replaced from the first-name
pool, any other pool name from the last-name pool, which leaves out every
known first name; :class:`KeyedPool` is a bijection without fixed points
on each.  A token in neither pool gets an invented word of its length and
vowel/consonant shape from :class:`ShapeCipher`, which never lands on a
pool name.  The three images are disjoint, so the map is a bijection on
all tokens: two different tokens never share a surrogate.  The choice
depends on the token alone, never on where it stands, so "Maria Lopez",
"LOPEZ, MARIA" and "Ms. Lopez" all replace "Maria" and "Lopez" the same way.

**Never a name of the same note.**  No fixed map can keep every surrogate
away from every name a note may hold, so :meth:`NameSurrogates.replace`
takes the text of the note's name spans and raises :class:`NameClashError`
(the caller masks the span) when a surrogate equals, folded, a word of
them.  A token is thus written as its one surrogate or not at all.

Case follows the original part: ALL CAPS, lower case and Title case are
kept, and a mixed pattern ("McDONALD", "DeShawn") is copied letter by
letter, its last letter's case carrying on.

Three guards keep a real name from passing through as an honorific,
credential or particle: honorifics count only before the first name or
with a period; credentials that are also surnames ("Do", "Pa") count only
in capitals or with periods, straight after a comma and a full name
("Minh Smith, DO"); lower-case particles ("de la", "van") are kept only in a
span that has capitals, where lower case means something.  A one-letter
part before an apostrophe ("O'", "D'") is an elided particle and is kept,
and so is "St." in "St. John".

Known limitation: an initial and the given name it abbreviates are replaced
independently, so "M. Lopez" and "Maria Lopez" may give different initials.

A word that holds digits or symbols, a token outside both pools in a script
other than Latin, or a span with no name in it, raises
:class:`NameSurrogateError`; the caller masks the span.
"""

from __future__ import annotations

import random
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from deid_core.anonymizer import pools
from deid_core.anonymizer.selection import KeyedPool, ShapeCipher


class NameSurrogateError(ValueError):
    """A name span this module cannot replace; the caller masks it."""


class NameClashError(NameSurrogateError):
    """A surrogate would equal a word of the same note; the caller masks the span."""


_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
#: Credentials that are also surnames; see the module notes for when they count.
_NAME_LIKE_CREDENTIALS = frozenset({"do", "pa", "pac", "edd"})
_PARTICLES = frozenset(
    "van von der den de del della degli di da dos das du la le ten ter bin ibn al el y e".split()
)
_SAINT = frozenset({"st", "ste"})  # "St. John", "Ste. Marie": part of the surname, not a name
_WORD = re.compile(r"[^\s,;:()\[\]{}\"“”/&|]+")
_JOINERS = re.compile(r"(['’\-‐‑])")
_APOSTROPHES = frozenset("'’")
_INITIALS = re.compile(r"[^\W\d_](?:\.[^\W\d_])*")
_POSSESSIVE = re.compile(r"(?<=\w\w)(['’]s)$")


@dataclass
class _State:
    """What the words so far say about the next one."""

    names: int = 0
    after_comma: bool = False
    after_credential: bool = False
    written: list[str] = field(default_factory=list)  # surrogates of name parts, for the clash check


class NameSurrogates:
    """Keyed replacement of the text of one PATIENT or DOCTOR span."""

    def __init__(
        self,
        subkey: bytes,
        first_names: Sequence[str] | None = None,
        last_names: Sequence[str] | None = None,
    ) -> None:
        first = pools.first_names() if first_names is None else first_names
        last = pools.last_names() if last_names is None else last_names
        # Only single-part entries are offered, so a surrogate never adds a hyphen or
        # apostrophe that part-by-part replacement could produce for another name.
        simple_first = [pools.canonical(n) for n in first if n.isalpha()]
        known_first = {pools.fold(n) for n in simple_first}
        simple_last = [
            c for c in (pools.canonical(n) for n in last if n.isalpha()) if pools.fold(c) not in known_first
        ]
        self._first = KeyedPool(subkey, simple_first, label="names.first", fold=pools.fold)
        self._last = KeyedPool(subkey, simple_last, label="names.last", fold=pools.fold)
        self._outside = ShapeCipher(subkey, label="names.outside", reserved=known_first | set(self._last.keys))
        self._letters = KeyedPool(subkey, list(string.ascii_uppercase), label="names.initials")
        self._by_token = lru_cache(maxsize=1 << 16)(self._surrogate_of)

    # -- single tokens --------------------------------------------------
    def token(self, part: str) -> str:
        """Surrogate of one name part (no separators), in the part's case pattern."""
        part = unicodedata.normalize("NFC", part)
        if len(part) < 2:
            return self.initial(part)
        if not all(c.isalpha() or unicodedata.category(c).startswith("M") for c in part):
            raise NameSurrogateError("a name part holds characters other than letters")
        return _styled(self._by_token(pools.fold(part)), part)

    def _surrogate_of(self, folded: str) -> str:
        if folded in self._first:
            return self._first.surrogate(folded)
        if folded in self._last:
            return self._last.surrogate(folded)
        if not (folded.isascii() and folded.isalpha()):
            raise NameSurrogateError("a name outside the pools is in a script they do not cover")
        return pools.canonical(self._outside.encrypt(folded))

    def initial(self, letter: str) -> str:
        """Keyed derangement of A-Z; accented letters go by their base letter."""
        if len(letter) != 1 or not letter.isalpha():
            raise NameSurrogateError("an initial must be a single letter")
        base = unicodedata.normalize("NFKD", letter)[0].upper()
        out = self._letters.surrogate(base if base in string.ascii_uppercase else letter)
        return out.lower() if letter.islower() else out

    # -- whole spans ----------------------------------------------------
    def replace(self, text: str, note_names: str | None = None) -> str:
        """Surrogate for the text of a name span, separators and honorifics kept.

        ``note_names`` holds the note's name spans (default: this span); a
        surrogate equal to any word of them raises :class:`NameClashError`.
        """
        mixed_case = any(c.isupper() for c in text)
        state = _State()
        pieces: list[str] = []
        cursor = 0
        for match in _WORD.finditer(text):
            gap = text[cursor : match.start()]
            if "," in gap:
                state.after_comma = True
            pieces.append(gap)
            pieces.append(self._word(match.group(), state, mixed_case))
            cursor = match.end()
        pieces.append(text[cursor:])
        if state.names == 0:
            raise NameSurrogateError("the span holds no name to replace")
        written = _folded(text if note_names is None else note_names)
        if any(_has_word(written, pools.fold(w)) for w in state.written):
            raise NameClashError("a surrogate equals a word written in the same note")
        return "".join(pieces)

    def _word(self, word: str, state: _State, mixed_case: bool) -> str:
        core = word.rstrip(".")
        dots = word[len(core) :]
        if not any(c.isalpha() for c in core):
            if all(unicodedata.category(c).startswith("P") for c in word):
                return word  # a lone dash or period between names
            raise NameSurrogateError("a word in a name span holds no letters")
        if any(c.isdigit() or not _allowed(c) for c in core):
            raise NameSurrogateError("a word in a name span holds digits or symbols")

        head, _, rest = core.partition(".")
        if rest and head.casefold() in pools.HONORIFICS and not _INITIALS.fullmatch(core):
            # "Dr.Lopez": an honorific written without its space
            return self._word(head + ".", state, mixed_case) + self._word(rest + dots, state, mixed_case)
        kept = self._kept(core, dots, state, mixed_case)
        state.after_comma = False
        if kept is not None:
            state.after_credential = kept
            return word
        state.after_credential = False
        state.names += 1
        if _INITIALS.fullmatch(core):
            return "".join(self.initial(c) if c.isalpha() else c for c in core) + dots
        if "." in core:
            raise NameSurrogateError("a name word holds an internal period")
        possessive = _POSSESSIVE.search(core)
        tail = possessive.group(1) if possessive else ""
        return self._name(core[: len(core) - len(tail)], state) + tail + dots

    def _kept(self, core: str, dots: str, state: _State, mixed_case: bool) -> bool | None:
        """None for a word to replace; else whether it is a credential or suffix."""
        key = core.casefold()
        if key in pools.HONORIFICS and (dots or state.names == 0):
            return False
        if key in _PARTICLES and core.islower() and mixed_case and not dots:
            return False
        if key in _SAINT and dots:
            return False
        if state.names == 0:
            return None  # credentials and suffixes follow a name
        if key in _SUFFIXES:
            return True
        norm = key.replace(".", "").replace("-", "").replace("\u2010", "")
        if norm not in pools.CREDENTIALS or norm in _SUFFIXES:
            return None
        if _INITIALS.fullmatch(core) and "." in core and state.names < 2:
            return None  # "Smith, M.D." may be initials; replace them to be safe
        if norm in _NAME_LIKE_CREDENTIALS:
            marked = "." in core or bool(dots) or core.isupper()
            if not (marked and state.names >= 2 and (state.after_comma or state.after_credential)):
                return None
        return True

    def _name(self, core: str, state: _State) -> str:
        parts = _JOINERS.split(core)
        out: list[str] = []
        for i, part in enumerate(parts):
            if i % 2 or not part:  # a joiner, or nothing between two joiners
                out.append(part)
            elif len(part) == 1 and i + 1 < len(parts) and parts[i + 1] in _APOSTROPHES:
                out.append(part)  # elided particle: O'Brien, D'Angelo
            else:
                out.append(self.token(part))
                if len(out[-1]) > 1:  # an initial is no name another span could clash with
                    state.written.append(out[-1])
        return "".join(out)


def _allowed(c: str) -> bool:
    return c.isalpha() or c in ".'’-‐‑" or unicodedata.category(c).startswith("M")


def _styled(surrogate: str, original: str) -> str:
    """``surrogate`` (Title case) in the case pattern of ``original``."""
    upper = [c.isupper() for c in original if c.isalpha()]
    if all(upper):
        return surrogate.upper()
    if not any(upper):
        return surrogate.lower()
    if upper[0] and not any(upper[1:]):
        return surrogate
    last = len(upper) - 1
    return "".join(_cased(c, upper[min(i, last)]) for i, c in enumerate(surrogate))


def _cased(letter: str, upper: bool) -> str:
    """One letter in the given case, never two ("ß" stays "ß")."""
    changed = letter.upper() if upper else letter.lower()
    return changed if len(changed) == 1 else letter


@lru_cache(maxsize=4)
def _folded(text: str) -> str:
    return pools.fold(text)


def _has_word(folded_text: str, word: str) -> bool:
    """Whether ``word`` occurs in ``folded_text`` as a whole run of letters."""
    end = len(word)
    at = folded_text.find(word)
    while at >= 0:
        if not (at and folded_text[at - 1].isalpha()) and not folded_text[at + end : at + end + 1].isalpha():
            return True
        at = folded_text.find(word, at + 1)
    return False


# -- measurement helpers (deid verify-anonymizer) ----------------------------


def name_collision_rate(names: Sequence[str], surrogates: NameSurrogates) -> float:
    """Share of distinct names (case-insensitive) whose surrogate another distinct name shares."""
    mapped: dict[str, str] = {}
    for name in names:
        key = name.casefold()
        if key not in mapped:
            mapped[key] = surrogates.replace(name).casefold()
    if not mapped:
        return 0.0
    counts = Counter(mapped.values())
    return sum(1 for s in mapped.values() if counts[s] > 1) / len(mapped)


def name_words(text: str) -> set[str]:
    """Folded words of two letters or more, as the clash check reads them."""
    return {w for w in _LETTER_RUNS.findall(pools.fold(text)) if len(w) > 1}


def accented(token: str) -> str:
    """``token`` with an acute accent on its first plain vowel: a variant that folds alike."""
    for i, c in enumerate(token):
        if c in "aeiouAEIOU":
            return token[:i] + unicodedata.normalize("NFC", c + "\u0301") + token[i + 1 :]
    return token


_LETTER_RUNS = re.compile(r"[^\W\d_]+")
_ONSETS = ("b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "kr", "st", "th")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ei", "ou")
_CODAS = ("", "", "", "n", "r", "l", "s", "m")


def _invented(rng: random.Random, known: set[str]) -> str:
    while True:
        word = "".join(
            rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(rng.randint(2, 3))
        )
        if word not in known:
            return word.title()


def stress_names(n: int, seed: int) -> list[str]:
    """``n`` distinct synthetic "Given Family" names; about 10% of tokens are invented.

    Invented tokens are in neither pool, so the measurement also covers the
    invented-word region of the map.  Given names are single words from the
    first-name pool and family names come from the last names that are no
    first name, so a name's surrogate can never equal its own other word:
    that is the note-level clash guard's business (it masks), not the
    bijection these names measure.
    """
    rng = random.Random(seed)
    all_first, all_last = pools.first_names(), pools.last_names()
    known = {x.casefold() for x in all_first} | {x.casefold() for x in all_last}
    first_folded = {pools.fold(x) for x in all_first}
    first = [x for x in all_first if x.isalpha()]
    last = [x for x in all_last if x.isalpha() and pools.fold(x) not in first_folded]
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < n:
        given = _invented(rng, known) if rng.random() < 0.1 else rng.choice(first)
        family = _invented(rng, known) if rng.random() < 0.1 else rng.choice(last)
        name = f"{given} {family}"
        if name.casefold() not in seen:
            seen.add(name.casefold())
            names.append(name)
    return names
