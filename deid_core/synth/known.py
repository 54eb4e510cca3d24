"""The warehouse's record of each synthetic patient, as a known-identifier file holds it.

Values are written the way a structured record stores them (``LAST, FIRST
M``, ISO dates, ten-digit phones), not the way the notes write them, so the
detector has to find every written form.  The record has realistic gaps:
a relative is missing from it now and then, and only the patient's primary
physician is listed among the staff (nurses and consultants are not).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from deid_core.known import KnownPatient

from .names import PersonName
from .profiles import Patient
from .values import PhoneNumber

#: chance that a relative the notes mention is missing from the record
RELATIVE_GAP = 0.25


def _record_name(name: PersonName) -> str:
    middle = f" {name.middle_initial}" if name.middle_initial else ""
    return f"{name.last.upper()}, {name.first.upper()}{middle}"


def _record_phone(phone: PhoneNumber) -> str:
    return f"{phone.area}{phone.exchange}{phone.line}"


def known_record(patient: Patient, seed: int) -> KnownPatient:
    """The record of one patient; the gaps are drawn from their own seed, so the notes do not change."""
    rng = random.Random(f"known:{seed}:{patient.patient_id}")
    kept = [r for r in patient.relatives if rng.random() >= RELATIVE_GAP]
    a = patient.address
    street = f"{a.street} {a.unit}".strip()
    return KnownPatient(
        patient.patient_id,
        names=(_record_name(patient.name),),
        relatives=tuple(r.name.full for r in kept),
        staff=(patient.pcp.name.full,),
        ids=(patient.mrn, patient.ssn, patient.account, patient.member_id),
        dates=(patient.dob.isoformat(),),
        phones=(_record_phone(patient.phone), *(_record_phone(r.phone) for r in kept)),
        emails=(patient.email,),
        addresses=(f"{street}, {a.city}, {a.state_abbr} {a.zip}",),
    )


def known_records(patients: Sequence[Patient], seed: int) -> list[KnownPatient]:
    return [known_record(p, seed) for p in patients]
