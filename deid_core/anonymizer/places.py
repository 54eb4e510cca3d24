"""LOCATION and HOSPITAL surrogates: keyed, per component, case kept.

A location span is split into address components and each is replaced on
its own, so a surrogate address still reads like an address:

* street numbers, unit numbers and other digit runs get keyed digits of the
  same shape (a number that did not start with 0 still does not);
* street names, cities and counties get a keyed entry of a shipped pool
  (``deid_core/data/places``), selected with :class:`KeyedPool`, so two
  distinct pool values never share a surrogate and none maps to itself;
* street suffixes, directionals, unit words ("Apt", "Suite") and the word
  "County" stay as written, since they identify nothing;
* states and countries stay as written, full name or code.  Safe Harbor
  allows a state, so a span that is only a state or country is returned
  unchanged; :func:`is_retained_region` says so, so the caller can record it.

ZIP codes follow HIPAA Safe Harbor, §164.514(b)(2)(i)(B): the first three
digits may be kept only where that 3-digit zone holds more than 20,000
people, and are written ``000`` for the restricted zones
(:data:`RESTRICTED_ZIP3`, from the 2000 census as HHS lists them).  The
remaining digits, and any +4, are replaced by keyed digits, so the output
still looks like a ZIP code but carries no more than the released zone.

Pools are shipped as data files, not drawn from a third-party provider, so a
library upgrade never re-maps a study's surrogates.  Every component that
cannot be classified raises :class:`PlaceSurrogateError`; the caller masks
the span.  Nothing here returns its input unchanged, except retained regions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from deid_core.anonymizer.selection import KeyedPool
from deid_core.keys import keyed_digest


class PlaceSurrogateError(ValueError):
    """A place span this module cannot replace; the caller masks it."""


#: 3-digit ZIP zones of 20,000 or fewer people; Safe Harbor writes them as 000.
RESTRICTED_ZIP3: frozenset[str] = frozenset(
    "036 059 063 102 203 556 692 790 821 823 830 831 878 879 884 890 893".split()
)

_MAX_ATTEMPTS = 64


# -- shared keyed helpers (also used by the web module) ----------------------


def load_pool(name: str) -> tuple[str, ...]:
    """Lines of ``deid_core/data/places/<name>.txt``, without comments or blanks."""
    return _load_pool(name)


@cache
def _load_pool(name: str) -> tuple[str, ...]:
    path = resources.files("deid_core").joinpath("data", "places", f"{name}.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(s for s in (ln.strip() for ln in lines) if s and not s.startswith("#"))


def _byte_stream(subkey: bytes, parts: Sequence[str]) -> Iterator[int]:
    block = 0
    while True:
        yield from keyed_digest(subkey, *parts, f"block:{block}")
        block += 1


_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = _UPPER.lower()
_HEX_DIGITS = "0123456789abcdef"


def keyed_shape(
    subkey: bytes,
    token: str,
    *context: str,
    error: type[ValueError] = PlaceSurrogateError,
    hex_escapes: bool = False,
) -> str:
    """Replace each letter and digit by a keyed one of the same class and case.

    Punctuation stays in place, and a digit run that did not start with 0
    still does not, so "12B" stays a plausible unit number.  With
    ``hex_escapes`` a ``%XX`` escape gets two keyed hex digits.  The result
    always differs from ``token``; a token with nothing to replace raises.
    """
    if not any(c.isalnum() for c in token):
        raise error("nothing to replace in this component")
    for attempt in range(_MAX_ATTEMPTS):
        stream = _byte_stream(subkey, ("shape", *context, token, str(attempt)))
        out: list[str] = []
        i = 0
        while i < len(token):
            c = token[i]
            if hex_escapes and c == "%" and re.fullmatch(r"%[0-9A-Fa-f]{2}", token[i : i + 3]):
                pair = "".join(_HEX_DIGITS[next(stream) % 16] for _ in range(2))
                out.append("%" + (pair.upper() if token[i + 1 : i + 3].isupper() else pair))
                i += 3
                continue
            if c.isdigit():
                leading = i == 0 or not token[i - 1].isdigit()
                if leading and c != "0":
                    out.append(str(1 + next(stream) % 9))
                else:
                    out.append(str(next(stream) % 10))
            elif c.isalpha():
                letter = _LOWER[next(stream) % 26]
                out.append(letter.upper() if c.isupper() else letter)
            else:
                out.append(c)
            i += 1
        result = "".join(out)
        if result != token:
            return result
    raise error("could not derive a distinct surrogate for this component")


def match_case(original: str, value: str) -> str:
    """Write ``value`` in the case style of ``original``: ALL CAPS, lower or Title."""
    letters = [c for c in original if c.isalpha()]
    if not letters:
        return value
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return value.upper()
    if all(c.islower() for c in letters):
        return value.lower()
    if letters[0].isupper() and value == value.lower():
        return re.sub(r"(^|[\s\-])([^\W\d_])", lambda m: m.group(1) + m.group(2).upper(), value)
    return value


# -- regions: states and countries are kept -----------------------------------


def _normalize_region(text: str) -> str:
    folded = re.sub(r"\s+", " ", text.replace(".", "").replace("’", "'")).strip().casefold()
    return folded[4:] if folded.startswith("the ") else folded


@lru_cache(maxsize=1)
def _regions() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    names: set[str] = set()
    codes: set[str] = set()
    for line in load_pool("states"):
        name, code = line.split("|")
        names.add(_normalize_region(name))
        codes.add(code.strip().upper())
    countries = {_normalize_region(c) for c in load_pool("countries")}
    return frozenset(names), frozenset(codes), frozenset(countries), frozenset(_STATE_ABBREVIATIONS)


# AP-style state abbreviations; recognised only when written with a period.
_STATE_ABBREVIATIONS = frozenset(
    """ala ariz ark calif cal colo conn del fla ga ill ind kan kans ky la md mass mich minn miss mo
    mont neb nebr nev okla ore pa tenn tex vt va wash wis wisc wyo""".split()
) | {"w va"}


def _region_kind(text: str) -> str | None:
    """'state' or 'country' when ``text`` is exactly one, else None."""
    text = text.strip()
    if not text:
        return None
    names, codes, countries, abbreviations = _regions()
    norm = _normalize_region(text)
    letters = [c for c in text if c.isalpha()]
    if norm.upper() in codes and all(c.isupper() for c in letters):
        return "state"
    if norm in names or ("." in text and norm in abbreviations):
        return "state"
    if norm in countries:
        return "country"
    return None


def _retained_tail(kinds: Sequence[str | None]) -> int:
    """Index of the first comma-separated part of the trailing run of regions.

    Regions run from small to large, so a part followed by a state, or a
    country followed by a state, is a city of that name: "Washington, DC",
    "New York, NY", "Cuba, NY".  Only a country may follow a region.
    """
    tail = len(kinds)
    while tail > 0 and kinds[tail - 1] is not None:
        if tail < len(kinds) and kinds[tail] != "country":
            break
        tail -= 1
    return tail


def is_retained_region(text: str) -> bool:
    """True when the span is only states and countries ("Ohio", "MA, USA").

    Such a span is returned unchanged by :meth:`PlaceSurrogates.location`:
    Safe Harbor allows a state, and a country is larger still.
    """
    if not isinstance(text, str):
        return False
    kinds = [_region_kind(p) for p in text.split(",")]
    return _retained_tail(kinds) == 0


# -- tokens -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Token:
    start: int
    end: int
    text: str

    @property
    def core(self) -> str:
        """The token without a trailing period ("St." -> "St")."""
        return self.text[:-1] if len(self.text) > 1 and self.text.endswith(".") else self.text

    @property
    def key(self) -> str:
        return self.core.replace(".", "").replace("’", "'").casefold()


@dataclass(frozen=True, slots=True)
class _Edit:
    start: int
    end: int
    text: str


_WORD = re.compile(r"[^\W\d_]+(?:['’.\-&][^\W\d_]+)*(?:['’]s?)?\.?")
_ALNUM = re.compile(r"#?[0-9A-Za-z]+(?:[\-/.][0-9A-Za-z]+)*\.?")
_PUNCT = re.compile(r"[#&/\-]+")
_NUMBER = re.compile(r"\d+[A-Za-z]?|\d+[\-/]\d+", re.ASCII)
_ORDINAL = re.compile(r"(\d+)(st|nd|rd|th)", re.I | re.ASCII)
_ZIP = re.compile(r"(\d{3})(\d{2})(?:-(\d{4}))?", re.ASCII)


def _is_word(tok: _Token) -> bool:
    return _WORD.fullmatch(tok.text) is not None


def _has_digit(tok: _Token) -> bool:
    return any(c.isdigit() for c in tok.text)


def _tokenize(text: str) -> list[_Token]:
    if not isinstance(text, str) or not text.strip():
        raise PlaceSurrogateError("empty place span")
    tokens = [_Token(m.start(), m.end(), m.group()) for m in re.finditer(r"[^\s,]+", text)]
    if not tokens:
        raise PlaceSurrogateError("place span has no words")
    for tok in tokens:
        if not (_WORD.fullmatch(tok.text) or _ALNUM.fullmatch(tok.text) or _PUNCT.fullmatch(tok.text)):
            raise PlaceSurrogateError("place span has a component of unknown shape")
    return tokens


def _segments(text: str, tokens: list[_Token]) -> list[list[_Token]]:
    """Group tokens into comma-separated segments."""
    segments: list[list[_Token]] = []
    prev_end = 0
    for tok in tokens:
        if not segments or "," in text[prev_end : tok.start]:
            segments.append([])
        segments[-1].append(tok)
        prev_end = tok.end
    return segments


def _apply(text: str, edits: list[_Edit]) -> str:
    out: list[str] = []
    cursor = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < cursor:
            raise PlaceSurrogateError("overlapping place edits")  # a bug, never a leak
        out.append(text[cursor : edit.start])
        out.append(edit.text)
        cursor = edit.end
    out.append(text[cursor:])
    return "".join(out)


# -- vocabulary -------------------------------------------------------------

_DIRECTIONALS = frozenset(
    "n s e w ne nw se sw north south east west northeast northwest southeast southwest".split()
)
_SUFFIXES = frozenset(
    """street st avenue ave av boulevard blvd road rd drive dr lane ln way wy court ct place pl
    terrace ter terr circle cir parkway pkwy highway hwy square sq trail trl loop row pike
    plaza plz alley aly expressway expy freeway fwy crescent cres path run walk pass crossing
    xing point pt ridge rdg turnpike tpke cove cv heights hts landing commons mall bypass byp
    causeway cswy""".split()
)
_UNIT_WORDS = frozenset(
    "apt apartment unit suite ste rm room fl floor flr bldg building lot dept spc space trlr #".split()
)
_COUNTY_WORDS = frozenset({"county", "parish", "borough", "township", "twp"})
_ROUTE_WORDS = frozenset(
    {"route", "rte", "highway", "hwy", "interstate", "i", "sr", "cr", "us", "state", "county", "road"}
)
_PO_BOX = ("po box", "pobox", "post office box", "pob")

_FACILITY_WORDS = frozenset(
    """hospital hospitals medical medicine center centers centre clinic clinics clinical health
    healthcare health-care care system systems network children's childrens children childrens'
    memorial general regional community university college school rehabilitation rehab institute
    institutes infirmary sanitarium sanatorium nursing home homes hospice surgical surgery
    surgicenter urgent emergency department dept unit units ward cancer heart cardiac vascular
    cardiovascular eye ear nose throat orthopedic orthopedics orthopaedic orthopaedics veterans
    veterans' va affairs behavioral psychiatric mental women's womens women pediatric pediatrics
    maternity research specialty specialists family practice group physicians campus pavilion tower
    wing building office offices lab labs laboratory laboratories imaging radiology dialysis
    oncology cardiology neurology pharmacy ambulatory outpatient inpatient primary acute long-term
    skilled senior assisted living facility facilities trauma level teaching academic
    icu nicu picu micu sicu ccu cicu cvicu ed er pacu or l&d ob""".split()
)
_CONNECTORS = frozenset({"of", "the", "and", "at", "for", "in", "on", "&", "-", "/"})
_SAINT_WORDS = frozenset({"st", "saint", "ste", "sainte"})


def _possessive(word: str) -> tuple[str, str]:
    """Split a trailing possessive: "Mary's" -> ("Mary", "'s")."""
    m = re.search(r"(['’]s?)$", word)
    if m and len(word) > len(m.group(1)):
        return word[: m.start()], m.group(1)
    return word, ""


def _ordinal_suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


class PlaceSurrogates:
    """LOCATION and HOSPITAL strategies under one places subkey."""

    def __init__(self, subkey: bytes) -> None:
        if not isinstance(subkey, bytes) or len(subkey) < 16:
            raise ValueError("a places subkey needs at least 16 bytes")
        self._subkey = subkey
        self._cities = KeyedPool(subkey, load_pool("cities"), label="places.city")
        self._streets = KeyedPool(subkey, load_pool("streets"), label="places.street")
        self._counties = KeyedPool(subkey, load_pool("counties"), label="places.county")
        self._facilities = KeyedPool(subkey, load_pool("facilities"), label="places.facility")
        self._saints = KeyedPool(subkey, load_pool("saints"), label="places.saint")

    # -- LOCATION ---------------------------------------------------------
    def location(self, text: str) -> str:
        """A keyed surrogate for a LOCATION span; retained regions come back as written."""
        tokens = _tokenize(text)
        if is_retained_region(text):
            return text
        segments = _segments(text, tokens)
        kinds = [_region_kind(" ".join(t.text for t in self._without_zip(seg))) for seg in segments]
        tail = _retained_tail(kinds)

        edits: list[_Edit] = []
        for i, seg in enumerate(segments):
            if i >= tail:
                edits.extend(self._zip_edits(seg))
            else:
                edits.extend(self._segment_edits(seg))
        out = _apply(text, edits)
        if out == text:
            raise PlaceSurrogateError("location span has no component to replace")
        return out

    def zip_code(self, text: str) -> str:
        """Safe Harbor ZIP: the released 3-digit zone (or 000), then keyed digits."""
        m = _ZIP.fullmatch(text)
        if m is None:
            raise PlaceSurrogateError("not a 5-digit or ZIP+4 code")
        zone, rest, plus4 = m.group(1), m.group(2), m.group(3)
        prefix = "000" if zone in RESTRICTED_ZIP3 else zone
        out = prefix + self._digits(rest, "zip", zone + rest, forbid=rest)  # ZIP and ZIP+4 agree
        if plus4:
            out += "-" + self._digits(plus4, "zip4", text, forbid=plus4)
        return out

    def _digits(self, template: str, *context: str, forbid: str) -> str:
        """Keyed digits of the template's length, never ``forbid``."""
        for attempt in range(_MAX_ATTEMPTS):
            stream = _byte_stream(self._subkey, (*context, str(attempt)))
            out = "".join(str(next(stream) % 10) for _ in template)
            if out != forbid:
                return out
        raise PlaceSurrogateError("could not derive distinct digits")

    @staticmethod
    def _without_zip(seg: list[_Token]) -> list[_Token]:
        if seg and _ZIP.fullmatch(seg[-1].text):
            return seg[:-1]
        return seg

    def _zip_edits(self, seg: list[_Token]) -> list[_Edit]:
        if seg and _ZIP.fullmatch(seg[-1].text):
            tok = seg[-1]
            return [_Edit(tok.start, tok.end, self.zip_code(tok.text))]
        return []

    def _segment_edits(self, seg: list[_Token]) -> list[_Edit]:
        edits: list[_Edit] = []
        toks = list(seg)
        zip_followed = (
            bool(toks)
            and _ZIP.fullmatch(toks[-1].text) is not None
            and not (len(toks) >= 2 and toks[-2].key in _UNIT_WORDS)
        )
        if zip_followed:
            edits.append(_Edit(toks[-1].start, toks[-1].end, self.zip_code(toks[-1].text)))
            toks = toks[:-1]
        street = bool(toks) and _NUMBER.fullmatch(toks[0].text) is not None

        # A trailing state is kept only when it is clearly one: before a ZIP, or
        # as a postal code.  "Port Washington" or "West Jordan" is a city.
        for n in range(min(4, len(toks) - 1), 0, -1):
            tail = toks[-n:]
            if _region_kind(" ".join(t.text for t in tail)) != "state":
                continue
            is_code = n == 1 and tail[0].core.isupper() and len(tail[0].core.replace(".", "")) == 2
            if zip_followed or is_code:
                toks = toks[:-n]
            break

        i = 0
        street_key = ""
        if toks and self._po_box_len(toks):
            i = self._po_box_len(toks)
        elif street:
            number = toks[0]
            i = 1
            if i < len(toks) and re.fullmatch(r"\d+/\d+", toks[i].text):
                i += 1  # "123 1/2 Main St"
            j = i
            if j + 1 < len(toks) and toks[j].key in _DIRECTIONALS and toks[j + 1].key not in _SUFFIXES:
                j += 1  # pre-directional kept; "E Street" is a name
            name_start = j
            while j < len(toks):
                tok = toks[j]
                if tok.key in _UNIT_WORDS or tok.text.startswith("#"):
                    break
                if tok.key in _SUFFIXES and j > name_start:
                    break
                j += 1
            name = toks[name_start:j]
            street_key = " ".join(t.key for t in name)
            edits.extend(self._street_name_edits(name))
            for k in range(1, i):
                edits.append(
                    _Edit(
                        toks[k].start,
                        toks[k].end,
                        keyed_shape(self._subkey, toks[k].text, "street-frac", street_key),
                    )
                )
            edits.append(
                _Edit(
                    number.start,
                    number.end,
                    keyed_shape(self._subkey, number.text, "street-number", street_key),
                )
            )
            i = j
            if i < len(toks) and toks[i].key in _SUFFIXES:
                i += 1
                if i < len(toks) and toks[i].key in _DIRECTIONALS:
                    i += 1  # post-directional kept
        edits.extend(self._generic_edits(toks[i:], street_key))
        return edits

    @staticmethod
    def _po_box_len(toks: list[_Token]) -> int:
        for n in (1, 2, 3):
            if n <= len(toks) and " ".join(t.key for t in toks[:n]) in _PO_BOX:
                return n
        return 0

    def _street_name_edits(self, name: list[_Token]) -> list[_Edit]:
        edits: list[_Edit] = []
        run: list[_Token] = []
        for idx, tok in enumerate(name):
            nxt = name[idx + 1] if idx + 1 < len(name) else None
            if _ORDINAL.fullmatch(tok.core):
                edits.extend(self._run_edit(run, self._streets))
                run = []
                edits.append(self._ordinal_edit(tok, "street-ordinal"))
            elif _has_digit(tok):
                edits.extend(self._run_edit(run, self._streets))
                run = []
                edits.append(
                    _Edit(tok.start, tok.end, keyed_shape(self._subkey, tok.text, "street-route"))
                )
            elif tok.key in _ROUTE_WORDS and nxt is not None and _has_digit(nxt) and not run:
                continue  # "Route 9": the route word stays, the number is keyed
            elif _PUNCT.fullmatch(tok.text):
                edits.extend(self._run_edit(run, self._streets))
                run = []
            else:
                run.append(tok)
        edits.extend(self._run_edit(run, self._streets))
        return edits

    def _generic_edits(self, toks: list[_Token], context: str) -> list[_Edit]:
        """Units, counties, ordinals, digit runs; every other word run is a city."""
        edits: list[_Edit] = []
        run: list[_Token] = []
        idx = 0
        while idx < len(toks):
            tok = toks[idx]
            if tok.key in _UNIT_WORDS or tok.key in _COUNTY_WORDS:
                pool = self._counties if tok.key in _COUNTY_WORDS else self._cities
                edits.extend(self._run_edit(run, pool))
                run = []
                if tok.key in _UNIT_WORDS and idx + 1 < len(toks):
                    value = toks[idx + 1]
                    if _has_digit(value) or re.fullmatch(r"#?[A-Za-z]", value.text):
                        edits.append(
                            _Edit(
                                value.start,
                                value.end,
                                keyed_shape(self._subkey, value.text, "unit", context),
                            )
                        )
                        idx += 1
            elif _ORDINAL.fullmatch(tok.core):
                edits.extend(self._run_edit(run, self._cities))
                run = []
                edits.append(self._ordinal_edit(tok, "ordinal", context))
            elif _has_digit(tok):
                edits.extend(self._run_edit(run, self._cities))
                run = []
                edits.append(
                    _Edit(tok.start, tok.end, keyed_shape(self._subkey, tok.text, "number", context))
                )
            elif _PUNCT.fullmatch(tok.text) and not run:
                pass
            else:
                run.append(tok)
            idx += 1
        edits.extend(self._run_edit(run, self._cities))
        return edits

    def _run_edit(self, run: list[_Token], pool: KeyedPool) -> list[_Edit]:
        """One pool surrogate for a run of words ("San Francisco" -> "Fort Collins")."""
        if not run:
            return []
        while run and _PUNCT.fullmatch(run[-1].text):
            run = run[:-1]
        if not run:
            return []
        value = " ".join(t.core for t in run)
        surrogate = pool.surrogate(value)
        if surrogate.casefold() == value.casefold():  # KeyedPool guarantees this never happens
            raise PlaceSurrogateError("pool returned the original value")
        trailing = "." if run[-1].text.endswith(".") and len(run[-1].text) > 1 else ""
        return [_Edit(run[0].start, run[-1].end, match_case(value, surrogate) + trailing)]

    def _ordinal_edit(self, tok: _Token, *context: str) -> _Edit:
        m = _ORDINAL.fullmatch(tok.core)
        assert m is not None
        digits = keyed_shape(self._subkey, m.group(1), *context)
        suffix = _ordinal_suffix(int(digits))
        suffix = suffix.upper() if m.group(2).isupper() else suffix
        trailing = tok.text[len(tok.core) :]
        return _Edit(tok.start, tok.end, digits + suffix + trailing)

    # -- HOSPITAL ---------------------------------------------------------
    def hospital(self, text: str) -> str:
        """Keyed facility name; facility-type words ("General Hospital") are kept.

        A lone acronym ("MGH", "UCSF") becomes keyed letters of the same length
        and case.  A name made only of type words ("Children's Hospital") gets
        a keyed name in front, so the output never equals the input.
        """
        tokens = _tokenize(text)
        letters = [c for c in text if c.isalpha()]
        all_caps = len(tokens) > 1 and len(letters) > 1 and all(c.isupper() for c in letters)
        edits: list[_Edit] = []
        run: list[_Token] = []
        saint_next = False
        first_kept: _Token | None = None

        def flush() -> None:
            nonlocal run
            edits.extend(self._facility_run_edit(run))
            run = []

        for idx, tok in enumerate(tokens):
            key = tok.key
            base, _ = _possessive(key)
            nxt = tokens[idx + 1] if idx + 1 < len(tokens) else None
            if saint_next and _is_word(tok) and not _has_digit(tok):
                flush()
                edits.append(self._saint_edit(tok))
                saint_next = False
                continue
            saint_next = False
            if (
                key in _SAINT_WORDS
                and nxt is not None
                and _is_word(nxt)
                and nxt.key not in _FACILITY_WORDS
            ):
                flush()
                saint_next = True
                first_kept = first_kept or tok
            elif key in _FACILITY_WORDS or base in _FACILITY_WORDS or key in _DIRECTIONALS:
                flush()
                first_kept = first_kept or tok
            elif key in _CONNECTORS or _PUNCT.fullmatch(tok.text):
                flush()
            elif _has_digit(tok):
                flush()
                edits.append(
                    _Edit(tok.start, tok.end, keyed_shape(self._subkey, tok.text, "facility-number"))
                )
            elif re.fullmatch(r"[A-Z]{2,6}", tok.core) and not all_caps:
                flush()
                edits.append(
                    _Edit(
                        tok.start,
                        tok.start + len(tok.core),
                        keyed_shape(self._subkey, tok.core, "facility-acronym"),
                    )
                )
            elif _is_word(tok):
                run.append(tok)
            else:
                raise PlaceSurrogateError("facility span has a component of unknown shape")
        flush()

        if not edits:
            anchor = first_kept or tokens[0]
            name = self._facilities.surrogate(" ".join(t.key for t in tokens))
            if all_caps:
                name = name.upper()
            elif all(c.islower() for c in letters):
                name = name.lower()
            edits.append(_Edit(anchor.start, anchor.start, name + " "))
        out = _apply(text, edits)
        if out == text:
            raise PlaceSurrogateError("facility span has no component to replace")
        return out

    def _facility_run_edit(self, run: list[_Token]) -> list[_Edit]:
        if not run:
            return []
        last_core, possessive = _possessive(run[-1].core)
        value = " ".join([t.core for t in run[:-1]] + [last_core])
        surrogate = self._facilities.surrogate(value)
        return [
            _Edit(
                run[0].start,
                run[-1].start + len(run[-1].core),
                match_case(value, surrogate) + possessive,
            )
        ]

    def _saint_edit(self, tok: _Token) -> _Edit:
        core, possessive = _possessive(tok.core)
        surrogate = self._saints.surrogate(core)
        return _Edit(tok.start, tok.start + len(tok.core), match_case(core, surrogate) + possessive)
