"""Structured PHI values and their many written forms.

Each ``*_text`` function returns the exact characters of one gold span, so
the caller decides only where the span sits and what unlabelled words
surround it (labels such as "MRN:" and titles stay outside spans).
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, timedelta

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def ordinal(n: int) -> str:
    if 11 <= n % 100 <= 13:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


# --- dates ------------------------------------------------------------------

#: Styles that keep day, month and year: safe for DOBs and header fields.
FULL_DATE_STYLES = (
    "m/d/yyyy", "mm/dd/yyyy", "mm/dd/yy", "m/d/yy", "iso", "month d, yyyy",
    "month dth, yyyy", "d mon yyyy", "dd-MON-yyyy", "mm-dd-yyyy", "mon d yyyy",
    "weekday, month d, yyyy", "d month yyyy",
)
#: Styles that drop the year or the day, as running text often does.
PARTIAL_DATE_STYLES = ("m/d", "month dth", "mon d", "Mon-yy", "month yyyy", "mm/yyyy", "weekday m/d")


def date_text(d: date, style: str) -> str:
    mon = MONTHS[d.month - 1]
    if style == "m/d/yyyy":
        return f"{d.month}/{d.day}/{d.year}"
    if style == "mm/dd/yyyy":
        return f"{d.month:02d}/{d.day:02d}/{d.year}"
    if style == "mm/dd/yy":
        return f"{d.month:02d}/{d.day:02d}/{d.year % 100:02d}"
    if style == "m/d/yy":
        return f"{d.month}/{d.day}/{d.year % 100:02d}"
    if style == "iso":
        return d.isoformat()
    if style == "month d, yyyy":
        return f"{mon} {d.day}, {d.year}"
    if style == "month dth, yyyy":
        return f"{mon} {ordinal(d.day)}, {d.year}"
    if style == "d mon yyyy":
        return f"{d.day} {mon[:3]} {d.year}"
    if style == "d month yyyy":
        return f"{d.day} {mon} {d.year}"
    if style == "dd-MON-yyyy":
        return f"{d.day:02d}-{mon[:3].upper()}-{d.year}"
    if style == "mm-dd-yyyy":
        return f"{d.month:02d}-{d.day:02d}-{d.year}"
    if style == "mon d yyyy":
        return f"{mon[:3]} {d.day} {d.year}"
    if style == "weekday, month d, yyyy":
        return f"{WEEKDAYS[d.weekday()]}, {mon} {d.day}, {d.year}"
    if style == "m/d":
        return f"{d.month}/{d.day}"
    if style == "month dth":
        return f"{mon} {ordinal(d.day)}"
    if style == "mon d":
        return f"{mon[:3]} {d.day}"
    if style == "Mon-yy":
        return f"{mon[:3]}-{d.year % 100:02d}"
    if style == "month yyyy":
        return f"{mon} {d.year}"
    if style == "mm/yyyy":
        return f"{d.month:02d}/{d.year}"
    if style == "weekday m/d":
        # The weekday is inside the span: a surrogate date next to the
        # original weekday would reveal the shift modulo seven.
        return f"{WEEKDAYS[d.weekday()][:3]} {d.month}/{d.day}"
    raise ValueError(f"unknown date style {style!r}")


def timestamp_text(dt: datetime, rng: random.Random) -> str:
    """A date joined to its time in one timestamp (one DATE span)."""
    form = rng.randrange(4)
    if form == 0:
        return dt.strftime("%Y-%m-%dT%H:%M")
    if form == 1:
        return dt.strftime("%Y-%m-%d %H:%M")
    if form == 2:
        return f"{dt.month:02d}/{dt.day:02d}/{dt.year} {dt.hour:02d}:{dt.minute:02d}"
    return f"{dt.month}/{dt.day}/{dt.year % 100:02d} {dt.hour:02d}{dt.minute:02d}"


def at_time(d: date, rng: random.Random) -> datetime:
    return datetime(d.year, d.month, d.day, rng.randrange(24), rng.choice((0, 5, 10, 15, 20, 30, 40, 45, 50, 55)))


def random_date(rng: random.Random, start: date, end: date) -> date:
    return start + timedelta(days=rng.randrange((end - start).days + 1))


# --- ages -------------------------------------------------------------------


def adult_age_parts(years: int, rng: random.Random, *, attributive: bool = True) -> tuple[str, str]:
    """(words before, span text) for an age in years.

    Attributive forms stand before a noun ("a 72-year-old man"); the others
    stand alone ("age 72", "72 years old").
    """
    if attributive:
        return "", rng.choice((f"{years}-year-old", f"{years} year old", f"{years} y/o", f"{years} yo", f"{years}yo", f"{years} y.o.", f"{years} years old"))
    form = rng.randrange(5)
    if form == 0:
        return "age ", str(years)
    if form == 1:
        return "aged ", str(years)
    if form == 2:
        return "", f"{years} years old"
    if form == 3:
        return "", f"{years} years"
    return "", f"{years} y/o"


def child_age_span(days_old: int, rng: random.Random, *, attributive: bool = True) -> str:
    """A child's age in the unit a pediatric note would pick."""
    if days_old < 28:
        n, unit, short = days_old, "day", "d"
    elif days_old < 90:
        n, unit, short = days_old // 7, "week", "wk"
    elif days_old < 365 * 3:
        n, unit, short = int(days_old / 30.44), "month", "mo"
    else:
        n, unit, short = days_old // 365, "year", "yo" if attributive else "y"
    plural = "s" if n != 1 else ""
    if attributive:
        return rng.choice((f"{n}-{unit}-old", f"{n} {unit} old", f"{n} {short} old" if unit != "year" else f"{n} yo"))
    return rng.choice((f"{n} {unit}{plural}", f"{n} {unit}{plural} old", f"{n}{short}" if unit != "year" else f"{n} y/o"))


