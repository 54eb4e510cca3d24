"""Synthetic patients, their relatives, and the clinicians who write about them.

A patient's identity is fixed once and reused by every note about them, so a
release can be checked for cross-note consistency (one name, one date shift),
while each note picks its own surface forms.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta

from .clinical import CONDITIONS, Condition
from .names import Clinician, NamePools, PersonName, draw_person
from .values import (
    COUNTRIES,
    Address,
    Facility,
    PhoneNumber,
    draw_address,
    draw_facility,
    draw_phone,
    email_text,
    id_text,
    random_date,
)

#: Age groups: which registers a patient can appear in depends on it.
CHILD, ADULT, ELDER = "child", "adult", "elder"

_RELATIONS = {
    CHILD: ("mother", "father", "grandmother", "aunt", "stepfather", "guardian"),
    ADULT: ("wife", "husband", "partner", "daughter", "son", "sister", "brother", "friend", "mother"),
    ELDER: ("daughter", "son", "granddaughter", "grandson", "niece", "wife", "husband"),
}
_FEMALE_RELATIONS = frozenset(("mother", "grandmother", "aunt", "wife", "daughter", "sister", "granddaughter", "niece"))
_MALE_RELATIONS = frozenset(("father", "stepfather", "husband", "son", "brother", "grandson"))
_SHARES_SURNAME = frozenset(("mother", "father", "daughter", "son", "sister", "brother", "granddaughter", "grandson", "wife", "husband"))


@dataclass(frozen=True)
class Relative:
    relation: str
    name: PersonName
    phone: PhoneNumber


@dataclass(frozen=True)
class Patient:
    patient_id: str
    group: str
    name: PersonName
    dob: date
    mrn: str
    ssn: str
    account: str
    member_id: str
    phone: PhoneNumber
    email: str
    address: Address
    relatives: tuple[Relative, ...]
    pcp: Clinician
    hospital: Facility
    clinic: Facility
    condition: Condition
    origin_country: str | None

    def age_days(self, on: date) -> int:
        return (on - self.dob).days

    def age_years(self, on: date) -> int:
        years = on.year - self.dob.year
        if (on.month, on.day) < (self.dob.month, self.dob.day):
            years -= 1
        return years


@dataclass
class Cast:
    """Clinicians of one run; reused across patients so staff names recur."""

    pools: NamePools
    physicians: list[Clinician] = field(default_factory=list)
    others: list[Clinician] = field(default_factory=list)

    def physician(self, rng: random.Random) -> Clinician:
        if self.physicians and rng.random() < 0.6:
            return rng.choice(self.physicians)
        c = Clinician(draw_person(self.pools, rng), rng.choice(("MD", "MD", "MD", "DO", "MBBS")))
        self.physicians.append(c)
        return c

    def staff(self, rng: random.Random, credential: str | None = None) -> Clinician:
        matching = [c for c in self.others if credential in (None, c.credential)]
        if matching and rng.random() < 0.5:
            return rng.choice(matching)
        c = Clinician(draw_person(self.pools, rng), credential or rng.choice(("RN", "RN", "NP", "PA-C", "LPN")))
        self.others.append(c)
        return c


def _relative_sex(relation: str, rng: random.Random) -> str:
    if relation in _FEMALE_RELATIONS:
        return "F"
    if relation in _MALE_RELATIONS:
        return "M"
    return rng.choice("FM")


def draw_patient(patient_id: str, group: str, first_visit: date, pools: NamePools, cast: Cast, rng: random.Random) -> Patient:
    name = draw_person(pools, rng)
    if group == CHILD:
        dob = first_visit - timedelta(days=rng.choice((rng.randrange(1, 28), rng.randrange(28, 365 * 3), rng.randrange(365 * 3, 365 * 17))))
    elif group == ELDER:
        dob = first_visit - timedelta(days=rng.randrange(365 * 90 + 30, 365 * 104))
    else:
        dob = first_visit - timedelta(days=rng.randrange(365 * 18 + 30, 365 * 89))
    relations = list(_RELATIONS[group])
    rng.shuffle(relations)
    count = 2 if group == CHILD else rng.choice((0, 1, 1, 2, 3))
    if group == CHILD:
        relations = ["mother", "father"] if rng.random() < 0.7 else relations[:2]
    relatives = tuple(
        Relative(rel, draw_person(pools, rng, sex=_relative_sex(rel, rng), last=name.last if rel in _SHARES_SURNAME and rng.random() < 0.75 else None), draw_phone(rng))
        for rel in relations[:count]
    )
    hospital_kind = "children" if group == CHILD and rng.random() < 0.6 else "hospital"
    clinic_kind = "pediatrics" if group == CHILD else ("nursing" if group == ELDER and rng.random() < 0.5 else "clinic")
    mail_owner = relatives[0].name if group == CHILD and relatives else name
    year = first_visit.year
    return Patient(
        patient_id=patient_id,
        group=group,
        name=name,
        dob=dob,
        mrn=id_text("mrn", rng, year),
        ssn=id_text("ssn", rng, year),
        account=id_text("account", rng, year),
        member_id=id_text("member", rng, year),
        phone=draw_phone(rng),
        email=email_text(mail_owner.first, mail_owner.last, rng),
        address=draw_address(rng, pools.cities, pools.last),
        relatives=relatives,
        pcp=cast.physician(rng),
        hospital=draw_facility(hospital_kind, rng, pools.cities, pools.last),
        clinic=draw_facility(clinic_kind, rng, pools.cities, pools.last),
        condition=rng.choice(CONDITIONS),
        origin_country=rng.choice(COUNTRIES) if rng.random() < 0.2 else None,
    )


def visit_dates(first: date, count: int, rng: random.Random) -> list[date]:
    """Chronological note dates: same day, days, or months apart."""
    out = [first]
    for _ in range(count - 1):
        out.append(out[-1] + timedelta(days=rng.choice((0, 1, 2, rng.randrange(3, 30), rng.randrange(30, 200)))))
    return out


def first_visit_date(rng: random.Random) -> date:
    return random_date(rng, date(2011, 1, 1), date(2024, 6, 30))
