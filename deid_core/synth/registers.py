"""One writer per register: the note is assembled piece by piece.

A writer receives a :class:`NoteContext` and appends to a
:class:`NoteBuilder`; every PHI value passes through ``phi(...)`` so its
offsets are recorded when it is inserted.  Optional details go through
``ctx.opt`` so PHI density varies from note to note.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Callable

from deid_core.spans import Category

from . import clinical as cl
from .builder import NoteBuilder, Part, phi, trap
from .names import Clinician, clinician_ref, clinician_signature, header_name, narrative_name, short_name
from .profiles import CHILD, ELDER, Cast, Patient, Relative
from .values import (
    FULL_DATE_STYLES,
    PARTIAL_DATE_STYLES,
    Facility,
    PhoneNumber,
    adult_age_parts,
    indefinite_article,
    address_text,
    at_time,
    child_age_span,
    date_text,
    draw_phone,
    handle_text,
    id_text,
    ip_text,
    phone_text,
    room_text,
    timestamp_text,
    url_text,
)

AGE, DATE, DOCTOR, HOSPITAL, ID, LOCATION, PATIENT, PHONE, WEB = (
    Category.AGE, Category.DATE, Category.DOCTOR, Category.HOSPITAL, Category.ID,
    Category.LOCATION, Category.PATIENT, Category.PHONE, Category.WEB,
)


@dataclass
class NoteContext:
    rng: random.Random
    patient: Patient
    when: date
    cast: Cast
    density: float  # scales every optional PHI detail

    def opt(self, p: float) -> bool:
        return self.rng.random() < min(1.0, p * self.density)

    def pick(self, *options):
        return self.rng.choice(options)

    # -- value helpers --------------------------------------------------

    def full_date(self, d: date) -> Part:
        return phi(date_text(d, self.rng.choice(FULL_DATE_STYLES)), DATE)

    def any_date(self, d: date) -> Part:
        """A date in running text; partial forms are common there."""
        return phi(date_text(d, self.rng.choice(FULL_DATE_STYLES + PARTIAL_DATE_STYLES)), DATE)

    def on_date(self, d: date) -> Part:
        return ("on ", self.any_date(d))

    def stamp(self, d: date) -> Part:
        return phi(timestamp_text(at_time(d, self.rng), self.rng), DATE)

    def age_text(self, *, attributive: bool) -> tuple[str, str]:
        p = self.patient
        if p.group == CHILD and p.age_years(self.when) < 18:
            return "", child_age_span(max(1, p.age_days(self.when)), self.rng, attributive=attributive)
        return adult_age_parts(p.age_years(self.when), self.rng, attributive=attributive)

    def age(self, *, attributive: bool = True) -> Part:
        """The age on the note's date; attributive forms go before a noun."""
        before, span = self.age_text(attributive=attributive)
        return (before, phi(span, AGE))

    def a_age(self) -> Part:
        """'a 72-year-old' / 'an 8 month old', the article matching the number."""
        _, span = self.age_text(attributive=True)
        return (indefinite_article(span) + " ", phi(span, AGE))

    def phone(self, number: PhoneNumber, *, extension: bool = False) -> Part:
        return phi(phone_text(number, self.rng, extension=extension), PHONE)

    def facility(self, f: Facility) -> Part:
        if len(f.abbrev) >= 3 and self.rng.random() < 0.2:
            return phi(f.abbrev, HOSPITAL)
        return phi(f.name, HOSPITAL)

    def ident(self, kind: str) -> Part:
        return phi(id_text(kind, self.rng, self.when.year), ID)

    # -- people ---------------------------------------------------------

    def noun(self) -> str:
        p = self.patient
        if p.group == CHILD:
            return "girl" if p.name.sex == "F" else "boy"
        return self.pick("woman", "female", "lady") if p.name.sex == "F" else self.pick("man", "male", "gentleman")

    def he(self) -> str:
        return "she" if self.patient.name.sex == "F" else "he"

    def his(self) -> str:
        return "her" if self.patient.name.sex == "F" else "his"

    def him(self) -> str:
        return "her" if self.patient.name.sex == "F" else "him"

    def relative(self) -> Relative | None:
        rels = self.patient.relatives
        return self.rng.choice(rels) if rels else None

    def relative_mention(self, rel: Relative) -> Part:
        """'daughter Ana', 'her husband, Luis Lopez', 'Ana (daughter)'."""
        n = rel.name
        form = self.rng.randrange(4)
        if form == 0:
            return (f"{rel.relation} ", phi(n.first, PATIENT))
        if form == 1:
            return (f"{self.his()} {rel.relation}, ", phi(n.full, PATIENT))
        if form == 2:
            return (phi(n.first, PATIENT), f" ({rel.relation})")
        return (f"{rel.relation} ", phi(n.full, PATIENT))

    def doc_ref(self, c: Clinician) -> Part:
        return clinician_ref(c, self.rng)

    def doc_sig(self, c: Clinician) -> Part:
        return clinician_signature(c, self.rng)

    def attending_line(self, c: Clinician) -> Part:
        label = self.pick("Attending: ", "Attending physician: ", "Attending MD: ", "Primary team attending: ")
        return (label, phi(c.name.full, DOCTOR), self.pick(f", {c.credential}", f" {c.credential}", ""))


Writer = Callable[[NoteContext, NoteBuilder], None]


# --- discharge summary ----------------------------------------------------


