"""Unit ``facility``: facility names with their type words (``Mercy General Hospital``, ``CVS Pharmacy #2231``).

Also the type written first (``Clínica de la Comunidad``), saints' names a
hospital bears (``St. Brendan's``), chain stores and short forms where a
facility is expected (``presented to HRMC``).  A specialty or a service
(``Plastic Surgery``, ``Cardiology Clinic``) is no facility's name.
Lists: ``deid_core/data/rules/facilities/``.  Tests: ``tests/rules/test_facility.py``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence

from deid_core.recognizers.base import NoteContext, RuleRecognizer
from deid_core.recognizers.case import note_is_lower
from deid_core.recognizers.gazetteer import RARE_TOWN_WORD_FREQ, STORE_NUMBER, GazetteerResources, branch_city_end, default_resources
from deid_core.recognizers.lexicon import COMMON_WORD_FREQ, VERY_COMMON_WORD_FREQ, Lexicon, alternation, is_listed_town, rule_list, us_cities, us_counties, us_postal_towns
from deid_core.recognizers.rules.common_words import CLINICAL_ACRONYMS, FUNCTION_WORDS, PAST_VERBS, PLACE_TAILS, REGIMEN_TYPES, RESIDENCE_TAILS, TITLE_BEFORE_NAME
from deid_core.recognizers.rules.tokens import caps_line_at
from deid_core.spans import Category, Span

_I = re.IGNORECASE


#: what "reg" and "gen" shorten when no facility is meant: "reg diet", "reg insulin", "gen anesthesia", "gen surg"
_SHORT_TYPE_NOT_BEFORE = r"(?![ \t]+(?:diet|insulin|rate|rhythm|schedule|sched|dose|doses|meds?|anes\w*|surg\w*|med\b|medicine|floor|ward|pop\w*)\b)"
_FAC_TYPE = (
    r"Hospitals?|Hosp\b\.?|Medical[ \t]+Cent(?:er|re)|Med\.?[ \t]+Ctr\.?|Health[ \t]+(?:Cent(?:er|re)|System|Services|Sciences[ \t]+Cent(?:er|re)"
    r"|Clinic|Care(?:[ \t]+System)?|Partners|Network)|Healthcare(?:[ \t]+System)?|Clinics?|Infirmary|Hospice"
    r"|Nursing[ \t]+(?:Home|Facility|Cent(?:er|re)|and[ \t]+Rehab(?:ilitation)?(?:[ \t]+Cent(?:er|re))?)"
    r"|Skilled[ \t]+Nursing(?:[ \t]+(?:Facility|Cent(?:er|re)|Home))?|Rehab(?:ilitation)?[ \t]+(?:Cent(?:er|re)|Hospital|Institute|Facility)"
    r"|Surgery[ \t]+Cent(?:er|re)|Surgical[ \t]+(?:Cent(?:er|re)|Hospital|Associates)|Cancer[ \t]+(?:Cent(?:er|re)|Institute)"
    r"|Heart[ \t]+(?:Institute|Cent(?:er|re))|Children['’]?s[ \t]+(?:Hospital|Medical[ \t]+Cent(?:er|re)|ER|ED)"
    r"|Medical[ \t]+(?:Equipment|Supply|Supplies)|Donor[ \t]+Network|Physio(?:therapy)?|Physical[ \t]+Therapy"
    r"|Wound[ \t]+(?:Care|Solutions|Cent(?:er|re))|Respiratory[ \t]+(?:Care|Services|Therapy)"
    r"|Medical[ \t]+(?:Group|Associates|Clinic|Partners|Plaza|Pavilion|Offices?|Institute)|Physicians[ \t]+Group"
    r"|(?:Nursing|Care|Health|Rehab)[ \t]+Pavilion|(?:Medical[ \t]+)?Care[ \t]+Facility"
    r"|Family[ \t]+(?:Practice|Medicine|Health[ \t]+Cent(?:er|re))|Urgent[ \t]+Care|Care[ \t]+Cent(?:er|re)|Institute"
    r"|Sanatorium|Sanitarium|Dialysis[ \t]+(?:Cent(?:er|re)|Unit)|Assisted[ \t]+Living(?:[ \t]+(?:Facility|Cent(?:er|re)|Community))?"
    r"|Senior[ \t]+Living|Retirement[ \t]+(?:Home|Community|Village)|Living[ \t]+Cent(?:er|re)|Manor|Pharmacy|Laborator(?:y|ies)"
    r"|Imaging(?:[ \t]+Cent(?:er|re))?|Radiology[ \t]+(?:Associates|Group)|Associates|Specialists|Medical[ \t]+Practice"
    r"|Rehab|LTACH?|VAMC|VA[ \t]+Medical[ \t]+Cent(?:er|re)|(?:VA[ \t]+)?(?:CLC|Community[ \t]+Living[ \t]+Cent(?:er|re))|Memorial|Primary[ \t]+Care|Pediatrics|Paediatrics"
    r"|Internal[ \t]+Medicine(?:[ \t]+(?:Associates|Group|Clinic))?|Women['’]?s[ \t]+(?:Health|Cent(?:er|re)|Clinic)"
    r"|Pathology[ \t]+(?:Associates|Group)|Orthopedics|Orthopaedics|Dermatology|Cardiology|Urology|Oncology|Ob/?Gyn"
    r"|(?:Rehabilitation|Rehab)[ \t]*(?:&|and)[ \t]*Nursing(?:[ \t]+(?:Cent(?:er|re)|Home|Facility))?|Nursing[ \t]*(?:&|and)[ \t]*Rehab(?:ilitation)?"
    r"|Home[ \t]+Health(?:[ \t]*(?:&|and)[ \t]*Hospice)?|Health[ \t]*(?:&|and)[ \t]*Hospice|Home[ \t]+Care|Subacute|Diagnostics"
    r"|Occupational[ \t]+(?:Medicine|Health)|Sleep[ \t]+(?:Lab|Laboratory)|Endocrinology|Gastroenterology|Neurology|Nephrology"
    r"|Rheumatology|Pulmonology|Hematology|Psychiatry|Audiology|Ophthalmology|Otolaryngology|GI|ENT|Elementary(?:[ \t]+School)?"
    r"|(?:Middle|High|Primary|Grammar|Public|Charter)[ \t]+School|Schools?|Academy|University|Programs?|Programme|Surgery|Service"
    # general type words last, so that the longer forms above win
    r"|Dialysis|Cent(?:er|re)s?|Health(?:[ \t]+(?:Alliance|Plans?|Partners|Group|Cooperative|Agency|Collaborative))?|HMO"
    r"|Dentistry|Dental(?:[ \t]+(?:Group|Care|Associates|Clinic|Office|Practice|Arts|Studio))?|Orthodontics"
    r"|Labs?|Laboratory|Services|Insurance[ \t]+(?:Company|Co\.|Group|Agency)|Therapy[ \t]+Services|Wellness"
    r"|Optometry|Eye[ \t]+Care|Podiatry|Chiropractic|Hearing[ \t]+(?:Cent(?:er|re)|Clinic)|Apothecary"
    r"|Group[ \t]+Homes?|Shelter|Correctional[ \t]+(?:Facility|Cent(?:er|re)|Institution|Complex)|Detention[ \t]+(?:Cent(?:er|re)|Facility)"
    r"|Penitentiary|(?:Co\.?[ \t]+|County[ \t]+)?(?:Jail|Prison)|Day[ \t]+Services|Treatment[ \t]+(?:Cent(?:er|re)|Facility)|Youth[ \t]+Services"
    r"|CBOC|IHS|(?:Tribal|Indian)[ \t]+Health(?:[ \t]+(?:Cent(?:er|re)|Clinic|Services))?|VNA|Visiting[ \t]+Nurses?(?:[ \t]+(?:Association|Service))?|Cryobank|Sperm[ \t]+Bank|Blood[ \t]+Bank|Tissue[ \t]+Bank"
    r"|Recovery[ \t]+(?:Residence|Cent(?:er|re)|House|Home)|Sober[ \t]+Living|Halfway[ \t]+House|Residential[ \t]+Treatment"
    r"|(?:Clinical[ \t]+)?Research[ \t]+(?:Unit|Cent(?:er|re)|Institute|Site)|Heart[ \t]*(?:&|and)[ \t]*Vascular(?:[ \t]+(?:Institute|Cent(?:er|re)|Clinic))?"
    r"|Bone[ \t]*(?:&|and)[ \t]*Joint(?:[ \t]+(?:Institute|Cent(?:er|re)|Clinic))?|Orthotics(?:[ \t]*(?:&|and)[ \t]*Prosthetics)?|Prosthetics"
    r"|Home[ \t]+(?:Infusion|Medical|Oxygen)|Infusion[ \t]+(?:Cent(?:er|re)|Services|Suite)|Drug(?=[ \t]*#[ \t]*\d)|Drugs?[ \t]+Store"
    r"|Hospice[ \t]+House|Care[ \t]+Home|Aged[ \t]+Care|Surgery[ \t]+(?:Practice|Partnership)|Medical[ \t]+(?:Centre|Practice)"
    r"|(?:Orthop(?:a)?edic|Cardiology|Surgical|Medical|Physicians?|Specialty|Urology|Oncology|Dermatology|Neurology|Pediatric"
    r"|Paediatric|Women['’]?s|Eye|Dental|Spine|Pain|Kidney|Digestive|Allergy|ENT)[ \t]+(?:Group|Associates|Partners|Specialists|Consultants)"
    r"|Infectious[ \t]+Diseases?(?:[ \t]+(?:Associates|Consultants|Specialists|Clinic))?|(?:Dept\.?|Department)[ \t]+of[ \t]+(?:Public[ \t]+)?Health"
    r"|Urgent[ \t]*(?:&|and)[ \t]*(?:Occupational|Primary|Family)[ \t]+Care|(?:Heart|Kidney|Cancer|Medical|Health|Eye)[ \t]+Foundation"
    r"|Ctr\.?|Regional(?![ \t]+(?-i:[A-Z][a-z]))"
    # a regional or general hospital and a critical access hospital written short: "FROM CORTLAND REG", "DELHI MERCY CAH"
    r"|CAH|Critical[ \t]+Access(?:[ \t]+Hosp(?:ital)?)?|(?:Reg|Gen)\.?" + _SHORT_TYPE_NOT_BEFORE
    # a deaconess hospital called by its founder or town alone: "FRANCES MAHON DEACONESS"
    + r"|Deaconess"
).replace("Cent(?:er|re)", r"(?:Cent(?:er|re)|Ctr\b\.?)")  # center written short in every type: "GARFIELD CO HEALTH CTR"
_FAC_NAME_TOKEN = r"(?:St\.|Ste\.|Mt\.|[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’&-]*\.?)"
_FACILITY = re.compile(
    rf"(?P<name>(?:{_FAC_NAME_TOKEN}[ \t]+(?:(?:of|the|and|&|de|for)[ \t]+){{0,2}}){{1,6}})(?P<type>(?i:{_FAC_TYPE}))(?![\w])"
    rf"(?P<of>[ \t]+of[ \t]+(?:the[ \t]+)?(?:[A-Z][\w'’.-]*(?:[ \t]+(?:of[ \t]+)?)?){{1,4}})?"
)
_DEVICE_AFTER = re.compile(r"[ \t]+(?i:cath|catheter|line|port|access)\b")
_NOT_A_NAME_AFTER = re.compile(
    r"[ \t]?(?i:number|no\b|num\b|id\b|course|stay|day\b|days\b|admission|discharge|policy|visit\b)"
)
#: types that also name a service or an operation ("Plastic Surgery", "Consult Service"): they need a proper name
_WEAK_FAC_TYPES = rule_list("facilities", "weak_types")
#: verbs in their plain form, as they follow "will" or "to" ("TO DISCUSS HOME HOSPICE", "to arrange rehab")
_BASE_VERBS = rule_list("names", "modal_verbs")
_TO_BEFORE = re.compile(r"\bto[ \t]+$", _I)
#: a verb that calls a service, before its name: "page general surgery", "consult plastic surgery"
_CONTACT_VERBS = frozenset({"page", "paged", "call", "called", "consult", "consulted", "notify", "notified"})
_ADJECTIVE_END = re.compile(r"(?:ic|al|ive|ary|ous|ical|ian)$")
#: "Ottawa Hospital - General Campus", "Lakeshore Kidney Center - Unit 2": a site of the facility
_CAMPUS = re.compile(
    r"[ \t]*(?:[-–—,][ \t]*(?:[A-Z][\w'’.-]*[ \t]+){0,3}(?:Campus|Site|Branch)\b|[-–—][ \t]*Unit[ \t]+\d{1,3}[A-Za-z]?\b)"
)
#: the type first: "University Hospital Limerick", "Clínica de la Comunidad", "Clinique Médicale Saint-Laurent"
_FAC_PREFIX = re.compile(
    r"(?<![\w])(?P<type>University[ \t]+Hospitals?|H[ôo]pital|Cl[íi]nica|Clinique|Centre[ \t]+Hospitalier(?:[ \t]+Universitaire)?"
    r"|Centro[ \t]+(?:M[ée]dico|de[ \t]+Salud)|Hospital[ \t]+(?:General|Universitario)|Policlinico|Klinikum|Ospedale|Krankenhaus)"
    r"(?:[ \t]+(?:M[ée]dicale?|M[ée]dica|Universitaire|Dental|Familiale))?"
    r"(?P<rest>(?:[ \t]+(?:(?:de|del|de[ \t]+la|la|des|du|of|the|di|do|da|dos|St\.?|Ste\.?|San|Santa|Saint)[ \t]+)?[A-ZÀ-Ý][\w'’.-]*){1,4})"
)
# "CVS Pharmacy #2231", "Store No. 88": a branch number belongs to the facility's name
_CHAIN_STORE = re.compile(
    r"(?<![\w-])(?:Walgreens|CVS|Rite[ \t-]?Aid|Walmart|Wal-Mart|Costco|Kroger|Safeway|Publix|Duane[ \t]+Reade|Boots"
    r"|Target|Meijer|H-E-B|Hy-Vee|Wegmans|Albertsons|Giant[ \t]+Eagle|Sam['’]s[ \t]+Club|Lloyds)"
    r"(?:[ \t]+(?:Pharmacy|Drug(?:s|[ \t]+Store)?))?[ \t]*(?:#|(?:Store|No\.)[ \t]*#?)[ \t]*\d{2,6}(?![\w/-])"
)
# Typed in lowercase: "bring her to st lukes urgent care", "from brookdale assisted living"
_LOWER_SAINT = re.compile(
    r"(?<![\w.-])(?:st|saint)\.?[ \t]+(?P<name>[a-z]{3,}(?:['’]s|s))\b"
    r"(?:[ \t]+(?:hospital|medical[ \t]+center|urgent[ \t]+care|er|clinic|health(?:[ \t]+center)?))?(?![\w-])"
)
#: "CAME FROM ST JOES", "SEEN AT ST ANNE ER": where capitals say nothing and "ST" has no full stop (it may be sinus
#: tachycardia or speech therapy), a saint's given name after it where the patient comes from or goes names a facility
#: (and the same in a note typed in lower case, where the particles of a saint's name go with it: "from st vincent de paul")
_CASELESS_SAINT = re.compile(
    r"\b(?:FROM|AT|TO|VIA)[ \t]+(?P<saint>(?:ST|SAINT)[ \t]+(?P<name>[A-Z]{3,}(?:['’]S)?))"
    r"(?:[ \t]+(?:DE|DU|DES|DE[ \t]+LA|OF)[ \t]+[A-Z]{3,})?"
    r"(?:[ \t]+(?:HOSPITAL|HOSP|MEDICAL[ \t]+CENTER|REGIONAL|GENERAL|MEMORIAL|CLINIC))?(?![\w-])",
    re.I,
)
#: "at Fairhaven General", "to Mass General": a hospital called by its place and "General" alone
#: what follows "general" when it is a specialty or a hospital's type word, not a hospital's name ending
_GENERAL_SERVICE_AFTER = r"surgery|medicine|anesthesia|practice|pediatrics|hospital|medical|health"
_PLACE_GENERAL = re.compile(
    r"\b(?:at|to|from|in|via)[ \t]+(?P<name>(?:[A-Z][a-z]+[ \t]+){1,2}General)\b"
    r"(?![ \t]+(?:[A-Z]|" + _GENERAL_SERVICE_AFTER + r"))"
)
_NOT_A_HOSPITAL_GENERAL = frozenset({"Attorney", "Surgeon", "Consul", "Secretary"})
#: "FROM BRIDGEWATER GENERAL W/ NSTEMI": the same in a line typed in capitals, where the word after says nothing by case
_CAPS_PLACE_GENERAL = re.compile(
    r"\b(?:AT|TO|FROM|IN|VIA)[ \t]+(?P<name>(?:[A-Z][A-Z'’]{2,}[ \t]+){1,2}GENERAL)\b"
    r"(?![ \t]+(?i:" + _GENERAL_SERVICE_AFTER + r"|surgeon|appearance|condition|care|floor|ward))"
)
#: "came in from athol er", "SENT FROM FRAMINGHAM ED": a town's emergency room is its hospital
_TOWN_ER = re.compile(
    r"\b(?i:from|at|to|in)[ \t]+(?P<name>[A-Za-z][A-Za-z'’-]{3,})[ \t]+(?i:er|ed|e\.r\.|emergency[ \t]+(?:room|dept|department))(?![\w/-])"
)
#: "BENEFIS BH FULL": a behavioral health unit, short, after its system's name
_BEHAVIORAL_UNIT = re.compile(r"\b(?P<name>[A-Za-z][A-Za-z'’-]{4,})[ \t]+(?i:bhu?)(?![\w/-])")
#: "St. Brendan's", "ST COLUMBA REGIONAL", "Saint Luke's Health": a saint's name that a facility bears
_SAINT_FACILITY = re.compile(
    r"(?<![\w.-])(?:St|ST|Saint|SAINT|Ste)\.?[ \t]+(?P<name>[A-Z][A-Za-z]{2,}(?:['’][sS])?)"
    r"(?P<type>[ \t]+(?:Regional|REGIONAL|General|GENERAL|Memorial|MEMORIAL|Medical[ \t]+Cent(?:er|re)|MEDICAL[ \t]+CENTER|Hospital|HOSPITAL"
    r"|Health|HEALTH|Infirmary|Clinic|CLINIC))?(?![\w-])"
)
#: "TRANSFERRED FROM ST. ELSEWHERE", "back to saint anselm", "FROM OSF ST. FRANCIS": a saint written out or with its
#: full stop where the patient comes from or goes names a facility, whatever the word after it, with the short name of
#: its health system before it
_PLACED_SAINT = re.compile(
    r"\b(?i:from|to|at)[ \t]+(?P<system>[A-Z]{2,5}[ \t]+)?(?P<saint>(?:St\.|ST\.|st\.|Saint|SAINT|saint)[ \t]*(?P<name>[A-Za-z][a-z]{2,}(?:['’]s)?|[A-Z]{3,}(?:['’]S)?))(?![\w-])"
)
#: "transferred from our lady of the vale", "OUR LADY OF LOURDES REGIONAL": in a note, a facility in any case
#: the type words a devotional hospital name may end in, and what makes it a congregation's or a school's instead
_DEVOTIONAL_TYPES = r"regional|general|memorial|medical[ \t]+cent(?:er|re)|hospital|health(?:[ \t]+system)?"
_CONGREGATION_AFTER = r"church|parish|school|academy|chapel|cathedral|shrine|college|university"
_OUR_LADY = re.compile(
    r"(?<![\w-])(?i:our[ \t]+lady[ \t]+of(?:[ \t]+the)?[ \t]+[A-Za-z][\w'’-]+"
    r"(?:[ \t]+(?:" + _DEVOTIONAL_TYPES + r"|infirmary|clinic))?)(?![\w-])"
    r"(?![ \t]+(?i:" + _CONGREGATION_AFTER + r"))"
)
#: "gcs 7 at holy rosary", "FLOWN TO HOLY CROSS": where the patient was or goes, a holy name is a hospital's (not
#: "holy water", nor a church: "from holy family parish")
_HOLY = re.compile(
    r"(?<![\w-])(?i:(?:from|at|to|via)[ \t]+)(?P<name>(?i:holy[ \t]+(?!(?:communion|water|oils?|bible|scriptures?|week|day|days|land|ghost|cow|grail)\b)[a-z]{4,}"
    r"(?:[ \t]+(?:" + _DEVOTIONAL_TYPES + r"|clinic))?))(?![\w-])"
    r"(?![ \t]+(?i:" + _CONGREGATION_AFTER + r"|catholic))"
)
#: "St. John's wort", "St. Patrick's Day", "St. Vitus dance": what follows shows the saint names no facility
_NOT_SAINT_FACILITY_AFTER = re.compile(r"[ \t]+(?i:wort|day|dance|fire|eve)\b")
#: "CVS on Route 9", "Walgreens on Fremont Ave": a chain store named by its street is one facility
_CHAIN_ON = re.compile(
    r"(?<![\w-])(?:Walgreens|CVS|Rite[ \t-]?Aid|Walmart|Costco|Kroger|Safeway|Publix|Duane[ \t]+Reade|Boots|Target|Meijer|Hy-Vee"
    r"|Wegmans|Albertsons|Giant[ \t]+Eagle)(?:[ \t]+(?:Pharmacy|Drug(?:s|[ \t]+Store)?))?[ \t]+(?:on|off)[ \t]+"
    r"(?:(?:Route|Rte\.?|Highway|Hwy\.?)[ \t]*\d{1,4}[A-Z]?"
    r"|(?:[A-Z][a-z'’]+[ \t]+){1,2}(?:Ave|Avenue|St|Street|Rd|Road|Blvd|Boulevard|Ln|Lane|Pkwy|Parkway|Dr|Drive|Pike|Way)\b\.?(?![ \t]+[A-Z]))"
)
#: "brookside commons nh" typed in lower case, "GOLDEN MEADOWS SNF" in a line of capitals
_CARE_HOME = re.compile(
    r"(?<![\w-])(?P<name>(?:[a-z]{3,}[ \t]+)??[a-z]{4,})[ \t]+(?:assisted[ \t]+living|nursing[ \t]+(?:home|pavilion)|senior[ \t]+living|rehab[ \t]+center|care[ \t]+cent(?:er|re)|visiting[ \t]+nurses?|manor|ltach?|snf|alf)\b(?:[ \t]+(?:nh|snf)\b)?",
    re.I,
)
#: the Spanish head of a home's name before the words the home rule reads: "from la casa de san juan nursing home",
#: "villa de san antonio snf", "santa rosa manor"
_SPANISH_HOME_HEAD = re.compile(
    r"(?:(?<![\w-])(?:(?:la|el|los|las)[ \t]+)?[a-z]{4,}[ \t]+del?(?:[ \t]+(?:la|los|las))?[ \t]+)?"
    r"(?:(?<![\w-])(?:san|santa|santo)[ \t]+)?$",
    re.I,
)
#: "at sandpiper dialysis", "from lakeside community hosp", "back to fairhaven rehab": a facility typed in lower case
_LOWER_FACILITY = re.compile(
    r"(?:\b(?:at|from|to|in|via|agency|by)|@)[ \t]*(?P<name>(?P<head>(?!(?:from|into|onto|with|over)\b)[a-z][a-z-]{2,})(?:[ \t]+(?P<second>[a-z][a-z-]{2,})"
    # "from upper connecticut valley hospital": a third word only before a hospital's own type word
    r"(?:[ \t]+(?P<third>[a-z][a-z-]{2,})(?=[ \t]+(?:hosp(?:ital)?|medical[ \t]+(?:center|ctr)|regional|memorial|deaconess)\b))??)??"
    r"(?:[ \t]+(?:community|memorial|regional|general|county|co\.?|university))?"
    r"[ \t]+(?:(?:acute[ \t]+)?rehab(?:ilitation)?(?:[ \t]+(?:center|hosp(?:ital)?))?|dialysis(?:[ \t]+(?:center|unit))?|hosp(?:ital)?"
    r"|medical(?:[ \t]+(?:center|ctr))?|family[ \t]+practice|recovery(?:[ \t]+(?:center|clinic))?|med[ \t]+ctr|nursing[ \t]+(?:home|facility|center|(?:and|&)[ \t]+rehab)|snf|clinic|health[ \t]+center|urgent[ \t]+care|general|memorial(?![ \t]+(?:service|services|day|fund))|deaconess|regional|hospice|f?qhc|chc|(?:va[ \t]+)?clc"
    # the care a patient lives in or returns to between stays, typed in lower case as its title-case type words are
    r"|kidney[ \t]+(?:center|care)|behavioral[ \t]+health(?:[ \t]+(?:center|hospital))?|group[ \t]+home|home[ \t]+(?:care|health)|visiting[ \t]+nurses?"
    r"|care[ \t]+center|infusion[ \t]+(?:center|services|partners)|(?:residential[ \t]+)?treatment[ \t]+center|shelter"
    # the federal and tribal clinics of a rural catchment, and the family practices that send to it: "canyon wells ihs"
    r"|ihs|(?:tribal|indian)[ \t]+health|health[ \t]+(?:ctr|clinic)|family[ \t]+(?:medicine|health)|medical[ \t]+group|pharmacy"
    # a town's community hospital, named before its emergency room: "drove him to georgetown community er"
    r"|community(?=[ \t]+e[rd]\b)"
    # a town's critical access hospital and its drugstore: "tnk given at ava cah", "refill at hometown drug"
    r"|(?:reg|gen)\.?" + _SHORT_TYPE_NOT_BEFORE + r"|cah|critical[ \t]+access(?:[ \t]+hosp(?:ital)?)?|drug(?![ \t]+(?:screen|seeking|use|abuse|levels?|rash|reaction|fever|test|class)\b)))(?![\w-])"
)
_NOT_LOWER_HEADS = rule_list("facilities", "not_lower_heads")
#: a hospital's own type words, after which an ordinary word of English's less frequent may head the name
_HOSPITAL_TYPE_END = re.compile(r"[ \t](?:hosp(?:ital)?|regional|general|memorial|medical[ \t]+(?:center|ctr)|med[ \t]+ctr|community)$")
_HOSPITAL_HEAD_FREQ = 1e-4
#: a disposition and the preposition of where it sends the patient: "referral to", "accepted at", "tx'd from"
#: the verbs that move a patient to or from a place
_MOVED = r"referred|accepted|transfer(?:red)?|transfered|xfer(?:r?ed)?|tx['’]?d|admitted|discharged|d/c['’]?d|return(?:s|ed|ing)?"
_DESTINATION = re.compile(
    r"\b(?:referrals?(?:[ \t]+(?:sent|faxed|made))?|accepting|bed[ \t]+(?:offer(?:ed)?[ \t]+)?|dispo(?:sition)?|" + _MOVED +
    r"|(?:seen|followed)(?![ \t]+by))"
    r"[ \t]+(?:to|at|from|by)[ \t]+(?P<word>[A-Za-z][a-z'’]{3,}|[A-Z][A-Z'’]{3,})(?![\w/-])",
    re.I,
)
_SERVICE_ENDING = re.compile(r"(?:ology|icu|surg(?:ery)?|onc|trauma)$")
#: "transferred from good sam", "FLOWN TO CHILDREN'S", "FROM MERCY SOUTH ED": a name many hospitals share, after
#: a transfer or arrival cue, with a campus direction and an emergency room or type word after it
_HOSPITAL_STEMS = rule_list("facilities", "hospital_stems")
#: the shared names as one alternation, a space matching any run of blanks and the apostrophe optional
_STEM_WORDS = alternation(_HOSPITAL_STEMS).replace("\\ ", "[ \\t]+").replace("'", "['’]?")
#: "TNK GIVEN AT ADVENTIST TILLAMOOK", "providence seaside": a shared name with the town of its branch after it
_STEM_THEN_TOWN = re.compile(r"(?<![\w-])(?P<name>" + _STEM_WORDS + r")(?=[ \t])", re.I)
_STEM_AFTER_CUE = re.compile(
    r"\b(?:" + _MOVED +
    r"|sent(?:[ \t]+(?:over|back))?|came(?:[ \t]+(?:in|over))?|flown|flew|flight|airlifted|life-?flighted|transported|went|back"
    # where an earlier stay was: "last admit at good sam", "hospitalized at presby"
    r"|admit|admission|stay(?:ed)?|hospitali[sz](?:ed|ation)|seen|treated|delivered|born)"
    r"[ \t]+(?:to|at|from)[ \t]+(?:the[ \t]+)?"
    r"(?P<name>(?:" + _STEM_WORDS + r")"
    r"(?:[ \t]+(?:north|south|east|west|downtown))?(?:[ \t]+(?:ed|er|hospital|hosp|medical[ \t]+cent(?:er|re)))?"
    # a hospital run with its care home: "memorial hospital and manor"
    r"(?:[ \t]+(?:and|&)[ \t]+(?:manor|nursing[ \t]+(?:home|center)|clinics?|rehab|home))?)(?![\w'’-])"
    # "went to memorial service", "MEMORIAL DAY": a memorial that is no hospital
    r"(?![ \t]+(?:service|services|day|fund|park|gardens?|stadium|drive|dr|blvd|highway|hwy|parkway|pkwy)\b)"
    # "from Mercy General Hospital": a longer name is the typed rule's
    r"(?![ \t]+(?:(?-i:[A-Z][a-z])|general|regional|community|medical|county|health|clinic|cent(?:er|re)|campus|rehab|nursing)\b)",
    re.I,
)
#: "from linden court (alf)", "THE PINES (SNF)": a care home's type in brackets after its name
_BRACKET_TYPE = re.compile(
    r"\((?:alf|snf|ltc|ltach?|nh|sar|adhc|group[ \t]+home|nursing[ \t]+home|assisted[ \t]+living|rehab|hospice)\)", re.I
)
#: "FROM OSH (MCH)", "outside hospital (st. brendan's)": the outside hospital named in brackets
_OSH_BRACKET = re.compile(r"\b(?:osh|outside[ \t]+(?:hospital|hosp|facility))[ \t]*\((?P<name>[A-Za-z][\w&'’. -]{1,40}?)\)", re.I)
#: "LTACH - GRAYSON POINT ACCEPTED": a care home's type, a dash, and its name where it takes the patient
_TYPE_DASH_NAME = re.compile(
    r"\b(?:ltach?|snf|alf|ltc|rehab|hospice|nh)[ \t]*[-:–][ \t]*(?P<name>[A-Za-z][\w'’-]+(?:[ \t]+[A-Za-z][\w'’-]+){0,2}?)"
    r"(?=[ \t]+(?:accepted|accepting|offered|declined|will[ \t]+accept|has[ \t]+(?:a[ \t]+)?bed)\b)",
    re.I,
)
_NAME_BEFORE_BRACKET = re.compile(r"(?<![\w'’-])(?P<name>(?:[A-Za-z][\w'’-]*[ \t]+){0,3}[A-Za-z][\w'’-]*)[ \t]*$")
_PLACE_PREPOSITION_BEFORE = re.compile(r"\b(?:from|at|to|in)[ \t]+$", re.I)
_FAC_OF = re.compile(
    r"(?<![\w])(?P<type>(?:Hospital|Medical[ \t]+Center|Clinic|Infirmary|University|Health[ \t]+System))[ \t]+of[ \t]+(?:the[ \t]+)?"
    r"(?P<rest>(?:[A-Z][\w'’.-]*[ \t]*(?:of[ \t]+)?){1,5})"
)
#: a practice named by its kind and its town, in any case: "FAMILY CARE OF NICHOLASVILLE", "pediatrics of danville"
_PRACTICE_OF_TOWN = re.compile(
    r"(?<![\w-])(?:(?:family|primary|urgent|women['’]?s|senior|kidney|eye|foot|heart|skin)[ \t]+care|pediatrics|cardiology|urology"
    r"|dermatology|orthop(?:a)?edics|oncology|nephrology|neurology|gastroenterology|pulmonology|(?:family|internal)[ \t]+medicine"
    r"|family[ \t]+practice|dialysis|surgical[ \t]+associates)[ \t]+of[ \t]+(?P<town>[a-z][a-z'’-]+\.?)(?:[ \t]+(?P<second>[a-z][a-z'’-]+))?",
    _I,
)
_FAC_TRIM = rule_list("facilities", "trim_words")
#: words that join a facility's name words ("Hospital of the ...", "Health and Rehab", "Center for ...")
_JOINERS = ("of", "the", "and", "&", "for")
#: the particles of phrasal verbs ("put off", "sign up", "hold out")
_VERB_PARTICLES = frozenset({"off", "up", "out", "down", "away", "into", "onto"})
#: determiners of whose a thing is: a facility's name never holds one
_OWNERS = frozenset({"his", "her", "their", "our", "your", "my", "its"})
_GENERIC_FACILITY_WORDS = rule_list("facilities", "generic_words")


#: how often English may write a short form of no hospital's shape as a word ("upmc", "hrmc" never; "cotton" often)
_ACRONYM_WORD_FREQ = 5e-6
#: "GH", "SMH": a two-letter short form counts only with a hospital's last letter
_ACRONYM = re.compile(r"(?<![\w&-])(?P<acr>[A-Z][A-Z&]{1,6}[A-Z]|[A-Z]H)(?![\w&-])")
#: typed in lower case, only a hospital's or medical centre's shape: "from smh", "transferred from gh"
_LOWER_ACRONYM = re.compile(r"(?<![\w&-])(?P<acr>[a-z]{1,4}(?:h|mc))(?![\w&-])")
_ACRONYM_CUE = re.compile(
    r"\b(?:presented|presents|presenting|arrived|arrives|arriving|transferred|transfered|transfer|xfer(?:r?ed)?|admitted|admission|discharged|discharge|disposition|returned|sent|"
    r"brought|taken|referred|evaluated|seen|treated|hospitali[sz]ed|followed|follow[- ]?up|f/u|appointment|appt|scheduled|"
    r"works|employed|dr\.?|hd|dialysis|hemodialysis|dialy[sz]es|pcp|came|comes|ems|ambulance|flown|med[ \t]?flight|tx|trx|"
    # what an outside hospital did before sending the patient: "INTUBATED AT SOVAH DANVILLE", "tnk at lrmc"
    r"intubated|stented|cathed|resuscitated|stabili[sz]ed|tnk|tpa|lytics)\b",
    re.IGNORECASE,
)


def _saints_stem(name: str) -> str:
    """The saint without the possessive a facility's name gives it: "joes" -> "joe", "mary's" -> "mary"."""
    return re.sub(r"['’]?s$", "", name)