def indefinite_article(following: str) -> str:
    """'a' or 'an' before a spelled number: "an 8-year-old", "an 11 month old"."""
    digits = ""
    for ch in following:
        if not ch.isdigit():
            break
        digits += ch
    return "an" if digits.startswith("8") or digits in ("11", "18") else "a"


# --- identifiers ------------------------------------------------------------

_ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZ"


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(n))


def _letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(_ALNUM) for _ in range(n))


def id_text(kind: str, rng: random.Random, year: int = 2019) -> str:
    """One identifier value of the given kind, with varied punctuation."""
    yy = f"{year % 100:02d}"
    f = rng.randrange(4)
    if kind == "mrn":
        return (f"{_digits(rng, 8)}", f"{_digits(rng, 7)}", f"{_digits(rng, 2)}-{_digits(rng, 2)}-{_digits(rng, 3)}", f"E{_digits(rng, 7)}")[f]
    if kind == "ssn":
        a, b, c = _digits(rng, 3), _digits(rng, 2), _digits(rng, 4)
        return (f"{a}-{b}-{c}", f"{a} {b} {c}", f"{a}{b}{c}", f"{a}-{b}-{c}")[f]
    if kind == "account":
        return (f"A{_digits(rng, 4)}-{_digits(rng, 2)}", f"00{_digits(rng, 7)}", f"ACC-{_digits(rng, 7)}", f"{_digits(rng, 2)}-{_digits(rng, 4)}-{_digits(rng, 4)}")[f]
    if kind == "member":
        return (f"{_letters(rng, 3)}{_digits(rng, 9)}", f"W{_digits(rng, 3)}-{_digits(rng, 3)}-{_digits(rng, 3)}", f"MBR{_digits(rng, 7)}", f"{_letters(rng, 3)} {_digits(rng, 4)} {_digits(rng, 4)}")[f]
    if kind == "accession":
        return (f"S{yy}-{_digits(rng, 5)}", f"SP-{year}-{_digits(rng, 6)}", f"RAD-{_digits(rng, 5)}", f"CT{yy}-{_digits(rng, 6)}")[f]
    if kind == "npi":
        return rng.choice("12") + _digits(rng, 9)
    if kind == "encounter":
        return (f"ENC-{year}-{_digits(rng, 6)}", _digits(rng, 9), f"V{_digits(rng, 9)}", f"{_digits(rng, 4)}.{_digits(rng, 5)}")[f]
    if kind == "device":
        return (f"{_letters(rng, 2)}-{_digits(rng, 2)}{_letters(rng, 1)}{_digits(rng, 1)}-{_digits(rng, 4)}", f"MDT{_digits(rng, 7)}", f"{_digits(rng, 1)}{_letters(rng, 1)}{_digits(rng, 1)}C-{_digits(rng, 2)}A{_digits(rng, 1)}-{_digits(rng, 2)}B{_digits(rng, 1)}", f"SN{_digits(rng, 8)}")[f]
    if kind == "dea":
        return _letters(rng, 2) + _digits(rng, 7)
    if kind == "order":
        return (f"ORD{_digits(rng, 8)}", _digits(rng, 10), f"{_digits(rng, 3)}-{_digits(rng, 5)}", f"LAB{yy}{_digits(rng, 6)}")[f]
    raise ValueError(f"unknown identifier kind {kind!r}")