def discharge_summary(ctx: NoteContext, b: NoteBuilder) -> None:
    p, rng = ctx.patient, ctx.rng
    admit = ctx.when
    discharge = admit + timedelta(days=rng.randrange(1, 12))
    attending = ctx.cast.physician(rng)
    b.line(ctx.pick("DISCHARGE SUMMARY", "Discharge Summary", "HOSPITAL DISCHARGE SUMMARY"))
    b.add("Patient: ", header_name(p.name, rng), ctx.pick("   ", "\n"), ctx.pick("MRN: ", "MR#: ", "Med Rec #"), phi(p.mrn, ID))
    if ctx.opt(0.8):
        b.add("   DOB: ", ctx.full_date(p.dob))
    b.line()
    if ctx.opt(0.4):
        b.add(ctx.pick("Account #: ", "Acct# ", "Account: "), phi(p.account, ID))
        if ctx.opt(0.3):
            b.add("   SSN: ", phi(p.ssn, ID))
        b.line()
    b.line(ctx.pick("Admission Date: ", "Admitted: ", "Date of Admission: "), ctx.full_date(admit), ctx.pick("   ", "\n"),
           ctx.pick("Discharge Date: ", "Discharged: ", "Date of Discharge: "), ctx.full_date(discharge))
    b.add(ctx.attending_line(attending))
    if ctx.opt(0.3):
        b.add(ctx.pick(", pager ", "  pgr ", ", beeper #"), ctx.phone(draw_phone(rng)))
    b.line()
    if ctx.opt(0.5):
        b.line("PCP: ", ctx.doc_ref(p.pcp), ctx.pick("", (" (", ctx.phone(p.clinic.phone), ")")))
    b.line("Service: ", ctx.pick("Medicine", "Hospital Medicine", "Cardiology", "General Surgery"))
    b.line()
    b.line("HISTORY OF PRESENT ILLNESS:")
    b.add(narrative_name(p.name, rng), " is ", ctx.a_age(), f" {ctx.noun()} who presented to ")
    b.add(ctx.facility(p.hospital) if ctx.opt(0.9) else "the emergency department", f" with {p.condition.hpi}. ")
    b.line("On arrival ", cl.vitals_trap(rng), ". ", cl.generic_history(rng))
    b.line()
    b.line("HOSPITAL COURSE:")
    b.add(short_name(p.name, rng, sentence_start=True), f" {p.condition.course}. ", cl.exam_sentence(rng), " ")
    if ctx.opt(0.6):
        b.add(ctx.pick("On ", "By "), ctx.any_date(admit + timedelta(days=1)), " ", cl.device_trap(rng), " was removed. ")
    if ctx.opt(0.4):
        b.add("Labs at discharge: ", cl.lab_trap(rng), ". ")
    b.line(cl.plan_sentence(rng))
    b.line()
    b.line("DISCHARGE DIAGNOSIS: ", p.condition.problem, " (", trap(p.condition.icd, "icd"), ")")
    b.line("DISCHARGE MEDICATIONS:")
    meds = p.condition.meds[: rng.randrange(1, len(p.condition.meds) + 1)]
    for i, med in enumerate(meds, 1):
        b.line(f"{i}. ", trap(med, "drug"), ctx.pick(" daily", " BID", " as directed"))
    b.line(f"{len(meds) + 1}. ", cl.dose_trap(rng), " 1 tab q6h prn pain")
    b.line()
    rel = ctx.relative()
    if rel and ctx.opt(0.7):
        b.line("DISPOSITION: Home with ", ctx.relative_mention(rel), ".")
    elif ctx.opt(0.5):
        rehab = p.clinic if p.group == ELDER else p.hospital
        b.line("DISPOSITION: To ", ctx.facility(rehab), ".")
    else:
        b.line("DISPOSITION: Home with services.")
    b.add("FOLLOW-UP: ", ctx.doc_ref(p.pcp))
    if ctx.opt(0.8):
        b.add(" at ", ctx.facility(p.clinic))
    if ctx.opt(0.7):
        appointment = trap(f"{rng.randrange(8, 17)}:{rng.choice(('00', '15', '30', '45'))}", "time")
        b.add(" ", ctx.on_date(discharge + timedelta(days=rng.randrange(5, 30))), " at ", appointment)
    if ctx.opt(0.6):
        b.add(ctx.pick(", phone ", ", tel. ", " - call "), ctx.phone(p.clinic.phone, extension=rng.random() < 0.3))
    b.line(".")
    if ctx.opt(0.4):
        b.line("Clinic address: ", phi(address_text(p.clinic.address, rng), LOCATION))
    b.line()
    b.add("Dictated by: ", ctx.doc_sig(attending))
    if ctx.opt(0.6):
        b.add(ctx.pick("  ", "\n"), ctx.stamp(discharge))
    b.line()
    if ctx.opt(0.15):
        b.line("Prescriber DEA: ", ctx.ident("dea"), "   NPI: ", ctx.ident("npi"))
    if ctx.opt(0.3):
        b.line("cc: ", ctx.doc_ref(p.pcp))


# --- progress note (SOAP) -------------------------------------------------