def _saints_given_name(lex: Lexicon, name: str) -> bool:
    """A lower-case word after "st" that is a listed given name, with or without its possessive."""
    return lex.is_first(_saints_stem(name)) or lex.is_first(name)


def _type_capitalised(m: re.Match[str]) -> bool:
    return all(w[0].isupper() for w in m.group("type").split() if w.lower() not in ("of", "and", "&"))


def _facility_matches(text: str):
    """Facility matches; "the Beaumont Hospital neurology clinic" falls back to the capitalised "Beaumont Hospital"."""
    for m in _FACILITY.finditer(text):
        if _type_capitalised(m):
            yield m
            continue
        end = m.start("type")
        while end > m.start() and text[end - 1] in " \t":
            end -= 1
        inner = _FACILITY.search(text, m.start(), end)
        if inner and _type_capitalised(inner):
            yield inner


#: "BROUGHT IN BY SCIPIO AMBULANCE", "ocean city ems", "douglas co ambulance", "crew from bayhawk air", "MIFFLINBURG
#: HOSE CO" (a town's fire company): an ambulance,
#: rescue or flight service named by its town or its own word, in any case ("by ground ems", "room air" name none)
_RESCUE_TYPE = re.compile(
    r"(?<![\w-])(?:ems|ambulance(?:[ \t]+(?:service|district|corps))?|rescue(?:[ \t]+squad)?|(?:emergency|ambulance)[ \t]+squad|fire(?:[ \t]*(?:&|and)[ \t]*rescue|[ \t]+(?:dept|department|district|co|company))?|vfd"
    r"|(?:hose|engine)[ \t]+(?:co|company)"
    r"|(?P<air>air(?:[ \t]+(?:care|med|evac|ambulance))?|aeromedical|med[ \t]?flight|life[ \t]?flight|medevac))(?![\w-])",
    re.I,
)
#: "REHAB AT WHITE DEER RUN.", "wants detox at blue mountain recovery,": where an addiction or rehabilitation stay
#: will be, two or three words that end the clause name the centre, even everyday ones
_TREATMENT_AT = re.compile(
    r"\b(?:rehab|detox|treatment|recovery)[ \t]+(?:at|to)[ \t]+"
    r"(?P<name>[A-Za-z][A-Za-z'’-]+(?:[ \t]+[A-Za-z][A-Za-z'’-]+){1,2})(?=[ \t]*(?:[,.;:)\n]|$))",
    re.I,
)
#: "VETERAN FROM JACOBETTI HOME": a home named by a word English does not write is a care home (or, named by a
#: surname, a family's house, which names the family as well); what a home gives is no name ("home health")
_NAMED_HOME = re.compile(
    r"\b(?:from|at|to|in|of)[ \t]+(?:the[ \t]+)?(?P<name>[A-Za-z][A-Za-z'’-]{2,}[ \t]+home)\b"
    r"(?![ \t]+(?:health|care|infusion|o2|oxygen|medical|meds?|visits?|safety|address|phone|number|dialysis|hospice|vent|bipap|cpap|pt|ot|setting|situation))",
    re.I,
)
#: what kind of home, not whose: "foster home", "group home", "funeral home"
_KINDS_OF_HOME = frozenset({"foster", "group", "nursing", "funeral", "boarding", "halfway", "mobile", "motor", "retirement", "rest", "care"})
#: "home meds verified w/ hartford drug", "LIST CONFIRMED WITH BONIFAY PHARMACY": the drugstore that checked a
#: patient's medicines, named by its own words before its type
_PHARMACY_CHECKED = re.compile(
    r"\b(?:verified|reconciled|confirmed|checked|clarified|called|filled|refilled)[ \t]+(?:w/|with|by|at|thru|through|via)[ \t]+"
    r"(?:the[ \t]+)?(?P<name>[A-Za-z][A-Za-z'’-]+(?:[ \t]+[A-Za-z][A-Za-z'’-]+)?[ \t]+(?:drugs?|pharmacy|rx|apothecary))(?![\w'’-])",
    re.I,
)
#: the words that go on with a clause past the place where something was done: "INTUB AT PEN BAY FOR AIRWAY"
_CLAUSE_GOES_ON_WORDS = r"for|and|then|w/|with|prior|before|after|by|via|&"
#: "INTUB AT PEN BAY FOR AIRWAY PROTECTION", "banded x4 at avh then tx": what an outside hospital did, where, then the
#: clause's end; one or two words name the hospital whatever words they are, unless one says how, when or where else
_DONE_AT = re.compile(
    r"\b(?:intubated|intub|stented|cathed|resuscitated|stabili[sz]ed|banded|scoped|tnk['’]?d|tpa['’]?d|(?:tnk|tpa|lytics)[ \t]+given)"
    r"(?:[ \t]+x[ \t]?\d)?[ \t]+at[ \t]+(?P<name>[A-Za-z][A-Za-z'’-]+(?:[ \t]+[A-Za-z][A-Za-z'’-]+)?)"
    r"(?=[ \t]*(?:[,.;]|$)|[ \t]+(?:" + _CLAUSE_GOES_ON_WORDS + r")\b)",
    re.I | re.M,
)
#: after a short form, where the clause ends or goes on, a bracket, a count or a direction besides: "AT AVH THEN TX"
_CLAUSE_GOES_ON = re.compile(r"[ \t]*(?:[,.;)]|$)|[ \t]+(?:" + _CLAUSE_GOES_ON_WORDS + r"|on|in|x[ \t]?\d|to|from)\b", re.I | re.M)
#: "lives at quarry hill", "RESIDES AT PINE RIDGE COMMONS": where a patient lives, named by a residence's last word
_LIVES_AT = re.compile(
    r"\b(?:lives|living|resides|residing|resident)[ \t]+at[ \t]+(?:the[ \t]+)?"
    r"(?P<name>(?:[A-Za-z][A-Za-z'’-]+[ \t]+){1,2}(?:" + alternation(RESIDENCE_TAILS) + r"))(?![\w'’-])",
    re.I,
)
#: what ends a stay's clause when no centre is named: "REHAB AT THIS TIME", "detox at earliest opportunity"
_NOT_CENTRE_WORDS = rule_list("facilities", "not_centre_words")
#: "UNIVERSITY HOSPITAL IN SAN ANTONIO", "childrens hosp in denver": a hospital's kind, then its city
_KIND_IN_CITY = re.compile(
    r"(?<![\w'’-])(?P<name>(?:university|children'?s|childrens|county|veterans'?|va|state)[ \t]+(?:hospital|hosp|medical[ \t]+(?:center|ctr)|med[ \t]+ctr))"
    r"[ \t]+(?:in|at|of)[ \t]+(?P<city>[A-Za-z][a-z]+(?:[ \t]+[A-Za-z][a-z]+)?|[A-Z]+(?:[ \t]+[A-Z]+)?)(?![\w'’-])",
    re.I,
)
#: words that place one thing beside another, never inside a facility's name
_NEARNESS = frozenset({"near", "nr", "behind", "across", "beside", "opposite", "outside"})
#: words between a service's town and its type: "douglas co ambulance", "BATH VOL AMBULANCE", "CORNING FIRE EMS"; after
#: the volunteer ones, a town that is also a word still names the service
_VOLUNTEER_INFIXES = frozenset({"volunteer", "vol"})
_SERVICE_INFIXES = frozenset({"co", "county", "fire"}) | _VOLUNTEER_INFIXES
#: what a rescue does, not whose it is: "SWIFTWATER RESCUE AT LOW WATER CROSSING", "high angle rescue"
_RESCUE_KINDS = frozenset(
    {"swiftwater", "swift", "water", "technical", "rope", "dive", "high", "angle", "high-angle", "cave", "mountain", "wilderness", "search"}
    | {"ice", "trench", "confined", "space", "vehicle", "extrication", "heavy", "urban", "marine", "structure", "brush", "wildland"}
)
_RESCUE_NAME_WORD = re.compile(r"([A-Za-z][A-Za-z'’.-]*)[ \t]+$")
#: how or by whom a patient was carried ("BY PRIVATE AMBULANCE", "FLOWN BY HELICOPTER"): never a service's name
_TRANSPORT_WORDS = rule_list("facilities", "transport_words")
#: a flight service's type after its name: "SOUTHERN TIER AIR", "lifeguard flight"
_FLIGHT_TYPES = frozenset({"air", "flight", "medevac", "ambulance", "helicopter", "transport"})
#: "BY AMERICAN LEGION AMBULANCE": after "by" or "via", a service may be named with words
_CARRIED_BY = re.compile(r"(?<![\w-])(?:by|via)[ \t]+$", re.I)
#: "FLOWN BY LIFE LION FROM LEWISTOWN", "flown by southern tier air.": who flew the patient is a flight service,
#: whatever its words, before where from or to or the clause's end
_FLOWN_BY = re.compile(
    r"\b(?:flown|flew|airlifted|life-?flighted)(?:[ \t]+(?:in|over|here|out))?[ \t]+by[ \t]+"
    r"(?P<name>[A-Za-z][A-Za-z'’-]*(?:[ \t]+[A-Za-z][A-Za-z'’-]*){0,2}?)(?:[ \t]+(?:from|to)\b|(?=[ \t]*[.,;]))",
    re.I,
)
#: endings, beside an adjective's, of a word that describes air rather than names a flight service ("humidified")
_AIR_DESCRIBED = re.compile(r"(?:ed|ing|ar|ent|ant|ful|less)$")
#: how many words may name a rescue service ("north ocean city ems" is three)
_RESCUE_NAME_WORDS = 3