# --- phones -----------------------------------------------------------------


@dataclass(frozen=True)
class PhoneNumber:
    area: str
    exchange: str
    line: str


def draw_phone(rng: random.Random) -> PhoneNumber:
    area = f"{rng.randrange(2, 10)}{rng.randrange(10)}{rng.randrange(10)}"
    exchange = "555" if rng.random() < 0.3 else f"{rng.randrange(2, 10)}{_digits(rng, 2)}"
    return PhoneNumber(area, exchange, _digits(rng, 4))


def phone_text(p: PhoneNumber, rng: random.Random, *, extension: bool = False) -> str:
    a, e, l = p.area, p.exchange, p.line
    forms = (
        f"({a}) {e}-{l}", f"{a}-{e}-{l}", f"{a}.{e}.{l}", f"{a}{e}{l}", f"+1 {a} {e} {l}",
        f"1-{a}-{e}-{l}", f"{a} {e} {l}", f"{a}/{e}-{l}", f"({a}){e}-{l}",
    )
    text = rng.choice(forms)
    if extension:
        text += rng.choice((" x", " ext. ", " ext ", "x", " Ext ")) + _digits(rng, rng.choice((3, 4)))
    return text


# --- web --------------------------------------------------------------------

_MAIL_DOMAINS = ("gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "aol.com", "icloud.com", "mail.example", "inbox.example.net", "post.example.org")


def ascii_slug(value: str) -> str:
    plain = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.lower() if ch.isalnum())


def email_text(first: str, last: str, rng: random.Random, domain: str | None = None) -> str:
    f, l = ascii_slug(first) or "pt", ascii_slug(last) or "mail"
    local = rng.choice((f"{f}.{l}", f"{f[0]}{l}", f"{f}{l}{rng.randrange(1, 99)}", f"{f}_{l[0]}{rng.randrange(50, 99)}", f"{l}.{f[0]}"))
    return f"{local}@{domain or rng.choice(_MAIL_DOMAINS)}"


def handle_text(first: str, last: str, rng: random.Random) -> str:
    f, l = ascii_slug(first) or "user", ascii_slug(last) or "x"
    return rng.choice((f"{f[0]}{l}{rng.randrange(10, 99)}", f"{f}_{l[0]}", f"@{f}{l[:3]}", f"{l}{f[0]}{rng.randrange(1, 9)}"))


def url_text(domain: str, rng: random.Random) -> str:
    form = rng.randrange(4)
    if form == 0:
        return f"https://portal.{domain}/messages/{_digits(rng, 6)}"
    if form == 1:
        return f"www.{domain}"
    if form == 2:
        return f"https://{domain}/patients/forms/intake?id={_digits(rng, 5)}"
    return f"http://mychart.{domain}"


def ip_text(rng: random.Random) -> str:
    form = rng.randrange(3)
    if form == 0:
        return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
    if form == 1:
        return f"192.168.{rng.randrange(256)}.{rng.randrange(1, 255)}"
    return f"172.{rng.randrange(16, 32)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"


# --- places -----------------------------------------------------------------