def progress_note(ctx: NoteContext, b: NoteBuilder) -> None:
    p, rng = ctx.patient, ctx.rng
    author = ctx.cast.physician(rng) if rng.random() < 0.7 else ctx.cast.staff(rng, ctx.pick("NP", "PA-C"))
    b.add(ctx.pick("PROGRESS NOTE", "Medicine Progress Note", "Daily Progress Note"))
    if ctx.opt(0.8):
        b.add(ctx.pick(" ", " - ", "\nDate: "), ctx.full_date(ctx.when) if rng.random() < 0.6 else ctx.stamp(ctx.when))
    b.line()
    if ctx.opt(0.5):
        b.add("Patient: ", header_name(p.name, rng), "  MRN ", phi(p.mrn, ID))
        if ctx.opt(0.4):
            b.add(ctx.pick("  Encounter: ", "  CSN: ", "  Visit #"), ctx.ident("encounter"))
        b.line()
    b.line("Hospital day #", str(rng.randrange(2, 9)), ". ", cl.time_trap(rng), " rounds.")
    b.line()
    b.add("S: ", ctx.pick("Pt", "Patient", ctx.he().capitalize()), " reports ",
          ctx.pick("less dyspnea", "improved appetite", "poor sleep", "ongoing pain"), ", ", trap(f"pain {rng.randrange(0, 11)}/10", "score"), ". ")
    rel = ctx.relative()
    if rel and ctx.opt(0.5):
        b.add(ctx.relative_mention(rel), " at bedside", ctx.pick(".", " and updated on plan."))
    b.line()
    b.line("O: ", cl.vitals_trap(rng), ". T 37.", str(rng.randrange(0, 9)), ".")
    b.line("   ", cl.exam_sentence(rng))
    b.add("   Labs: ", cl.lab_trap(rng), ".")
    if ctx.opt(0.15):
        b.add(" (order ", ctx.ident("order"), ")")
    b.line()
    b.line()
    b.add("A/P: ", ctx.age(), f" {ctx.noun()} with {p.condition.problem} (", trap(p.condition.icd, "icd"), "), ")
    b.line(ctx.pick("improving.", "slowly improving.", "stable."))
    b.line("- ", cl.plan_sentence(rng))
    b.line("- ", cl.plan_sentence(rng))
    if ctx.opt(0.4):
        b.line("- Dispo: anticipate discharge ", ctx.any_date(ctx.when + timedelta(days=rng.randrange(1, 4))), ".")
    if ctx.opt(0.3):
        b.line("- Discussed with ", ctx.doc_ref(ctx.cast.physician(rng)), " from consult service.")
    b.line(ctx.doc_sig(author))


# --- telegraphic nursing note (ALL CAPS) ----------------------------------


def nursing_note(ctx: NoteContext, b: NoteBuilder) -> None:
    p, rng = ctx.patient, ctx.rng
    b.case = str.upper
    nurse = ctx.cast.staff(rng, "RN")
    b.line(ctx.pick("NPN ", "NURSING PROGRESS NOTE ", "RN NOTE "), cl.shift_trap(rng))
    if ctx.opt(0.3):
        b.line("PT IS ", ctx.a_age(), " ", p.name.sex, f" ADMITTED WITH {p.condition.problem}.")
    b.line("NEURO: A+OX3, MAE, FOLLOWS COMMANDS. ", cl.score_trap(rng), ".")
    b.line("CV: ", cl.vitals_trap(rng), ". ", ctx.pick("NSR", "SR WITH RARE PVCS", "AFIB"), ".")
    b.line("RESP: ", p.condition.nursing, ". ", ctx.pick("", (cl.vent_trap(rng), ".")))
    b.line("GI/GU: ", trap("FOLEY", "eponym"), " DRAINING CLEAR YELLOW URINE. NO BM ", cl.duration_trap(rng), ".")
    if rng.random() < 0.5:
        b.line("LINES: PIV X2, ", cl.device_trap(rng), ".")
    rel = ctx.relative()
    if rel and ctx.opt(0.5):
        b.add("SOCIAL: ", ctx.relative_mention(rel), ctx.pick(" IN TO VISIT", " CALLED", " AT BEDSIDE"), ", UPDATED")
        if ctx.opt(0.3):
            b.add(" BY ", ctx.doc_ref(ctx.cast.physician(rng)))
        if ctx.opt(0.25):
            b.add(". CONTACT ", ctx.phone(rel.phone))
        b.line(".")
    elif ctx.opt(0.3):
        b.line("SOCIAL: FAMILY IN AT ", cl.time_trap(rng), ", QUESTIONS ANSWERED.")
    if ctx.opt(0.2):
        b.line("PT TRANSFERRED TO ", phi(room_text(rng), LOCATION), ".")
    b.line("PLAN: ", cl.name_like_sentence(rng))
    b.line(ctx.doc_sig(nurse) if ctx.opt(0.9) else ("-", "RN"))


# --- ICU note with bare month/day dates -----------------------------------


def icu_note(ctx: NoteContext, b: NoteBuilder) -> None:
    p, rng = ctx.patient, ctx.rng
    d = ctx.when
    attending = ctx.cast.physician(rng)

    def md(day: date, *, on: bool = True) -> Part:
        text = phi(f"{day.month}/{day.day}", DATE)
        return ("on ", text) if on and rng.random() < 0.4 else text

    b.line(ctx.pick("MICU ATTENDING NOTE", "ICU Progress Note", "SICU Daily Note", "CCU Note"), " ", md(d))
    if ctx.opt(0.5):
        b.add("Location: ", ctx.pick("MICU ", "ICU "), phi(room_text(rng), LOCATION))
        if ctx.opt(0.3):
            b.add("   CSN: ", ctx.ident("encounter"))
        b.line()
    b.line("HD #", str(rng.randrange(2, 15)), ", ", ctx.age(), " ", "F" if p.name.sex == "F" else "M", f" with {p.condition.problem}.")
    b.line()
    b.add("24h events: ")
    b.add("Overnight ", md(d - timedelta(days=1)), " became hypotensive, started on ", trap("Levophed", "drug"), ". ")
    if ctx.opt(0.8):
        b.add(ctx.pick("Extubated ", "Self-extubated "), md(d), " at ", cl.time_trap(rng), ". ")
    if ctx.opt(0.6):
        b.add(trap("A-line", "device"), " placed ", md(d - timedelta(days=2)), ", R IJ CVL ", md(d - timedelta(days=3)), ". ")
    b.line()
    b.line("Vent: ", cl.vent_trap(rng), ", FiO2 40%.")
    b.line("Vitals: ", cl.vitals_trap(rng), ". ", cl.shift_trap(rng), " I/O +1.2 L.")
    b.line("Labs: ", cl.lab_trap(rng), ". Lactate 2.", str(rng.randrange(10)), ".")
    b.line("Lines/tubes: ", cl.device_trap(rng), ", ", trap("Foley", "eponym"), ", OGT.")
    if ctx.opt(0.6):
        b.line("ID: cultures from ", md(d - timedelta(days=1), on=False), " pending; on ", trap("Zosyn", "drug"), " ", cl.duration_trap(rng), ".")
    b.line("Neuro: ", trap(f"GCS {rng.randrange(8, 16)}", "score"), ", off sedation since ", cl.time_trap(rng), ".")
    b.line()
    b.line("Plan: ", cl.plan_sentence(rng))
    rel = ctx.relative()
    if rel and ctx.opt(0.6):
        b.add("Family: ", ctx.relative_mention(rel), " updated by phone")
        if ctx.opt(0.4):
            b.add(" (", ctx.phone(rel.phone), ")")
        b.line(".")
    b.line("Code status: ", ctx.pick("Full", "DNR/DNI", "DNR, OK to intubate"), ".")
    b.add("Critical care time ", str(rng.randrange(30, 75)), " min. ", ctx.doc_sig(attending))
    if ctx.opt(0.3):
        b.add(ctx.pick(", pager ", " - page ", " beeper "), ctx.phone(draw_phone(rng)))
    b.line()