def _plain_word(lex: Lexicon, word: str) -> bool:
    """A function, stop or clinical word, or a clinical short form: never a facility's own name."""
    return word in FUNCTION_WORDS or lex.is_stop(word) or lex.is_clinical(word) or word.upper() in CLINICAL_ACRONYMS


def _ordinary_centre(lex: Lexicon, words: list[str]) -> bool:
    """``REHAB AT WHITE DEER RUN.`` names a centre; a plain, facility, dwelling or time word or a verb names none."""
    return any(_plain_word(lex, w) or w in _GENERIC_FACILITY_WORDS or w in _NOT_CENTRE_WORDS or w.endswith(("ing", "ed")) for w in words)


def _ordinary_pharmacy(lex: Lexicon, words: list[str]) -> bool:
    """``verified w/ hartford drug`` names a pharmacy; ``home pharmacy``, ``pt's pharmacy`` name none."""
    return any(
        _plain_word(lex, w) or lex.is_common_word(w, strict=True) or w in _GENERIC_FACILITY_WORDS
        for w in (re.sub(r"['’]s$", "", w) for w in words[:-1])
    )


def _whose_or_what_kind(lex: Lexicon, word: str) -> bool:
    """A plain word, a kind of home or a possessive: it says whose a home is or what kind, not what it is called."""
    return _plain_word(lex, word) or word in _KINDS_OF_HOME or word.endswith(("'s", "’s", "s'"))


