"""Unit ``names``: PATIENT and DOCTOR names, from cues and from the name lists.

Names are found in two passes over the note's word tokens.

*Cued* names follow or precede a strong signal, and may be names that no
list holds (``Dr. Wierzbicki``): a title (Dr., Mrs.), a header field
(``Attending:``, ``Patient:``, ``RE:``), a relation word (``daughter Ana``),
a signature line (``-N. NASSER, RN``), a ``... by`` phrase (``Electronically
signed by``) or a credential after the name (``Eleanor Whitcombe, MD``).
Clinician signals make a DOCTOR, patient and relation signals a PATIENT.

*Uncued* names come from the name lists alone: a given name followed by a
surname or an unlisted capitalised word (``Imke Achterberg``), ``LAST,
FIRST``, or one listed name that is rarely an ordinary word.  They are
reported as PATIENT with a lower score; propagation later gives them the
category of a cued mention of the same name.

Eponyms and devices (``Foley``, ``Babinski``, ``Parkinson's disease``,
``Murphy's sign``) are never names without a title: either the word is in
the shipped eponym list or the word after it (sign, syndrome, catheter,
procedure...) marks it.

Lists: ``deid_core/data/rules/names/`` and ``shared/``.  Tests: ``tests/rules/test_names.py``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from deid_core.recognizers.base import NoteContext, RuleRecognizer
from deid_core.recognizers.gazetteer import EPONYM_TRIGGERS, GazetteerResources, default_resources, after_eponym_modifier, followed_by_eponym_trigger, in_eponym_pair
from deid_core.recognizers.lexicon import (
    COMMON_WORD_FREQ,
    CREDENTIALS,
    DOCTOR_TITLES,
    MONTHS,
    NAME_PARTICLES,
    NUMBERED_BEFORE_PLACE,
    PATIENT_TITLES,
    RANKS,
    RELATION_WORDS,
    RELATIONS,
    Lexicon,
    alternation,
    rule_list,
)
from deid_core.recognizers.rules.common_words import ANIMAL_BEFORE, CLINICAL_ACRONYMS, DRUG_SUFFIX, FUNCTION_WORDS, LANGUAGE_BEFORE, PAST_VERBS, TRADES, past_tense
from deid_core.recognizers.rules.tokens import Token, caps_line_at, tokenize
from deid_core.recognizers.tables import Cell, name_in_cell, table_cells
from deid_core.spans import Category, Evidence, Span


_I = re.IGNORECASE


#: cues that say by themselves that a name follows; "pt", "thanks," and a bare line start do not
#: (and the later words of a name whose first word passed: "PT ABIOLA, OLUFEMI")
_STRONG_CUE_MODES = frozenset({"relation", "header", "credential", "signature", "continued"})
_TITLE_MODES = frozenset({"title", "title_lower"})
_NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
#: English inflections: an unlisted word so shaped is a word ("LIGHTENED", "dictating", "tearful"), not a name
_INFLECTED = re.compile(r"(?:ing|ed|tion|ment|ness|ly|able|ible|ous|ive|ful|less|ics)$")
_MODALS = rule_list("names", "modals")
#: a modal right after a word: "nephew marcus young will pick pt up"
_MODAL_AFTER = re.compile(r"[ \t]+(?:" + alternation(_MODALS) + r")\b", re.IGNORECASE)
_MODAL_VERBS = rule_list("names", "modal_verbs")
_MONTHS = frozenset(MONTHS)
_VERB_NAMES = rule_list("names", "verb_given_names")
_VERB_PARTICLES = rule_list("names", "verb_particles")
_PERSON_VERBS = rule_list("names", "person_verbs")
#: the person verbs as one alternation, longest first, a space in an entry matching any run of blanks
_PERSON_VERB_WORDS = "|".join(re.escape(v).replace("\\ ", "[ \\t]+") for v in sorted(_PERSON_VERBS, key=len, reverse=True))
_PERSON_VERB_AFTER = re.compile(r"[ \t]+(?:" + _PERSON_VERB_WORDS + r")\b", re.IGNORECASE)
#: where a clause starts: the note's start, a new line, or after a full stop, semicolon or comma
_CLAUSE_START = re.compile(r"(?:^|[\n.;,:])[ \t]*$")
#: words a modal verb is never followed by: a person stands there instead
#: endings that make a verb's or a noun's rarer forms ("interprets", "reassessed", "titrating")
_INFLECTIONS = ("s", "es", "ed", "d", "ing")
#: words before a noun, never before a name typed where case says nothing ("have the dr call in am": the title too)
_DETERMINERS = frozenset({"the", "a", "an", "her", "his", "their", "my", "your", "our", "its", "this", "that", "these", "those"})
#: before a word typed in lower case, the prepositions that only a place follows
_PLACE_PREPOSITIONS = frozenset({"in", "near", "past", "outside"})
#: a priest who is the hospital's own, not the family's
_HOSPITAL_CLERGY = re.compile(r"\b(?:chaplain|chaplaincy|pastoral[ \t]+care|spiritual[ \t]+care)\b", re.I)
#: before a lone lower-case word, what makes it a noun: "the marina", "a glass of sherry"
_NOUN_BEFORE = _DETERMINERS | {"of", "some", "any", "no"}
#: where case says nothing, a listed name after one of these is a word ("A CORRAL GATE")
_ARTICLES = frozenset({"a", "an", "the"})
#: the particles that end a noun made of a verb ("teach-back", "follow-up", "sign-out")
_COMPOUND_PARTICLES = frozenset({"back", "up", "in", "out", "off", "over", "down", "through"})
#: what a role's word makes a thing of when it follows: "PCP OFFICE", "ortho team", "cards notes"
_ROLE_COMPOUNDS = frozenset({"office", "offices", "team", "group", "practice", "notes", "note", "visit", "appt", "orders", "records", "staff", "coverage"})
#: object pronouns: a word right before one is a verb ("BEFORE CREW FREED HIM")
_OBJECT_PRONOUNS = frozenset({"him", "them", "me", "us"})
_NO_VERB_AFTER_MODAL = frozenset({"in", "at", "here", "there", "aware", "present", "and", "is", "was", "has", "on", "from"})
_DOCTOR_TITLE_SET = frozenset(t.lower() for t in DOCTOR_TITLES)
_CREDENTIAL_SET = frozenset(c.replace(".", "") for c in CREDENTIALS) | frozenset(CREDENTIALS)
_PATIENT_TITLE_SET = frozenset(t.lower() for t in PATIENT_TITLES)
#: languages a note says someone speaks; after a relation, where case says nothing, one is no name
_LANGUAGES = rule_list("shared", "languages")
#: a friend's word that is also a nickname ("SON BUDDY UPDATED"): a relation before a name, never a stop word
_FRIEND_WORDS = frozenset({"buddy"})
_RELATION_SET = RELATION_WORDS | _FRIEND_WORDS


def _relation_follows(rel: re.Match[str] | None) -> bool:
    """A relation word follows a name ("MARIA, DAUGHTER") and names no thing of theirs."""
    if not rel or rel.group("rel").lower() not in _RELATION_SET:
        return False
    after = rel.string[rel.start("rel") :]
    # "CHILD LIFE" is the hospital's service; "CLONIDINE (GRANDPARENT'S PILLBOX)" is whose the thing was
    return not re.match(r"child[ \t]+life\b", after, re.I) and rel.string[rel.end("rel") : rel.end("rel") + 2] not in ("'s", "’s", "'S", "’S")


def _child_life_at(tokens: Sequence[Token], k: int) -> bool:
    """"child" at ``k`` opens "Child Life", the hospital's service, not a relation."""
    return tokens[k].lower == "child" and k + 1 < len(tokens) and tokens[k + 1].lower == "life"


#: a lone listed name typed in a lower-case note is a guess only when English text uses it less often than this
#: (wordfreq's share of words, names included): "teodoro", "lizette", "pruett" but not "porter", "mason", "graham"
LOWER_NOTE_SINGLE_NAME_FREQ = 5e-6
#: words that make a kind of relation of the relation word after them ("foster mom", "birth father")
_RELATION_QUALIFIERS = frozenset({"foster", "birth", "biological", "bio", "adoptive", "step", "host", "legal", "surrogate", "kinship"})
_IN_LAW = re.compile(r"[ \t]+in[ \t]+law\b", re.I)
_IN_LAW_RELATIONS = frozenset({"daughter", "son", "mother", "father", "sister", "brother", "dtr", "sis", "bro"})

#: first words of place names that lists of names also hold ("Fort Mohave", "Mount Vernon", "Santa Cruz")
_PLACE_LEAD = rule_list("names", "place_lead_words")
#: what a trade follows: "WORKS AS A MASON", "retired as a logger" ("A" in capitals is the article, no initial)
_JOB_BEFORE = re.compile(r"\b(?:works?|worked|working|job|employed|retired|career)[ \t]+as[ \t]+(?:(?:a|an)[ \t]+)?$", re.I)
#: a reflex's grade after "dtr" or "dtrs"
_REFLEX_GRADE = re.compile(r"s?[ \t]*[0-4]\+")
#: where someone lives was said earlier in the clause
_LIVES_EARLIER = re.compile(r"\b(?:lives|living|resides|residing)\b[^.;\n]*$", re.I)
#: a home written after these is a place, whatever the name lists say
_HOME_CUE_BEFORE = re.compile(
    r"\b(?:lives|living|live|resides|residing|reside|moved|relocated|born|raised|grew[ \t]+up)(?:[ \t]+(?:alone|here|there|now))?"
    r"[ \t]+(?:in|to|near|from)[ \t]+$",
    re.I,
)
#: name rules that guess from the lists alone, with no cue for the category
GUESS_RULES = frozenset({"listed", "inverted", "place_lower"})
#: what opens and closes a nickname written inside a name
_NICK_OPEN = frozenset({' "', " (", " “", " '", " ‘"})
#: what stands between a name and the nickname quoted after it: a space, or a space and a bracket
_BEFORE_QUOTED_NICK = re.compile(r"[ \t]+\(?|[ \t]*\(")
_NICK_CLOSE = frozenset({'" ', ") ", "” ", "' ", "’ "})

_DOCTOR_ROLES = (
    # a shift written between the role and its colon: "RN day:", "RN eve: J. Castañeda"
    r"(?:rn|lpn|nurse|np|md|nnp)[ \t]+(?:day|days|night|nights|eve|evening|evenings|noc)(?:[ \t]+shift)?"
    r"|duty[ \t]+(?:md|doctor|physician|nurse|doc)|peer[ \t]+(?:recovery[ \t]+)?(?:coach|specialist|support)|recovery[ \t]+coach"
    r"|atcs?|athletic[ \t]+trainers?|transporter|officer|embryologist|andrologist|staff|shipper|mro|nnp|ccrn|perfusionist"
    r"|attending(?:[ \t]+(?:physician|md|of[ \t]+record))?|att[gd]|onc|resident|fellow|intern|pcp|primary(?![ \t]+lang)(?:[ \t]+care)?(?:[ \t]+(?:physician|provider|doctor|md))?"
    r"|referring(?:[ \t]+(?:physician|provider|md|doctor|clinician))?|ref(?:erring)?[ \t]+md|surgeon|assistant(?:[ \t]+surgeon)?"
    r"|anesthesiologist|anesthesia|anesthetist|crna|consultant|consulting(?:[ \t]+(?:physician|md))?|(?<![\d.][ \t])(?<![\d.])cc|provider|clinician"
    r"|physician|doctor|nurse|rn|np|(?<![-/])pa|(?<![-'’])ho|author|care[ \t]+team|covering(?:[ \t]+(?:physician|md))?|on-?call|midwife|therapist|pharmacist"
    r"|case[ \t]+manager|social[ \t]+worker|sw|(?<!\d[ \t])(?<![\d.])cm|sitter|rt|rrt|res|dietitian|dietician|chaplain|psychiatrist|psychologist|cardiologist|oncologist"
    r"|neurologist|radiologist|pathologist|hospitalist|intensivist|nephrologist|urologist|dermatologist|gastroenterologist"
    r"|pulmonologist|endocrinologist|rheumatologist|obstetrician|gynecologist|ob/gyn|pediatrician|neurosurgeon|proceduralist"
    r"|operator|sonographer|technologist|tech|scribe|nurse[ \t]+practitioner|physician[ \t]+assistant|preceptor"
    r"|supervising(?:[ \t]+(?:physician|md))?|requesting[ \t]+(?:physician|md)|ordering[ \t]+(?:physician|provider|md)"
    r"|admitting[ \t]+(?:physician|md)|discharging[ \t]+(?:physician|md)|treating[ \t]+physician|staff[ \t]+physician"
    # a participle alone is a role only as a label ("Requesting: Dr Ames"); in a sentence it is the act ("requesting imam visit")
    r"|(?:requesting|ordering|admitting|discharging)(?=[ \t]*:)"
    r"|charge[ \t]+nurse|primary[ \t]+nurse|bedside[ \t]+nurse|dentist|optometrist|ophthalmologist|podiatrist|chiropractor|counselor"
    r"|counsellor|paramedic|medic|emt|interpreter|interp|translator|doula|investigator|coordinator|navigator|cna|pct|lpn|lvn|aide|rph|pharmd"
    r"|slp|(?<![-/])ot|crew|attn|assessor|examiner|specialist|technician|advocate|liaison|supervisor|phlebotomist|hygienist|cnm"
    r"|(?:off|on)[- ]?going(?=[ \t]*:)|oncoming|relieving|receiving(?:[ \t]+(?:nurse|rn|md|physician))?|lab[ \t]+tech|mls|mlt|np-c|fnp|aprn|crnp"
    r"|adjuster|case[ \t]+mgr|psychometrist|scheduler|receptionist|unit[ \t]+clerk|ward[ \t]+clerk"
    r"|case[ \t]*worker|secretary|pi(?:[ \t]+signature)?|principal[ \t]+investigator|vaccinator"
    # the unit's own staff, as nurses shorten them: "charge dawn aware", "pca sky", "house sup faith", "unit sec ruby"
    r"|charge|pca|nocturnist|clerk|educator|c?wocn|orientee|preceptee|circulator|registrar|dispatcher|student[ \t]+nurse|manager|case[ \t]+mgmt"
    r"|unit[ \t]+sec|(?:house|nursing|night)[ \t]+sup(?:ervisor)?|scrub[ \t]+tech"
)
_BY_PHRASES = (
    r"(?:electronically[ \t]+)?(?:e-?)?signed|dictated|transcribed|reviewed|seen|examined|read|interpreted|reported|verified"
    r"|approved|authenticated|attested|entered|written|prepared|performed|co-?signed|evaluated|staffed|ordered|referred"
    r"|supervised|assessed|completed|documented|confirmed|accepted|treated|followed|managed|covered|screened|delivered|received"
    r"|notified|released|collected|drawn|witnessed|administered|placed|inserted|obtained|updated|abstracted|triaged|transported"
    r"|checked|double-checked|fitted|dispensed|verified|counseled|counselled|educated|taught|vaccinated|swabbed"
)
_DOCTOR_CUES = re.compile(
    rf"(?:\b(?:{_DOCTOR_ROLES})\b[ \t]*(?P<colon>[:#-]|\bis\b)?[ \t]*"
    rf"|\b(?:{_BY_PHRASES})(?:[ \t]+(?:to|in|at|on|with)?[ \t]*[a-z][\w-]*){{0,2}}[ \t]+by[ \t]*:?[ \t]*"
    rf"|\b(?:discussed[ \t]+with|d/w|spoke[ \t]+(?:with|to|w/|w)(?![\w/])|paged|page[ \t]+to|called[ \t]+to|cc'?d?[ \t]+to|copy[ \t]+to|copies[ \t]+to"
    # a hand-off names the nurse or clinician taking over: "report to imani on 10 west", "signed out to dr ruiz"
    rf"|(?:gave[ \t]+|given[ \t]+)?report[ \t]+(?:given[ \t]+)?to|handed[ \t]+(?:off|over)[ \t]+to|hand-?off(?:[ \t]+given)?[ \t]+to|signed[ \t]+out[ \t]+to"
    # whoever covers a nurse's break: "relieved for break by hope 1200-1230", "lunch coverage by Tomas"
    rf"|(?:break|lunch|dinner|meal)[ \t]+(?:relief[ \t]+|coverage[ \t]+|cover[ \t]+)?by)[ \t]+)",
    _I,
)
_PATIENT_HEADER = re.compile(
    r"(?:^|(?<=[\t|])|(?<=  )|(?<=\n)|(?<=\. )|(?<=; ))[ \t]*(?:patient(?:['’]s)?(?:[ \t]+(?:full[ \t]+)?name)?|pt\.?(?:[ \t]+name)?|name|full[ \t]+name|re|subject|client"
    r"|member|insured|guarantor|legal[ \t]+name|preferred[ \t]+name|aka|a\.k\.a\.|alias|emergency[ \t]+contact|contact(?:[ \t]+person)?"
    r"|next[ \t]+of[ \t]+kin|nok|poa|hcp|health[ \t]*care[ \t]+proxy|guardian|caregiver|mother(?:['’]s[ \t]+name)?"
    r"|father(?:['’]s[ \t]+name)?|spouse|responsible[ \t]+party|resident[ \t]+name|patient[ \t]+id[ \t]+name"
    # what other registers call the person the note is about
    r"|veteran|inmate|offender|decedent|deceased|claimant|examinee|employee|student|donor|recipient|applicant|passenger"
    r"|travell?er|athlete|infant|newborn|consumer|service[ \t]+member|beneficiary|enrollee|participant|nombre|paciente"
    # the label a nursing note opens on before the person it is about: "ADMIT: KOVALENKO, MYKOLA", "handoff: xu wenjing"
    r"|admit|hand-?off)"
    r"[ \t]*(?:\([^()\n]{1,30}\)[ \t]*)?[:#][ \t]*",
    _I | re.MULTILINE,
)
_PATIENT_INLINE = re.compile(
    r"(?<!/)\b(?:patient|pt|the[ \t]+patient|our[ \t]+patient|thank[ \t]+you[ \t]+for[ \t]+(?:seeing|referring|evaluating)"
    r"|(?:i|we)[ \t]+(?:saw|evaluated|examined))[ \t]*,?[ \t]+(?=[^\W\d_])",
    _I,
)
#: how people say what a person is called: "states 'just call me dottie'", 'everybody calls him "tito"',
#: 'keeps asking for "walt"' (a quoted word only)
_NICKNAME_VERBS = (
    r"goes[ \t]+by|nicknamed|call(?:s|ed)?[ \t]+(?:himself|herself|themselves|themself)"
    r"|(?:his|her|their|(?:the[ \t]+)?baby['’]?s)[ \t]+(?:first[ \t]+|real[ \t]+|legal[ \t]+)?name[ \t]+is"
    # a newborn's name: "THEY NAMED HER HOPE", "named the baby will"
    r"|named[ \t]+(?:him|her|them|(?:the[ \t]+)?baby)"
)
_NAMING = re.compile(
    # "named": a verb that says what the person is called, not what they ask or look for
    r"\b(?:(?P<named>call(?:s|ed)?[ \t]+(?:me|him|her|them)|" + _NICKNAME_VERBS + r"|known[ \t]+as|to[ \t]+be[ \t]+called|prefers(?=[ \t]*[\"“])"
    # an unknown patient named later: "NOW ID'D AS FETU", "identified as sione by family"
    r"|(?P<identified>(?:identified|id['’]?e?d)[ \t]+as))"
    r"|(?:ask(?:s|ed|ing)?|call(?:s|ed|ing)?|look(?:s|ed|ing)?|scream(?:s|ed|ing)?|yell(?:s|ed|ing)?|cr(?:y|ies|ied|ying))[ \t]+(?:out[ \t]+)?for"
    r"(?=[ \t]*[\"“'‘])|called(?=[ \t]*[\"“]))"
    r"[ \t]*(?=[\"“'‘]?[^\W\d_])",
    _I,
)
#: a dash or /s/ that opens a line or follows a sentence, or a dash before the last word or two of the note
#: ("foley out 30/hr -marco")
_SIGNATURE = re.compile(
    r"(?:^|\n|(?<=\. )|(?<=:))[ \t]*(?:[-–—~]+|/s/|s/)[ \t]*"
    r"|(?<=[ \t])[-–—~]+(?=[A-Za-z][\w'’.-]*(?:[ \t]+[A-Za-z][\w'’.-]*)?[ \t]*\n*\Z)",
    _I,
)
_SIGNOFF = re.compile(
    r"\b(?:thanks|thank[ \t]+you|thx|sincerely|regards|best[ \t]+regards|best|cheers|love|respectfully|cordially|take[ \t]+care)"
    r"(?:[ \t]*[,!.][ \t]*\n?|[ \t]*\n)[ \t]*(?:-[ \t]*)?",
    _I,
)
_SIGNOFF_BEFORE = re.compile(
    r"\b(?:thanks|thank[ \t]+you|thx|sincerely|regards|best|cheers|love|respectfully|cordially|take[ \t]+care)[ \t,!.]*\n[ \t]*[-–—~]*[ \t]*$",
    _I,
)