# --- ICU/CCU nursing progress note, telegraphic ---------------------------

_NURSING_UNITS = ("MICU", "SICU", "CCU", "CSRU", "TSICU", "Neuro ICU", "CVICU")
_NURSING_SHIFTS = ("7a-7p", "7p-7a", "0700-1900", "1900-0700", "days", "nights", "1500-2300")
_NURSING_TRAPS = (
    ("PT SEDATED", "pt_word"), ("PER DOPA PROTOCOL", "drug"), ("PLAN TRACH", "plan_word"), ("LEVO GTT", "drug"),
    ("NEO", "drug"), ("LASIX", "drug"), ("HALDOL", "drug"), ("FOLEY", "eponym"), ("SWAN", "eponym"),
    ("DOBHOFF", "eponym"), ("PT TURNED Q2H", "pt_word"), ("PER HO", "role"), ("CVS", "abbrev"),
)


def icu_nursing_note(ctx: NoteContext, b: NoteBuilder) -> None:
    """The register paper 001 calls its out-of-domain failure: an ICU nursing narrative, one system a line.

    About one identifier a note and a third of the notes with none; bare
    month/day dates, relatives on the phone, staff by first name or
    surname, signatures in any case.  The generator writes it mostly in
    upper or in lower case (see ``generate_notes``).
    """
    p, rng, d = ctx.patient, ctx.rng, ctx.when
    wanted = rng.choices((0, 1, 2, 3), weights=(35, 40, 18, 7))[0]
    kinds = rng.sample(("date", "relative", "staff", "age", "phone", "facility", "signature", "date2"), wanted)

    def md(day: date) -> Part:
        return phi(f"{day.month}/{day.day}", DATE)

    def staff_name() -> Part:
        c = ctx.cast.staff(rng) if rng.random() < 0.5 else ctx.cast.physician(rng)
        form = rng.randrange(4)
        if form == 0:
            return ("dr ", phi(c.name.last, DOCTOR)) if c.is_physician else ("rn ", phi(c.name.first, DOCTOR))
        if form == 1:
            return ("per dr. ", phi(c.name.last, DOCTOR))
        if form == 2:
            return ("house staff ", phi(c.name.full, DOCTOR))
        return ("np ", phi(c.name.first, DOCTOR))

    unit, shift = ctx.pick(*_NURSING_UNITS), ctx.pick(*_NURSING_SHIFTS)
    b.line(ctx.pick(f"{unit} NPN {shift}", f"Nursing progress note {shift}", f"NPN {shift}", f"{unit} nursing note, {shift}"))
    if "age" in kinds:
        years = p.age_years(d)
        b.line(phi(ctx.pick(f"{years} yo", f"{years} y/o", f"{years}yo"), AGE), " ", "f" if p.name.sex == "F" else "m",
               f" admitted w/ {p.condition.problem}.")
    if "facility" in kinds:
        b.line("transferred from ", ctx.facility(p.hospital), " for higher level of care.")
    b.line("NEURO: ", ctx.pick("a&o x3", "a&o x1, confused", "sedated on prop, rass -2", "opens eyes to voice, mae"),
           ". ", trap(f"GCS {rng.randrange(6, 16)}", "score"), ". perrl.")
    b.line("CV: ", cl.vitals_trap(rng), ". ", ctx.pick("sr 80's", "afib 110's-120's", "st 100's, no ectopy"), ". ",
           ctx.pick("levo gtt @ 0.08 mcg/kg/min", "neo weaned off", "no pressors", "dopa 5 mcg/kg/min"), ".")
    b.line("RESP: ", cl.vent_trap(rng), ". ", ctx.pick("ls coarse", "ls clear upper, dim bases", "sx for thick tan sputum"), ".")
    gi = ["GI/GU: abd soft, +bs. ", cl.device_trap(rng), " draining, uop ", str(rng.randrange(20, 90)), "cc/hr."]
    if "date" in kinds:
        gi += [" lbm ", md(d - timedelta(days=rng.randrange(1, 5))), "."]
    b.line(*gi)
    idl = ["ID: ", trap(f"tmax {rng.randrange(37, 40)}.{rng.randrange(10)}", "vital"), ". ", cl.drug_trap(rng), "."]
    if "date2" in kinds:
        idl += [" cx from ", md(d - timedelta(days=rng.randrange(1, 7))), " pending."]
    b.line(*idl)
    b.line("SKIN: ", ctx.pick("intact", "coccyx reddened, turned q2h", "stage 2 sacral, dsg c/d/i"), ". ",
           trap(ctx.pick(*[t for t, _ in _NURSING_TRAPS]), "clinical"), ".")
    social = []
    rel = ctx.relative()
    if "relative" in kinds and rel is not None:
        form = rng.randrange(3)
        if form == 0:
            social = [f"{rel.relation} ", phi(rel.name.first, PATIENT), " called, updated on plan."]
        elif form == 1:
            social = ["spoke with ", rel.relation, " ", phi(rel.name.full, PATIENT), " by phone."]
        else:
            social = [f"{rel.relation} ", phi(rel.name.first, PATIENT), " in to visit, questions answered."]
        if "phone" in kinds:
            social += [" ", rel.relation, "'s cell ", ctx.phone(rel.phone), "."]
    elif "phone" in kinds and rel is not None:
        social = ["family contact ", ctx.phone(rel.phone), "."]
    else:
        social = [ctx.pick("no family contact this shift.", "family updated by md.", "hcp at bedside.")]
    b.line("SOCIAL: ", *social)
    plan = ["PLAN: ", cl.plan_sentence(rng)]
    if "staff" in kinds:
        plan += [" ", staff_name(), " aware."]
    b.line(*plan)
    if "signature" in kinds:
        c = ctx.cast.staff(rng, "RN")
        b.line(ctx.pick("-", "--", ""), phi(ctx.pick(f"{c.name.first[0]}. {c.name.last}", c.name.full, c.name.first), DOCTOR),
               ctx.pick(" RN", " rn/bsn", ", RN", " bsn/rn"))


