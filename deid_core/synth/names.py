"""Person names of many origins and the surface forms notes write them in.

Names come from Faker in several locales (Latin-script output only) plus
invented names built from syllables, so recognizers trained or tested on this
data cannot succeed by dictionary lookup alone.
"""

from __future__ import annotations

import random
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from faker import Faker

from deid_core.spans import Category

from .builder import Part, phi

# (locale, weight, romanized): romanized locales only yield Latin script
# through Faker's romanized providers.
LOCALES: tuple[tuple[str, int, bool], ...] = (
    ("en_US", 6, False),
    ("es_MX", 3, False),
    ("en_GB", 2, False),
    ("pt_BR", 2, False),
    ("fr_FR", 1, False),
    ("de_DE", 1, False),
    ("it_IT", 1, False),
    ("pl_PL", 1, False),
    ("vi_VN", 1, False),
    ("tr_TR", 1, False),
    ("en_IN", 2, False),
    ("yo_NG", 1, False),
    ("ig_NG", 1, False),
    ("sw", 1, False),
    ("ga_IE", 1, False),
    ("zu_ZA", 1, False),
    ("hu_HU", 1, False),
    ("id_ID", 1, False),
    ("ja_JP", 1, True),
    ("zh_CN", 1, True),
)

INVENTED_SHARE = 0.15
_PER_WEIGHT = 24  # names drawn per unit of locale weight and per pool

_ONSETS = ("b", "d", "k", "l", "m", "n", "r", "s", "t", "v", "z", "sh", "br", "kr", "dr", "tr", "j", "h", "f", "g", "p", "ch", "w")
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ai", "ei", "ia")
_CODAS = ("", "", "", "n", "r", "l", "s", "m", "k", "nd")
_LAST_ENDINGS = ("", "", "", "son", "ek", "ani", "ova", "ez", "ard", "elli", "ov", "sky", "mann", "ou")

_FAKER_LOCK = threading.Lock()


def is_latin_name(value: str) -> bool:
    """True when every letter is Latin script (accents allowed)."""
    if not value or value != value.strip():
        return False
    for ch in value:
        if ch.isalpha():
            if not unicodedata.name(ch, "").startswith("LATIN"):
                return False
        elif ch not in " -'." and unicodedata.category(ch) != "Mn":  # combining accents, as "İ".lower() makes
            return False
    return True


@lru_cache(maxsize=None)
def _faker(locale: str) -> Faker:
    # Building a Faker costs tens of milliseconds; instances are reseeded
    # before every use, so caching them cannot change any output.
    return Faker(locale)


@dataclass(frozen=True)
class NamePools:
    female: tuple[str, ...]
    male: tuple[str, ...]
    last: tuple[str, ...]
    cities: tuple[str, ...]


def _draw(fn: Callable[[], str], count: int) -> list[str]:
    out: list[str] = []
    for _ in range(count * 3):
        value = fn().strip()
        if is_latin_name(value) and value not in out:
            out.append(value)
            if len(out) == count:
                break
    return out


def build_name_pools(seed: int) -> NamePools:
    """Draw every Faker-sourced pool for one run, so generation itself never touches Faker."""
    rng = random.Random(f"names:{seed}")
    female: list[str] = []
    male: list[str] = []
    last: list[str] = []
    with _FAKER_LOCK:
        for locale, weight, romanized in LOCALES:
            fk = _faker(locale)
            fk.seed_instance(rng.getrandbits(64))
            count = weight * _PER_WEIGHT
            if romanized:
                female += _draw(fk.first_romanized_name_female if hasattr(fk, "first_romanized_name_female") else fk.first_romanized_name, count)
                male += _draw(fk.first_romanized_name_male if hasattr(fk, "first_romanized_name_male") else fk.first_romanized_name, count)
                last += _draw(fk.last_romanized_name, count)
            else:
                female += _draw(fk.first_name_female, count)
                male += _draw(fk.first_name_male, count)
                last += _draw(fk.last_name, count)
        us = _faker("en_US")
        us.seed_instance(rng.getrandbits(64))
        cities = _draw(us.city, 150)
    return NamePools(tuple(female), tuple(male), tuple(last), tuple(cities))


def invented_name(rng: random.Random, *, surname: bool = False) -> str:
    """A pronounceable name from syllables, so no dictionary lists it."""
    syllables = rng.choice((2, 2, 3)) if not surname else rng.choice((2, 2, 3))
    word = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(syllables - 1))
    word += rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
    if surname:
        word += rng.choice(_LAST_ENDINGS)
    return word.capitalize()


@dataclass(frozen=True)
class PersonName:
    first: str
    last: str
    sex: str  # "F" or "M": chooses titles and pronouns
    middle_initial: str = ""

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"

    @property
    def initial(self) -> str:
        return self.first[0]