STATES: tuple[tuple[str, str], ...] = (
    ("Alabama", "AL"), ("Alaska", "AK"), ("Arizona", "AZ"), ("Arkansas", "AR"), ("California", "CA"),
    ("Colorado", "CO"), ("Connecticut", "CT"), ("Delaware", "DE"), ("Florida", "FL"), ("Georgia", "GA"),
    ("Hawaii", "HI"), ("Idaho", "ID"), ("Illinois", "IL"), ("Indiana", "IN"), ("Iowa", "IA"),
    ("Kansas", "KS"), ("Kentucky", "KY"), ("Louisiana", "LA"), ("Maine", "ME"), ("Maryland", "MD"),
    ("Massachusetts", "MA"), ("Michigan", "MI"), ("Minnesota", "MN"), ("Mississippi", "MS"), ("Missouri", "MO"),
    ("Montana", "MT"), ("Nebraska", "NE"), ("Nevada", "NV"), ("New Hampshire", "NH"), ("New Jersey", "NJ"),
    ("New Mexico", "NM"), ("New York", "NY"), ("North Carolina", "NC"), ("North Dakota", "ND"), ("Ohio", "OH"),
    ("Oklahoma", "OK"), ("Oregon", "OR"), ("Pennsylvania", "PA"), ("Rhode Island", "RI"), ("South Carolina", "SC"),
    ("South Dakota", "SD"), ("Tennessee", "TN"), ("Texas", "TX"), ("Utah", "UT"), ("Vermont", "VT"),
    ("Virginia", "VA"), ("Washington", "WA"), ("West Virginia", "WV"), ("Wisconsin", "WI"), ("Wyoming", "WY"),
)
COUNTRIES = ("Brazil", "Mexico", "Nigeria", "Vietnam", "Poland", "Ireland", "India", "Haiti", "Portugal", "Kenya", "Turkey", "Guatemala", "the Philippines", "Ghana", "Italy")
_TOWNS = (
    "Salem", "Quincy", "Springfield", "Fairfield", "Franklin", "Greenville", "Bristol", "Clinton", "Madison", "Georgetown",
    "Arlington", "Ashland", "Burlington", "Dover", "Hudson", "Kingston", "Lexington", "Milford", "Newport", "Oxford",
    "Riverton", "Shelby", "Troy", "Winchester", "Marion", "Auburn", "Dayton", "Lebanon", "Plymouth", "Chester",
    "Lakewood", "Brookfield", "Westfield", "Hampton", "Jackson", "Canton", "Florence", "Manchester", "Medford", "Waltham",
)
_STREET_BASES = (
    "Elm", "Maple", "Oak", "Cedar", "Pine", "Walnut", "Chestnut", "Highland", "Washington", "Lincoln", "Jefferson",
    "Park", "Lake", "Hill", "River", "Church", "Mill", "Spring", "Union", "Prospect", "Center", "Pleasant", "Sunset",
    "Forest", "Meadow", "Harbor", "Ridge", "Willow", "Birch", "Orchard", "Main", "Broad", "Water", "Summit", "Liberty",
)
_SUFFIXES = ("St", "Street", "Ave", "Avenue", "Rd", "Road", "Blvd", "Dr", "Drive", "Ln", "Lane", "Way", "Ct", "Pl", "Terrace", "Circle")


@dataclass(frozen=True)
class Address:
    street: str  # "12 Elm St"
    unit: str  # "Apt 4B" or ""
    city: str
    state: str
    state_abbr: str
    zip: str


def draw_city(rng: random.Random, cities: tuple[str, ...]) -> str:
    return rng.choice(_TOWNS) if rng.random() < 0.55 or not cities else rng.choice(cities)


def draw_address(rng: random.Random, cities: tuple[str, ...], surnames: tuple[str, ...]) -> Address:
    base = rng.choice(_STREET_BASES) if rng.random() < 0.6 or not surnames else rng.choice(surnames)
    direction = rng.choice(("N ", "S ", "E ", "W ", "NW ")) if rng.random() < 0.12 else ""
    street = f"{rng.randrange(1, 9999)} {direction}{base} {rng.choice(_SUFFIXES)}"
    unit = rng.choice((f"Apt {rng.randrange(1, 9)}{rng.choice('ABCD')}", f"Apt {rng.randrange(1, 40)}", f"Unit {rng.randrange(1, 300)}", f"#{rng.randrange(1, 30)}")) if rng.random() < 0.25 else ""
    state, abbr = rng.choice(STATES)
    zipcode = _digits(rng, 5) + (f"-{_digits(rng, 4)}" if rng.random() < 0.15 else "")
    return Address(street, unit, draw_city(rng, cities), state, abbr, zipcode)