# --- referral letter with letterhead --------------------------------------


def referral_letter(ctx: NoteContext, b: NoteBuilder) -> None:
    p, rng = ctx.patient, ctx.rng
    sender, clinic = p.pcp, p.clinic
    specialist = ctx.cast.physician(rng)
    spec_site = p.hospital
    b.line(phi(clinic.name, HOSPITAL))
    b.line(phi(address_text(clinic.address, rng, multiline=rng.random() < 0.6), LOCATION))
    b.add(ctx.pick("Tel: ", "Phone ", "T: "), ctx.phone(clinic.phone), ctx.pick("   ", " | ", "\n"), ctx.pick("Fax: ", "F: ", "Fax "), ctx.phone(clinic.fax))
    b.line()
    if ctx.opt(0.5):
        b.line(phi(url_text(clinic.domain, rng), WEB))
    b.line()
    b.line(phi(date_text(ctx.when, ctx.pick("month d, yyyy", "month dth, yyyy", "d month yyyy", "mm/dd/yyyy")), DATE))
    b.line()
    b.line("Dr. ", phi(specialist.name.full, DOCTOR))
    b.line(phi(spec_site.name, HOSPITAL))
    if ctx.opt(0.6):
        b.line(phi(address_text(spec_site.address, rng), LOCATION))
    b.line()
    b.add("RE: ", header_name(p.name, rng), ctx.pick("   ", ", "), "DOB: ", ctx.full_date(p.dob))
    if ctx.opt(0.5):
        b.add("   MRN: ", phi(p.mrn, ID))
    b.line()
    if ctx.opt(0.3):
        b.line("Insurance member ID: ", phi(p.member_id, ID))
    if ctx.opt(0.1):
        b.line("SSN: ", phi(p.ssn, ID))
    b.line()
    b.line("Dear Dr. ", phi(specialist.name.last, DOCTOR), ",")
    b.line()
    b.add("Thank you for seeing ", narrative_name(p.name, rng), ", ", ctx.a_age(), f" {ctx.noun()} whom I follow for ",
          ctx.pick("hypertension", "diabetes", "chronic back pain", "anemia"), f". I am referring {ctx.him()} for evaluation of {p.condition.problem}. ")
    b.add("Recent ", cl.vitals_trap(rng), ". ", cl.generic_history(rng), " ")
    if ctx.opt(0.5):
        b.add(f"{ctx.he().capitalize()} was last seen here on ", ctx.any_date(ctx.when - timedelta(days=rng.randrange(10, 120))), ". ")
    if ctx.opt(0.5):
        b.add(f"{ctx.he().capitalize()} lives in ", phi(p.address.city, LOCATION), ctx.pick("", (", ", phi(p.address.state, LOCATION))), ". ")
    if p.origin_country and ctx.opt(0.6):
        b.add(f"{ctx.he().capitalize()} moved here from ", phi(p.origin_country, LOCATION), " and prefers an interpreter. ")
    b.line()
    rel = ctx.relative()
    b.line()
    if rel and ctx.opt(0.6):
        b.line("To schedule, please contact ", ctx.relative_mention(rel), " at ", ctx.phone(rel.phone), ".")
    else:
        b.line("To schedule, please call the patient at ", ctx.phone(p.phone), ".")
    b.line(cl.name_like_sentence(rng))
    b.line()
    b.line(ctx.pick("Sincerely,", "Kind regards,", "With thanks,"))
    b.line()
    b.line(phi(sender.name.full, DOCTOR), f", {sender.credential}")
    if ctx.opt(0.4):
        b.line("NPI: ", ctx.ident("npi"))
    if ctx.opt(0.3):
        b.line(phi(f"{sender.name.initial.lower()}{sender.name.last.lower().replace(' ', '')}@{clinic.domain}", WEB))
    if ctx.opt(0.3):
        b.line("cc: ", ctx.doc_ref(ctx.cast.physician(rng)))


# --- patient portal message -----------------------------------------------