def _closes_a_message(text: str, start: int) -> bool:
    """A name right after "thanks" and a line break signs a message ("thanks\n- Alyssa"), not a note."""
    return bool(_SIGNOFF_BEFORE.search(text[max(0, start - 30) : start]))


#: the rules that find a name by its title: the title makes a person of what a pet's or an operation's name would be
_TITLE_RULES = frozenset({"title", "title_credential"})
#: an operation's status and its qualifier before the surgeon's name it bears: "S/P BIDIRECTIONAL GLENN", "s/p stage 1 norwood"
_PROCEDURE_BEFORE = re.compile(
    r"\bs/p[ \t]+(?:(?:bidirectional|bilateral|modified|classic|hemi-?|extracardiac|fenestrated|lateral[ \t]+tunnel|stage[ \t]+\d|staged|redo|lap(?:aroscopic)?|open)[ \t]+)*$",
    _I,
)
#: "GOES BY SMOKEY", "nicknamed peanut": one word that ends the clause after "goes by" is what the person is called
_GOES_BY = re.compile(
    r"\b(?:" + _NICKNAME_VERBS + r"|a\.?k\.?a\.?)[ \t]+(?P<nick>[^\W\d_][\w'’-]*)"
    r"(?=[ \t]*(?:[,.;:)!\n]|$|[ \t]+(?:and|but|per|on|at|w/?|with|since|now|here|to)\b))",
    _I,
)
#: "PT (PREFERS HOPE)", "pt prefers sunny, states...": one word after "prefers" that ends a bracket or a clause
_PREFERS = re.compile(r"(?:(?P<open>\([ \t]*)|\b)prefers[ \t]+(?P<nick>[^\W\d_][\w'’-]*)(?=[ \t]*(?:(?P<close>\))|[,;.]))", _I)
#: "pt boogie (what everybody calls him)", "PT WILL, GOES BY HIS MIDDLE NAME": the word after "pt" is what the patient
#: is called when what follows says how they are called
_PT_THEN_NAMING = re.compile(
    r"\bpt[ \t]+(?P<nick>[^\W\d_][\w'’-]*)(?:[ \t]*\([^)\n]{0,40}?|,[ \t]*)"
    r"\b(?:calls?[ \t]+(?:him|her|them)|called|goes[ \t]+by|nickname|(?:first|middle|real)[ \t]+name|prefers[ \t]+to[ \t]+be[ \t]+called)\b",
    _I,
)
#: "RECEIVED REPORT FROM DEB 1900", "report given to marisol, rn": who a hand-off was with, a given name that ends the
#: clause or stands before a clock time
_REPORT_WITH = re.compile(
    r"\b(?:report|hand-?off)[ \t]+(?:(?:received|given|called|rec'?d)[ \t]+)?(?:from|to)[ \t]+(?P<name>[^\W\d_][\w'’-]*)"
    r"(?=[ \t]*(?:[,;.\n]|$|@?[ \t]*(?:[01]\d|2[0-3])[0-5]\d\b))",
    _I,
)
#: "HOME TO ELKIN W/ DAUGHTER MAY.", "son will, at bedside": a modal that is a given name names the relative when the
#: clause ends after it, where no verb can follow
_RELATION_THEN_MODAL_NAME = re.compile(
    r"\b(?:" + alternation(RELATIONS) + r")[ \t]+(?P<name>may|will)(?=[ \t]*(?:[.,;)\n]|$))",
    _I,
)
#: how a person goes, or a part of their name, after "goes by"
_NOT_NICKNAMES = frozenset(
    {"wheelchair", "stretcher", "car", "bus", "foot", "ambulance", "walker", "cane", "scooter", "train", "plane", "taxi", "cab",
     "van", "bike", "name", "nickname", "surname", "initials", "mom", "dad", "mother", "father"}
)
#: how a relative is, quoted: 'wife "upset"', 'son "fine w/ plan"' (the -ed, -ing and -ly words are tested by their ending)
_QUOTED_STATES = frozenset(
    {"upset", "fine", "ok", "okay", "good", "bad", "happy", "sad", "mad", "angry", "better", "worse", "great", "awful", "terrible",
     "nervous", "anxious", "afraid", "calm", "tired", "sick", "ready", "sure", "aware", "unaware", "here", "there", "present", "absent"}
)
_QUOTED_NICKNAME = re.compile(r"[\"“'‘](?P<nick>[^\W\d_][\w'’-]*(?:[ \t]+[^\W\d_][\w'’-]*){0,2})[\"”'’](?![\w])")
_WHEN_AFTER_CALL = re.compile(r"(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)(?:day)?\b|wednesday\b", _I)
_SELF_INTRO = re.compile(r"\b(?:this[ \t]+is|my[ \t]+name[ \t]+is|i[ \t]+am|i['’]m)[ \t]+(?=[^\W\d_])", _I)
#: typed user names of staff: "-mdubois", "jpark rn", "rn tkowalski:" (an initial and a surname, lowercase)
_HANDLE = re.compile(
    r"(?:^|(?<=\s))-[ \t]?(?P<dash>[a-z]\.[a-z]{3,15}|[a-z]{4,16})(?=[ \t]*(?:$|\n|,|[ \t](?:rn|md|np|lpn|rph|cna)\b))"
    r"|(?<![\w.-])(?P<cred>[a-z]\.?[a-z]{3,15})[ \t]+(?i:rn|md|np|lpn|rph|cna|crna|pa-c)\b(?![\w-])"
    r"|\b(?:rn|md|np|lpn|dr|pa)[ \t]+(?P<chat>[a-z]{4,16})[ \t]*:"
)
#: initials typed as a signature on the note's last line: "-tk", "-JM RN", "-DMK/RN"
_SIGNING_CREDENTIAL = r"(?:,?[ \t]+|/)(?i:rn|md|np|lpn|rt|rrt|cna|pa)"
_INITIALS_SIGNATURE = re.compile(
    r"(?:^|\n|(?<=[ \t]))[ \t]*(?:[-–—~]{1,2}|/)[ \t]?(?P<init>[A-Za-z]{2,3}|(?:[A-Za-z]\.){2,3})(?:" + _SIGNING_CREDENTIAL + r")?\s*\Z"
    # "J.C. RN" alone on the last line: dotted initials and a credential sign the note without a dash
    r"|(?:^|\n)[ \t]*(?P<dotted>(?:[A-Za-z]\.){2,3})" + _SIGNING_CREDENTIAL + r"\s*\Z"
)
#: a noun of who does something: after "pt a" it is what the patient is ("PT A LOGGER", "pt a retired machinist")
_AGENT_NOUN = re.compile(r"(?:er|or|ist|ian)$")
#: what may follow a name that ends its field or clause
_CLAUSE_END = re.compile(r"[ \t]*(?:$|[\n,.;/(])")
#: who hands a patient over or is reached: "report received from", "per", "paged"
_HAND_OFF_BEFORE = re.compile(
    r"(?:\b(?:report|endorsed?|hand-?off|handed[ \t]+off)\b[^.\n]{0,25}\b(?:from|to)|\b(?:per|paged|called|spoke[ \t]+(?:with|to)|d/w|by))[ \t]+$",
    _I,
)
#: a dash or tilde that opens a signature in the middle of a line ("... titrate map >65 - tiff rn")
_DASH_BEFORE = re.compile(r"(?:^|(?<=\s))[-–—~]+[ \t]*(?P<initial>[A-Za-z]\.?[ \t]+)?$")
#: credentials a note may be signed with alone ("-RN"); rarer ones (MB, BS) are as often initials
_SIGNING_CREDENTIALS = frozenset({"RN", "MD", "NP", "PA", "DO", "PT", "OT", "RT", "ST", "LPN", "CNA", "RRT", "BSN", "MSN", "SLP"})
#: what closes a typed message after a dash but names no one
_SIGNOFF_WORDS = frozenset({"ok", "okay", "thx", "ty", "hi", "bye", "tia", "end"})
_CREW_SLASH = re.compile(r"[ \t]*(?:\([A-Za-z-]{2,8}\)|,[ \t]*[A-Z][A-Za-z-]{1,6})?[ \t]*/[ \t]*(?=[A-Z])")
_FROM_HEADER = re.compile(r"(?:^|\n)[ \t]*(?P<field>from|to|cc)[ \t]*:[ \t]*", _I)
#: an e-mail address at a care organisation's domain: whoever writes from it is staff
_STAFF_MAILBOX = re.compile(
    r"<?[\w.+-]+@[\w-]*(?:health|clinic|hosp|medic|med\b|care|physician|doctor|ortho|cardio|surg|pharm|lab|rehab|nursing)[\w.-]*>?", _I
)
_RELATION_AFTER = re.compile(
    r"^[ \t]*(?:\(|,|-)[ \t]*(?:(?:his|her|their|the[ \t]+patient['’]?s|pt['’]?s|patient['’]?s|pt)[ \t]+)?(?P<rel>[A-Za-z-]+)",
    _I,
)
#: "called hope (wife)", "PER RUSTY (BROTHER)": a given name, then its relation alone in brackets
_NAME_THEN_BRACKETED_RELATION = re.compile(r"(?<![\w'’-])(?P<name>[A-Za-z][A-Za-z'’-]+)[ \t]*\([ \t]*(?P<rel>[A-Za-z-]+)[ \t]*\)")
#: "for tito - pt's brother", "called lorcan (her son)": a name, then whose relative the person is
_NAME_THEN_RELATION = re.compile(
    r"(?<![\w'’-])(?P<name>[A-Za-z][A-Za-z'’-]+)[ \t]*(?:-|–|,|\()[ \t]*(?:pt['’]?s|patient['’]?s|his|her|their)[ \t]+(?P<rel>[A-Za-z-]+)\b",
    _I,
)
_AMBIGUOUS_CREDENTIALS = rule_list("names", "ambiguous_credentials")
_STATE_CREDENTIALS = frozenset({"PA", "MA", "MS", "MD", "DO"})
#: credentials that also name a service the patient receives ("PT/OT", "SLP TO EVAL")
_SERVICE_CREDENTIALS = _AMBIGUOUS_CREDENTIALS | {"SLP"}
_NUMBERED_PLACE_BEFORE = re.compile(
    rf"(?:{NUMBERED_BEFORE_PLACE}|\b(?:from|(?:lives|living|resides)[ \t]+in|near))"
    r"[ \t]*,?[ \t]*[A-Z][\w'’.-]*(?:[ \t]+[A-Z][\w'’.-]*)?$",
    re.IGNORECASE,
)
_JOB_WORDS = (
    r"(?:nurse|manager|coordinator|counsell?or|chaplain|paramedic|technician"
    r"|technologist|therapist|pharmacist|interpreter|translator|specialist|director|officer|worker|navigator|scribe|physician"
    r"|surgeon|consultant|registrar|practitioner|midwife|dietitian|dietician|psychologist|psychiatrist|educator|investigator"
    r"|examiner|supervisor|pathologist|radiologist|an(?:a)?esthetist|an(?:a)?esthesiologist|hospitalist|intensivist|sonographer"
    r"|phlebotomist|doula|clinician|geneticist|audiologist|optometrist|hygienist|paediatrician|pediatrician|scheduler|adjuster"
    r"|psychometrist|receptionist|clerk|secretary|embryologist|andrologist|transporter|coach|trainer|perfusionist|histotech|histotechnologist|courier)s?"
)
#: a job title after "Name, ...": "Sinéad O'Halloran, Clinical Nurse Manager", "Dana Lutz, referral coordinator"
_JOB_TITLE_AFTER = re.compile(r"[ \t]*(?:,|\()[ \t]*(?P<words>(?:[A-Za-z][a-z/-]+[ \t]+){0,3})" + _JOB_WORDS + r"\b", _I)
#: a signature block's title on its own line or cell: "Kelsey Dunford\nMedical Assistant II", "Ana Ruiz | Care Coordinator"
_JOB_TITLE_LINE = re.compile(
    r"[ \t]*(?:\||\n)[ \t]*(?P<words>(?:[A-Za-z][a-z/-]+[ \t]+){0,3})(?:" + _JOB_WORDS + r"|assistants?|aides?)"
    r"(?:[ \t]+(?:I{1,3}|IV|[1-4]))?[ \t]*(?=$|\n|\||,)",
    _I | re.MULTILINE,
)
#: a credential or training year in brackets after a name: "J. Ostrowicz (RN)", "Kwame Osei (R2)"
_CREDENTIAL_IN_BRACKETS = re.compile(
    r"[ \t]*\((?P<words>)(?:" + alternation(CREDENTIALS) + r"|R[1-6]|PGY-?[1-8]|MS[1-4]|resident|intern|fellow|attending)\)"
)
#: "okafor (night res) aware", "steph (np) at bs", "INTERPRETER (VIETNAMESE) THUY": a role, or an interpreter's
#: language, in brackets beside a word; where case says nothing the word must be a listed name or no word
_BRACKETED_ROLE = re.compile(
    r"(?<![\w'’-])(?P<name>[A-Za-z][A-Za-z'’-]+)[ \t]*\([ \t]*(?:(?:night|day|eve|noc|float|charge|covering|on-?call)[ \t]+)?"
    r"(?:rn|np|md|res|resident|fellow|rt|rrt|sw|cm|pa|pa-c|attending|intern|hospitalist|pharmacist|pharm|chaplain|crna|nnp)[ \t]*\)"
    r"|\binterp(?:reter)?[ \t]*\([ \t]*[A-Za-z-]+[ \t]*\)[ \t]*(?P<after>[A-Za-z][A-Za-z'’-]+)"
    # "CHILD LIFE (BRYNN) DID MEDICAL PLAY": the person in brackets after a service or a role
    r"|\b(?:child[ \t]+life|chaplain|interpreter|sw|cm|rt|ot|slp|pharmacist|dietitian|nutrition|case[ \t]+manager"
    r"|social[ \t]+work(?:er)?|charge(?:[ \t]+(?:rn|nurse))?|rn|np|resident|fellow|attending)[ \t]*\([ \t]*(?P<inside>[A-Za-z][A-Za-z'’-]+)[ \t]*\)",
    _I,
)
#: a note from a nursing home or long-term care, where "resident" is the patient
_LONG_TERM_CARE = re.compile(
    r"\b(?:nursing[ \t]+(?:home|facility)|care[ \t]+cent(?:er|re)|skilled[ \t]+nursing|SNF|LTC|LTCF|long[- ]term[ \t]+care|assisted[ \t]+living"
    r"|memory[ \t]+care|rest[ \t]+home|aged[ \t]+care|group[ \t]+home|residential[ \t]+(?:care|facility|home)|rehabilitation[ \t]*&[ \t]*nursing|nursing[ \t]*&[ \t]*rehab\w*|resident['’]s)\b",
    _I,
)
#: "Amara is a 6-week-old": a name that the sentence then gives an age
_IS_AN_AGE_AFTER = re.compile(
    r"[ \t]+(?:is|was)[ \t]+an?[ \t]+(?:\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|one|two|three|four|five|six"
    r"|seven|eight|nine|ten|eleven|twelve)[a-z-]*)[ \t]*-?[ \t]*(?:years?|yrs?|yo\b|y/o|months?|mos?\b|weeks?|wks?\b|days?)",
    _I,
)
#: a surname written first, at the head of a field: start of a line, after a colon, a bar, a quote or wide spacing
_SURNAME_BEFORE = re.compile(
    r"(?:^|(?<=\n)|(?<=[|\"\t(])|(?<=: )|(?<=:)|(?<=  ))[ \t]*"
    r"(?P<sur>(?:(?:de|la|del|van|von|der|da|di|du|le|al|el|St\.?|O['’]|Mc|Mac)[ \t]*)*[A-Z][A-Za-z'’À-ÿ]+(?:[- ][A-Z][A-Za-z'’À-ÿ]+){0,2})"
    r",[ \t]*\Z",
    re.IGNORECASE,
)
_SPECIALIST = re.compile(r"(?:ologists?|icians?|iatrists?|ographers?|therapists?|urgeons?|ionals?)$")
#: "Wagner 3", "Morse >= 45": a lone surname with a number after it is a grade or a scale
_SCORE_AFTER = re.compile(r"[ \t]*(?:[<>≥≤]=?|=)?[ \t]*\d{1,3}(?:/\d{1,3})?(?![\d/:-]|\.\d|[ \t]*(?:y|yo|yrs?|years?|[MF])\b)")
_RANKS_LOWER = frozenset(r.lower().rstrip(".") for r in RANKS) | {"captain", "sergeant", "lieutenant", "major", "colonel", "general", "private", "corporal", "officer"}
_DOCTOR_ROLE_WORD = re.compile(rf"(?:{_DOCTOR_ROLES})", re.I)
#: titles that capitals make clinical short forms: sinus rhythm, sinus tachycardia, mental status
_RHYTHM_TITLES = frozenset({"sr", "st", "ms"})
#: what staff do to an order, right after their given name ("pharmacist rose verified vanc dose")
_STAFF_CHECKS = frozenset({"verified", "checked", "reviewed", "cosigned", "witnessed"})
#: words that qualify a role ("charge rn", "float rn", "eeg tech"): never the name before it
_ROLE_QUALIFIERS = frozenset(
    {"charge", "night", "day", "eve", "noc", "float", "travel", "traveler", "agency", "primary", "staff", "student",
     "resource", "relief", "eeg", "ekg", "echo", "resp"}
)
#: the unit a nurse or technician works in, before the role: "(cath lab rn)", "icu rn", "pacu nurse"
_ROLE_UNITS = r"(?:cath[ \t]+lab|ir|icu|micu|sicu|ccu|cvicu|nicu|picu|er|ed|pacu|or|dialysis|hd|wound|iv|picc|vascular[ \t]+access|endo|l&d)"
_STAFF_ROLE = (
    r"(?:" + _ROLE_UNITS + r"[ \t]+)?(?:(?:" + alternation(_ROLE_QUALIFIERS) + r")[ \t]+)?"
    r"(?:rn|rt|rrt|np|pa|cna|lpn|tech|sw|cm|ot|slp|pharmacist|therapist|interpreter|chaplain|nurse)\b(?![/-])"
)
_NAME_BEFORE_ROLE = re.compile(
    r"\b(?:per|by|w/|with|called|paged|d/w|spoke[ \t]+(?:with|to))[ \t]+(?P<name>[A-Za-z][A-Za-z'’-]+)[ \t]+(?:\([ \t]*)?" + _STAFF_ROLE, re.I
)
#: "..., lorraine cm working on auth", "JOAN SW AWARE": at a clause's start a given name, the role, and what staff do
_NAME_ROLE_ACTING = re.compile(
    r"(?:^|[\n.;,:!?]|(?<=\s)-)[ \t]*(?P<name>[A-Za-z][A-Za-z'’-]+)[ \t]+" + _STAFF_ROLE + r"(?=[ \t]+(?:"
    + _PERSON_VERB_WORDS
    + r"|working|following|arranging|recommends|recommended|recs|placed|ordered|will|here|present|consulted|saw|seen|assessed|to[ \t]+(?:see|call|f/u|follow))\b)",
    re.I,
)
#: "family (joy and lance)", "DAUGHTERS (AMY, BETH)": the people a relation word names, listed in brackets
_BRACKETED = re.compile(r"\((?P<names>[^()\n]{2,60})\)")
_WORD_BEFORE_BRACKET = re.compile(r"(?<![\w-])(?P<word>[^\W\d_][\w-]*)[ \t]*$")
#: one or two words an item, the items joined by commas, "and" or "&"
_NAME_LIST = re.compile(
    r"[ \t]*[A-Za-z][\w'’-]*(?:[ \t]+[A-Za-z][\w'’-]*)?(?:[ \t]*(?:,|&|,?[ \t]+and)[ \t]*[A-Za-z][\w'’-]*(?:[ \t]+[A-Za-z][\w'’-]*)?)*[ \t]*", re.I
)
_BRACKET_ITEM = re.compile(r"(?<![\w'’-])(?!and\b)(?P<first>[A-Za-z][\w'’-]*)(?:[ \t]+(?!and\b)(?P<second>[A-Za-z][\w'’-]*))?", re.I)
#: "joy from pt is coming back", "CALLED BY DEB FROM CASE MGMT", "W/ DEB FROM CARDIAC REHAB": a given name, then the
#: service the person is from
_NAME_FROM_SERVICE = re.compile(
    r"(?<![\w'’-])(?P<name>[A-Za-z][A-Za-z'’-]+)[ \t]+from[ \t]+(?:the[ \t]+)?(?:pt|ot|slp|rt|sw|cm|pharm(?:acy)?|nutrition|dietary|case[ \t]+(?:management|mgmt)"
    r"|social[ \t]+work|wound[ \t]+care|palliative(?:[ \t]+care)?|hospice|chaplaincy|pastoral[ \t]+care|infection[ \t]+control"
    r"|physical[ \t]+therapy|occupational[ \t]+therapy|speech|transport|admitting|registration|blood[ \t]+bank|lab"
    r"|float(?:[ \t]+(?:pool|team))?|resource(?:[ \t]+(?:pool|team))?|staffing|iv[ \t]+team|picc[ \t]+team|rapid[ \t]+response"
    r"|(?:(?:cardiac|pulm(?:onary)?)[ \t]+)?rehab|dialysis|anesthesia|cath[ \t]+lab|ir|radiology|vascular[ \t]+access)\b(?![/-])",
    re.I,
)
#: "?RELISTOR PER LINDQVIST", "restarted per hollister": after "per", a listed name English hardly uses as a word is
#: whoever said so
_PER_WORD = re.compile(r"\bper[ \t]+(?P<name>[A-Za-z][A-Za-z'’]{2,})(?![\w/-])", re.I)
#: "REPORT GIVEN TO BROOKS ON STEP DOWN", "report from page on ed side": a hand-off, one word, then where the person is
_HAND_OFF_NAME = re.compile(
    r"\b(?:report[ \t]+(?:given[ \t]+)?(?:to|from)|handed[ \t]+(?:off|over)[ \t]+to|signed[ \t]+out[ \t]+to)[ \t]+"
    r"(?P<name>[A-Za-z][A-Za-z'’-]{2,})(?=[ \t]+(?:on|at|in|from)\b)",
    re.I,
)
#: "HANDOFF DEWAYNE -> JESS", "report: tara > kim": a hand-off from one nurse to the next, written with an arrow
_HAND_OFF_ARROW = re.compile(
    r"\b(?:hand-?off|report|sign-?out)[ \t]*:?[ \t]+(?P<a>[A-Za-z][A-Za-z'’-]+)[ \t]*(?:-+>|→|=>|>)[ \t]*(?P<b>[A-Za-z][A-Za-z'’-]+)(?![\w'’-])",
    re.I,
)
#: where a hand-off goes that is no person
_HAND_OFF_PLACES = frozenset({"floor", "unit", "team", "nurse", "staff", "oncoming", "receiving", "covering", "pacu", "stepdown"})
#: "SUMMER ALBRIGHT, DOB 4/17/1958": the words before a date of birth name the patient
_NAME_BEFORE_DOB = re.compile(r"(?P<name>[A-Za-z][A-Za-z'’-]+(?:[ \t]+[A-Za-z][A-Za-z'’-]+){1,2})[ \t]*,?[ \t]*(?:dob|d\.o\.b\.?)(?![\w])", re.I)
_COMPANY_REP = re.compile(r"[ \t]+(?:reps?|representatives?)\b", re.I)
_AND_NEXT = re.compile(r"[ \t]+(?:and|&)[ \t]+", re.I)
#: what a patient says or does, right after the given name "pt" introduces: "pt rose states", "pt ruby slept"
_SUBJECT_VERBS = frozenset(
    {"states", "stated", "says", "said", "slept", "reports", "reported", "asks", "asked", "asking", "wants", "wanted",
     "denies", "denied", "refuses", "refused", "agrees", "agreed", "complains", "complained", "requests", "requested",
     "woke", "awoke", "tolerated", "verbalizes", "verbalized", "endorses", "endorsed", "prefers", "preferred"}
)
#: '"SKIP" HAD A ROUGH NIGHT', "'bubba' slept well": a quoted word as a sentence's subject, before what a person says or does
_QUOTED_SUBJECT = re.compile(
    r"(?:^|(?<=\n)|(?<=[.;!?])[ \t]+)[ \t]*[\"“'‘](?P<nick>[^\W\d_][\w'’-]*)[\"”'’][ \t]+(?P<verb>[a-z]+)\b",
    re.I,
)
_QUOTED_SUBJECT_VERBS = _SUBJECT_VERBS | {"had", "has"}
#: a hand-off names the patient the report is about: "report on xu wenjing", "REPORT ON ROSE - S/P MASTECTOMY"
_REPORT_ON = re.compile(r"\breport[ \t]+on[ \t]+", re.I)
_LOWER_CREDENTIAL_WORDS = frozenset({"rn", "lpn", "np", "rrt", "cna", "bsn", "msn", "pa-c", "wocn", "cwocn", "crna"})
_LOWER_CREDENTIAL = re.compile(r"(?<![\w/-])(?:(?:bsn|msn)/)?(?:" + alternation(_LOWER_CREDENTIAL_WORDS) + r")(?:/(?:bsn|msn))?(?![\w/-])")