def address_text(a: Address, rng: random.Random, *, multiline: bool = False) -> str:
    """A whole address, one LOCATION span even when it runs over two lines."""
    street = f"{a.street} {a.unit}" if a.unit and rng.random() < 0.8 else a.street
    state = a.state_abbr if rng.random() < 0.85 else a.state
    tail = f"{a.city}, {state} {a.zip}"
    return f"{street}\n{tail}" if multiline else f"{street}, {tail}"


def room_text(rng: random.Random) -> str:
    form = rng.randrange(5)
    if form == 0:
        return f"Room {rng.randrange(100, 999)}{rng.choice(('', 'A', 'B'))}"
    if form == 1:
        return f"Rm {rng.randrange(2, 12)}-{rng.randrange(100, 199)}"
    if form == 2:
        return f"Bed {rng.randrange(1, 30)}"
    if form == 3:
        return f"room {rng.randrange(1, 40)}"
    return f"Room {rng.randrange(200, 899)}, Bed {rng.choice((1, 2))}"


# --- facilities -------------------------------------------------------------

_PLACE_WORDS = (
    "Riverside", "Lakeview", "Cedar Ridge", "Harborview", "Northfield", "Summit", "Mercy", "Good Samaritan", "Valley",
    "Pinecrest", "Bayview", "Westbrook", "Fairview", "Oakwood", "Highland", "Maple Grove", "Stonebridge", "Brookside",
    "Evergreen", "Silver Lake", "Crescent", "Meadowbrook", "Eastside", "Hillcrest", "Willow Creek",
)
_SAINTS = ("Anne", "Joseph", "Mary", "Luke", "Francis", "Vincent", "Elizabeth", "Jude", "Agnes", "Catherine", "Michael", "Clare")
_HOSPITAL_TYPES = ("General Hospital", "Medical Center", "Regional Medical Center", "Community Hospital", "Hospital", "Memorial Hospital")
_CLINIC_TYPES = ("Family Medicine", "Internal Medicine Associates", "Primary Care", "Health Center", "Medical Group", "Clinic")
_SPECIALTY_TYPES = {
    "cardiology": "Heart Institute", "oncology": "Cancer Center", "pediatrics": "Pediatrics", "imaging": "Imaging Center",
    "pathology": "Pathology Associates", "rehab": "Rehabilitation Center", "nursing": "Nursing and Rehabilitation Center",
    "assisted": "Assisted Living", "children": "Children's Hospital",
}


@dataclass(frozen=True)
class Facility:
    name: str
    abbrev: str
    address: Address
    phone: PhoneNumber
    fax: PhoneNumber
    domain: str


def _abbrev(name: str) -> str:
    words = [w for w in name.replace("'s", "").replace("St.", "Saint").split() if w[0].isupper() and w not in ("And", "Of")]
    return "".join(w[0] for w in words)


def draw_facility(kind: str, rng: random.Random, cities: tuple[str, ...], surnames: tuple[str, ...]) -> Facility:
    """kind: hospital, clinic, or a key of the specialty table."""
    roll = rng.random()
    if roll < 0.15:
        saint = rng.choice(_SAINTS)
        stem = rng.choice((f"St. {saint}'s", f"Saint {saint}", f"St. {saint}"))
    elif roll < 0.3:
        surname = rng.choice(surnames)
        stem = surname[0].upper() + surname[1:]  # "de Souza" -> "De Souza Clinic"
    elif roll < 0.45:
        stem = draw_city(rng, cities)
    else:
        stem = rng.choice(_PLACE_WORDS)
    if kind == "hospital":
        kind_word = rng.choice(_HOSPITAL_TYPES)
    elif kind == "clinic":
        kind_word = rng.choice(_CLINIC_TYPES)
    else:
        kind_word = _SPECIALTY_TYPES[kind]
    name = f"{stem} {kind_word}"
    domain = ascii_slug(stem)[:16] + rng.choice(("health.org", "med.org", "hospital.org", "care.com", "clinic.example"))
    return Facility(name, _abbrev(name), draw_address(rng, cities, surnames), draw_phone(rng), draw_phone(rng), domain)