def portal_message(ctx: NoteContext, b: NoteBuilder) -> None:
    p, rng = ctx.patient, ctx.rng
    parent = p.relatives[0] if p.group == CHILD and p.relatives else None
    writer = parent.name if parent else p.name
    doc = p.pcp
    b.add("From: ")
    if rng.random() < 0.5:
        b.add(phi(writer.full, PATIENT), " <", phi(p.email, WEB), ">")
    else:
        b.add(phi(p.email, WEB))
    b.line()
    b.line("To: ", ctx.doc_ref(doc) if rng.random() < 0.7 else phi(p.clinic.name, HOSPITAL))
    b.line("Sent: ", ctx.stamp(ctx.when) if rng.random() < 0.6 else ctx.full_date(ctx.when))
    b.line("Subject: ", ctx.pick("question about meds", "refill", "test results?", "appointment", "follow up"))
    b.line()
    informal = rng.random() < 0.7
    if informal:
        b.case = str.lower
    b.add(ctx.pick("hi ", "hello ", "Hi "), "dr ", phi(doc.name.last, DOCTOR), ctx.pick(", ", ". "))
    if parent:
        b.add("this is ", phi(parent.name.first, PATIENT), ", ", phi(p.name.first, PATIENT), f"'s {parent.relation}. ")
        b.add(f"{ctx.he()} has had a fever ", cl.duration_trap(rng), " and we gave ", trap("Tylenol", "drug"), " at ", cl.time_trap(rng), ". ")
    else:
        b.add("i ", ctx.pick("checked my bp this morning and it was ", "took my pressure at home, it was "), trap(f"{rng.randrange(130, 170)}/{rng.randrange(80, 100)}", "vitals"), ". ")
        b.add("the ", cl.dose_trap(rng), " makes me dizzy. ")
    if ctx.opt(0.4):
        b.add("we feel ", trap("at the mercy of", "name_like"), " the pharmacy on this one. ")
    rel = ctx.relative()
    if rel and not parent and ctx.opt(0.4):
        b.add("my ", rel.relation, " ", phi(rel.name.first, PATIENT), " can drive me ")
        b.add(ctx.on_date(ctx.when + timedelta(days=rng.randrange(2, 9))) if ctx.opt(0.6) else "next week", ". ")
    if ctx.opt(0.5):
        b.add("my new number is ", ctx.phone(p.phone), ". ")
    if ctx.opt(0.15):
        b.add("my portal username is ", phi(handle_text(writer.first, writer.last, rng), WEB), ". ")
    if ctx.opt(0.3):
        b.add("we moved to ", phi(address_text(p.address, rng), LOCATION), ". ")
    b.add("thanks")
    b.line(ctx.pick(", ", "!\n", "\n- "), phi(writer.first, PATIENT))
    b.case = None
    if ctx.opt(0.5):
        staff = ctx.cast.staff(rng, "RN")
        b.line()
        b.add("Reply: Hi ", phi(writer.first, PATIENT), ", ", ctx.pick("please hold the medication and ", "keep a log and "),
              ctx.pick("call us if it persists", "we will see you at your visit"), ". ")
        if ctx.opt(0.4):
            b.add("You can also upload readings at ", phi(url_text(p.clinic.domain, rng), WEB), ". ")
        b.line(ctx.pick("-", "- "), phi(staff.name.first, DOCTOR), " ", staff.credential, ", ", phi(p.clinic.name, HOSPITAL))


# --- pathology report -----------------------------------------------------

# (sex the specimen requires or "", specimen, diagnosis, graded part, tail)
_SPECIMENS = (
    ("M", "Prostate, right base, needle core biopsy", "Prostatic adenocarcinoma, ", "Gleason score 3+4=7 (Grade Group 2)", ", involving 30% of core."),
    ("", "Colon, sigmoid, polypectomy", "Tubular adenoma, ", "low-grade dysplasia", "; margins negative."),
    ("F", "Breast, left, 2 o'clock, core biopsy", "Invasive ductal carcinoma, ", "Nottingham grade 2 (3+2+1)", "; ER/PR positive."),
    ("", "Skin, left forearm, shave biopsy", "Basal cell carcinoma, ", "nodular type", ", peripheral margin involved."),
    ("", "Gallbladder, cholecystectomy", "Chronic cholecystitis ", "with cholelithiasis", "; no dysplasia."),
    ("", "Pancreas, head, Whipple resection", "Pancreatic ductal adenocarcinoma, ", "pT2 N1", "; margins negative."),
)


def pathology_report(ctx: NoteContext, b: NoteBuilder) -> None:
    p, rng = ctx.patient, ctx.rng
    pathologist, submitter = ctx.cast.physician(rng), ctx.cast.physician(rng)
    _, specimen, dx, grade, tail = rng.choice([s for s in _SPECIMENS if s[0] in ("", p.name.sex)])
    received = ctx.when + timedelta(days=rng.choice((0, 1)))
    b.line(ctx.pick("SURGICAL PATHOLOGY REPORT", "Surgical Pathology Report", "PATHOLOGY CONSULTATION REPORT"))
    if ctx.opt(0.7):
        b.line(phi(p.hospital.name, HOSPITAL), " - Department of Pathology")
    b.line(ctx.pick("Accession #: ", "Accession No. ", "Case: "), ctx.ident("accession"))
    b.add("Patient: ", header_name(p.name, rng), "   MRN: ", phi(p.mrn, ID))
    b.line()
    b.add("DOB: ", ctx.full_date(p.dob))
    if ctx.opt(0.6):
        b.add("   Age: ", phi(str(p.age_years(ctx.when)), AGE), "   Sex: ", p.name.sex)
    b.line()
    b.line("Collected: ", ctx.full_date(ctx.when), "   Received: ", ctx.full_date(received))
    b.line(ctx.pick("Submitting physician: ", "Requesting MD: "), ctx.doc_ref(submitter))
    b.line()
    b.line("CLINICAL HISTORY: ", cl.generic_history(rng))
    b.line("SPECIMEN: A. ", specimen)
    b.line()
    b.add("GROSS DESCRIPTION: Received in formalin labeled with the patient's name")
    if ctx.opt(0.5):
        b.add(", ", phi(f"{p.name.last.upper()}, {p.name.first.upper()}", PATIENT), ",")
    b.line(f" and \"A\" are {rng.randrange(1, 6)} tan-pink fragments, {rng.randrange(2, 19) / 10:.1f} cm in aggregate. Entirely submitted in cassette A1.")
    b.line()
    b.line("FINAL DIAGNOSIS:")
    b.line("A. ", dx, trap(grade, "score"), tail)
    b.line()
    b.line("Comment: ", ctx.pick("Immunostains reviewed with appropriate controls.", ("Case reviewed in consensus conference at ", cl.time_trap(rng), ".")))
    if ctx.opt(0.4):
        b.line("Findings called to ", ctx.doc_ref(submitter), " on ", ctx.any_date(received), ".")
    b.line("Electronically signed by ", phi(pathologist.name.full, DOCTOR), f", {pathologist.credential} on ", ctx.stamp(received + timedelta(days=rng.randrange(1, 4))))