def draw_person(pools: NamePools, rng: random.Random, *, sex: str | None = None, last: str | None = None) -> PersonName:
    sex = sex or rng.choice("FM")
    # INVENTED_SHARE of people get an invented first name, surname, or both.
    invent = rng.choice(("first", "last", "both")) if rng.random() < INVENTED_SHARE else ""
    first = invented_name(rng) if invent in ("first", "both") else rng.choice(pools.female if sex == "F" else pools.male)
    if last is None:
        last = invented_name(rng, surname=True) if invent in ("last", "both") else rng.choice(pools.last)
    middle = rng.choice("ABCDEFGHJKLMNPRSTW") if rng.random() < 0.25 else ""
    return PersonName(first, last, sex, middle)


def title_for(name: PersonName, rng: random.Random) -> str:
    if name.sex == "M":
        return "Mr."
    return rng.choice(("Ms.", "Ms.", "Mrs.", "Miss"))


# --- patient and relative surface forms -------------------------------------

PATIENT = Category.PATIENT
DOCTOR = Category.DOCTOR


def header_name(name: PersonName, rng: random.Random) -> Part:
    """The form a header field uses: 'LOPEZ, MARIA', 'Lopez, Maria J', 'Maria Lopez'."""
    form = rng.randrange(5)
    if form == 0:
        return phi(f"{name.last.upper()}, {name.first.upper()}", PATIENT)
    if form == 1:
        mid = f" {name.middle_initial}" if name.middle_initial else ""
        return phi(f"{name.last}, {name.first}{mid}", PATIENT)
    if form == 2:
        return phi(f"{name.first.upper()} {name.last.upper()}", PATIENT)
    if form == 3 and name.middle_initial:
        return phi(f"{name.first} {name.middle_initial}. {name.last}", PATIENT)
    return phi(name.full, PATIENT)


def narrative_name(name: PersonName, rng: random.Random) -> Part:
    """A first mention in running text: 'Mrs. Lopez', 'Ms. Maria Lopez', 'Maria Lopez'."""
    form = rng.randrange(4)
    if form == 0:
        return (title_for(name, rng) + " ", phi(name.last, PATIENT))
    if form == 1:
        return (title_for(name, rng) + " ", phi(name.full, PATIENT))
    if form == 2:
        return phi(f"{name.initial}. {name.last}", PATIENT)
    return phi(name.full, PATIENT)


def short_name(name: PersonName, rng: random.Random, *, sentence_start: bool = False) -> Part:
    """A later mention: 'Ms. Lopez', 'Maria', or no name at all."""
    form = rng.randrange(4)
    if form == 0:
        return (title_for(name, rng) + " ", phi(name.last, PATIENT))
    if form == 1:
        return phi(name.first, PATIENT)
    if form == 2:
        return "The patient" if sentence_start else "the patient"
    return "Pt" if sentence_start else "pt"


# --- clinician surface forms -------------------------------------------------


@dataclass(frozen=True)
class Clinician:
    name: PersonName
    credential: str  # MD, DO, NP, PA-C, RN, ...

    @property
    def is_physician(self) -> bool:
        return self.credential in ("MD", "DO", "MBBS")


def clinician_ref(c: Clinician, rng: random.Random) -> Part:
    """A mention inside a sentence: 'Dr. Nasser', 'Dr. Sam Okafor', 'Sam Okafor, NP'."""
    n = c.name
    if c.is_physician:
        form = rng.randrange(4)
        if form == 0:
            return ("Dr. ", phi(n.last, DOCTOR))
        if form == 1:
            return ("Dr. ", phi(n.full, DOCTOR))
        if form == 2:
            return ("Dr. ", phi(f"{n.initial}. {n.last}", DOCTOR))
        return (phi(n.full, DOCTOR), f", {c.credential}")
    form = rng.randrange(3)
    if form == 0:
        return (phi(n.full, DOCTOR), f", {c.credential}")
    if form == 1:
        return (f"{c.credential} ", phi(n.full, DOCTOR))
    return (phi(n.first, DOCTOR), f" ({c.credential})")


def clinician_signature(c: Clinician, rng: random.Random) -> Part:
    """A sign-off: '-N. NASSER, RN', 'Sam Okafor, MD', '/s/ S. Okafor MD'."""
    n = c.name
    form = rng.randrange(5)
    if form == 0:
        return ("-", phi(f"{n.initial}. {n.last.upper()}", DOCTOR), f", {c.credential}")
    if form == 1:
        mid = f" {n.middle_initial}." if n.middle_initial else ""
        return (phi(f"{n.first}{mid} {n.last}", DOCTOR), f", {c.credential}")
    if form == 2:
        return ("/s/ ", phi(f"{n.initial}. {n.last}", DOCTOR), f" {c.credential}")
    if form == 3:
        return (phi(f"{n.last}, {n.first}", DOCTOR), f" {c.credential}")
    return (phi(n.full, DOCTOR), f" {c.credential}")