def _ordinary_home(lex: Lexicon, words: list[str]) -> bool:
    """``FROM JACOBETTI HOME`` names a home; a function, clinical, relation or everyday word, a kind of home or a
    possessive names none."""
    return _whose_or_what_kind(lex, words[0]) or lex.is_common_word(words[0])


def _ordinary_residence(lex: Lexicon, words: list[str]) -> bool:
    """``lives at quarry hill`` names a residence; a function, stop (relations among them) or clinical word, a possessive
    or a kind of home among the words before its last names none (``lives at her sister's place``)."""
    return any(_whose_or_what_kind(lex, w) for w in words[:-1])


def _ordinary_outside_hospital(lex: Lexicon, words: list[str]) -> bool:
    """``intubated at pen bay`` names a hospital; a plain, facility, dwelling or time word, a verb, or one word English
    writes names none (``intubated at bedside``, ``at the scene``, ``at outside hospital``, ``at osh``)."""
    if len(words) == 2 and words[1] in PLACE_TAILS:
        return _ordinary_centre(lex, words[:1])  # "pen bay": a place's last word ends the name, though a stop word elsewhere
    return _ordinary_centre(lex, words) or (len(words) == 1 and lex.is_common_word(words[0]))


def _name_like_second(word: str) -> bool:
    """After a frequent first word, a second that is no adjective ("cape ann", "cape harbor"; not "small rural")."""
    return not _ADJECTIVE_END.search(word)