# --- radiology report -----------------------------------------------------

_EXAMS = (
    ("CHEST X-RAY, PORTABLE AP", "Swan-Ganz catheter tip projects over the right descending pulmonary artery. ET tube 4 cm above the carina.",
     "Lines and tubes in satisfactory position; mild pulmonary edema."),
    ("CT HEAD WITHOUT CONTRAST", "No acute intracranial hemorrhage. Chronic small vessel ischemic change.", "No acute intracranial abnormality."),
    ("CT CHEST WITH CONTRAST", "Right lower lobe consolidation with small parapneumonic effusion. No pulmonary embolus.", "Right lower lobe pneumonia."),
    ("US ABDOMEN COMPLETE", "Gallbladder wall thickening with pericholecystic fluid; sonographic Murphy's sign positive.", "Findings compatible with acute cholecystitis."),
    ("MRI BRAIN WITH AND WITHOUT CONTRAST", "Restricted diffusion in the left MCA territory without hemorrhagic conversion.", "Acute left MCA infarct."),
    ("XR PELVIS AND RIGHT HIP", "Displaced femoral neck fracture. Foley catheter balloon projects over the bladder.", "Acute right femoral neck fracture."),
)
_EPONYM_IN_FINDINGS = ("Swan-Ganz", "Murphy's sign", "Foley")


def radiology_report(ctx: NoteContext, b: NoteBuilder) -> None:
    p, rng = ctx.patient, ctx.rng
    radiologist, orderer = ctx.cast.physician(rng), ctx.cast.physician(rng)
    exam, findings, impression = rng.choice(_EXAMS)
    b.line("EXAM: ", exam)
    b.add(ctx.pick("Exam date: ", "DATE OF SERVICE: ", "Study date: "), ctx.stamp(ctx.when) if rng.random() < 0.6 else ctx.full_date(ctx.when))
    b.line("   ", ctx.pick("Accession: ", "Acc# "), ctx.ident("accession"))
    b.line("Patient: ", header_name(p.name, rng), "   MRN: ", phi(p.mrn, ID))
    if ctx.opt(0.6):
        b.line(ctx.pick("Ordering: ", "Referring: ", "Ordered by: "), ctx.doc_ref(orderer))
    if ctx.opt(0.25):
        b.line("Modality station: ", phi(ip_text(rng), WEB))
    if ctx.opt(0.3):
        b.line("Site: ", phi(p.hospital.name, HOSPITAL))
    b.line()
    b.add("INDICATION: ", ctx.age(), f" {ctx.noun()} with ", ctx.pick("shortness of breath", "fall", "fever", "abdominal pain", "weakness"), ".")
    b.line()
    if ctx.opt(0.6):
        b.line("COMPARISON: ", ctx.full_date(ctx.when - timedelta(days=rng.randrange(30, 900))), ".")
    else:
        b.line("COMPARISON: None.")
    b.line()
    b.add("FINDINGS: ")
    # Findings are fixed strings; the eponym inside is marked so it counts as a trap.
    for word in _EPONYM_IN_FINDINGS:
        idx = findings.find(word)
        if idx >= 0:
            b.add(findings[:idx], trap(word, "eponym"), findings[idx + len(word):])
            break
    else:
        b.add(findings)
    if rng.random() < 0.3:
        b.add(" ", cl.device_trap(rng), " in place.")
    b.line()
    b.line()
    b.line("IMPRESSION: ", impression)
    if ctx.opt(0.6):
        b.line("Findings communicated to ", ctx.doc_ref(orderer), " by telephone at ", cl.time_trap(rng), " on ", ctx.any_date(ctx.when), ".")
    if ctx.opt(0.3):
        b.line("Device: pacemaker, serial no. ", ctx.ident("device"), ", MR-conditional.")
    b.line("Dictated by: ", ctx.doc_sig(radiologist))


# --- pediatrics note ------------------------------------------------------


def pediatrics_note(ctx: NoteContext, b: NoteBuilder) -> None:
    p, rng = ctx.patient, ctx.rng
    author = ctx.cast.physician(rng)
    b.line(ctx.pick("PEDIATRIC SICK VISIT", "Well Child Visit", "PEDIATRICS CLINIC NOTE"))
    b.line(phi(p.clinic.name, HOSPITAL))
    b.add("Patient: ", header_name(p.name, rng), "   DOB: ", ctx.full_date(p.dob))
    if ctx.opt(0.7):
        b.add("   Age: ", ctx.age(attributive=False))
    b.line()
    if ctx.opt(0.6):
        b.line("Visit date: ", ctx.full_date(ctx.when))
    parents = p.relatives
    if parents:
        b.add("Accompanied by: ")
        for i, rel in enumerate(parents):
            if i:
                b.add(" and ")
            b.add(phi(rel.name.full if rng.random() < 0.5 else rel.name.first, PATIENT), f" ({rel.relation})")
        b.line()
    b.line()
    b.add("HPI: ", phi(p.name.first, PATIENT), " is ", ctx.a_age(), f" {ctx.noun()} ")
    if parents:
        b.add("brought in by ", ctx.relative_mention(parents[0]), " ")
    b.line("for ", ctx.pick("fever and ear pulling", "cough and congestion", "a rash", "a routine visit"), " ", cl.duration_trap(rng), ".")
    b.line("Birth history: born at ", str(rng.randrange(36, 41)), " weeks, ", trap(f"Apgars {rng.randrange(6, 9)}/{rng.randrange(8, 10)}", "score"),
           ", birth weight ", f"{rng.randrange(25, 42) / 10:.1f}", " kg.")
    b.line("Immunizations up to date. Takes ", trap(rng.choice(("Tylenol", "amoxicillin", "Motrin")), "drug"), " prn.")
    b.line("Exam: weight at the ", str(rng.choice((5, 10, 25, 50, 75, 90))), "th percentile. ", cl.vitals_trap(rng), ". TMs clear.")
    b.line("Plan: ", cl.name_like_sentence(rng))
    if ctx.opt(0.6):
        b.line("Return for the next well visit on ", ctx.any_date(ctx.when + timedelta(days=rng.randrange(30, 180))), ".")
    if parents and ctx.opt(0.5):
        b.line(parents[0].relation.capitalize(), "'s cell: ", ctx.phone(parents[0].phone))
    b.line(ctx.doc_sig(author))


