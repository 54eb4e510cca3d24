"""PHI-free clinical content, dense with look-alikes that must stay unlabelled.

Every look-alike (a time, ``BP 120/80``, ``Percocet 5/325``, ``Foley``, an
ICD code, a sentence-initial "Will") is inserted as a :class:`Trap`, so the
generator knows where the false-positive bait sits without searching.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .builder import Part, trap


@dataclass(frozen=True)
class Condition:
    problem: str
    icd: str
    hpi: str
    course: str
    meds: tuple[str, ...]
    nursing: str


CONDITIONS: tuple[Condition, ...] = (
    Condition("community-acquired pneumonia", "J18.9", "three days of productive cough, fevers and worsening dyspnea",
              "was treated with ceftriaxone and azithromycin and weaned to room air", ("ceftriaxone", "azithromycin", "guaifenesin"),
              "LS COARSE BILAT, CLEARING WITH COUGH"),
    Condition("acute on chronic systolic heart failure", "I50.23", "progressive dyspnea on exertion, orthopnea and a 10 lb weight gain",
              "was diuresed with IV furosemide to a net negative 4 L", ("Lasix", "metoprolol succinate", "lisinopril", "spironolactone"),
              "CRACKLES AT BASES, 2+ PITTING EDEMA BLE"),
    Condition("COPD exacerbation", "J44.1", "increased sputum and wheezing after a viral illness",
              "improved with nebulized albuterol, ipratropium and a prednisone taper", ("albuterol", "ipratropium", "prednisone", "tiotropium"),
              "EXP WHEEZES THROUGHOUT, ON NEBS Q4H"),
    Condition("left lower extremity cellulitis", "L03.116", "two days of redness, warmth and swelling of the left shin",
              "responded to IV cefazolin with a shrinking margin of erythema", ("cefazolin", "cephalexin", "acetaminophen"),
              "LLE ERYTHEMA MARKED, ELEVATED ON PILLOWS"),
    Condition("pyelonephritis", "N10", "dysuria, flank pain and rigors",
              "defervesced on ceftriaxone once urine cultures grew pan-sensitive E. coli", ("ceftriaxone", "ciprofloxacin", "ondansetron"),
              "VOIDING QS, CVA TENDERNESS R"),
    Condition("atrial fibrillation with rapid ventricular response", "I48.91", "palpitations and lightheadedness",
              "was rate controlled with diltiazem and started on apixaban", ("diltiazem", "Eliquis", "metoprolol tartrate"),
              "AFIB 90S-110S, DILT GTT OFF"),
    Condition("diabetic ketoacidosis", "E10.10", "polyuria, vomiting and abdominal pain",
              "closed the anion gap on an insulin drip and transitioned to subcutaneous insulin", ("insulin glargine", "insulin lispro", "potassium chloride"),
              "FS QAC/HS, INSULIN GTT WEANED"),
    Condition("upper GI bleed", "K92.2", "melena and presyncope",
              "received two units of packed red cells and underwent EGD showing a clean-based duodenal ulcer", ("pantoprazole", "sucralfate"),
              "NO FURTHER MELENA, HCT STABLE"),
    Condition("left MCA ischemic stroke", "I63.512", "acute right-sided weakness and expressive aphasia",
              "was outside the window for thrombolysis and was started on aspirin and atorvastatin", ("aspirin", "atorvastatin", "clopidogrel"),
              "R SIDED WEAKNESS, NIH 6, SPEECH IMPROVING"),
    Condition("right hip fracture", "S72.001A", "a mechanical fall at home with right hip pain",
              "underwent open reduction and internal fixation without complication", ("enoxaparin", "oxycodone", "senna"),
              "R HIP DSG C/D/I, WBAT WITH PT"),
    Condition("sepsis from a urinary source", "A41.9", "fever, confusion and hypotension",
              "required norepinephrine for one day and was narrowed to cefepime", ("cefepime", "Levophed", "vancomycin"),
              "MAP >65 OFF PRESSORS SINCE 0600"),
)

EPONYM_DISEASES = (
    "Parkinson's disease", "Bell's palsy", "Graves disease", "Hodgkin lymphoma", "Crohn's disease", "Cushing syndrome",
    "Alzheimer's dementia", "Barrett's esophagus", "Lyme disease", "Wernicke encephalopathy", "Hashimoto thyroiditis",
)
EPONYM_PROCEDURES = (
    "Foley catheter", "Swan-Ganz catheter", "Whipple procedure", "Hartmann procedure", "Nissen fundoplication",
    "Trendelenburg position", "Allen test", "Babinski sign", "Murphy's sign", "Homans sign",
)
EPONYMS = EPONYM_DISEASES + EPONYM_PROCEDURES
DEVICES = ("A-line", "Aline", "PICC line", "Jackson-Pratt drain", "Port-a-Cath", "Dobhoff tube", "Bair Hugger", "Wound VAC", "Pleur-x catheter", "Hickman line")
DRUGS = ("Lasix", "Coumadin", "Eliquis", "Keppra", "Zosyn", "vancomycin", "Levophed", "heparin", "Tylenol", "Ativan", "Haldol", "Flomax", "Synthroid", "Xarelto", "Protonix")
ICD_CODES = ("I10", "E11.9", "J18.9", "N39.0", "I48.91", "Z79.01", "F03.90", "K21.9", "E78.5", "N18.3", "G20", "M81.0")
GENERIC_ROLES = ("the nurse", "the covering resident", "the attending", "social work", "PT/OT", "the night nurse", "case management")


def time_trap(rng: random.Random) -> Part:
    h, m = rng.randrange(24), rng.choice((0, 15, 30, 45, 10, 50))
    form = rng.randrange(3)
    if form == 0:
        return trap(f"{h:02d}:{m:02d}", "time")
    if form == 1:
        return trap(f"{h:02d}{m:02d}", "time")
    return trap(f"{(h % 12) or 12}:{m:02d} {'pm' if h >= 12 else 'am'}", "time")


def shift_trap(rng: random.Random) -> Part:
    return trap(rng.choice(("7a-7p", "7p-7a", "11p-7a", "7A-3P", "3p-11p")), "shift")


def vitals_trap(rng: random.Random) -> Part:
    sbp, dbp = rng.randrange(92, 178), rng.randrange(48, 98)
    return (
        trap(f"BP {sbp}/{dbp}", "vitals"), ", ", trap(f"HR {rng.randrange(54, 124)}", "vitals"), ", ",
        trap(f"RR {rng.randrange(12, 28)}", "vitals"), ", ", trap(f"SpO2 {rng.randrange(88, 100)}%", "vitals"),
        rng.choice((" on RA", " on 2L NC", " on 4L", "")),
    )


def vent_trap(rng: random.Random) -> Part:
    return rng.choice((
        ("on ", trap(f"PS {rng.choice((10, 12, 8))}/{rng.choice((5, 8))}", "vent")),
        ("vent settings ", trap(f"AC {rng.choice((400, 450, 500))}x{rng.choice((14, 16, 18))}", "vent"), ", ", trap(f"PEEP {rng.choice((5, 8, 10))}", "vent")),
        ("on ", trap("PEEP 10/5", "vent")),
        ("BiPAP ", trap(f"{rng.choice((10, 12, 14))}/{rng.choice((5, 6))}", "vent")),
    ))


def dose_trap(rng: random.Random) -> Part:
    return trap(rng.choice((
        "Percocet 5/325 mg", "hydrocodone-acetaminophen 5/325", "Bactrim DS 800/160 mg", "amoxicillin-clavulanate 875/125 mg",
        "Norco 10/325", "Sinemet 25/100", "Advair 250/50",
    )), "dose")


def score_trap(rng: random.Random) -> Part:
    return trap(rng.choice((
        f"strength {rng.randrange(3, 6)}/5", f"{rng.randrange(3, 6)}/5 strength", f"GCS {rng.randrange(9, 16)}", f"pain {rng.randrange(0, 11)}/10",
        f"MMSE {rng.randrange(14, 30)}/30", f"2/6 systolic murmur", f"CHA2DS2-VASc {rng.randrange(1, 7)}", "reflexes 2+",
    )), "score")


def icd_trap(rng: random.Random) -> Part:
    return trap(rng.choice(ICD_CODES), "icd")


def lab_trap(rng: random.Random) -> Part:
    return (
        trap(f"Na {rng.randrange(128, 146)}", "lab"), ", ", trap(f"K {rng.randrange(31, 55) / 10:.1f}", "lab"), ", ",
        trap(f"Cr {rng.randrange(6, 32) / 10:.1f}", "lab"), ", ", trap(f"WBC {rng.randrange(40, 190) / 10:.1f}", "lab"), ", ",
        trap(f"Hgb {rng.randrange(70, 160) / 10:.1f}", "lab"),
        rng.choice(("", (", ", trap(f"INR {rng.randrange(9, 35) / 10:.1f}", "lab")), (", ", trap(f"HbA1c {rng.randrange(55, 120) / 10:.1f}%", "lab")))),
    )


def eponym_trap(rng: random.Random) -> Part:
    return trap(rng.choice(EPONYMS), "eponym")


def device_trap(rng: random.Random) -> Part:
    return trap(rng.choice(DEVICES), "device")


def drug_trap(rng: random.Random) -> Part:
    return trap(rng.choice(DRUGS), "drug")


def duration_trap(rng: random.Random, *, long: bool = False) -> Part:
    if long:
        return trap(rng.choice((f"for {rng.randrange(2, 6)} weeks", f"over the past {rng.randrange(2, 19)} months", f"for {rng.randrange(2, 10)} years")), "duration")
    return trap(rng.choice((f"x{rng.randrange(2, 8)} days", f"for {rng.randrange(2, 5)} days", f"x {rng.choice((24, 48, 72))} hrs")), "duration")


def name_like_sentence(rng: random.Random) -> Part:
    """Words that are also given names, in ordinary clinical use."""
    return rng.choice((
        (trap("Will", "name_like"), " continue current regimen and reassess in the morning."),
        (trap("Will", "name_like"), " follow up final cultures."),
        (trap("Mark", "name_like"), " the site prior to the procedure."),
        (trap("Hope", "name_like"), " to wean oxygen over the next day."),
        ("Temperature ", trap("rose", "name_like"), " to 38.4 overnight."),
        ("Wound cleansed and ", trap("patted dry", "name_like"), "."),
        ("Family feels they are ", trap("at the mercy of", "name_like"), " the insurance approval."),
        (trap("Don", "name_like"), " gown and gloves per contact precautions."),
    ))


def role_trap(rng: random.Random) -> Part:
    return trap(rng.choice(GENERIC_ROLES), "role")


# --- filler sentences -------------------------------------------------------


def exam_sentence(rng: random.Random) -> Part:
    return rng.choice((
        ("Neuro: alert and oriented, ", score_trap(rng), " in all extremities, negative ", trap("Babinski", "eponym"), "."),
        ("Abdomen soft, nontender; negative ", trap("Murphy's sign", "eponym"), "."),
        ("Lungs with scattered rhonchi. Heart regular with a ", trap("2/6 systolic murmur", "score"), "."),
        ("Extremities warm, no edema, negative ", trap("Homans sign", "eponym"), "."),
        ("Skin intact. ", trap("Foley", "eponym"), " in place draining clear urine."),
    ))


def plan_sentence(rng: random.Random) -> Part:
    return rng.choice((
        ("Continue ", drug_trap(rng), " and monitor ", trap("BMP", "lab"), " daily."),
        (name_like_sentence(rng),),
        ("Pain controlled with ", dose_trap(rng), " q6h prn."),
        ("Discussed with ", role_trap(rng), "; goals of care unchanged."),
        ("Encounter coded as ", icd_trap(rng), "."),
        ("Recheck labs in the morning; last ", lab_trap(rng), "."),
    ))


def generic_history(rng: random.Random) -> Part:
    return rng.choice((
        ("Past history notable for hypertension (", trap("I10", "icd"), "), type 2 diabetes (", trap("E11.9", "icd"), ") and ", trap(rng.choice(EPONYM_DISEASES), "eponym"), "."),
        ("History of ", trap(rng.choice(EPONYM_DISEASES), "eponym"), " and hyperlipidemia, on ", drug_trap(rng), "."),
        ("Prior ", trap("Whipple procedure", "eponym"), " for a benign pancreatic lesion; otherwise healthy."),
        ("Chronic kidney disease stage 3 (", trap("N18.3", "icd"), ") and atrial fibrillation on ", drug_trap(rng), "."),
    ))