#: "south shore hosp", "north end clinic": a direction heads a name with a second word after it
_DIRECTIONS = frozenset({"north", "south", "east", "west", "central"})
#: a word whose full stop ends a sentence before a facility's name: three letters or more, a number, a short form
#: with "&" or "/" ("A&O. SHELTER CASE MGR"), or two letters that are no name's short form ("WAITING RM. PLAN
#: CARDIAC REHAB"; not "St.", "Mt.", "Dr.")
_SENTENCE_END_WORD = re.compile(r"[^\W\d_]{3,}|[^\W_]*\d[^\W_]*|[^\W_]+[&/][^\W_]+|(?!(?i:st|mt|ft|dr|jr|sr|co)$)[^\W\d_]{2}")
#: short forms written with a full stop inside a facility's name ("Univ. Hospital", "Ste. Justine")
_SHORT_NAME_WORDS = frozenset({"ste", "univ", "mem", "gen", "med", "inc", "bros", "assoc", "natl", "intl", "hts", "mtn", "cty", "twp", "hosp"})
_CLAUSE_WORDS = frozenset(
    {"to", "in", "into", "at", "by", "with", "from", "on", "is", "was", "be", "if", "when", "per",
     "that", "about", "over", "than", "after", "before", "until", "re", "regarding", "w", "w/",
     "vs", "versus", "or"}  # "HOME W/ HH VS ACUTE REHAB": one of two places to go, each named on its own
)


def _opens_clause(words: Sequence[re.Match[str]], i: int) -> bool:
    """A word after which a facility's name starts; "for" only where capitals say nothing ("SCREEN FOR REHAB";
    "Center for Sight Hospital" is one name)."""
    word = words[i].group(0).rstrip(".,:")
    if word.lower() == "for":
        return word.isupper() or (i > 0 and not words[i - 1].group(0)[:1].isupper())
    return word.lower() in _CLAUSE_WORDS


#: what staff are doing before a facility's type word ("CM ROSE ARRANGING LTACH"); "NURSING" and "CROSSING" name places
_ACTION_GERUNDS = frozenset(
    {"arranging", "working", "awaiting", "pending", "requesting", "refusing", "planning", "looking", "calling", "following",
     "seeking", "considering", "discussing", "coordinating", "waiting", "applying", "checking", "contacting", "faxing"}
)


def _caps_verb(lex: Lexicon, low: str) -> bool:
    """In capitals, a past tense, or an ordinary word with an ``s`` after it that no list holds as a name: what someone
    did ("FOUND", "RECOMMENDS"), not a facility's first word (asked only where more of the name follows)."""
    if lex.is_name(low):
        return low in PAST_VERBS and lex.is_common_word(low, strict=True)
    return low in PAST_VERBS or (_s_after_common_word(lex, low) and not low.endswith(("us", "is")))