#: a line in capitals of at most this many words can be a heading; a longer one is a sentence typed in capitals
_HEADING_WORDS = 5


def _caps_heading(text: str, line_start: int) -> bool:
    end = text.find("\n", line_start)
    return caps_line_at(text, line_start) and len(text[line_start : end if end >= 0 else len(text)].split()) <= _HEADING_WORDS


def _is_credential(tok: Token) -> bool:
    """``RN``, ``MD``, or a credential typed in lower case (``rn``, ``bsn``)."""
    return tok.text in _CREDENTIAL_SET or tok.lower in _LOWER_CREDENTIAL_WORDS


_CREDENTIAL_RE = re.compile(
    r"(?P<sep>[ \t]*,?[ \t]*)(?P<cred>"
    + alternation(CREDENTIALS)
    + r")(?![\w])"
)


@dataclass(frozen=True)
class NameCandidate:
    start: int
    end: int
    category: Category
    score: float
    rule: str


class NameRecognizer(RuleRecognizer):
    """PATIENT and DOCTOR names from cues and from the name lists."""

    name = "names"
    version = "1"
    categories = frozenset({Category.PATIENT, Category.DOCTOR, Category.LOCATION})

    def __init__(self, resources: GazetteerResources | None = None) -> None:
        self.resources = resources or default_resources()

    @property
    def lexicon(self) -> Lexicon:
        return self.resources.lexicon

    # ------------------------------------------------------------ tokens
    def _listed(self, tok: Token, listed: set[tuple[int, int]]) -> bool:
        return (tok.start, tok.end) in listed or self.lexicon.is_name(tok.text)

    def _parts(self, tok: Token) -> list[str]:
        # "o'shea", "d'angelo": the prefix before the apostrophe is no name of its own
        return [p for p in re.split(r"[-'’]", tok.text) if p and not (len(p) == 1 and p.lower() in "od")]

    def acceptable(self, tok: Token, mode: str, listed: set[tuple[int, int]]) -> bool:
        """May ``tok`` be part of a name started by a cue of kind ``mode``?

        Modes, strongest first: ``title`` (after Dr., Mrs.; ``title_lower``
        after a lowercase "dr"), ``relation`` (daughter, wife), ``header``
        (field labels and "signed by" phrases), ``credential`` (the words
        before MD, RN), ``signature`` (a dash line), ``signoff`` ("thanks,")
        and ``inline`` ("patient Maria Lopez").
        """
        lex = self.lexicon
        low = tok.lower
        if tok.shape == "initial":
            return True
        if tok.text in _CREDENTIAL_SET:
            return False
        if mode not in ("title", "title_lower") and tok.text.isupper() and tok.text in CLINICAL_ACRONYMS:
            return False  # "ED MD", "Copy to PCP Dr ..."
        if len(tok.text) < 2 or not any(c.isalpha() for c in tok.text) or low.endswith(("'d", "’d")):
            return False  # "pt ok'd", "d/c'd": a verb written short
        if low in _SIGNOFF_WORDS and mode not in _TITLE_MODES:
            return False  # "-OK" closing a message
        if re.match(r"(?:ex|non|post|pre|anti|semi|self|sub)-", low):
            return False  # "pt ex-nicu graduate", "non-verbal": a prefix makes a word
        if low in PAST_VERBS and mode not in _TITLE_MODES:
            return False  # "pt's wife rode with him", "DAD MADE AWARE": a past tense is what the person did
        is_name = self._listed(tok, listed) or all(lex.is_name(p) for p in self._parts(tok))
        if not is_name and (_SPECIALIST.search(low) or _DOCTOR_ROLE_WORD.fullmatch(tok.text)):
            return False  # "Consultant Urologist", "Ordering Clinician", "HEME ONC ATTG DR BAKER"
        if low in FUNCTION_WORDS or low in _DOCTOR_TITLE_SET or low in _PATIENT_TITLE_SET:
            return False
        if low in _RELATION_SET and not (mode == "title" and is_name) and not (mode == "relation" and low in _FRIEND_WORDS):
            return False  # "Dr. Parent" is a name, "his son" is not; "SON BUDDY UPDATED" names the son
        if mode == "relation" and tok.caseless and low in _LANGUAGES and not lex.is_strong_name(low):
            return False  # "W/ DAUGHTER, ENGLISH OK W/ STAFF": where case says nothing, a language ("WIFE KAREN" names her)
        if tok.caseless and tok.shape in ("upper", "lower") and mode not in _TITLE_MODES:
            return self._caseless_name_word(tok, is_name, mode)
        if tok.shape == "lower":
            # lowercase only in messages typed by patients: "hi dr raghunathan", "thanks, chidi"
            if mode == "lower_rest":
                # "this is jasmine trevino.": a surname after a given name typed in lowercase
                return low not in FUNCTION_WORDS and low not in _MODALS and not lex.is_stop(low) and (
                    lex.is_last(low) or not lex.is_common_word(low)
                )
            if mode == "lower_rest_strict":
                # "wife jaylynn present": after a cue, only a listed name that is no word goes on
                return low not in _MODALS and not lex.is_stop(low) and not lex.is_common_word(low) and (lex.is_last(low) or lex.is_first(low))
            if mode in ("signoff", "signature"):
                return lex.is_first(low) and low not in FUNCTION_WORDS
            if mode == "title_lower" and is_name and low not in _MODALS and low not in PAST_VERBS:
                return True  # "hi dr ward", but not "the dr will call" or "dr came by"
            if lex.is_stop(low):
                return False
            if mode == "title_lower":
                return not lex.is_common_word(low)
            if mode == "inline":
                # "pt bobby ray tillman seen at home": a listed given name that is no ordinary word
                return lex.is_first(low) and not lex.is_common_word(low) and low not in _MODALS and not lex.is_everyday(low)
            # "my son paulo can drive me": a given name after a relation word
            return mode == "relation" and (lex.is_first(low) or not (lex.is_common_word(low) or DRUG_SUFFIX.search(low)))
        if tok.shape == "upper" and not tok.line_caps and not is_name and mode == "credential":
            return False  # "HTN, MS" is a problem list, not a signature
        if mode in ("title", "title_lower", "signature"):
            return is_name or not lex.is_common_word(low, strict=True)
        if mode == "inline":
            # "patient Maria Lopez", but not "PT RESTING COMFORTABLY"
            return not lex.is_stop(low) and not lex.is_common_word(low)
        if lex.is_stop(low) and not (is_name and (mode in ("relation", "signoff", "header", "credential") or tok.shape == "upper")):
            return False  # "Patient: WARD, BOBBY" keeps its surname, "Patient: Will Hunter" his given name
        if is_name:
            return True  # a listed name right after a strong cue, even one that is also a word
        return not lex.is_common_word(low, strict=True)

    def _caseless_name_word(self, tok: Token, is_name: bool, mode: str) -> bool:
        """Where capitals say nothing, the word itself must: a listed name that is no clinical or
        ordinary word, or, right after a strong cue, an unlisted word that is no English word at all
        ("PT SEDATED", "NIECE PRESENT" and "SWALLOW EVAL, PT" are no names; "per dr kenney",
        "barbara j. parrilli bsn/rn" and "HOUSE STAFF mary souza" are)."""
        lex = self.lexicon
        low = tok.lower
        if low in _NAME_SUFFIXES:
            return mode in _STRONG_CUE_MODES
        # "PATIENT: WARD, BOBBY" keeps its surname; a typed "hi" or "ok" is no name after any cue
        header_caps = is_name and mode == "header" and tok.shape == "upper"
        # "daughter june at bedside": right after a relation, a month that is also a given name names the person
        month_name = mode == "relation" and low in _MONTHS and lex.is_first(low) and low not in _MODALS
        if lex.is_stop(low) and not (header_caps or month_name):
            return False
        if low in _MODALS or lex.is_clinical(low) or (DRUG_SUFFIX.search(low) and not month_name):
            return False  # "-pril" makes a drug of "lisinopril", not of "daughter april"
        if mode == "inline" and (lex.is_everyday(low) or lex.is_eponym(low) or (tok.caseless and low.endswith("ing") and not lex.is_strong_name(low))):
            # "PT PLEASANT", "pt kussmaul breathing", "PT GRUMBLING": after "pt", an everyday word, an eponym or a
            # participle describes the patient ("PT MANNING" stays a name)
            return False
        if is_name:
            # "husband frank at bedside", "son rich called": right after a relation word, a listed given
            # name that is also a word ("SON PRESENT" is no name: "present" is listed as a surname only)
            # "PARTNER JOJO IN AT 1900": after a relation, a listed name English seldom uses names the person
            if mode == "surname":
                return lex.is_last(low)
            if mode == "relation" and not lex.is_first(low) and (
                lex.is_plural_of_word(low) or (low.endswith("es") and lex.is_common_word(low[:-1], strict=True) and not lex.is_strong_name(low))
            ):
                # "wife cooks with salt", "WIFE SMOKES TOO": a word with an "s" after it is what the relative does
                return False
            return header_caps or not lex.is_common_word(low) or (mode == "relation" and (lex.is_first(low) or not lex.is_everyday(low)))
        return mode in _STRONG_CUE_MODES and not lex.is_common_word(low) and not _INFLECTED.search(low) and not self._form_of_word(low)

    def _last_line_given_name(self, text: str, tokens: Sequence[Token], pos: int) -> tuple[Token, bool] | None:
        """``-cole`` as the note's last line: a dash signs it with the writer's given name, even one that is a word
        ("- walker" in a list above the last line is an item). With a credential after it the name may end any
        line and may be a modal ("-will rn") or any word that is no word ("-tavita rt"); the flag says a credential
        signed it."""
        k = self._token_index_at(tokens, pos)
        if k >= len(tokens) or text[pos : tokens[k].start].strip(" \t"):
            return None
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        credential = nxt is not None and (_is_credential(nxt) or nxt.text.upper() in _SIGNING_CREDENTIALS) and self._gap(text, tokens[k], nxt).strip(" ,") == ""
        if text[nxt.end :].split("\n", 1)[0].strip() if credential else text[tokens[k].end :].strip():
            return None
        above = text[: text.rfind("\n", 0, pos) + 1].rstrip().rsplit("\n", 1)[-1]
        if _SIGNATURE.match(above) and not credential:
            return None  # the last item of a dashed list
        tok = tokens[k]
        if not tok.caseless:
            return None
        if credential and tok.text.isalpha() and len(tok.text) > 2 and not self._is_word(tok.text):
            return tok, credential  # "-tavita rt": no word at all, signed with a credential that is also a word
        if (credential or tok.lower not in _MODALS) and self._word_given_name(tok):
            return tok, credential
        return None

    def _relative_surname(self, text: str, tokens: Sequence[Token], j: int) -> bool:
        """``friend terry bell called``, ``nephew marcus young will pick pt up``: after a relation and a given name that
        is no word, a listed surname that is also a word belongs to the name when what the person does follows it."""
        tok, prev = tokens[j], tokens[j - 1]
        if self._gap(text, prev, tok) != " " or not self._plain_given_name(prev) or tok.lower in FUNCTION_WORDS or tok.lower.endswith("ly"):
            return False
        return bool(_PERSON_VERB_AFTER.match(text, tok.end) or _MODAL_AFTER.match(text, tok.end))

    def _plain_given_name(self, tok: Token) -> bool:
        """A listed given name that English does not use as a word (Marcus, not Will)."""
        return tok.text.isalpha() and self.lexicon.is_first(tok.lower) and not self.lexicon.is_common_word(tok.lower)

    def _phrasal_compound(self, word: str) -> bool:
        """A verb and its particle a hyphen joins into a noun ("teach-back", "follow-up", "check-in"); no name ends so
        ("young-soon", "jun-ho")."""
        head, _, particle = word.rpartition("-")
        return particle in _COMPOUND_PARTICLES and bool(head) and self.lexicon.is_common_word(head) and not self.lexicon.is_strong_name(head)

    def _verb_reading(self, tokens: Sequence[Token], k: int) -> bool:
        """A given name that is also a verb, followed by a particle, is the verb ("rose to leave")."""
        return tokens[k].lower in _VERB_NAMES and k + 1 < len(tokens) and tokens[k + 1].lower in _VERB_PARTICLES

    def _word_given_name(self, tok: Token) -> bool:
        """A listed given name that is also a word (Hope, June, Will, Liberty): a name only where a cue says so."""
        low = tok.lower
        lex = self.lexicon
        return (
            lex.is_first(low)
            and len(low) > 2
            and low not in FUNCTION_WORDS
            and low not in _RELATION_SET
            and not lex.is_clinical(low)
            and not (lex.is_stop(low) and low not in _MONTHS and low not in _MODALS)
            and not DRUG_SUFFIX.search(low)
            and tok.text not in _CREDENTIAL_SET
        )

    def _surname_at(self, tokens: Sequence[Token], k: int, listed: set[tuple[int, int]], unlisted: bool = False) -> bool:
        """A word at ``k`` that reads as a surname only: listed (or, with ``unlisted``, any word that is
        no English word) and not clinical."""
        if k >= len(tokens) or tokens[k].shape == "initial" or not tokens[k].text.isalpha():
            return False
        if self._is_word(tokens[k].text):
            return False
        return unlisted or self._listed(tokens[k], listed) or self.lexicon.is_last(tokens[k].lower)

    def _given_before_surname(self, text: str, tokens: Sequence[Token], j: int) -> bool:
        return self._word_given_name(tokens[j]) and self._gap(text, tokens[j], tokens[j + 1]) == " " and self._surname_at(tokens, j + 1, set(), unlisted=True)

    def _staff_given_name(self, text: str, tokens: Sequence[Token], pos: int, listed: set[tuple[int, int]]) -> tuple[int, int] | None:
        """After a staff role or a hand-off ("np august", "report to hope rn", "rn will pruitt"), a given
        name that is also a word names the person: the role is the cue such a name needs in any case.
        A modal (will, may) counts only with a surname after it."""
        i = self._token_index_at(tokens, pos)
        if i >= len(tokens) or text[pos : tokens[i].start].strip(" \t") != "":
            return None
        if not (self._word_given_name(tokens[i]) or self._word_surname_acting(text, tokens, i)):
            return None
        if self._verb_reading(tokens, i) or tokens[i].lower in _RANKS_LOWER or tokens[i].lower in PAST_VERBS:
            return None  # "HO MADE AWARE": a past tense after the role is what was done
        if tokens[i].lower in _ROLE_COMPOUNDS:
            return None  # "POLST FROM PCP OFFICE BROUGHT IN": the role's office or team, no one's name
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if nxt and self._gap(text, tokens[i], nxt) == " " and (nxt.lower in _RELATION_SET or (_DOCTOR_ROLE_WORD.fullmatch(nxt.text) and not _is_credential(nxt))):
            # "updated by foster parent", "by charge nurse": a word that qualifies a role; after a comma the
            # relation begins the next person ("chaplain grace, wife norma")
            return None
        if (
            nxt
            and self._gap(text, tokens[i], nxt) == " "
            and self.lexicon.is_everyday(tokens[i].lower)
            and not _is_credential(nxt)
            and (self.lexicon.is_clinical(nxt.lower) or nxt.text.upper() in CLINICAL_ACRONYMS)
            and not _PERSON_VERB_AFTER.match(text, tokens[i].end)
        ):
            return None  # "EDD CONFIRMED BY EARLY US": an everyday word before a clinical one qualifies it
        surname = i + 1 < len(tokens) and self._gap(text, tokens[i], tokens[i + 1]) == " " and self._surname_at(tokens, i + 1, listed)
        if tokens[i].lower in _MODALS and not surname and not self._modal_named(tokens, i):
            return None  # "RN WILL CHECK"; but "RT WILL AT BEDSIDE", "rt may came by": no verb follows the modal
        if tokens[i].lower in _VERB_NAMES and not surname and nxt and tokens[i].end == nxt.start - 1:
            # "PHARMACIST BILL CALLED", "pharmacist rose verified vanc dose", "rt bill changed circuit": what a
            # person does, or did, follows the name
            acts = (
                _PERSON_VERB_AFTER.match(text, tokens[i].end)
                or nxt.lower in _STAFF_CHECKS
                or past_tense(nxt.lower)
                or (nxt.lower.endswith("ing") and self.lexicon.is_common_word(nxt.lower))  # "CM ROSE WORKING ON PLACEMENT"
            )
            if nxt.lower not in FUNCTION_WORDS and not _is_credential(nxt) and not acts:
                return None  # "TECH MARK SITE": a verb with its object
        return (i, i + 1) if surname else (i, i)

    def _plain_word(self, low: str) -> bool:
        """A function, stop or clinical word: what a cue may stand before without naming anyone."""
        return low in FUNCTION_WORDS or self.lexicon.is_stop(low) or self.lexicon.is_clinical(low)

    def _word_surname_acting(self, text: str, tokens: Sequence[Token], i: int) -> bool:
        """``SW YOUNG CONSULTED``, ``cm bell aware``: after a staff role, a listed surname that is also a word names
        the person when what a person does follows it at once."""
        tok, lex = tokens[i], self.lexicon
        low = tok.lower
        if not lex.is_last(low) or low in _RELATION_SET or self._plain_word(low):
            return False
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if not nxt or self._gap(text, tok, nxt) != " " or nxt.caseless != tok.caseless:
            return False
        return bool(_PERSON_VERB_AFTER.match(text, tok.end))

    def _subject_given_name(self, text: str, tokens: Sequence[Token], k: int) -> bool:
        """After ``pt``, a given name that is also a word names the patient when what a person says or does
        follows it ("pt rose states", "PT RUBY SLEPT"); "pt rose to chair" is what the patient did."""
        if k + 1 >= len(tokens) or tokens[k].lower in _MODALS or not self.lexicon.is_first(tokens[k].lower):
            return False
        if self._gap(text, tokens[k], tokens[k + 1]) != " " or tokens[k].caseless != tokens[k + 1].caseless:
            return False
        return not self.lexicon.is_clinical(tokens[k].lower) and tokens[k + 1].lower in _SUBJECT_VERBS

    def _with_unlisted_surname(self, text: str, tokens: Sequence[Token], cand: NameCandidate) -> NameCandidate:
        """A one-word name after a cue, widened by the word after it when that word is no English, clinical or
        listed word at all ("report on xu wenjing": the lists hold "xu", no list holds "wenjing")."""
        k = self._token_index_at(tokens, cand.start)
        if k + 1 >= len(tokens) or tokens[k].end != cand.end or self._gap(text, tokens[k], tokens[k + 1]) != " ":
            return cand
        nxt = tokens[k + 1]
        if nxt.caseless != tokens[k].caseless or self.lexicon.is_name(nxt.lower) or not self._surname_at(tokens, k + 1, set(), unlisted=True):
            return cand
        return NameCandidate(cand.start, nxt.end, cand.category, cand.score, cand.rule)

    def _role_as_noun(self, text: str, tokens: Sequence[Token], at: int, cand: NameCandidate) -> bool:
        """A role word after an article, then an ordinary word: the role says what kind of thing ("a nurse tank")."""
        k = self._token_index_at(tokens, at)
        first = self._token_index_at(tokens, cand.start)
        return (
            0 < k
            and first < len(tokens)
            and tokens[k - 1].lower in _ARTICLES
            and tokens[first].caseless
            and self.lexicon.is_common_word(tokens[first].lower)
            and not self.lexicon.is_first(tokens[first].lower)
        )

    def _ordinary_words(self, text: str, tokens: Sequence[Token], cand: NameCandidate) -> bool:
        """Every word of ``cand`` is typed where case says nothing and is an ordinary English word or a public role."""
        first = self._token_index_at(tokens, cand.start)
        inside = list(itertools.takewhile(lambda t: t.end <= cand.end, tokens[first:]))
        return bool(inside) and all(t.caseless and (self.lexicon.is_common_word(t.lower, strict=True) or t.lower in TRADES) for t in inside)

    def _modal_named(self, tokens: Sequence[Token], k: int) -> bool:
        """A modal that is also a given name, followed by a past tense or a word no verb stands in for, is
        the name ("brother will came", "son will in this eve")."""
        if k + 1 >= len(tokens) or tokens[k].lower not in _MODALS or not self.lexicon.is_first(tokens[k].lower):
            return False
        verb = tokens[k + 1].lower
        # "son will in this eve", "DTR MAY HERE": no verb can follow, so the modal is the name; "stepdad will will
        # come": the modal written twice, the first is the name; "chaplain may to visit", "rn will takes over": no
        # modal stands before "to" or a verb in -s
        return (
            verb == tokens[k].lower
            or verb in _NO_VERB_AFTER_MODAL
            or past_tense(verb)
            or verb == "to"
            or (verb.endswith("s") and verb in _PERSON_VERBS)
        )

    def _caseless_name_before(self, text: str, tokens: Sequence[Token], k: int) -> bool:
        """Before the relation word at ``k``, typed where case says nothing, a listed given name that is no word."""
        if k == 0 or not tokens[k].caseless or self._gap(text, tokens[k - 1], tokens[k]) != " ":
            return False
        prev = tokens[k - 1]
        if prev.lower in _RELATION_QUALIFIERS or _child_life_at(tokens, k):
            return False  # "foster mom bernadette called", "ABOUT FINGERSTICKS, CHILD LIFE CONSULT": a kind of relation, a service
        return prev.caseless and prev.text.isalpha() and self.lexicon.is_first(prev.lower) and not self._is_word(prev.text)

    def _relation_subject(self, text: str, tokens: Sequence[Token], k: int) -> bool:
        """``wife peg called``, ``mom may in l&d``: right after a relation word, a listed given name
        that is also a clinical or ordinary word, a month, a modal, or any word that is no English word,
        names the person when what a person does follows it (the relation and the verb are the cue such
        a name needs in any case)."""
        if k >= len(tokens) or k == 0 or self._gap(text, tokens[k - 1], tokens[k]) != " ":
            return False
        tok = tokens[k]
        low = tok.lower
        lex = self.lexicon
        if len(low) < 3 or not low.isalpha() or not (lex.is_first(low) or not self._is_word(low)) or low in FUNCTION_WORDS or low in _RELATION_SET:
            return False
        if low in PAST_VERBS or tok.text in _CREDENTIAL_SET or (lex.is_stop(low) and low not in _MONTHS and low not in _MODALS):
            return False
        return bool(_PERSON_VERB_AFTER.match(text, tok.end))

    def _service_before_credential(self, tokens: Sequence[Token], k: int) -> bool:
        """One word before a credential that says which nurse, not who: a shift or kind (``Day RN``, ``Charge RN``), or
        an everyday word after another word of a service's name (``Wound Care RN``, ``Structural Heart NP``)."""
        low, lex = tokens[k].lower, self.lexicon
        if low in _ROLE_QUALIFIERS:
            return True
        if k == 0 or not lex.is_everyday(low):
            return False
        before = tokens[k - 1]
        return before.end + 1 == tokens[k].start and (lex.is_common_word(before.lower) or lex.is_clinical(before.lower))

    def _identified_as_thing(self, text: str, at: int) -> bool:
        """After "identified as", an ordinary, clinical or stop word or a clinical short form names a thing."""
        word = re.match(r"[^\W\d_][\w'’-]*", text[at:])
        if not word:
            return True
        low, lex = word.group(0).lower(), self.lexicon
        return lex.is_common_word(low) or lex.is_clinical(low) or lex.is_stop(low) or word.group(0).upper() in CLINICAL_ACRONYMS

    def _modal_before_verb(self, tokens: Sequence[Token], k: int) -> bool:
        """``Will stay``, ``May need``: a modal, then a lower-case verb in its base form ("Will visited" is a name)."""
        if k + 1 >= len(tokens) or tokens[k].lower not in _MODALS:
            return False
        verb = tokens[k + 1]
        return (
            verb.shape == "lower"
            and verb.lower not in FUNCTION_WORDS
            and self.lexicon.is_common_word(verb.lower)
            and not self._modal_named(tokens, k)
            and not re.search(r"(?:s|ed|ing)$", verb.lower)
        )

    # -------------------------------------------------------------- runs
    def _gap(self, text: str, a: Token, b: Token) -> str:
        return text[a.end : b.start]

    def run_forward(self, text: str, tokens: Sequence[Token], i: int, mode: str, listed: set[tuple[int, int]], allow_inverted: bool) -> tuple[int, int] | None:
        """Tokens from index ``i`` that form a name; returns (first, last) indices."""
        n = len(tokens)
        if i >= n:
            return None
        j = i
        last = -1
        count = 0
        inverted = False
        nickname = False
        nick_at = -1
        while j < n and count < 5:
            tok = tokens[j]
            if count:
                gap = self._gap(text, tokens[j - 1], tok)
                prev = tokens[j - 1]
                if gap in _NICK_OPEN and self._nickname_at(text, tokens, j):
                    nickname = True  # 'Lucas "Luke" Ferreira-Dahl', "Seosamh (Joe) Mac Giolla"
                    nick_at = last = j
                    count, j = count + 1, j + 1
                    continue
                if gap in _NICK_CLOSE and nickname:
                    nickname = False
                elif gap in (" ", "\t", ". ", "."):
                    if gap.startswith(".") and prev.shape != "initial" and not (len(prev.text) <= 3 and prev.text[0].isupper()):
                        break
                elif (
                    gap in (", ", ",")
                    and allow_inverted
                    and not inverted
                    and count <= 3
                    and (tok.capitalised or (tok.shape == prev.shape == "lower" and tok.caseless))
                    and (tok.shape == prev.shape or tok.shape == "initial" or self._listed(tok, listed))
                ):  # "Lopez, Maria", "LOPEZ, MARIA" and, in a note typed in lower case, "wojcik, dorota"; not "Tremblay, RAMQ"
                    inverted = True
                else:
                    break
            if tok.shape == "lower" and tok.lower in NAME_PARTICLES and (count or mode in ("title", "header")):
                nxt = self._after_particles(text, tokens, j)
                if nxt is None:
                    break
                j = nxt  # "Feargal de la Garza", "Dr. de la Garza"
                continue
            tok_mode = mode
            if count and tok.shape == "lower" and tokens[j - 1].shape == "lower":
                tok_mode = "lower_rest" if mode == "signoff" else "lower_rest_strict" if mode in ("inline", "relation") else mode
            if count and tok.caseless and tok_mode not in _STRONG_CUE_MODES:
                tok_mode = "continued"  # "per dr kenney ok to transfer": the title vouches for one word only
                if count == 1 and mode in _TITLE_MODES and self._gap(text, tokens[j - 1], tok) == " " and self._plain_given_name(tokens[j - 1]):
                    tok_mode = "surname"  # "DR MARCUS BELL": a title and a given name that is no word vouch for a surname
                elif count == 1 and mode == "relation" and self._relative_surname(text, tokens, j):
                    tok_mode = "surname"
            if not self.acceptable(tok, tok_mode, listed) or (count and tok.lower in _SIGNOFF_WORDS):
                break  # "per dr kenney ok to transfer": after a name, "ok" is the nurse's word
            last = j
            count += 1
            j += 1
        if last == nick_at:
            last -= 1  # "INTERPRETER FARID (ARABIC) AT BS": a bracket with no name after it is no nickname
        if last < i:
            return None
        # a name is not only initials, and does not end on a particle
        core = [t for t in tokens[i : last + 1] if t.shape != "initial" and t.lower not in NAME_PARTICLES]
        if not core:
            return None
        return i, last

    def _place_like(self, text: str, tokens: Sequence[Token], i: int, j: int) -> bool:
        """A run of capitalised words that is a place: after "lives in", or led by "Fort", "Mount", "Santa"."""
        if _HOME_CUE_BEFORE.search(text[max(0, tokens[i].start - 40) : tokens[i].start]):
            return True
        rest = tokens[i + 1 : j + 1]
        return (
            bool(rest)
            and tokens[i].lower in _PLACE_LEAD
            and not tokens[i].line_caps
            and all(t.shape == "title" for t in rest)
            and any(not self.lexicon.is_common_word(t.text) for t in rest)
        )

    def _quoted_name(self, text: str, pos: int, rule: str, category: Category = Category.PATIENT) -> NameCandidate | None:
        """In quotes right after a person's cue or name (a relative, a hand-off's patient, ``GISELE ("GIGI")``), what the
        person is called, of ``category``."""
        quoted = _QUOTED_NICKNAME.match(text, pos)
        if quoted and self._nickname_word(quoted.group("nick")):
            return NameCandidate(quoted.start("nick"), quoted.end("nick"), category, 0.85, rule)
        return None

    def _nickname_word(self, quoted: str) -> bool:
        """Quoted words that may be what a person is called: not what they felt or did ('wife "upset"', 'son "worried"')."""
        words = quoted.lower().split()
        return len(words) <= 2 and not any(
            w in FUNCTION_WORDS or w in _QUOTED_STATES or self.lexicon.is_clinical(w) or self.lexicon.is_stop(w) or w.endswith(("ed", "ing", "ly")) for w in words
        )

    def _nickname_at(self, text: str, tokens: Sequence[Token], j: int) -> bool:
        """A capitalised word in quotes or brackets inside a name, with a name word after it."""
        return (
            j + 1 < len(tokens)
            and tokens[j].capitalised
            and self._gap(text, tokens[j], tokens[j + 1]) in _NICK_CLOSE
            and tokens[j + 1].capitalised
        )

    def _after_particles(self, text: str, tokens: Sequence[Token], j: int) -> int | None:
        """Index of the capitalised token after the particles starting at ``j`` (``de la``), if any."""
        k = j
        while k < len(tokens) and k - j < 3 and tokens[k].shape == "lower" and tokens[k].lower in NAME_PARTICLES:
            if k + 1 >= len(tokens) or self._gap(text, tokens[k], tokens[k + 1]) != " ":
                return None
            k += 1
        if k < len(tokens) and k > j and tokens[k].capitalised:
            return k
        return None

    def _before_particles(self, text: str, tokens: Sequence[Token], j: int) -> int | None:
        """Index of the capitalised token before the particles ending at ``j``, if any."""
        k = j
        while k >= 0 and j - k < 3 and tokens[k].shape == "lower" and tokens[k].lower in NAME_PARTICLES:
            if k == 0 or self._gap(text, tokens[k - 1], tokens[k]) != " ":
                return None
            k -= 1
        if k >= 0 and k < j and tokens[k].capitalised:
            return k
        return None

    def run_backward(self, text: str, tokens: Sequence[Token], k: int, listed: set[tuple[int, int]]) -> tuple[int, int] | None:
        """Tokens ending at index ``k`` (inclusive) that form a name before a credential."""
        if k < 0:
            return None
        first = -1
        j = k
        count = 0
        while j >= 0 and count < 4:
            tok = tokens[j]
            if not self.acceptable(tok, "credential", listed):
                if count == 1 and j + 1 == k and self._given_before_surname(text, tokens, j):
                    first = j  # "-JUNE MORALES, RN", "hope delacruz rn": a given name that is also a word, then the surname
                break
            first = j
            count += 1
            if j == 0:
                break
            gap = self._gap(text, tokens[j - 1], tok)
            prev = tokens[j - 1]
            if gap == " " and prev.shape == "lower" and prev.lower in NAME_PARTICLES:
                before = self._before_particles(text, tokens, j - 1)
                if before is None:
                    break
                j = before  # "Christopher da Mota, MD", "Feargal de la Garza MBBS"
                continue
            if gap in (" ", "\t"):
                pass
            elif gap in (". ", ".") and prev.shape == "initial":
                pass
            elif gap in (", ", ",") and count <= 2 and tok.capitalised and prev.capitalised and prev.shape != "initial":
                pass  # "NASSER, NADIA, RN", "Corona, Tracy MD"
            else:
                break
            j -= 1
        if first < 0:
            return None
        core = [t for t in tokens[first : k + 1] if t.shape != "initial"]
        return (first, k) if core else None

    # ------------------------------------------------------------- cues
    def _token_index_at(self, tokens: Sequence[Token], pos: int) -> int:
        lo, hi = 0, len(tokens)
        while lo < hi:
            mid = (lo + hi) // 2
            if tokens[mid].start < pos:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def _span(self, text: str, tokens: Sequence[Token], run: tuple[int, int], category: Category, score: float, rule: str) -> NameCandidate:
        a, b = run
        end = tokens[b].end
        if tokens[b].shape == "initial" and text[end : end + 1] == ".":
            end += 1
        return NameCandidate(tokens[a].start, end, category, score, rule)

    def cued(self, text: str, tokens: Sequence[Token], listed: set[tuple[int, int]]) -> list[NameCandidate]:
        out: list[NameCandidate] = []

        def forward(pos: int, category: Category, mode: str, score: float, rule: str, inverted: bool = False) -> None:
            i = self._token_index_at(tokens, pos)
            if i >= len(tokens) or text[pos : tokens[i].start].strip(" \t(\"'“‘") != "":
                return
            if tokens[i].text.rstrip(".") in RANKS and i + 1 < len(tokens):
                i += 1  # "Screened by SGT M. Oyarzun": the rank says nothing of the role
            run = self.run_forward(text, tokens, i, mode, listed, inverted)
            if not run:
                return
            if rule == "relation" and run[0] == run[1] and self._verb_reading(tokens, run[1]):
                return  # "wife rose to leave", "daughter sang to her"
            after = tokens[run[1] + 1].lower if run[1] + 1 < len(tokens) else ""
            if tokens[run[0]].caseless and (after in _OBJECT_PRONOUNS or any(t.lower in _OBJECT_PRONOUNS for t in tokens[run[0] + 1 : run[1] + 1])):
                return  # "BEFORE CREW FREED HIM": where case says nothing, a word before "him" is a verb
            if run[0] == run[1] and "-" in tokens[run[0]].text and self._phrasal_compound(tokens[run[0]].lower):
                return  # "w/ pt and mother, teach-back on sick day rules": a verb and its particle make a noun
            cand = self._span(text, tokens, run, category, score, rule)
            if rule == "relation":
                both = _AND_NEXT.match(text, cand.end)
                if both:
                    forward(both.end(), category, mode, score, rule)  # "parents ivy and rob", "sons Tomas & Luis"
            if mode == "header":
                last = tokens[run[1]]
                if run[0] == run[1] and self.lexicon.is_common_word(last.lower):
                    return  # "Anesthesia: General": one ordinary word is not a name
                if self.lexicon.is_stop(last.lower) and last.shape != "upper":
                    run = (run[0], run[1] - 1)  # "Attending: Sam Will see..." ends before the stop word
                    while run[1] >= run[0] and tokens[run[1]].lower in NAME_PARTICLES:
                        run = (run[0], run[1] - 1)
                    if run[1] < run[0] or all(t.shape == "initial" for t in tokens[run[0] : run[1] + 1]):
                        return
                    cand = self._span(text, tokens, run, category, score, rule)
            rest = text[cand.end : cand.end + 40]
            if rule == "signature":
                credential = _CREDENTIAL_RE.match(rest)
                if not (credential or re.match(r"[ \t]*(?:$|\n|\()", rest)):
                    return  # "- Metoprolol 25 mg" is a list item, not a signature
                if not credential and _closes_a_message(text, cand.start):
                    # "thanks\n- Alyssa": a message closes with the writer's given name, no credential
                    cand = NameCandidate(cand.start, cand.end, Category.PATIENT, 0.9, "signoff")
            if rule == "signoff" and _CREDENTIAL_RE.match(rest) and _CREDENTIAL_RE.match(rest).group("sep").strip() == ",":
                cand = NameCandidate(cand.start, cand.end, Category.DOCTOR, 0.85, "signoff_credential")
            if rule == "title" and category is Category.PATIENT:
                credential = _CREDENTIAL_RE.match(rest)
                if credential and credential.group("sep").strip() == "," and credential.group("cred").upper() not in _AMBIGUOUS_CREDENTIALS:
                    # "Mr Anand Rao-Whitely, FRACS": a surgeon's title, as British and Australian letters write it
                    cand = NameCandidate(cand.start, cand.end, Category.DOCTOR, 0.96, "title_credential")
            if rule == "doctor_cue" and run[0] == run[1] and _COMPANY_REP.match(rest):
                return  # "fitted by zoll rep": a word before "rep" is the company
            if rule in ("doctor_cue", "signature", "signoff", "patient_inline", "self_intro", "from_header"):
                # "SPOKE W MARIA DAUGHTER BY PHONE": the relation may follow with no comma
                rel = _RELATION_AFTER.match(rest) or (re.match(r"[ \t]+(?P<rel>[A-Za-z-]+)", rest) if rule == "doctor_cue" else None)
                if _relation_follows(rel):
                    cand = NameCandidate(cand.start, cand.end, Category.PATIENT, score, "relation_after")
            out.append(cand)

        for idx, tok in enumerate(tokens):
            low = tok.lower
            after = text[tok.end : tok.end + 2]
            if low in _DOCTOR_TITLE_SET or low in _PATIENT_TITLE_SET:
                short = low in ("dr", "mr", "mrs", "ms")
                spoken = low in ("doctor", "doctora") and tok.shape == "lower" and self._rare_lower_name_at(tokens, idx + 1)
                # "her pastor, rev. okwuosa": a title written short with its full stop is one in lower case too
                dotted = low in ("rev", "prof", "fr") and after.startswith(".") and tok.shape == "lower"
                if low == "fr" and (not after.startswith(".") or text[max(0, tok.start - 2) : tok.start].strip()[-1:].isdigit()):
                    continue  # "16 FR FOLEY", "20 fr. chest tube": a catheter's French size; a priest's title has its full stop
                if not (short or spoken or dotted) and (tok.shape == "lower" or (tok.shape == "upper" and not tok.line_caps)):
                    continue
                nxt = tokens[idx + 1] if idx + 1 < len(tokens) else None
                then = tokens[idx + 2].lower if idx + 2 < len(tokens) else ""
                if tok.caseless and low in _RHYTHM_TITLES and nxt is not None and (
                    self.lexicon.is_clinical(nxt.lower)
                    or (self.lexicon.is_common_word(nxt.lower) and not self.lexicon.is_name(nxt.lower))
                    or (self.lexicon.is_everyday(nxt.lower) and (not then or then in FUNCTION_WORDS))
                ):
                    # "HR 70S-80S SR. LEVO OFF", "TELE SR. AWAITING STEP-DOWN BED", "TELE SR. PLAN TO TRANSFER": in capitals
                    # "SR." is a rhythm and "MS" a mental status before a clinical or an everyday word ("MS HOPE OKONKWO" is named)
                    continue
                if nxt is not None and tok.caseless and nxt.lower in _MODALS and then in _MODAL_VERBS:
                    continue  # "TOLD HIM DR WILL CALL HIM": in capitals, a modal before a verb after the title
                if (
                    nxt is not None
                    and idx > 0
                    and tokens[idx - 1].lower in _DETERMINERS
                    and self.lexicon.is_common_word(nxt.lower)
                    and not self._plain_given_name(nxt)
                ):
                    continue  # "have the dr call in am": after an article the title is a common noun
                category = Category.DOCTOR if low in _DOCTOR_TITLE_SET else Category.PATIENT
                if low == "fr" and _HOSPITAL_CLERGY.search(text, max(0, tok.start - 30), min(len(text), tok.end + 60)):
                    category = Category.DOCTOR  # "chaplain fr. dominic", "FR. DONNELLY FROM PASTORAL CARE": the hospital's priest
                mode = "lower_rest_strict" if spoken else "title_lower" if tok.shape == "lower" else "title"
                if dotted and idx + 1 < len(tokens) and self.lexicon.is_common_word(tokens[idx + 1].lower):
                    continue  # "prof. development"
                forward(tok.end + (1 if after.startswith(".") else 0), category, mode, 0.95, "title")
                if low == "drs":
                    self._doctor_list(text, tokens, idx, listed, out)
            elif low in _RELATION_SET:
                pos = tok.end
                if _REFLEX_GRADE.match(text, pos):
                    continue  # "alert no ha dtr 2+": deep tendon reflexes and their grade, no daughter
                if self._caseless_name_before(text, tokens, idx):
                    # "lives w jules partner": typed where case says nothing, a listed given name that is no word, then the relation
                    out.append(NameCandidate(tokens[idx - 1].start, tokens[idx - 1].end, Category.PATIENT, 0.8, "relation_after"))
                in_law = _IN_LAW.match(text, pos) if low in _IN_LAW_RELATIONS else None
                if in_law:
                    # "daughter in law grace called": the spaced form of "daughter-in-law"; the name follows "law"
                    pos = in_law.end()
                    idx += 2
                m = re.match(r"(?:['’]s)?[ \t]*[,:(]?[ \t]*(?:(?:is|was|named|called|name[ \t]+is|,)[ \t]+)?", text[pos:])
                quoted = self._quoted_name(text, pos + m.end(), "relation")
                if quoted:
                    out.append(quoted)  # 'FRIEND "CRICKET" AT BS', "wife 'sunny'"
                    continue
                nxt = tokens[idx + 1] if idx + 1 < len(tokens) else None
                if (
                    nxt is not None
                    and text[pos : pos + 2] in ("'s", "’s")
                    and nxt.shape == "lower"
                    and not (self.lexicon.is_first(nxt.lower) and not self.lexicon.is_common_word(nxt.lower))
                ):
                    continue  # "your child's immunizations": after a possessive, a lowercase word is a thing
                if _child_life_at(tokens, idx):
                    continue  # "Child Life at bedside": the hospital's child life service
                if nxt is not None and self._modal_before_verb(tokens, idx + 1):
                    continue  # "mom Will stay overnight": a capitalised modal before a verb is the modal
                found = len(out)
                forward(pos + (m.end() if m else 0), Category.PATIENT, "relation", 0.9, "relation")
                if self._modal_named(tokens, idx + 1) or (len(out) == found and self._relation_subject(text, tokens, idx + 1)):
                    out.append(self._span(text, tokens, (idx + 1, idx + 1), Category.PATIENT, 0.85, "relation"))

        out.extend(self._relatives_in_brackets(text))
        out.extend(self._placed_words(text))
        for m in _PATIENT_HEADER.finditer(text):
            forward(m.end(), Category.PATIENT, "header", 0.9, "patient_header", inverted=True)
        for m in _NAMING.finditer(text):
            if _WHEN_AFTER_CALL.match(text, m.end()):
                continue  # "CASE MGR TO CALL THEM MON": when the call is made, not what anyone is called
            if m.group("identified") and self._identified_as_thing(text, m.end()):
                continue  # "IDENTIFIED AS HIGH FALL RISK", "identified as mrsa": what was found, not who
            quoted = _QUOTED_NICKNAME.match(text, m.end())
            if quoted and m.group("named"):
                # 'GOES BY "TANK"', 'known as "big mike"': in quotes after a naming verb, any word is what the person is called
                out.append(NameCandidate(quoted.start("nick"), quoted.end("nick"), Category.PATIENT, 0.85, "naming"))
                continue
            forward(m.end(), Category.PATIENT, "relation", 0.85, "naming")
        for m in _BRACKETED_ROLE.finditer(text):
            group = next(g for g in ("name", "after", "inside") if m.group(g))
            word = m.group(group)
            low = word.lower()
            lex = self.lexicon
            if (
                low in FUNCTION_WORDS
                or low in _RELATION_SET
                or word.upper() in _CREDENTIAL_SET
                or word.upper() in CLINICAL_ACRONYMS
                or lex.is_clinical(low)
                or lex.is_stop(low)
                or not (lex.is_name(low) or not lex.is_common_word(low))
            ):
                continue  # "pain (np) aware", "interpreter (spanish) at bs"
            out.append(NameCandidate(m.start(group), m.end(group), Category.DOCTOR, 0.85, "bracketed_role"))
        for m in _QUOTED_SUBJECT.finditer(text):
            if m.group("verb").lower() in _QUOTED_SUBJECT_VERBS and self._nickname_word(m.group("nick")):
                out.append(NameCandidate(m.start("nick"), m.end("nick"), Category.PATIENT, 0.8, "naming"))
        for m in _GOES_BY.finditer(text):
            nick = m.group("nick").lower()
            if nick in _NOT_NICKNAMES or self._plain_word(nick):
                continue  # "goes by wheelchair", "goes by his middle name"
            out.append(NameCandidate(m.start("nick"), m.end("nick"), Category.PATIENT, 0.8, "naming"))
        for m in _RELATION_THEN_MODAL_NAME.finditer(text):
            out.append(NameCandidate(m.start("name"), m.end("name"), Category.PATIENT, 0.8, "relation"))
        for m in _REPORT_WITH.finditer(text):
            low = m.group("name").lower()
            if low in _RELATION_SET or self._plain_word(low):
                continue  # "report to floor.", "REPORT FROM ED 1900"
            # "report given to steph": a given name, or a name any list holds that English seldom writes as a word
            if (self.lexicon.is_first(low) and not self.lexicon.is_common_word(low, strict=True)) or (
                self.lexicon.is_name(low) and not self.lexicon.is_everyday(low)
            ):
                out.append(NameCandidate(m.start("name"), m.end("name"), Category.DOCTOR, 0.8, "hand_off"))
        lex = self.lexicon
        for m in _PREFERS.finditer(text):
            nick = m.group("nick").lower()
            bracketed = bool(m.group("open")) and bool(m.group("close"))
            if self._plain_word(nick):
                continue
            # "DAUGHTER SUNNY (PREFERS TEXT)": how to be reached; unbracketed, a given name English writes often is what
            # is preferred ("prefers tea, no sugar")
            if (bracketed and (lex.is_first(nick) or not lex.is_common_word(nick))) or (lex.is_first(nick) and not lex.is_common_word(nick, strict=True)):
                out.append(NameCandidate(m.start("nick"), m.end("nick"), Category.PATIENT, 0.8, "naming"))
        for m in _PT_THEN_NAMING.finditer(text):
            nick = m.group("nick").lower()
            plain = nick in FUNCTION_WORDS or self.lexicon.is_stop(nick)
            if (plain and not self.lexicon.is_first(nick)) or self.lexicon.is_clinical(nick) or nick.endswith("ing"):
                continue  # "pt sleeping (calls her husband...)"; "PT WILL, GOES BY..." is named
            out.append(NameCandidate(m.start("nick"), m.end("nick"), Category.PATIENT, 0.8, "naming"))
        for m in itertools.chain(_NAME_THEN_RELATION.finditer(text), _NAME_THEN_BRACKETED_RELATION.finditer(text)):
            k = self._token_index_at(tokens, m.start("name"))
            tok = tokens[k] if k < len(tokens) else None
            if tok is None or tok.start != m.start("name") or m.group("rel").lower() not in _RELATION_SET or not tok.caseless:
                continue
            low = tok.lower
            if m.re is _NAME_THEN_BRACKETED_RELATION:
                # "called hope (wife)": the bracket is the cue a given name that is also a word needs
                named = self.lexicon.is_first(low) and not (low in _MODALS or self._plain_word(low))
            else:
                named = self.lexicon.is_name(low) and not self._is_word(tok.text)
            if named:
                out.append(NameCandidate(tok.start, tok.end, Category.PATIENT, 0.8, "relation_after"))
        for m in _PATIENT_INLINE.finditer(text):
            k = self._token_index_at(tokens, m.end())
            if k + 1 < len(tokens) and tokens[k].caseless and tokens[k].lower in ("a", "an") and text[tokens[k].end : tokens[k].end + 1] != "." and (
                self.lexicon.is_common_word(tokens[k + 1].lower) or _AGENT_NOUN.search(tokens[k + 1].lower)
            ):
                continue  # "PT A LOGGER", "pt an avid hunter": an article, then what the patient is
            found = len(out)
            forward(m.end(), Category.PATIENT, "inline", 0.75, "patient_inline", inverted=True)
            if len(out) == found:
                k = self._token_index_at(tokens, m.end())
                if self._subject_given_name(text, tokens, k):
                    out.append(self._span(text, tokens, (k, k), Category.PATIENT, 0.75, "patient_subject"))
        for m in _REPORT_ON.finditer(text):
            quoted = self._quoted_name(text, m.end(), "report_on")
            if quoted:
                out.append(quoted)  # 'REPORT ON "BIG MIKE" (PREFERS)'
                continue
            found = len(out)
            forward(m.end(), Category.PATIENT, "relation", 0.8, "report_on")
            if len(out) > found:
                out[-1] = self._with_unlisted_surname(text, tokens, out[-1])  # "report on xu wenjing"
        long_term_care = bool(_LONG_TERM_CARE.search(text))
        for m in _DOCTOR_CUES.finditer(text):
            header = bool(m.groupdict().get("colon"))
            line_start = text.rfind("\n", 0, m.start()) + 1
            if not header and not text[line_start : m.start()].strip() and _caps_heading(text, line_start):
                continue  # "ANESTHESIA PRE-OP EVAL" is a heading; "SPOKE W/ NKEM IN ADMITTING RE BED..." a sentence in capitals
            if long_term_care and m.group(0).lower().startswith("resident") and not re.match(r"[ \t]*(?:physician|md|dr)\b", text[m.end() : m.end() + 12], _I):
                forward(m.end(), Category.PATIENT, "header", 0.9, "resident", inverted=True)
                continue  # a nursing home's "resident" is the patient
            found = len(out)
            forward(m.end(), Category.DOCTOR, "header", 0.9 if header else 0.8, "doctor_cue", inverted=True)
            if len(out) > found and (not header or len(text[out[-1].start : out[-1].end].split()) > 2) and self._ordinary_words(text, tokens, out[-1]):
                # "SW GAVE LIST", "CONFIRMED BY XRAY": after a role with no colon, ordinary words name no one, and
                # after one with its colon, three or more do not ("DAY RN: NEW FILTER KIT AT BEDSIDE")
                out.pop()
            elif len(out) > found and not header and self._role_as_noun(text, tokens, m.start(), out[-1]):
                out.pop()  # "FILLING A NURSE TANK, HOSE FAILED": after an article the role word names a thing
            # "night charge rn is ivy", "RN: HUNTER": after a staff role, with or without its colon
            if len(out) == found:
                run = self._staff_given_name(text, tokens, m.end(), listed)
                if run and header and run[0] == run[1] and m.group("colon").lower() != "is" and not _CLAUSE_END.match(text, tokens[run[1]].end):
                    run = None  # "OT: min assist": after a field label a lone word must end the field ("RN: HUNTER")
                if run:
                    out.append(self._span(text, tokens, run, Category.DOCTOR, 0.8, "staff_given_name"))
        for m in itertools.chain(_JOB_TITLE_AFTER.finditer(text), _CREDENTIAL_IN_BRACKETS.finditer(text), _JOB_TITLE_LINE.finditer(text)):
            if any(w.lower() in FUNCTION_WORDS or w.lower() in _RELATION_SET for w in m.group("words").split()):
                continue  # "Einar, a retired nurse" is a relative with a job
            k = self._token_index_at(tokens, m.start()) - 1
            if k < 0 or text[tokens[k].end : m.start()].strip(" \t") != "" or not tokens[k].capitalised:
                continue
            run = self.run_backward(text, tokens, k, listed)
            if run and tokens[run[0]].lower in ("a", "an", "the") and text[tokens[run[0]].end : tokens[run[0]].end + 1] != ".":
                continue  # "ASKED FOR A PRIEST, CHAPLAIN CALLED": after an article the words are a noun, no name
            if run and m.re is _JOB_TITLE_LINE and (run[0] == run[1] or not any(self._listed(t, listed) for t in tokens[run[0] : run[1] + 1])):
                continue  # a title on its own line needs a whole listed name before it, not a header cell or a degree
            if run and LANGUAGE_BEFORE.search(text[max(0, tokens[run[0]].start - 30) : tokens[run[0]].start]):
                continue  # "PREFERS KRIOLU, PHONE INTERPRETER USED": a language before the interpreter
            if run:
                out.append(self._span(text, tokens, run, Category.DOCTOR, 0.85, "job_title"))
        for k, tok in enumerate(tokens):
            if tok.capitalised and tok.shape != "initial" and _IS_AN_AGE_AFTER.match(text, tok.end):
                run = self.run_backward(text, tokens, k, listed)
                if run and not any(self.lexicon.is_stop(t.lower) for t in tokens[run[0] : run[1] + 1]):
                    out.append(self._span(text, tokens, run, Category.PATIENT, 0.8, "is_an_age"))
        for m in _SIGNATURE.finditer(text):
            found = len(out)
            forward(m.end(), Category.DOCTOR, "signature", 0.85, "signature", inverted=True)
            if len(out) == found:
                signer = self._last_line_given_name(text, tokens, m.end())
                if signer:
                    tok, credential = signer
                    # "-rose" closing a note: whoever signs a note is its writer, on the staff; after "thanks" a message
                    message = not credential and _closes_a_message(text, tok.start)
                    category, rule = (Category.PATIENT, "signoff") if message else (Category.DOCTOR, "signature")
                    out.append(NameCandidate(tok.start, tok.end, category, 0.85, rule))
        for m in _SIGNOFF.finditer(text):
            forward(m.end(), Category.PATIENT, "signoff", 0.7, "signoff")
        for m in _HANDLE.finditer(text):
            group = next(g for g in ("dash", "cred", "chat") if m.group(g))
            if self._is_handle(m.group(group)):
                out.append(NameCandidate(m.start(group), m.end(group), Category.DOCTOR, 0.8, "handle"))
        m = _INITIALS_SIGNATURE.search(text)
        if m:
            group = "init" if m.group("init") else "dotted"
            if self._signs_note(m.group(group)):
                out.append(NameCandidate(m.start(group), m.end(group), Category.DOCTOR, 0.75, "initials_signature"))
        for m in _SELF_INTRO.finditer(text):
            forward(m.end(), Category.PATIENT, "signoff", 0.7, "self_intro")
        for c in list(out):
            # "Medic: D. Haverkamp (PCP) / S. Lindqvist-Moore (ACP)": a second crew member after a slash
            crew = _CREW_SLASH.match(text, c.end) if c.category is Category.DOCTOR else None
            if crew:
                forward(crew.end(), Category.DOCTOR, "header", 0.8, "crew_slash")
        for m in _FROM_HEADER.finditer(text):
            line = text[m.end() : (text.find("\n", m.end()) + 1 or len(text) + 1) - 1]
            if _STAFF_MAILBOX.search(line):
                forward(m.end(), Category.DOCTOR, "header", 0.8, "staff_mailbox", inverted=True)
            elif m.group("field").lower() == "from":
                forward(m.end(), Category.PATIENT, "header", 0.7, "from_header", inverted=True)
        for m in _CREDENTIAL_RE.finditer(text):
            cred = m.group("cred")
            sep = m.group("sep")
            if not sep or text[m.end() : m.end() + 1] == ":":
                continue  # "Requesting MD:" is a label
            role_prefix = "," not in sep and bool(re.match(r"[ \t]+[A-Z][a-z]", text[m.end() : m.end() + 3]))
            if cred in _STATE_CREDENTIALS and _NUMBERED_PLACE_BEFORE.search(text[max(0, m.start() - 40) : m.start()]):
                continue  # "CVS Pharmacy #2231, Scranton, PA": a city and its state
            if cred.upper() in _SERVICE_CREDENTIALS and re.match(r"/[A-Za-z]", text[m.end() : m.end() + 2]):
                continue  # "SPEECH/SWALLOW, PT/OT": a list of therapies, not a signature
            loose = cred.upper() in _AMBIGUOUS_CREDENTIALS and "," not in sep
            if loose and not re.match(r"[ \t]*(?:\n|$|[ \t]{2}|\d|,|\(|(?:pager|beeper|pgr|phone|cell|tel|ext)\b)", text[m.end() : m.end() + 9], _I):
                continue  # "PLAN TO DO CT": a credential without a comma must end the line
            k = self._token_index_at(tokens, m.start()) - 1
            if k < 0 or tokens[k].end > m.start() or text[tokens[k].end : m.start()].strip(" \t.,") != "":
                continue
            if "." in text[tokens[k].end : m.start()] and tokens[k].shape != "initial":
                continue  # "CAM-ICU NEG. MD NOTIFIED": a sentence ends before the credential
            run = self.run_backward(text, tokens, k, listed)
            signed = None if run or "," in sep else self._signature_start(text, tokens[k], m.end())
            if signed is not None:
                out.append(NameCandidate(signed, tokens[k].end, Category.DOCTOR, 0.9, "credential"))  # "... - TIFF RN" ends a note
                continue
            if not run and "," not in sep and self._initials_before_credential(text, tokens[k], False):
                run = (k, k)  # "REPORT RECEIVED FROM LG RN"
            if run and loose and (run[0] == run[1] or tokens[k].shape != "title"):
                continue
            if run and run[0] == run[1] and tokens[k].line_caps and cred.upper() in _SERVICE_CREDENTIALS:
                if not self.lexicon.is_name(tokens[k].lower):
                    continue  # "W/ WALKER, UNSTEADY, PT RECOMMENDS", "TOL SIPS, SLP TO EVAL": in capitals, a service after a finding
            if run and role_prefix and not any(self._listed(t, listed) for t in tokens[run[0] : run[1] + 1]):
                continue  # "Triage RN Odalys Ferrante": the credential is the role of the name after it
            if run and run[0] == run[1] and self._service_before_credential(tokens, k):
                continue  # "Day RN", "Wound Care RN", "Structural Heart NP": a shift or a service, not a name
            if run:
                out.append(self._span(text, tokens, run, Category.DOCTOR, 0.9, "credential"))
        for m in itertools.chain(_NAME_BEFORE_ROLE.finditer(text), _NAME_ROLE_ACTING.finditer(text), _NAME_FROM_SERVICE.finditer(text)):
            # "per tomas rt", "per norma eeg tech", "per marguerite charge rn": a given name, then the role
            k = self._token_index_at(tokens, m.start("name"))
            if k >= len(tokens) or tokens[k].start != m.start("name"):
                continue
            if tokens[k].lower in _MODALS and not self._modal_named(tokens, k):
                continue  # a modal is the name only where no verb follows it ("may from the float pool")
            if self._word_given_name(tokens[k]):
                out.append(NameCandidate(m.start("name"), m.end("name"), Category.DOCTOR, 0.85, "name_before_role"))
        if tokens:
            # "barbara j. parrilli bsn/rn", "report given to kathy rn": a credential typed in lower case, in a note
            # typed so or on its last line ("e. tremblay-nguyen rn" signing a note in capitals)
            last_line = text.rstrip().rfind("\n") + 1
            for m in _LOWER_CREDENTIAL.finditer(text, 0 if tokens[0].note_lower else last_line):
                k = self._token_index_at(tokens, m.start()) - 1
                cred_start = m.start()
                if k > 0 and tokens[k].lower in _ROLE_QUALIFIERS and text[tokens[k - 1].end : tokens[k].start].strip(" \t") in ("", ","):
                    cred_start, k = tokens[k].start, k - 1  # "- ben, night rn": the shift or kind of nurse before the credential
                if k < 0:
                    continue
                initial = len(tokens[k].text) == 1 and tokens[k].text.isalpha() and k > 0 and self._gap(text, tokens[k - 1], tokens[k]) == " "
                bracketed = text[tokens[k].end : m.start()].strip(" \t") == "(" and text[m.end() : m.end() + 1] == ")"
                if text[tokens[k].end : cred_start].strip(" \t," + ("." if initial else "")) != "" and not bracketed:
                    continue
                run = self.run_backward(text, tokens, k - 1 if initial else k, listed)
                signed = None if run or initial else self._signature_start(text, tokens[k], m.end())
                if signed is not None:
                    out.append(NameCandidate(signed, tokens[k].end, Category.DOCTOR, 0.85, "credential_lower"))  # "- c. page rn" ends a note
                    continue
                if not run and not initial and self._initials_before_credential(text, tokens[k], bracketed):
                    run = (k, k)  # "jt (np) aware"
                if run and initial:
                    # "dana p rn", "jess t. rn": a given name and the initial of the surname
                    end = tokens[k].end + (text[tokens[k].end : tokens[k].end + 1] == ".")
                    out.append(NameCandidate(tokens[run[0]].start, end, Category.DOCTOR, 0.85, "credential_lower"))
                elif run:
                    out.append(self._span(text, tokens, run, Category.DOCTOR, 0.85, "credential_lower"))
        return self._doctor_signoffs(text, out)

    def _rare_lower_name_at(self, tokens: Sequence[Token], k: int) -> bool:
        """``doctor ambrose``, ``doctora benítez``: dictated or typed in lowercase, a listed name that is no word."""
        if k >= len(tokens) or tokens[k].shape != "lower":
            return False
        low = tokens[k].lower
        lex = self.lexicon
        return lex.is_name(low) and not lex.is_common_word(low) and not lex.is_stop(low) and low not in FUNCTION_WORDS

    def _is_handle(self, word: str) -> bool:
        """``mdubois``, ``jpark``: one or two initials run into a listed surname, and no word itself;
        ``p.vandermolen``: an initial, a dot and any surname that is no word."""
        lex = self.lexicon
        initial, dot, rest = word.partition(".")
        if dot:
            return len(initial) == 1 and not self._is_word(rest)
        if lex.is_common_word(word) or lex.is_stop(word) or lex.is_first(word) or word in FUNCTION_WORDS or word in _MODALS:
            return False
        return any(len(word) - k >= 3 and lex.is_last(word[k:]) and not lex.is_common_word(word[k:]) for k in (1, 2))

    def _is_word(self, word: str, *, strict: bool = False) -> bool:
        """An ordinary, stop, clinical, function word, a modal or a public role: no part of a name without a cue."""
        lex = self.lexicon
        low = word.lower()
        if lex.is_common_word(low, strict=strict) or lex.is_stop(low) or lex.is_clinical(low) or low in FUNCTION_WORDS or low in _MODALS or low in TRADES:
            return True
        return not strict and self._form_of_word(low)

    def _form_of_word(self, low: str) -> bool:
        """``interprets``: an unlisted rare form of a frequent word ("interpret") is a word, not a name."""
        lex = self.lexicon
        return not lex.is_name(low) and any(
            low.endswith(end) and len(low) - len(end) >= 4 and lex.frequency(low[: -len(end)]) >= COMMON_WORD_FREQ for end in _INFLECTIONS
        )

    def _is_initials(self, word: str) -> bool:
        """``tk``, ``JM``: two or three letters of one case that are no abbreviation, credential or
        frequent word (most letter pairs occur somewhere as words, so only frequent ones count)."""
        up = word.upper()
        return (word.islower() or word.isupper()) and up not in _CREDENTIAL_SET and up not in CLINICAL_ACRONYMS and not self._is_word(word, strict=True)

    def _signs_note(self, word: str) -> bool:
        """``-KM``, ``-lt``, ``~ap``, ``-T.O. RN`` alone at a note's end: the writer's initials. Where
        they stand is the evidence, so letter pairs that are also short forms count; a stop word, a
        credential or a sign-off word ("-ok") does not, and three letters must be no word at all
        ("-ivf" ends a list)."""
        letters = word.replace(".", "")
        low = letters.lower()
        if "." in word:
            return True
        if len(letters) > 2:
            return self._is_initials(letters)
        if not (letters.islower() or letters.isupper()) or letters.upper() in _SIGNING_CREDENTIALS:
            return False
        # a relation's short form ("~bf") is a stop word elsewhere, but not where initials stand
        return not (low in _SIGNOFF_WORDS or low in FUNCTION_WORDS or (self.lexicon.is_stop(low) and low not in _RELATION_SET))

    def _initials_before_credential(self, text: str, tok: Token, bracketed: bool) -> bool:
        """``REPORT RECEIVED FROM LG RN``, ``jt (np) aware``: two or three letters of one case before a
        credential are a clinician's initials after a hand-off, or with the credential in brackets, unless
        they are a credential, a clinical short form or a word."""
        word, low = tok.text, tok.lower
        if not (2 <= len(word) <= 3 and word.isalpha() and (word.islower() or word.isupper())):
            return False
        lex = self.lexicon
        if word.upper() in _CREDENTIAL_SET or word.upper() in CLINICAL_ACRONYMS or lex.is_clinical(low) or lex.is_stop(low):
            return False
        if low in FUNCTION_WORDS or low in _RELATION_SET or (len(word) == 3 and self._is_word(word)):
            return False
        return bracketed or bool(_HAND_OFF_BEFORE.search(text[max(0, tok.start - 40) : tok.start]))

    def _placed_words(self, text: str) -> list[NameCandidate]:
        """Words whose place in the sentence names them, in any case: a listed name English hardly uses after
        ``per``, one word after a hand-off before where the person is, the listed names before a date of birth."""
        lex = self.lexicon
        out: list[NameCandidate] = []

        def plain(low: str) -> bool:
            return not (lex.is_clinical(low) or lex.is_stop(low) or low in FUNCTION_WORDS or low.upper() in CLINICAL_ACRONYMS)

        for m in _PER_WORD.finditer(text):
            low = m.group("name").lower()
            # a listed name only: abbreviations and typos are as rare ("per nomogram", "per riss", "per protcol")
            if lex.is_name(low) and lex.frequency(low) < COMMON_WORD_FREQ and plain(low) and not lex.is_eponym(low):
                out.append(NameCandidate(m.start("name"), m.end("name"), Category.DOCTOR, 0.8, "per_rare"))
        for m in _HAND_OFF_NAME.finditer(text):
            low = m.group("name").lower()
            if plain(low) and low not in _HAND_OFF_PLACES and low not in _ROLE_QUALIFIERS and low not in _RELATION_SET:
                out.append(NameCandidate(m.start("name"), m.end("name"), Category.DOCTOR, 0.8, "hand_off"))
        for m in _HAND_OFF_ARROW.finditer(text):
            lows = (m.group("a").lower(), m.group("b").lower())
            # both ends a person: "HANDOFF DAYS -> NIGHTS", "report icu -> floor" hand over no one
            if all(plain(w) and w not in _HAND_OFF_PLACES and (lex.is_name(w) or not lex.is_common_word(w)) for w in lows):
                out.extend(NameCandidate(m.start(g), m.end(g), Category.DOCTOR, 0.8, "hand_off") for g in ("a", "b"))
        for m in _NAME_BEFORE_DOB.finditer(text):
            words = list(re.finditer(r"\S+", m.group("name")))
            while words and not (lex.is_name(words[0].group(0)) and plain(words[0].group(0).lower())):
                words.pop(0)  # "BEFORE PRBC: SUMMER ALBRIGHT, DOB": the name starts at its first listed word
            # "ID BAND RECHECKED, DOB": a word ending like a verb's past or an adjective is no unlisted name; "still
            # working on dob": a function word is no part of a name, listed or not
            if len(words) >= 2 and all(
                plain(w.group(0).lower()) and (lex.is_name(w.group(0)) or not (self._is_word(w.group(0)) or _INFLECTED.search(w.group(0).lower())))
                for w in words
            ):
                out.append(NameCandidate(m.start("name") + words[0].start(), m.end("name"), Category.PATIENT, 0.85, "name_dob"))
        return out

    def _relatives_in_brackets(self, text: str) -> list[NameCandidate]:
        """``family (joy and lance)``: in brackets after a relation word, each item that opens with a listed
        given name, in any case and even where it is also a word, is a relative; a second word joins it
        when it is a listed name or no word at all."""
        out: list[NameCandidate] = []
        lex = self.lexicon
        for m in _BRACKETED.finditer(text):
            before = _WORD_BEFORE_BRACKET.search(text, max(0, m.start() - 30), m.start())
            if not before or (before.group("word").lower() not in _RELATION_SET and before.group("word").lower() != "family"):
                continue
            if not _NAME_LIST.fullmatch(m.group("names")):
                continue  # "POA (document in Media tab, dated 11/2021)": a remark, not a list of people
            found = []
            for item in _BRACKET_ITEM.finditer(m.group("names")):
                first, second = item.group("first").lower(), item.group("second")
                if not lex.is_first(first) or lex.is_clinical(first) or first in FUNCTION_WORDS or first in _RELATION_SET:
                    break
                end = item.end("second") if second and (lex.is_name(second) or not self._is_word(second)) else item.end("first")
                found.append(NameCandidate(m.start("names") + item.start(), m.start("names") + end, Category.PATIENT, 0.85, "relation"))
            else:
                out.extend(found)  # every item opens with a given name
        return out

    def _signature_start(self, text: str, tok: Token, cred_end: int) -> int | None:
        """``... map >65 - tiff rn``, ``- c. page rn`` closing a note: after a dash (and an initial) and before a
        credential that ends the note, one word that is no clinical, function, stop or role word is the writer's
        name, even where English has it as a word too (the place is the cue). Where the name starts, else None."""
        if text[cred_end:].strip() or not tok.text.isalpha() or len(tok.text) < 3:
            return None
        dash = _DASH_BEFORE.search(text, text.rfind("\n", 0, tok.start) + 1, tok.start)
        low = tok.lower
        lex = self.lexicon
        if not dash or lex.is_clinical(low) or lex.is_stop(low) or low in FUNCTION_WORDS:
            return None
        if low in _SIGNOFF_WORDS or low in _MODALS or low in _ROLE_QUALIFIERS:
            return None
        return dash.start("initial") if dash.group("initial") else tok.start

    @staticmethod
    def _doctor_signoffs(text: str, cands: list[NameCandidate]) -> list[NameCandidate]:
        """``Thanks! -Meredith`` under a message from ``Meredith Langstaff, NP``: the writer is the clinician."""
        doctor_words = {w.lower() for c in cands if c.category is Category.DOCTOR for w in text[c.start : c.end].split()}
        out = []
        for c in cands:
            if c.rule in ("signoff", "self_intro") and c.category is Category.PATIENT and text[c.start : c.end].lower() in doctor_words:
                c = NameCandidate(c.start, c.end, Category.DOCTOR, c.score, c.rule)
            out.append(c)
        return out

    def _doctor_list(self, text: str, tokens: Sequence[Token], idx: int, listed: set[tuple[int, int]], out: list[NameCandidate]) -> None:
        """``Drs. Smith and Jones``: every name of the list is a clinician."""
        j = idx + 1
        while j < len(tokens):
            run = self.run_forward(text, tokens, j, "title", listed, False)
            if not run:
                return
            out.append(self._span(text, tokens, run, Category.DOCTOR, 0.9, "title_list"))
            j = run[1] + 1
            if j < len(tokens) and tokens[j].lower in ("and", "&") or (j < len(tokens) and self._gap(text, tokens[j - 1], tokens[j]).strip() in (",", "&")):
                j += 1 if tokens[j].lower in ("and",) else 0
                continue
            return

    # --------------------------------------------------------- uncued
    def _mark(self, tok: Token, listed: set[tuple[int, int]]) -> str:
        """F(irst), L(ast), U(nlisted rare word), I(nitial), P(article) or X (not a name part)."""
        lex = self.lexicon
        if tok.shape == "initial":
            return "I"
        if tok.shape == "lower" and tok.lower in NAME_PARTICLES:
            return "P"
        if not (tok.capitalised or (tok.note_lower and tok.shape == "lower")) or len(tok.text) < 2:
            return "X"
        low = tok.lower
        if lex.is_stop(low) or lex.is_eponym(low) or low in FUNCTION_WORDS or low in _RELATION_SET:
            return "X"
        if tok.caseless and (low in TRADES or (low in _LANGUAGES and not lex.is_strong_name(low))):
            # "RETIRED BARBER, LIVES ALONE", "PRIMARY LANG FRENCH": where case says nothing, a trade or a language is no
            # name ("KAREN" is a given name first)
            return "X"
        if low in _DOCTOR_TITLE_SET or low in _PATIENT_TITLE_SET:
            return "X"
        parts = self._parts(tok)
        if self._listed(tok, listed) or (len(parts) > 1 and all(lex.is_name(p) for p in parts)):
            if lex.is_common_word(low) or (tok.caseless and lex.is_everyday(low) and not lex.is_first(low)):
                # a listed name that is also an ordinary word; where case says nothing, a surname English uses often
                # even if the lists hold it as often ("at the camp kitchen"; "young", "bell")
                return "A"
            return "F" if lex.is_first(low) else "L"
        if lex.is_common_word(low):
            return "X"
        return "U"

    def uncued(self, text: str, tokens: Sequence[Token], taken: list[tuple[int, int]], listed: set[tuple[int, int]]) -> list[NameCandidate]:
        out: list[NameCandidate] = []
        covered = set()
        for a, b in taken:
            covered.update(range(a, b))
        i = 0
        n = len(tokens)
        while i < n:
            if tokens[i].start in covered or not tokens[i].capitalised:
                i += 1
                continue
            # a maximal run of capitalised tokens joined by single spaces (or ". " after an initial)
            j = i
            while j + 1 < n and tokens[j + 1].start not in covered:
                gap = self._gap(text, tokens[j], tokens[j + 1])
                if not (gap == " " or (gap == ". " and tokens[j].shape == "initial")):
                    break
                if tokens[j + 1].capitalised:
                    j += 1
                elif tokens[j + 1].shape == "lower" and tokens[j + 1].lower in NAME_PARTICLES:
                    nxt = self._after_particles(text, tokens, j + 1)
                    if nxt is None or tokens[nxt].start in covered:
                        break
                    j = nxt  # "C. da Paz", "Tara Mac an Liagha", "T. de la Garza"
                else:
                    break
            rel = self._relation_after_run(text, tokens, i, j)
            if rel is not None:
                out.append(rel)
                i = j + 1
                continue
            if self._place_like(text, tokens, i, j):
                # "Fort Mohave", "lives in Mount Vernon": the run is masked as the place it most likely is
                out.append(NameCandidate(tokens[i].start, tokens[j].end, Category.LOCATION, 0.6, "place_like"))
                i = j + 1
                continue
            seg: list[int] = []
            for k in range(i, j + 1):
                mark = self._mark(tokens[k], listed)
                if tokens[k].caseless and _JOB_BEFORE.search(text, max(0, tokens[k].start - 30), tokens[k].start):
                    mark = "X"  # "WORKS AS A MASON", "employed as welder": where case says nothing, a trade follows
                if mark == "P":
                    if seg:
                        seg.append(k)
                    continue
                if mark == "X":
                    out.extend(self._judge(text, tokens, seg, listed))
                    seg = []
                else:
                    seg.append(k)
            out.extend(self._judge(text, tokens, seg, listed))
            # "LOPEZ, MARIA" / "Lopez, Maria" between two listed names
            i = j + 1
        out.extend(self._inverted(text, tokens, covered, listed))
        out.extend(self._lower_note_names(text, tokens, covered, listed))
        return out

    def _lower_note_names(self, text: str, tokens: Sequence[Token], covered: set[int], listed: set[tuple[int, int]]) -> list[NameCandidate]:
        """``teodoro on call tonight``: in a note typed all in lower case, a run of listed names that are no
        English, clinical or stop word is judged as a run of capitalised words would be on a line in capitals."""
        if not tokens or not tokens[0].note_lower:
            return []
        lex = self.lexicon
        out: list[NameCandidate] = []
        seg: list[int] = []

        def flush() -> None:
            if seg:
                found = self._judge(text, tokens, list(seg), listed)
                if seg[0] > 0 and tokens[seg[0] - 1].lower in _PLACE_PREPOSITIONS:
                    # "a dairy farmer in hardwick", "lives out past harlan": after a place's preposition, the place
                    found = [NameCandidate(c.start, c.end, Category.LOCATION, c.score, "place_lower") for c in found]
                out.extend(found)
                seg.clear()

        def named(tok: Token) -> bool:
            low = tok.lower
            return (
                tok.shape == "lower"
                and tok.start not in covered
                and len(low) >= 4
                and tok.text.isalpha()
                and (self._listed(tok, listed) or lex.is_name(low))
                and not self._is_word(low)
                and not lex.is_eponym(low)
                and low not in _RELATION_SET
                and low not in _DOCTOR_TITLE_SET
                and low not in _PATIENT_TITLE_SET
            )

        is_named = [named(tok) for tok in tokens]
        for k, tok in enumerate(tokens):
            # "hope castillo": a given name that is a word joins the run when a name follows it (``_judge`` decides)
            given_word = (
                not seg
                and k + 1 < len(tokens)
                and is_named[k + 1]
                and tok.shape == "lower"
                and tok.start not in covered
                and self._mark(tok, listed) == "A"
                and lex.is_first(tok.lower)
                and self._gap(text, tok, tokens[k + 1]) == " "
            )
            if is_named[k] and seg and self._gap(text, tokens[seg[-1]], tok) != " ":
                flush()
            if is_named[k] or given_word:
                seg.append(k)
            else:
                flush()
        flush()
        return out

    def _relation_after_run(self, text: str, tokens: Sequence[Token], i: int, j: int) -> NameCandidate | None:
        """``Chi (daughter)``, ``Marie-Louise (niece)``: a relation word right after names the person."""
        lex = self.lexicon
        first = i
        # "Contact Zikral (daughter)": leading ordinary words are not part of the name
        while i < j and (lex.is_stop(tokens[i].lower) or (lex.is_common_word(tokens[i].lower) and not lex.is_name(tokens[i].lower))):
            i += 1
        if i == j and (
            lex.is_clinical(tokens[j].lower)
            or tokens[j].text.upper() in CLINICAL_ACRONYMS
            or (i > first and lex.is_common_word(tokens[j].lower, strict=True) and not lex.is_first(tokens[j].lower))
            or LANGUAGE_BEFORE.search(text[max(0, tokens[j].start - 30) : tokens[j].start])
        ):
            # "W/ PNA, WIFE PASSED", "Social Work, daughter", "PREFERS NAVAJO, SON TRANSLATING": a clinical word, the
            # last of a phrase of ordinary words, or a language is no relative's name
            return None
        # "HOPE (WIFE) CALLED", "per rusty (brother)": a given name with its relation in brackets is the relative's
        # name even when it is also a word
        bracketed = lex.is_first(tokens[j].lower) and text[tokens[j].end : tokens[j].end + 3].lstrip(" \t").startswith("(")
        if tokens[j].caseless and (lex.is_everyday(tokens[j].lower) and tokens[j].line_caps and not bracketed or tokens[j].lower in TRADES):
            # "CALLED TWICE OVERNIGHT, SON ...": in capitals, an everyday word before a relation is no name, and where
            # case says nothing a role is none ("A RETIRED DEACON, WIFE AT BEDSIDE")
            return None
        if j - i > 3:
            return None
        run = tokens[i : j + 1]
        if all(t.caseless and not lex.is_name(t.lower) and (lex.is_common_word(t.lower) or lex.is_clinical(t.lower)) for t in run) and not (
            _LIVES_EARLIER.search(text, max(0, run[0].start - 40), run[0].start)
        ):
            # "VIDEO ON INSULIN PENS, MOTHER ASKED": where case says nothing, words that are no names name no one, unless
            # they may be where someone lives ("LIVES HANA, MAUI, SON DROVE" is masked all the same)
            return None
        if len(run) == 1 and run[0].caseless and not bracketed and not self._listed(run[0], set()) and (_INFLECTED.search(run[0].lower) or self._form_of_word(run[0].lower)):
            return None  # "CALLED X2 OVERNIGHT, REASSURED, NEIGHBOR CHECKING", "IRYNA INTERPRETS, DTR PHONE": a verb before the relation
        if any(t.lower in FUNCTION_WORDS or t.lower in _RELATION_SET or t.text in _CREDENTIAL_SET for t in run):
            return None
        if i > 0 and tokens[i - 1].lower in _DETERMINERS and run[0].caseless:
            return None  # "ASKED FOR HER ROSARY, SON BROUGHT IT": after "her" or "the", a thing
        if run[0].shape == "initial" or self.lexicon.is_stop(run[-1].lower) and not self.lexicon.is_name(run[-1].lower):
            return None
        end = self._span(text, tokens, (i, j), Category.PATIENT, 0.0, "").end
        if _relation_follows(_RELATION_AFTER.match(text[end : end + 40])):
            return NameCandidate(run[0].start, end, Category.PATIENT, 0.85, "relation_after")
        return None

    def _judge(self, text: str, tokens: Sequence[Token], seg: list[int], listed: set[tuple[int, int]]) -> list[NameCandidate]:
        """Decide which part of a run of capitalised words, if any, is a name."""
        marks = [self._mark(tokens[k], listed) for k in seg]
        # a name neither starts nor ends on a particle, nor ends on an initial without its period
        while seg and (marks[-1] == "P" or (marks[-1] == "I" and text[tokens[seg[-1]].end : tokens[seg[-1]].end + 1] != ".")):
            seg, marks = seg[:-1], marks[:-1]
        while seg and marks[0] == "P":
            seg, marks = seg[1:], marks[1:]
        if not seg:
            return []
        lex = self.lexicon
        last_tok = tokens[seg[-1]]
        caseless = tokens[seg[0]].caseless
        if followed_by_eponym_trigger(text, last_tok.end) or (len(seg) > 1 and last_tok.lower in EPONYM_TRIGGERS):
            return []  # "SALEM SUMP", "Murphy's sign": a name before a device or a sign is an eponym
        if len(seg) == 1 and after_eponym_modifier(text, last_tok.start, last_tok.end):
            return []  # "sitting in high Fowler's", "Modified Rankin pending", "+MURPHY'S": a position, a scale or a sign
        if in_eponym_pair(text, tokens[seg[0]].start, last_tok.end):
            return []  # "Lund and Browder chart", "Grey Turner sign": two names that together are one eponym
        core = [m for m in marks if m not in "PI"]
        shapes = {tokens[k].shape for k, m in zip(seg, marks) if m not in "PI"}
        if not caseless and "upper" in shapes and len(shapes) > 1:
            return []  # "Prescriber DEA": an acronym next to a word, not a name
        names = [m for m in core if m in "FL"]
        if len(core) == 1 and marks[0] == "I" and core[0] in "FL" and lex.is_strong_name(last_tok.lower):
            # "L. Powell is a 97-year-old", "C. da Paz": an initial and a surname
            return [self._candidate(text, tokens, seg[0], seg[-1], 0.7)]
        if 2 <= len(core) <= 4:
            if caseless and _SCORE_AFTER.match(text, last_tok.end):
                return []  # "HUNT HESS 3", "SPETZLER MARTIN 2": in capitals, two names and a grade are a scale
            strong = [m for m in core if m in "FLU"]
            if tokens[seg[0]].line_caps and all(m == "L" for m in core):
                # "MOVING HAY BALES": on a line in capitals, surnames with no given name are words (a note typed in lower
                # case names places so: "tree stand on bois forte land")
                return []
            if len(strong) >= 2 and names and not (caseless and not all(m in "FLIP" for m in marks)):
                return [self._candidate(text, tokens, seg[0], seg[-1], 0.7)]
            if len(strong) >= 2 and "A" in core and not caseless:
                return [self._candidate(text, tokens, seg[0], seg[-1], 0.55)]
        if len(seg) == 2 and self._gap(text, tokens[seg[0]], last_tok) == " " and self._word_beside_name(tokens[seg[0]], last_tok, marks):
            return [self._candidate(text, tokens, seg[0], seg[-1], 0.6)]
        # single listed names that are rarely anything else
        out = []
        for k, mark in zip(seg, marks):
            tok = tokens[k]
            if mark not in "FL" or not lex.is_strong_name(tok.lower):
                continue
            if (caseless or tok.shape == "upper") and lex.census_share(tok.lower) < 2e-5:
                continue
            if tok.shape == "upper" and (not tok.line_caps or len(tok.text) < 4):
                continue
            if tok.note_lower and (lex.frequency(tok.lower) >= LOWER_NOTE_SINGLE_NAME_FREQ or (k > 0 and tokens[k - 1].lower in _NOUN_BEFORE)):
                # "normal flora", "a clean johnny", "foster home", "a glass of sherry": typed in lower case, a name
                # English text uses often, or one after an article or "of", is a word
                continue
            if followed_by_eponym_trigger(text, tok.end) or _SCORE_AFTER.match(text, tok.end) or after_eponym_modifier(text, tok.start, tok.end):
                continue
            if caseless and lex.is_plural_of_word(tok.lower):
                continue  # "off winters", "CHECKS ON COWS, FIXES FENCES": where case says nothing, a plural or a verb
            if caseless and k > 0 and tokens[k - 1].lower in _ARTICLES:
                continue  # "PINNED AGAINST A CORRAL GATE": where case says nothing, a name after an article is a word
            out.append(self._candidate(text, tokens, k, k, 0.5))
        return out

    def _word_beside_name(self, first: Token, last: Token, marks: list[str]) -> bool:
        """``hope castillo``, ``DESHAWN PRICE``: a given name that is also a word before a surname the lists alone
        take, or a surname that is also a word after such a given name, belongs to the name beside it."""
        lex = self.lexicon
        if marks == ["A", "L"]:
            word, name, word_is = first.lower, last.lower, lex.is_first
        elif marks == ["F", "A"]:
            word, name, word_is = last.lower, first.lower, lex.is_last
        else:
            return False
        return word_is(word) and not lex.is_clinical(word) and lex.is_strong_name(name)

    def _candidate(self, text: str, tokens: Sequence[Token], a: int, b: int, score: float) -> NameCandidate:
        cand = self._span(text, tokens, (a, b), Category.PATIENT, score, "listed")
        if _relation_follows(_RELATION_AFTER.match(text[cand.end : cand.end + 40])):
            return NameCandidate(cand.start, cand.end, Category.PATIENT, max(score, 0.85), "relation_after")
        return cand

    def _inverted(self, text: str, tokens: Sequence[Token], covered: set[int], listed: set[tuple[int, int]]) -> list[NameCandidate]:
        out = []
        lex = self.lexicon
        for k in range(len(tokens) - 1):
            a, b = tokens[k], tokens[k + 1]
            if a.start in covered or b.start in covered:
                continue
            if self._gap(text, a, b) != ", " or b.shape != a.shape:
                continue
            if a.shape not in ("title", "upper") and not (a.shape == "lower" and a.caseless):
                continue  # "admit: wojcik, dorota, f": in a note typed in lower case, surname and given name the same
            if lex.is_last(a.lower) and lex.is_first(b.lower) and lex.is_strong_name(a.lower) and lex.is_strong_name(b.lower):
                out.append(NameCandidate(a.start, b.end, Category.PATIENT, 0.6, "inverted"))
        return out

    # ------------------------------------------------------------ main
    def candidates(self, text: str) -> list[NameCandidate]:
        tokens = tokenize(text)
        listed = {
            (h.start, h.end) for h in self.resources.scan(text) if h.kinds & {"first", "last"}
        }
        cued = self.cued(text, tokens, listed) + self._subjects(text, tokens)
        taken = [(c.start, c.end) for c in cued]
        found = [
            c
            for c in self._surname_first(text, cued + self.uncued(text, tokens, taken, listed))
            if not self._procedure_at(text, c) and not self._pet_at(text, c)
        ]
        found += self._nicknames_after(text, found)
        cells = [c for c in table_cells(text) if c.role in (Category.PATIENT, Category.DOCTOR)]
        return self._by_column(text, found, cells) if cells else found

    def _nicknames_after(self, text: str, found: list[NameCandidate]) -> list[NameCandidate]:
        """``DTR GISELE ("GIGI")``, ``son robert "bobby"``: quoted right after a name a cue found, what the person is called."""
        out = []
        for cand in found:
            if cand.rule in GUESS_RULES:
                continue
            gap = _BEFORE_QUOTED_NICK.match(text, cand.end)
            quoted = self._quoted_name(text, gap.end(), cand.rule, cand.category) if gap else None
            if quoted:
                out.append(quoted)
        return out

    @staticmethod
    def _pet_at(text: str, cand: NameCandidate) -> bool:
        """A name after an animal is the pet's ("his dog sadie"), unless a title makes it a person's."""
        return cand.rule not in _TITLE_RULES and bool(ANIMAL_BEFORE.search(text, max(0, cand.start - 30), cand.start))

    @staticmethod
    def _procedure_at(text: str, cand: NameCandidate) -> bool:
        """``S/P BIDIRECTIONAL GLENN``, ``s/p norwood``: after "s/p" a name is the operation named for its surgeon
        (a title still names the person: "s/p visit w dr glenn")."""
        if cand.rule in _TITLE_RULES:
            return False
        before = text[max(0, cand.start - 40) : cand.start]
        return bool(_PROCEDURE_BEFORE.search(before)) or (before.lower().endswith("s/") and text[cand.start : cand.start + 2].lower() == "p ")

    def _subjects(self, text: str, tokens: Sequence[Token]) -> list[NameCandidate]:
        """``crystal at bedside``, ``GRACE STATES``: a given name that opens a clause and does what people do.

        In any case, so it holds where capitals say nothing; a modal ("will states"
        is no English) or a clinical word never opens such a name.
        """
        lex = self.lexicon
        out = []
        for idx, tok in enumerate(tokens):
            low = tok.lower
            month_name = low in _MONTHS and lex.is_first(low)  # "june asking", not "may"
            if not lex.is_first(low) or low in _MODALS or lex.is_clinical(low) or (lex.is_stop(low) and not month_name):
                continue
            if not _CLAUSE_START.search(text, max(0, tok.start - 4), tok.start) or not _PERSON_VERB_AFTER.match(text, tok.end):
                continue
            out.append(self._span(text, tokens, (idx, idx), Category.PATIENT, 0.8, "subject"))
        return out

    def _surname_first(self, text: str, found: list[NameCandidate]) -> list[NameCandidate]:
        """``Solorzano-Pena, Beatriz``, ``THIBODEAUX, Gerald L.``: a given name found at the head of a field
        takes the surname written before it and the initial after it."""
        lex = self.lexicon
        out = []
        for c in found:
            first = text[c.start : c.end].split()[0].strip(".,")
            named = c.category in (Category.PATIENT, Category.DOCTOR) and lex.is_first(first)
            head = named and _SURNAME_BEFORE.search(text, max(0, c.start - 60), c.start)
            if head:
                words = re.split(r"[ \t-]+", head.group("sur"))
                plain = [w for w in words if w.lower() not in NAME_PARTICLES]
                if any(lex.is_last(w.strip("'’")) for w in plain) and not any(
                    lex.is_stop(w) or lex.is_common_word(w, strict=True) or w.lower() in FUNCTION_WORDS or DRUG_SUFFIX.search(w.lower())
                    for w in plain
                ):
                    end = c.end
                    initial = re.match(r"[ \t]+[A-Z]\.(?![\w])", text[end : end + 4])
                    if initial and text[c.start : c.end].count(" ") == 0:
                        end += initial.end()
                    c = NameCandidate(head.start("sur"), end, c.category, c.score, c.rule)
            out.append(c)
        # the surname itself may have been found on its own: the longer reading wins
        spans = sorted(out, key=lambda c: (c.start, -c.end))
        kept: list[NameCandidate] = []
        for c in spans:
            if kept and kept[-1].start <= c.start and c.end <= kept[-1].end and c.category is kept[-1].category and c.rule in GUESS_RULES:
                continue
            kept.append(c)
        return kept

    def _by_column(self, text: str, found: list[NameCandidate], cells: Sequence[Cell]) -> list[NameCandidate]:
        """Names in a staff or patient column take the column's role.

        A list guess inside such a cell gives way to the cell's whole name,
        typed by the header ("Given by", "Vaccinator", "Patient"); a cued name
        keeps its own category; a name-shaped cell nothing found is added when
        its words could be a name.
        """
        out: list[NameCandidate] = []
        claimed: set[int] = set()
        for cand in found:
            cell = next((c for c in cells if c.start <= cand.start and cand.end <= c.end), None)
            if cell is None or cand.rule not in GUESS_RULES:
                out.append(cand)
                if cell is not None:
                    claimed.add(cell.start)
        for cell in cells:
            if cell.start in claimed:
                continue
            name = name_in_cell(text, cell)
            if name is None or not self._could_be_name(text[name[0] : name[1]]):
                # keep what the lists found in a cell that holds more than a name
                out.extend(c for c in found if c.rule in GUESS_RULES and cell.start <= c.start and c.end <= cell.end)
                continue
            out.append(NameCandidate(name[0], name[1], cell.role, 0.8, "table_column"))
        return out

    def _could_be_name(self, value: str) -> bool:
        """Staff initials ("KT"), or words that are each a listed name, an initial, a particle or
        no ordinary word, at least one of them no ordinary word ("Pending", "Nursing" are not names)."""
        words = [w.strip(".") for w in re.split(r"[\s,]+", value) if w.strip(".")]
        if len(words) == 1 and words[0].isupper() and 2 <= len(words[0]) <= 3:
            return True
        lex = self.lexicon
        return (
            bool(words)
            and all(
                lex.is_name(w) or len(w) == 1 or w.lower() in NAME_PARTICLES or not (lex.is_common_word(w) or lex.is_stop(w))
                for w in words
            )
            and any(not lex.is_common_word(w) for w in words if len(w) > 1)
        )

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        return [
            Span(c.start, c.end, c.category, c.score, f"names/{c.rule}", Evidence.GUESS if c.rule in GUESS_RULES else Evidence.CUE)
            for c in self.candidates(text)
        ]