# --- geriatrics note (ages 90+) -------------------------------------------


def geriatrics_note(ctx: NoteContext, b: NoteBuilder) -> None:
    p, rng = ctx.patient, ctx.rng
    author = ctx.cast.physician(rng)
    years = p.age_years(ctx.when)
    b.line(ctx.pick("GERIATRICS CONSULT", "Geriatric Assessment", "GERIATRIC MEDICINE FOLLOW-UP"))
    b.add("Patient: ", header_name(p.name, rng))
    if ctx.opt(0.7):
        b.add("   DOB: ", ctx.full_date(p.dob))
    b.line("   MRN: ", phi(p.mrn, ID))
    b.line()
    if rng.random() < 0.3:
        b.add(narrative_name(p.name, rng), ", age ", phi(str(years), AGE), ",")
    else:
        b.add(narrative_name(p.name, rng), " is a ", phi(rng.choice((f"{years}-year-old", f"{years} yo", f"{years} y/o", f"{years} year old")), AGE), f" {ctx.noun()}")
    if ctx.opt(0.7):
        b.add(" residing at ", phi(p.clinic.name, HOSPITAL))
        if ctx.opt(0.5):
            b.add(", ", phi(room_text(rng), LOCATION))
    b.line(f", seen for {ctx.pick('falls', 'cognitive decline', 'polypharmacy review', 'weight loss')}.")
    b.line("History: ", trap(rng.choice(("Parkinson's disease", "Alzheimer's dementia", "Cheyne-Stokes respirations")), "eponym"),
           ", osteoporosis (", trap("M81.0", "icd"), "), ", ctx.pick("two falls", "one fall", "no falls"), " ", cl.duration_trap(rng, long=True), ".")
    b.line("Cognition: ", trap(f"MMSE {rng.randrange(12, 29)}/30", "score"), ". Gait slow with walker.")
    rel = ctx.relative()
    if rel:
        b.add("Social: widowed; ", ctx.relative_mention(rel), " is health care proxy")
        if ctx.opt(0.6):
            b.add(", ", ctx.phone(rel.phone))
        b.line(".")
    if p.origin_country and ctx.opt(0.7):
        b.line("Born in ", phi(p.origin_country, LOCATION), f"; {ctx.his()} first language is not English.")
    b.line("Meds: ", cl.drug_trap(rng), ", ", trap("Sinemet 25/100", "dose"), " TID.")
    b.line("Plan: ", cl.plan_sentence(rng))
    b.line("Goals of care discussed; ", ctx.pick("DNR/DNI confirmed.", "remains full code."))
    b.line(ctx.doc_sig(author), ctx.pick("", ("  ", ctx.full_date(ctx.when))))


# --- notes with no PHI at all ---------------------------------------------


def phi_free_note(ctx: NoteContext, b: NoteBuilder) -> None:
    rng = ctx.rng
    form = rng.randrange(4)
    if form == 0:
        b.line("Nursing education note")
        b.line("Reviewed ", trap("Foley", "eponym"), " care and signs of infection with patient. Teach-back successful.")
        b.line(cl.name_like_sentence(rng))
    elif form == 1:
        b.line("Patient seen and examined. No acute events overnight.")
        b.line(cl.vitals_trap(rng), ". ", cl.exam_sentence(rng))
        b.line(cl.plan_sentence(rng))
    elif form == 2:
        b.line("MEDICATION RECONCILIATION")
        b.line("Home medications reviewed: ", cl.drug_trap(rng), ", ", cl.dose_trap(rng), " prn, ", cl.drug_trap(rng), ".")
        b.line("No discrepancies. ", cl.generic_history(rng))
    else:
        b.line("Brief op note")
        b.line("Procedure: ", trap("Nissen fundoplication", "eponym"), ". Patient in ", trap("Trendelenburg position", "eponym"), ".")
        b.line("EBL 50 mL. ", cl.device_trap(rng), " to bulb suction. Start ", cl.time_trap(rng), ", end ", cl.time_trap(rng), ".")
    b.line("Discussed with ", cl.role_trap(rng), ".")


WRITERS: dict[str, Writer] = {
    "discharge_summary": discharge_summary,
    "progress_note": progress_note,
    "nursing_note": nursing_note,
    "icu_note": icu_note,
    "icu_nursing": icu_nursing_note,
    "referral_letter": referral_letter,
    "portal_message": portal_message,
    "pathology_report": pathology_report,
    "radiology_report": radiology_report,
    "pediatrics_note": pediatrics_note,
    "geriatrics_note": geriatrics_note,
    "phi_free": phi_free_note,
}

#: Which registers suit which age group.
COMPATIBLE: dict[str, frozenset[str]] = {
    CHILD: frozenset(("pediatrics_note", "radiology_report", "portal_message", "phi_free")),
    "adult": frozenset(set(WRITERS) - {"pediatrics_note", "geriatrics_note"}),
    ELDER: frozenset(set(WRITERS) - {"pediatrics_note"}),
}