def _s_after_common_word(lex: Lexicon, word: str) -> bool:
    """A frequent word with an ``s`` after it: a verb's third person or a plural ("RECOMMENDS", "ELECTS")."""
    return word.endswith("s") and not word.endswith("ss") and lex.is_common_word(word[:-1], strict=True)


def _ordinary_or_its_s(lex: Lexicon, word: str) -> bool:
    """A frequent word, or one with an ``s`` after it that is no place's last word and no name ("ELECTS"; not "PLAINS")."""
    if lex.is_common_word(word, strict=True):
        return True
    return _s_after_common_word(lex, word) and word not in PLACE_TAILS and not lex.is_name(word)


def _caps_gerund(word: str) -> bool:
    """In capitals, a verb in -ing is what someone does, and a facility's name starts after it."""
    return word.isupper() and word.lower() in _ACTION_GERUNDS


class FacilityRecognizer(RuleRecognizer):
    """Facility names with their type words: ``Mercy General Hospital``, ``St. Brigid's Skilled Nursing``."""

    name = "facility"
    version = "1"
    categories = frozenset({Category.HOSPITAL})

    def __init__(self, resources: GazetteerResources | None = None) -> None:
        self.resources = resources or default_resources()

    def _practice_town_end(self, m: re.Match[str]) -> int | None:
        """Where the listed town that names a practice ends: two words ("mount sterling", "st. albans", which the post
        office lists as "st albans"), or one that is no function or clinical word."""
        first = m.group("town").rstrip(".").lower()
        if m.group("second"):
            two = f"{m.group('town')} {m.group('second')}".lower()
            if any(is_listed_town(t) for t in (two, two.replace(".", ""))):
                return m.end("second")
        if first in FUNCTION_WORDS or self.resources.lexicon.is_clinical(first):
            return None
        return m.start("town") + len(first) if is_listed_town(first) else None

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        lex = self.resources.lexicon
        out: list[Span] = []
        for m in _facility_matches(text):
            type_words = [w for w in m.group("type").split() if w.lower() not in ("of", "and", "&")]
            if not all(w[0].isupper() for w in type_words):
                continue  # "Routine Dental care": a type written in lowercase is ordinary prose
            if _NOT_A_NAME_AFTER.match(text, m.end("type")):
                continue  # "Hospital number", "LAD. Hospital course" are prose
            if _DEVICE_AFTER.match(text, m.end("type")):
                continue  # "R IJ TEMP DIALYSIS CATH": a line, not a unit
            if text[m.end("type") : m.end("type") + 1] == ":" and not text[text.rfind("\n", 0, m.start()) + 1 : m.start()].strip():
                continue  # "Recent Labs:", "Discharge Pharmacy:" at the start of a line are section labels
            words = list(re.finditer(r"\S+", m.group("name")))
            keep = 0
            for i, w in enumerate(words):
                stem = w.group(0)[:-1]
                if w.group(0).endswith(".") and _SENTENCE_END_WORD.fullmatch(stem) and stem.lower() not in _SHORT_NAME_WORDS:
                    # "negative Babinski. Labs at discharge", "AWAITING BED. LAB CALLED": the name starts after the sentence
                    keep = i + 1
            clause = [i for i in range(keep, len(words)) if _opens_clause(words, i) or _caps_gerund(words[i].group(0))]
            if clause:
                # "SCREENED BY CEDAR KNOLL REHAB", "REASSURED THAT CARDIAC REHAB": the name starts after the clause,
                # and what is left of it is trimmed as any name's start is
                keep = clause[-1] + 1
            owners = [i for i in range(keep, len(words)) if words[i].group(0).lower() in _OWNERS]
            if owners:
                keep = owners[-1] + 1  # "BRING HIS SUNDAY SCHOOL LESSON": whose it is opens the name
            while keep < len(words):
                w = words[keep].group(0).rstrip(".,")
                low = w.lower()
                if keep + 1 < len(words) and words[keep + 1].group(0) in ("County", "Parish", "City", "Township") and w[:1].isupper():
                    break  # "Will County Occupational Medicine": a place name that is also a word
                if low in _FAC_TRIM or (lex.is_stop(low) and low not in _GENERIC_FACILITY_WORDS) or (len(w) == 1 and w.isascii()):
                    keep += 1
                    continue
                if lex.is_clinical(low) and low not in _GENERIC_FACILITY_WORDS:
                    keep += 1  # "CK AM LABS", "HR. GI": a clinical abbreviation before a type word is no name
                    continue
                if (low.endswith("ed") and lex.is_common_word(low, strict=True) and not lex.is_name(low)) or (
                    # in capitals only: "Flushing Hospital" is capitalised as a name is
                    low.endswith("ing") and caps_line_at(text, m.start()) and lex.is_common_word(low) and not lex.is_name(low) and low not in us_cities()
                ):
                    keep += 1  # "Recommended Home Care", "REFUSING AM LABS": a verb before the name
                    continue
                if keep + 1 < len(words) and low in _BASE_VERBS and _TO_BEFORE.search(text, 0, m.start("name") + words[keep].start()):
                    keep += 1  # "RENAL TEAM TO DISCUSS LONG TERM DIALYSIS": a verb after "to" opens what is to be done
                    continue
                if caps_line_at(text, m.start()) and keep + 1 < len(words) and _caps_verb(lex, low):
                    keep += 1  # "CM FOUND PATIENT ASSISTANCE PROGRAM", "PT RECOMMENDS ACUTE REHAB": a verb opens the clause
                    continue
                break
            if keep >= len(words):
                continue
            remaining = [w.group(0).rstrip(".,").lower() for w in words[keep:]]
            if all(w in _GENERIC_FACILITY_WORDS or w in ("of", "the", "and", "&") for w in remaining):
                continue
            if (remaining[-1] in FUNCTION_WORDS and remaining[-1] not in _JOINERS) or remaining[-1] in _VERB_PARTICLES:
                # "WORKS AS SCHOOL BUS DRIVER", "KEPT PUTTING OFF SURGERY": a function word or a verb's particle right
                # before the type word ends a clause, no name
                continue
            if any(w in _NEARNESS for w in remaining):
                continue  # "STAYING AT MOTEL NEAR HOSP.": where something lies beside the facility, not its name
            if caps_line_at(text, m.start()) and (
                all(w in _JOINERS or (_ordinary_or_its_s(lex, w) and not lex.is_name(w)) for w in remaining)
                or (lex.is_clinical(type_words[-1]) and all(len(w) <= 3 for w in remaining))
                or (
                    any(lex.is_clinical(w) for w in remaining)
                    and all(w in _JOINERS or lex.is_common_word(w, strict=True) or (lex.is_clinical(w) and len(w) <= 4) for w in remaining)
                )
            ):
                # "CASE MANAGEMENT FOR REHAB", "HR 90'S ST. GI: ...", "SPINAL CORD REHAB", "BURN SW AND PSYCHIATRY",
                # "FAMILY ELECTS ACUTE INPATIENT REHAB", "HOME O2 EVAL AND PULM REHAB": in capitals, ordinary words, or
                # clinical words and short forms among ordinary ones, before a type word are no facility's name
                continue
            if (
                re.fullmatch(r"lab(?:s|oratory)?", m.group("type"), _I)
                and len(remaining) <= 2
                and all(lex.is_clinical(w) or lex.is_common_word(w, strict=True) for w in remaining)
            ):
                continue  # "FROM CELL LAB", "tumor lysis labs": a lab named by what it handles, not a facility's name
            if caps_line_at(text, m.start()) and m.group("type").lower() == "rehab" and len(remaining) == 1 and lex.is_everyday(remaining[0]):
                continue  # "DISPO TBD, LIKELY REHAB": in capitals, rehab after one everyday word is where the patient goes
            if m.group("type").split()[-1].lower() in _WEAK_FAC_TYPES:
                proper = [w for w in remaining if w not in _JOINERS]
                if len(proper) > 1 and proper[0] in _CONTACT_VERBS:
                    proper = proper[1:]  # "PAGE GENERAL SURGERY FOR MAP <65": who is paged is a service
                if all(_ADJECTIVE_END.search(w) or w in _GENERIC_FACILITY_WORDS or lex.is_clinical(w) for w in proper) or (
                    len(proper) < 2 and lex.is_common_word(proper[0], strict=True)
                ) or (
                    m.group("type").split()[-1].lower() in REGIMEN_TYPES
                    and caps_line_at(text, m.start())
                    and all(lex.is_common_word(w, strict=True) for w in proper)
                ):
                    # "Plastic Surgery", "Consult Service", "NEUROGENIC BOWEL PROGRAM", in capitals "MED ASSIST PROGRAM": a
                    # specialty or a regimen, not a place
                    continue
            start = m.start("name") + words[keep].start()
            for shared in _STEM_THEN_TOWN.finditer(text, max(0, start - 12), m.end("type")):
                if shared.start() < start < shared.end():
                    start = shared.start()  # "GOOD SAMARITAN HOSPICE": the ordinary word opens a name many hospitals share
            end = m.end("of") if m.group("of") else m.end("type")
            if TITLE_BEFORE_NAME.search(text[max(0, start - 6) : start]):
                # "Dr. Hannelore Brisk of Cedar Ridge Health": the person is not part of the facility
                cut = re.search(r"[ \t](?:of|at|from)[ \t]+", text[start : m.start("type")], _I)
                if not cut:
                    continue
                start += cut.end()
            store = STORE_NUMBER.match(text, end)
            if store:
                end = store.end()
            campus = _CAMPUS.match(text, end)
            if campus:
                end = campus.end()
            end = branch_city_end(text, end, self.resources.lexicon, caps=text[start:end].isupper())
            out.append(Span(start, end, Category.HOSPITAL, 0.8, "facility/typed"))
        for m in _FAC_PREFIX.finditer(text):
            words = list(re.finditer(r"\S+", m.group("rest")))
            keep = 0
            for w in words:
                low = w.group(0).rstrip(".,").lower()
                if low in _GENERIC_FACILITY_WORDS or low in _FAC_TRIM or (lex.is_stop(low) and not lex.is_name(low)):
                    break
                keep += 1
            if keep:
                end = m.start("rest") + words[keep - 1].end()
                out.append(Span(m.start(), end, Category.HOSPITAL, 0.75, "facility/prefix"))
        for m in _FAC_OF.finditer(text):
            rest = m.group("rest").rstrip()
            if not rest:
                continue
            out.append(Span(m.start(), m.start("rest") + len(rest), Category.HOSPITAL, 0.75, "facility/of"))
        for m in _PRACTICE_OF_TOWN.finditer(text):
            end = self._practice_town_end(m)
            if end:
                out.append(Span(m.start(), end, Category.HOSPITAL, 0.75, "facility/practice_of_town"))
        for m in _CHAIN_STORE.finditer(text):
            out.append(Span(m.start(), m.end(), Category.HOSPITAL, 0.8, "facility/store"))
        for m in _CHAIN_ON.finditer(text):
            out.append(Span(m.start(), m.end(), Category.HOSPITAL, 0.8, "facility/store_street"))
        for m in _LOWER_SAINT.finditer(text):
            name = m.group("name")
            stem = _saints_stem(name)
            if _NOT_SAINT_FACILITY_AFTER.match(text, m.end("name")):
                continue  # "st johns wort"
            placed = re.search(r"\b(?:from|at|to)[ \t]+$", text[max(0, m.start() - 8) : m.start()])
            if _saints_given_name(lex, name) or (placed and not lex.is_common_word(stem)):
                # "transfered from st eligius": after a place preposition, a saint no list holds
                out.append(Span(m.start(), m.end(), Category.HOSPITAL, 0.7, "facility/lower_saint"))
        lower_note = note_is_lower(text)
        for m in _CASELESS_SAINT.finditer(text):
            written = m.group(0)
            caseless = (written.isupper() and caps_line_at(text, m.start())) or (written.islower() and lower_note)
            if caseless and _saints_given_name(lex, m.group("name").lower()) and not _NOT_SAINT_FACILITY_AFTER.match(text, m.end("name")):
                out.append(Span(m.start("saint"), m.end(), Category.HOSPITAL, 0.7, "facility/caps_saint"))
        caps_general = (m for m in _CAPS_PLACE_GENERAL.finditer(text) if caps_line_at(text, m.start()))
        for m in itertools.chain(_PLACE_GENERAL.finditer(text), caps_general):
            head = m.group("name").split()[0]
            if not (lex.is_stop(head) or lex.is_clinical(head) or lex.is_common_word(head, strict=True) or head.title() in _NOT_A_HOSPITAL_GENERAL):
                out.append(Span(m.start("name"), m.end("name"), Category.HOSPITAL, 0.7, "facility/general"))
        for m in _TOWN_ER.finditer(text):
            word = m.group("name").lower()
            if not (_plain_word(lex, word) or lex.is_common_word(word, strict=True)):
                out.append(Span(m.start("name"), m.end("name"), Category.HOSPITAL, 0.7, "facility/town_er"))
        for m in _BEHAVIORAL_UNIT.finditer(text):
            word = m.group("name").lower()
            if not (_plain_word(lex, word) or lex.is_common_word(word) or lex.frequency(word) >= RARE_TOWN_WORD_FREQ):
                out.append(Span(m.start("name"), m.end("name"), Category.HOSPITAL, 0.7, "facility/behavioral_unit"))
        for m in _OUR_LADY.finditer(text):
            out.append(Span(m.start(), m.end(), Category.HOSPITAL, 0.75, "facility/our_lady"))
        for m in _HOLY.finditer(text):
            out.append(Span(m.start("name"), m.end("name"), Category.HOSPITAL, 0.75, "facility/holy"))
        for m in _PLACED_SAINT.finditer(text):
            word = m.group("name").lower()
            if not (word in FUNCTION_WORDS or lex.is_stop(word) or lex.is_clinical(word) or _NOT_SAINT_FACILITY_AFTER.match(text, m.end("name"))):
                system = (m.group("system") or "").strip().lower()
                if system and (_plain_word(lex, system) or lex.is_common_word(system)):
                    continue  # "PT TO ICU ST. JOHN": the place is the unit's, not the saint's
                # "SENT FROM OSF ST. FRANCIS": the health system's short name before the saint is the hospital's
                out.append(Span(m.start("system") if system else m.start("saint"), m.end(), Category.HOSPITAL, 0.7, "facility/saint"))
        for m in _SAINT_FACILITY.finditer(text):
            if _NOT_SAINT_FACILITY_AFTER.match(text, m.end("name")):
                continue
            if m.group("type") or m.group("name").lower().endswith(("'s", "’s")):
                out.append(Span(m.start(), m.end(), Category.HOSPITAL, 0.7, "facility/saint"))
        for m in _CARE_HOME.finditer(text):
            if not (m.group(0).islower() or (m.group(0).isupper() and caps_line_at(text, m.start()))):
                continue  # title case is the typed rule's
            words = m.group("name").lower().split()
            start = m.start()
            # "from willow crest assisted living": two words after a place preposition name a home, whatever words
            # they are, unless one is a function, clinical or service word ("prefers meadowbrook ltac", "in from sunnyvale")
            plain = [w in FUNCTION_WORDS or w in _NOT_LOWER_HEADS or lex.is_stop(w) or lex.is_clinical(w) for w in words]
            if len(words) == 2 and not (_PLACE_PREPOSITION_BEFORE.search(text, max(0, start - 12), start) and not any(plain)) and (
                any(plain) or lex.is_common_word(words[0])
            ):
                # a first word that is no word is the home's own ("resident of sutton willows care center"), unless a
                # function or clinical word stands beside it ("transition to ihd then ltach")
                words, start = words[1:], m.start("name") + len(m.group("name")) - len(words[1])
            head = _SPANISH_HOME_HEAD.search(text, max(0, start - 40), start)
            if head and head.group(0) and not any(len(w) > 3 and w in FUNCTION_WORDS for w in head.group(0).lower().split()):
                # "from la casa de san juan nursing home": the whole Spanish name is the home's ("from de ..." is none)
                out.append(Span(head.start(), m.end(), Category.HOSPITAL, 0.7, "facility/lower_home"))
                continue
            # "to riverside ltach": where the patient goes, only a frequent word is no home's name
            placed = bool(_PLACE_PREPOSITION_BEFORE.search(text, max(0, start - 12), start))
            # "sent from heritage manor": where the patient comes from or goes, a manor is named by any word but a plain one
            manor = placed and m.group(0).lower().endswith("manor") and words[0] not in _GENERIC_FACILITY_WORDS
            if len(words) == 2 or not ((lex.is_common_word(words[0], strict=placed) and not manor) or lex.is_stop(words[0]) or lex.is_clinical(words[0])):
                out.append(Span(start, m.end(), Category.HOSPITAL, 0.7, "facility/lower_home"))
        for m in _LOWER_FACILITY.finditer(text):
            head, second, third = m.group("head", "second", "third")
            if not (
                head in _NOT_LOWER_HEADS
                or (len(head) < 4 and not second)  # "oak hill urgent care", but not "to icu hosp"
                or (head in _GENERIC_FACILITY_WORDS and not (second and head in _DIRECTIONS))
                or lex.is_stop(head)
                or lex.is_clinical(head)
                or head in CLINICAL_ACRONYMS
                # "cape ann hosp": a frequent word heads a name only with a second word after it, or before a
                # hospital's own type word if English uses it seldom enough to name one ("mercy regional", not "big hospital")
                or (
                    lex.is_common_word(head, strict=True)
                    and not (second and _name_like_second(second))
                    and not (_HOSPITAL_TYPE_END.search(m.group("name")) and lex.frequency(head) < _HOSPITAL_HEAD_FREQ)
                )
                # "cedar hill urgent care": a second or third word of the name is no stop, clinical or service word
                or any(w and (w in _NOT_LOWER_HEADS or w in _GENERIC_FACILITY_WORDS or lex.is_stop(w) or lex.is_clinical(w)) for w in (second, third))
            ):
                end = branch_city_end(text, m.end("name"), lex, lower=True)  # "teton kidney care idaho falls"
                out.append(Span(m.start("name"), end, Category.HOSPITAL, 0.7, "facility/lower"))
        out.extend(self._bracket_typed(text))
        out.extend(self._named_after_type(text))
        out.extend(self._rare_destinations(text))
        out.extend(Span(m.start("name"), m.end("name"), Category.HOSPITAL, 0.7, "facility/shared_name") for m in _STEM_AFTER_CUE.finditer(text))
        for m in _STEM_THEN_TOWN.finditer(text):
            written = m.group("name")
            end = branch_city_end(text, m.end(), lex, caps=written.isupper(), lower=written.islower())
            if end > m.end():
                out.append(Span(m.start(), end, Category.HOSPITAL, 0.7, "facility/shared_name"))
        out.extend(self._acronyms(text))
        out.extend(self._rescue_services(text))
        out.extend(self._flown_by(text))
        out.extend(self._cued_names(text, _TREATMENT_AT, "facility/treatment_centre", _ordinary_centre))
        out.extend(self._cued_names(text, _PHARMACY_CHECKED, "facility/checked_pharmacy", _ordinary_pharmacy))
        out.extend(self._cued_names(text, _NAMED_HOME, "facility/named_home", _ordinary_home))
        out.extend(self._cued_names(text, _LIVES_AT, "facility/residence", _ordinary_residence))
        out.extend(self._cued_names(text, _DONE_AT, "facility/done_at", _ordinary_outside_hospital))
        out.extend(self._kind_in_city(text))
        return out

    def _rescue_services(self, text: str) -> list[Span]:
        """An ambulance, rescue squad or air ambulance named before its type: the words must be a listed town or
        county (``co`` after it is the county's) or words English does not write; a flight service's name must be
        no word at all, as "air" follows many ("room air", "free air")."""
        lex = self.resources.lexicon
        out = []
        for m in _RESCUE_TYPE.finditer(text):
            after = re.match(r"[ \t]+([A-Za-z]+)", text[m.end() : m.end() + 20])
            if after and (lex.is_clinical(after.group(1)) or after.group(1).upper() in CLINICAL_ACRONYMS):
                continue  # "no reperfusion rescue pci", "rescue inhaler": a clinical use of the word
            words: list[tuple[int, str]] = []
            pos = m.start()
            while len(words) < _RESCUE_NAME_WORDS:
                w = _RESCUE_NAME_WORD.search(text, max(0, pos - 40), pos)
                if not w or w.group(1).lower() in FUNCTION_WORDS or w.group(1).endswith(".") and w.group(1).lower() not in ("co.", "st.", "mt.", "ft."):
                    break  # a name never reaches back over a sentence's end ("LIFT ASSIST. SCIPIO AMBULANCE")
                words.insert(0, (w.start(1), w.group(1)))
                pos = w.start(1)
            named = list(words)
            while words and not self._rescue_name(lex, [t.lower().rstrip(".") for _, t in words], air=bool(m.group("air"))):
                words.pop(0)
            if not words and not m.group("air") and len(named) > 1 and _CARRIED_BY.search(text, max(0, named[0][0] - 6), named[0][0]):
                words = named if self._service_words(lex, [t.lower() for _, t in named]) else []
            if words:
                out.append(Span(words[0][0], m.end(), Category.HOSPITAL, 0.7, "facility/rescue_service"))
        return out

    @staticmethod
    def _hospital_shaped_at(lex: Lexicon, acr: str, before: str, text: str, end: int) -> bool:
        """``BANDED X4 AT AVH THEN TX``: where something was done, three letters or more ending as a hospital's or a
        medical centre's short form need no cue, if English never writes them and no list holds them as a name (the
        clause must end or go on after them: ``AT EVH SITE`` is a wound)."""
        return (
            len(acr) >= 3
            and acr.lower().endswith(("h", "mc"))
            and bool(re.search(r"\bat[ \t]+$", before, re.IGNORECASE))
            and not lex.is_name(acr)
            and lex.frequency(acr) < _ACRONYM_WORD_FREQ
            and bool(_CLAUSE_GOES_ON.match(text, end))
        )

    def _cued_names(self, text: str, pattern: re.Pattern[str], source: str, ordinary: Callable[[Lexicon, list[str]], bool]) -> list[Span]:
        """Each ``name`` that ``pattern``'s cue stands beside, unless ``ordinary`` finds its words plain English."""
        lex = self.resources.lexicon
        return [
            Span(m.start("name"), m.end("name"), Category.HOSPITAL, 0.7, source)
            for m in pattern.finditer(text)
            if not ordinary(lex, m.group("name").lower().split())
        ]

    def _flown_by(self, text: str) -> list[Span]:
        """``FLOWN BY LIFE LION FROM LEWISTOWN``: the words between "flown by" and where from or to name the flight
        service unless they say how it flew (``flown by helicopter from``)."""
        lex = self.resources.lexicon
        out = []
        for m in _FLOWN_BY.finditer(text):
            words = m.group("name").lower().split()
            while len(words) > 1 and words[-1] in _FLIGHT_TYPES:
                words.pop()  # "southern tier air": the service's own words stand before its type
            if self._service_words(lex, words):
                out.append(Span(m.start("name"), m.end("name"), Category.HOSPITAL, 0.7, "facility/flown_by"))
        return out

    @staticmethod
    def _service_words(lex: Lexicon, words: list[str]) -> bool:
        """Words that may name a transport service after "by": none says how or by whom, none is a plain word."""
        return not any(w in _TRANSPORT_WORDS or w in _RESCUE_KINDS or _plain_word(lex, w) for w in words)

    @staticmethod
    def _kind_in_city(text: str) -> list[Span]:
        """``accepted for tips at university hospital in san antonio``: a hospital named by its kind is one facility
        once its city follows (``a hospital in denver`` names none)."""
        out = []
        for m in _KIND_IN_CITY.finditer(text):
            words = m.group("city").lower().split()
            if any(" ".join(words[:n]) in us_cities() for n in (len(words), 1)):
                out.append(Span(m.start("name"), m.end("name"), Category.HOSPITAL, 0.7, "facility/kind_in_city"))
        return out

    @staticmethod
    def _rescue_name(lex: Lexicon, words: list[str], *, air: bool) -> bool:
        if words[0] in ("co", "county") or all(w in _RESCUE_KINDS for w in words):
            return False
        core = list(words)
        while core and core[-1] in _SERVICE_INFIXES:
            core.pop()  # "douglas co ambulance", "BANDERA VOLUNTEER FIRE DEPT", "CORNING FIRE EMS": the county's or town's
        if not core:
            return False
        joined = " ".join(core)
        if not air and (is_listed_town(joined) or f"{joined} county" in us_counties()):
            # a volunteer service is named for its town even when the town is a word ("BATH VOL AMBULANCE")
            volunteer = any(w in _VOLUNTEER_INFIXES for w in words[len(core) :])
            return len(core) > 1 or volunteer and not lex.is_clinical(joined) or not (_plain_word(lex, joined) or lex.is_common_word(joined, strict=True))
        if air and any(_ADJECTIVE_END.search(w) or _AIR_DESCRIBED.search(w) for w in core):
            return False  # "humidified air", "subcutaneous air", "entrained air": what kind of air
        return not any(_plain_word(lex, w) or lex.is_common_word(w) for w in core)

    def _rare_destinations(self, text: str) -> list[Span]:
        """``cm sent referral to youville``, ``ACCEPTED AT SPAULDING``: where a disposition sends the patient,
        a word English hardly uses (a name, or no word at all) that is no clinical or stop word is the place's
        name, in any case."""
        lex = self.resources.lexicon
        out = []
        for m in _DESTINATION.finditer(text):
            word = m.group("word")
            low = word.lower()
            if lex.frequency(low) >= COMMON_WORD_FREQ or _plain_word(lex, low) or len(re.sub(r"['’]s$", "", low)) <= 3:
                continue  # "REFERRED TO PT'S MOTHER": a short form's possessive is whose, not where
            if low in _GENERIC_FACILITY_WORDS or low in _NOT_LOWER_HEADS or _SERVICE_ENDING.search(low):
                continue  # "referred to neuroradiology", "transferred to neurotrauma icu": a service or a unit
            out.append(Span(m.start("word"), m.end("word"), Category.HOSPITAL, 0.7, "facility/destination"))
        return out

    def _bracket_typed(self, text: str) -> list[Span]:
        """``from linden court (alf)``: the words after the clause's last function word, before a care home's
        type in brackets, name the home in any case unless they are all service, clinical or stop words."""
        lex = self.resources.lexicon
        out = []
        for bracket in _BRACKET_TYPE.finditer(text):
            m = _NAME_BEFORE_BRACKET.search(text, max(0, bracket.start() - 80), bracket.start())
            if not m:
                continue
            words = list(re.finditer(r"\S+", m.group("name")))
            keep = max((i + 1 for i, w in enumerate(words) if w.group(0).lower() in _CLAUSE_WORDS or w.group(0).lower() in FUNCTION_WORDS), default=0)
            while keep < len(words) and (lex.is_stop(words[keep].group(0)) or lex.is_clinical(words[keep].group(0))):
                keep += 1
            rest = [w.group(0).lower() for w in words[keep:]]
            if not rest or all(w in _GENERIC_FACILITY_WORDS or lex.is_clinical(w) or lex.is_stop(w) for w in rest):
                continue
            out.append(Span(m.start("name") + words[keep].start(), m.end("name"), Category.HOSPITAL, 0.75, "facility/bracket_type"))
        return out

    def _named_after_type(self, text: str) -> list[Span]:
        """``FROM OSH (MCH)``, ``LTACH - GRAYSON POINT ACCEPTED``: the outside hospital's name in brackets after
        it, or a care home's name after its type and a dash where it accepts the patient, in any case."""
        lex = self.resources.lexicon
        out = []
        for m in itertools.chain(_OSH_BRACKET.finditer(text), _TYPE_DASH_NAME.finditer(text)):
            words = [w.lower() for w in re.findall(r"[^\W\d_][\w&'’-]*", m.group("name"))]
            if not words or all(w in _GENERIC_FACILITY_WORDS or _plain_word(lex, w) for w in words):
                continue
            out.append(Span(m.start("name"), m.end("name"), Category.HOSPITAL, 0.75, "facility/named_after_type"))
        return out

    def _acronyms(self, text: str) -> list[Span]:
        """``presented to HRMC``, ``To: LNRC``: a short form where a facility is expected."""
        out = []
        lex = self.resources.lexicon
        lower = _LOWER_ACRONYM.finditer(text) if note_is_lower(text) else ()
        for m in itertools.chain(_ACRONYM.finditer(text), lower):
            acr = m.group("acr")
            # a hospital's shape ("smh", "GH", "SMH") needs only to be no frequent word; other short forms no word at all
            shaped = acr.islower() or len(acr) == 2 or acr.endswith(("H", "MC"))
            if acr.upper() in CLINICAL_ACRONYMS or len(acr) > 6 or lex.is_stop(acr.lower()) or lex.is_clinical(acr.lower()):
                continue  # "TRANSFER TO FLOOR", "AT HOME", "TO MICU" are words, not short forms
            if lex.is_common_word(acr, strict=shaped) or lex.frequency(acr.lower()) >= (VERY_COMMON_WORD_FREQ if shaped else _ACRONYM_WORD_FREQ):
                continue  # "AT THE COTTON GIN": a word English writes this often is the word, though a surname too
            if len(acr) >= 5 and acr.lower() in us_postal_towns():
                continue  # "FLOWN FROM SONORA", "WORKS AT WALMART IN BOERNE": a town's name, not a short form
            line_start = text.rfind("\n", 0, m.start()) + 1
            before = text[max(line_start, m.start() - 50) : m.start()]
            if not re.search(r"\b(?:to|from|at|in)[ \t]*:?[ \t]+(?:the[ \t]+)?$", before, re.IGNORECASE):
                continue
            if _ACRONYM_CUE.search(before) or self._hospital_shaped_at(lex, acr, before, text, m.end()):
                out.append(Span(m.start(), m.end(), Category.HOSPITAL, 0.6, "facility/acronym"))
        return out
