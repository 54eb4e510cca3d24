"""Unit ``place_cue``: towns no list holds, after ``lives in``, ``moved from``, ``born in``, ``mom from``, and creeks,
rivers and lakes named with a word no list holds (``on the tolmie river``).

A bare ``from X``/``in X`` counts only when X is no word, name, drug or
eponym and the verb before it is not one that takes a thing (``weaned from
Bipap``).  Lists: ``deid_core/data/rules/place_cues/``.  Tests: ``tests/rules/test_place_cue.py``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from deid_core.recognizers.base import NoteContext, RuleRecognizer
from deid_core.recognizers.gazetteer import RARE_TOWN_WORD_FREQ, GazetteerResources, default_resources, state_after, transfer_not_state, word_after
from deid_core.recognizers.lexicon import AMBIGUOUS_STATE_ABBRS, RELATIONS, STATE_ABBRS, STATES, alternation, countries, is_listed_town, prominent_places, rule_list, us_cities, us_postal_towns
from deid_core.recognizers.rules.common_words import CLINICAL_ACRONYMS, DRUG_SUFFIX, FUNCTION_WORDS, PLACE_TAILS, RESIDENCE_TAILS, TITLE_BEFORE_NAME, TRADES, past_tense
from deid_core.recognizers.rules.tokens import CaseBlind
from deid_core.spans import Category, Span


#: a dwelling, after which "in" may say where it is: "lost his apartment in berlin"
_DWELLING_WORDS = r"(?:apartment|apt|trailer|condo|cabin|camp|farm|house)"
_DWELLING = re.compile(r"\b" + _DWELLING_WORDS + r"\b", re.I)
#: an aircraft that brought the patient in, before where from
_CARRIED = r"(?:fixed[ \t-]?wing|rotor(?:[ \t-]?wing)?|helicopter|life[ \t-]?flight|medevac|air[ \t]+ambulance)"
_CARRIED_FROM = re.compile(_CARRIED, re.I)
_CUE_VERBS = (
    r"\b(?:lives|living|live|resides|residing|reside|mov(?:ed|ing)(?:[ \t]+here)?|relocat(?:ed|ing)(?:[ \t]+here)?|born|raised|grew[ \t]+up"
    r"|(?:at|from)[ \t]+home|resident[ \t]+of|returned[ \t]+(?:home[ \t]+)?(?:to|from)|transferred[ \t]+from"
    r"|is[ \t]+from|are[ \t]+from|originally[ \t]+from|native[ \t]+of|visiting(?:[ \t]+from)?|travel(?:l)?ed|trip|vacation(?:ed|ing)?"
    r"|hometown(?:[ \t]+(?:of|is))?|works[ \t]+in|emigrated|immigrated|home(?=[ \t]+(?:in|to)\b)"
    # where a dwelling is: "lost his apartment in berlin", "TRAILER OUTSIDE OF RUMFORD"
    r"|" + _DWELLING_WORDS + r"(?=[ \t]+(?:in|near|outside)\b)"
    # a relative's journey: "drove up from Tiverton", "flying in from Houston", "drives up from crisfield daily"; and
    # the way home: "DRIVING BACK TO PRICE TONIGHT"
    r"|(?:drove|driving|drives|drive|flew|flying|flies|flown)(?:[ \t]+(?:up|down|in|over|back))?(?=[ \t]+from\b)"
    r"|(?:drove|driving|drives|drive|flew|flying|flies|fly|flown|headed|heading|going|goes|went)[ \t]+(?:back|home)(?=[ \t]+to\b)"
    # how the patient was carried in: "via fixed wing from jordan", "ROTOR FROM CIRCLE"
    r"|" + _CARRIED + r"(?=[ \t]+from\b)"
    # how far away: "ranch ~40 mi from colter", "LIVES 2 HRS NORTH OF BRANTLEY"
    r"|\d+[ \t]*(?:mi|miles?|km|hrs?|hours?)(?:[ \t]+(?:away|north|south|east|west))?(?=[ \t]+(?:from|of)\b)"
    # the patient's age and sex, then where they are from: "58 yo man from marrowfield", "34M FROM DEXTERVILLE"
    # and with their trade between: "67 y/o m lobsterman from stonington", "58 YO RETIRED LOGGER FROM RUMFORD"
    r"|(?:\d+[ \t]*(?:y/?o|yrs?[ \t-]*old|years?[ \t-]*old|[mf]))(?:[ \t]+(?:m|f|male|female|man|woman|gentleman|lady|gent))?"
    r"(?:[ \t]+(?:retired|former|unemployed|disabled|semi-retired))?(?:[ \t]+(?:" + alternation(TRADES) + r"))?(?=[ \t]+from\b))"
    r"(?:[ \t]+(?:in|to|from|near|of|back[ \t]+to|back[ \t]+from|(?:up|down|over|out)[ \t]+(?:in|at|by|near|past)))?"
    r"[ \t]+(?:the[ \t]+(?:city|town|village)[ \t]+of[ \t]+)?"
)
#: where someone lives, was born or has driven or flown in from: after these the cue alone makes a place, even of
#: ordinary words ("lives in twin buttes", "drove in from cold spring"), where "moved to" may lead to a bed or a chair
_RESIDENCE_VERB = re.compile(
    r"(?:lives|living|live|resides|residing|reside|born|raised|grew[ \t]+up|resident[ \t]+of|hometown|native[ \t]+of|originally[ \t]+from"
    r"|drove|driving|drives|drive|flew|flying|flies|flown)\b(?![ \t]+(?:back|home)[ \t]+to\b)",
    re.I,
)
_PLACE_AFTER_CUE = re.compile(
    _CUE_VERBS + r"(?P<place>(?:(?:St\.|Ft\.|Mt\.|[A-Z][a-zA-Z'’-]+)[ \t]+){0,2}[A-Z][a-zA-Z'’-]+)"
    r"(?P<state>,[ \t]*(?:[A-Z]{2}\b|[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)?))?",
)
#: the same cues where letter case says nothing (a note typed in lower case, a line in capitals):
#: "dtr lives in hartwell", "LIVES IN SCITUATE"
#: one or two words typed where case says nothing, and a state after a comma
#: (a saint written short may open it: "FROM ST MARTINVILLE")
_CASELESS_PLACE = r"(?P<place>(?:ste?\.?[ \t]+)?[a-z][a-z'’-]{2,}(?:[ \t]+[a-z][a-z'’-]{2,})?)(?P<state>,[ \t]*[a-z]{2}\b)?"
_PLACE_AFTER_CUE_CASELESS = re.compile(_CUE_VERBS + _CASELESS_PLACE, re.I)
#: "lives w/ son in south forge", "STAYING W/ HIS COUSIN IN PORT ALDER", "lives independently in cape charles": who
#: someone lives with or how, then where
_RESIDENCE_WITH = re.compile(
    r"\b(?:lives|living|resides|residing|staying|stays)[ \t]+(?:(?:alone|independently|by[ \t]+(?:him|her|them)sel(?:f|ves)"
    r"|on[ \t]+(?:his|her|their)[ \t]+own|year[ \t-]round|full[ \t-]time|part[ \t-]time)(?=[ \t]+(?:in|near|outside|out|way)\b)"
    r"|(?:with|w/|w)[ \t]+(?:(?:his|her|their|the|a|an)[ \t]+)?[a-z'’-]+(?:[ \t]+[a-z'’-]+)?)"
    r"[ \t]+(?:in|near|outside(?:[ \t]+of)?|(?:way[ \t]+)?out[ \t]+(?:past|at|in))[ \t]+" + _CASELESS_PLACE,
    re.I,
)
#: the way home: after it a town with a post office is where home is, even one that is a word ("DRIVING BACK TO PRICE")
_HOMEWARD = re.compile(r"[ \t](back|home)[ \t]+to[ \t]", re.I)
#: what follows a verb, never a town: "went home to check on the horses", "back to pick up his truck"
_OBJECT_AFTER = re.compile(r"[a-z'’-]+[ \t]+(?:on|up|in|out|off|over|the|his|her|their|a|an|him|them|it|some)\b", re.I)
#: "lives up bear branch", "LIVES ALONE UP BEARWALLOW HOLLOW", "lives out on orca rock island": up, down, out or over
#: where someone lives, with no preposition of place after it
_RESIDENCE_OUT = re.compile(
    r"\b(?:lives|living|live|resides|residing)(?:[ \t]+alone)?[ \t]+(?:way[ \t]+)?(?:up|down|out|over)(?:[ \t]+(?:on|at|by|past|near))?[ \t]+"
    + _CASELESS_PLACE,
    re.I,
)
#: "PT LIVES MILILANI", "lives kekaha on kauai": where someone lives, written with no preposition at all
_LIVES_BARE = re.compile(r"(?:lives|living|resides|residing)[ \t]+(?=[a-z])", re.I)
#: where "lives up" or "out" goes that is no place: "lives up north", "lives out back", "lives down stairs"
_DIRECTIONS = frozenset(
    {"north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest", "yonder", "back", "stairs", "home", "here", "there"}
)
#: "71 yo m from king brought by ems", "41yo f from welcome,": the note's opening age and sex, then where the patient
#: is from, a place named even with ordinary words
_AGE_SEX_FROM = re.compile(
    r"(?<![\w./])\d{1,3}[ \t]*(?:yo|y/o|y\.o\.?|yrs?|years?[ \t-]old)[ \t]*(?:m|f|male|female|man|woman)?[ \t]+from[ \t]+" + _CASELESS_PLACE,
    re.I,
)
#: the rule each residence pattern reports as its source
_RULE_OF = {_RESIDENCE_WITH: "residence_with", _RESIDENCE_OUT: "residence_out", _AGE_SEX_FROM: "age_sex_from"}
#: "MOM FROM ANTELOPE FLATS ARRIVED", "BROTHER CALLED FROM SWEETWATER WASH": where a relative comes or calls from;
#: "from" is found first and the relative looked for just before it, as an alternation of every relation word tried
#: at each character of a note is slow
_FROM_PLACE = re.compile(r"(?<=[ \t])from[ \t]+" + _CASELESS_PLACE, re.I)
#: a household spoken of as one: "FAMILY FROM SAMSON", "her folks from cairo"
_KIN_GROUPS = ("family", "folks", "relatives", "fam")
_RELATIVE_BEFORE_FROM = re.compile(
    r"\b(?:" + alternation(RELATIONS + _KIN_GROUPS) + r")(?:[ \t]+(?:called|phoned|calling|here|visiting|came|arrived|drove|flew|up|down|over|in"
    r"|coming|comes|driving|flying|travel(?:l)?ing|(?:is|are|was|were)(?=[ \t]+(?:coming|driving|flying))"
    r"|on[ \t]+(?:the[ \t]+)?phone)){0,2}[ \t]+$",
    re.I,
)
#: how far before "from" a relative and two verbs may stand ("daughter-in-law on the phone calling from")
_RELATIVE_REACH = 64
_PREPOSITION_END = re.compile(r"\b(?:in|to|from|near|of|(?:up|down|over|out)[ \t]+(?:at|by|past))[ \t]+$", re.I)
#: a first word that leads a town's name ("east harlan", "NORTH ADAMS")
_PLACE_LEADS = frozenset({"east", "west", "north", "south", "new", "fort", "mount", "port", "lake", "glen", "upper", "lower"})
#: the last word of a natural feature's name, and words that describe such a feature rather than name it
_FEATURE_TAILS = rule_list("place_cues", "feature_tail_words")
_FEATURE_DESCRIPTIONS = rule_list("place_cues", "feature_descriptions")
#: "ON THE TOLMIE RIVER", "fishing on lake vermilion": a word that is no word, named as a creek, river or lake
_FEATURE_NAME = re.compile(
    r"(?<![\w'’-])(?:(?P<name>[a-z][a-z'’-]{2,})[ \t]+(?:" + alternation(_FEATURE_TAILS) + r")|(?:lake|lk)[ \t]+(?P<lake>[a-z][a-z'’-]{2,}))(?![\w'’-])",
    re.I,
)
#: "transfer from twin rivers reg", "way out past twin buttes": "twin" before a plural of land or water begins a
#: place's name, never a relative
_TWIN_PLACE = re.compile(
    r"(?<![\w'’-])twin[ \t]+(?:rivers|lakes|falls|cities|buttes|oaks|pines|peaks|tiers|bridges|creeks|hills|valleys|forks|ponds|mountains|harbors|islands)(?![\w'’-])",
    re.I,
)
#: "from ponce de leon", "IN PORT ST JOE", "in sault ste marie", "from au train": a town whose name a particle
#: joins or opens, after a preposition of place; the post office's list is the evidence, whatever the words are
_PARTICLE_TOWN = re.compile(
    r"(?<![\w'’-])(?:from|in|to|near|at|outside(?:[ \t]+of)?)[ \t]+"
    r"(?P<place>(?:au|la|le|de|du|des|el)[ \t]+[a-z]+"
    r"|[a-z]+[ \t]+(?:de|del|la|le|du|des|st\.?|ste\.?|of|on|y|el|los|las)[ \t]+[a-z]+)(?![\w'’-])",
    re.I,
)
_SAINTS_SPELLED = {"st": "saint", "ste": "sainte"}
#: "ems -> mount nittany -> here", "FROM FT DEFIANCE", "pulled from bayou teche": a mount, fort, port or bayou named
#: with a word that is no word
_LEAD_NAME = re.compile(r"(?<![\w'’.-])(?<!\d[ \t])(?:mount|mt\.?|fort|ft\.?|port|bayou)[ \t]+(?P<name>[a-z][a-z'’-]{3,})(?![\w'’-])", re.I)
#: "float trip on the jacks fork", "FISHING ON TABLE ROCK LAKE", "hiking at whipple dam": after what people do on
#: water or land, a lake, river, creek, dam, ridge or park named even with ordinary words is a place ("swimming in
#: the river", "fishing on the frozen lake", "hiking in the state park" are none)
_FEATURE_AFTER_PASTIME = re.compile(
    r"(?<![\w-])(?:fishing|fished|boating|kayak(?:ing)?|canoe(?:ing)?|float(?:ing)?(?:[ \t]+trip)?|swimming|swam|tubing|rafting"
    r"|wading|waded|drown(?:ed|ing)|near[ \t-]drowning|submersion|jet[ \t]?ski(?:ing)?|water[ \t]?ski(?:ing)?|paddl(?:ing|ed)|sailing"
    # and what they do on land: "HIKING AT WHIPPLE DAM", "hunting on bald eagle ridge"
    r"|hik(?:ing|ed)|hunting|hunted|camping|camped|climbing|biking|snowmobil(?:ing|ed)|sledding|skiing)\b"
    r"[^.;:\n]{0,30}?[ \t](?:on|in|at|into|off|from|down|near)[ \t]+(?:the[ \t]+)?"
    r"(?P<name>[a-z][a-z'’-]{2,}(?:[ \t]+[a-z][a-z'’-]{2,})?)[ \t]+"
    r"(?:lake|lk|river|creek|crk|fork|bayou|reservoir|dam|falls|state[ \t]+(?:park|forest)|ridge|mountain|mtn|knob|gap)(?![\w'’-])",
    re.I,
)
#: "FOUND DOWN OUT AT THE SORENSEN PLACE", "kicked by cow at the yoder farm": a family's land, named by its surname
_FAMILY_PROPERTY = re.compile(
    r"(?<![\w-])the[ \t]+(?:old[ \t]+)?(?P<name>[A-Za-z][a-z'’-]+|[A-Z][A-Z'’-]+)[ \t]+(?:farm|ranch|place|homestead|property|dairy|orchard"
    r"|acreage|farmstead|homeplace)(?![\w-])",
    re.I,
)
#: "rocky mountain spotted fever", "rift valley fever", "ross river virus": a disease named for a place is no place in a note
_DISEASE_AFTER = re.compile(r"(?:[ \t]+[a-z]+)?[ \t]+(?:fever|virus|disease|syndrome|encephalitis|score|criteria)\b", re.I)
#: "DTR IN DOS PALOS CALLED", "son in fresno": where a relative is; like the relatives' "from", "in" is found first
_IN_PLACE = re.compile(r"(?<=[ \t])in[ \t]+" + _CASELESS_PLACE, re.I)
_RELATIVE_BEFORE_IN = re.compile(r"\b(?:" + alternation(RELATIONS) + r")[ \t]+$", re.I)
_RELATIVE_IN_REACH = 24
#: "pt from saltmarsh point", "sister from new hampshire", "from waco, tx", "mvc around orr", "FARMER FROM NEAR
#: DONALSONVILLE": after a bare "from",
#: "near", "around", "out of" or "outside", where case says nothing, only a place's own shape counts (a listed town
#: of two words or more, a state, a word and a place word after it, a town and its state, or a town with a post
#: office whose name is no word)
_PLACE_AFTER_BARE_CASELESS = re.compile(
    r"(?<![\w-])(?:from(?:[ \t]+(?:out|over|down|up)[ \t]+(?:in|at|by|near)|[ \t]+(?:near|nr|around))?|near|nr|around|out[ \t]+of|(?:[nsew]|north|south|east|west)[ \t]+of"
    r"|(?P<outside>outside(?:[ \t]+of)?)(?=[ \t]+[a-z'’-]{4}))[ \t]+(?P<place>[a-z][a-z'’-]{2,}(?:[ \t]+[a-z][a-z'’-]{1,})?)(?P<state>,[ \t]*[a-z]{2}\b)?", re.I
)

#: "hand crushed at the paper mill in rumford", "FLOWN OFF MONHEGAN", "moving bales near thedford", "home is 40 min past
#: chama": after the commonest prepositions only a town with a post office whose name English almost never writes
#: (never "to walker", "on holiday")
#: (the word after is only looked at, so that "RIDE IN RODEO IN BANDERA" reads both)
_PLACE_AFTER_COMMON_PREPOSITION = re.compile(
    r"(?<![\w-])(?:in|on|off|at|to|near|past|beyond)[ \t]+(?P<place>[a-z][a-z'’-]{2,})(?=(?:[ \t]+(?P<after>[a-z'’-]+(?:/[a-z]?)?))?)", re.I
)
#: a hospital's type word, or a shop's or a workplace's, then the town it stands in: "FLOWN FROM FRANCES MAHON
#: DEACONESS IN GLASGOW", "pharmacy in mercedes closed", "THE PACKING PLANT IN LEXINGTON", "dialyzes at kidney center in
#: paris"; there a listed town is the town even where it names a coma scale or a person
_FACILITY_IN_TOWN = re.compile(
    r"\b(?:hosp(?:ital)?|deaconess|memorial|regional|clinic|cah|cent(?:er|re)|ctr|dialysis|rehab|nursing[ \t]+home"
    r"|pharmacy|drugstore|walmart|wal-mart|grocery|store|packing[ \t]+plant|plant|mill|refinery|feedlot|factory|elevator)"
    r"[ \t]+in[ \t]+(?P<place>[a-z][a-z'’-]{2,})(?:[ \t]+(?P<after>[a-z][a-z'’-]{2,}))?",
    re.I,
)
#: where a treatment was given, a town stands for its hospital: "TNK GIVEN AT BROKEN BOW THEN FLOWN IN", "intubated
#: at valentine"
_TREATED_AT = re.compile(
    r"\b(?:given|started|administered|intubated|stabili[sz]ed|resuscitated|transfused|received|pushed|hung|initiated|placed)"
    r"(?:[ \t]+[a-z0-9/+.-]+){0,2}?[ \t]+at[ \t]+(?P<place>[a-z][a-z'’-]{2,})(?:[ \t]+(?P<after>[a-z][a-z'’-]{2,}))?",
    re.I,
)
#: a preposition written short after a town: "IN BONIFAY W/ UROSEPSIS"
_SHORT_PREPOSITIONS = frozenset({"w/", "w/o", "s/p", "c/o", "h/o", "d/t"})


#: "a retired teacher from Wapakoneta", "died in Tuscarora": a town no list holds, after a bare preposition;
#: it must end the phrase (a capitalised word after it makes a facility: "from Brookhaven Memorial")
_PLACE_BARE = re.compile(r"(?<![\w-])(?P<verb>[A-Za-z]+[ \t]+)?(?:from|in|outside(?:[ \t]+of)?)[ \t]+(?P<place>[A-Z][a-z]{3,}(?:-[A-Z][a-z]+)?)(?=[ \t]*(?:[,.;:)(\n]|$|[ \t]+[a-z(]))")


def _from_each_place(pattern: re.Pattern[str], text: str) -> Iterable[re.Match[str]]:
    """Each match, the next searched from where this one's place began: "from farm north of havre" holds two."""
    at = 0
    while m := pattern.search(text, at):
        yield m
        at = m.start("place")


_STATE_NAMES = frozenset(name.lower() for name in STATES)
#: words of time, and the conjunctions of time, that end a place written before them: "flew in from vermont tonight",
#: "brought by ems from eutaw after found down"
_TIME_WORDS = frozenset(
    {"tonight", "today", "yesterday", "tomorrow", "since", "until", "now", "recently", "currently", "soon", "later", "earlier", "last", "next", "this", "overnight"}
    | {"after", "before", "during", "when", "while", "via"}
)
#: the states' short forms that are function words: even after a residence cue they need their comma
#: ("lives alone in sturbridge ma w/ his cat", but not "lives in boston in a condo")
_STATE_WORDS = frozenset(a for a in AMBIGUOUS_STATE_ABBRS if a.lower() in FUNCTION_WORDS)
#: "99 y/o f from shady rest care center": a care home's words after where someone lives or is from make it a home
_CARE_WORD_AFTER = re.compile(r"[ \t]+(?:care|living|lodge|villas?|haven)\b", re.IGNORECASE)
_FACILITY_WORD_AFTER = re.compile(
    r"[ \t]+(?:regional|general|memorial|community|hosp(?:ital)?|medical|med|rehab|clinic|health|nursing|manor|ed|er|nh|snf"
    r"|cent(?:er|re)|ctr|urgent|dialysis|assisted|senior|family|recovery|critical[ \t]+access|county[ \t]+(?:hosp|medical|general))\b",
    re.IGNORECASE,
)

#: "weaned from Bipap", "switched from Humira", "results in MyChart": the thing after the verb is no place
_NOT_PLACE_VERBS = rule_list("place_cues", "not_place_verbs")
#: where people live that is no town: "lives in apt", "LIVES IN SNF", "from home"
_NOT_PLACE_WORDS = rule_list("place_cues", "not_place_words")


class PlaceCueRecognizer(RuleRecognizer):
    """Places after ``lives in``, ``moved from``, ``born in``: towns no list holds."""

    name = "place_cue"
    version = "1"
    categories = frozenset({Category.LOCATION})

    def __init__(self, resources: GazetteerResources | None = None) -> None:
        self.resources = resources or default_resources()

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        lex = self.resources.lexicon
        out = []
        for m in _PLACE_AFTER_CUE.finditer(text):
            base = m.start("place")
            words = list(re.finditer(r"\S+", m.group("place")))
            kept = []
            for w in words:
                word = w.group(0)
                if word.lower() in FUNCTION_WORDS or (lex.is_stop(word) and not kept):
                    break
                kept.append(w)
            if not kept or (len(kept) == 1 and lex.is_common_word(kept[0].group(0), strict=True)):
                continue
            end = base + kept[-1].end()
            state = m.group("state")
            if state and len(kept) == len(words):
                end = m.end("state")  # "moved to Dover, Delaware": the town and its state are one place
            out.append(Span(base + kept[0].start(), end, Category.LOCATION, 0.65, "place_cue"))
        out.extend(self._caseless(text))
        for m in _PLACE_BARE.finditer(text):
            word = m.group("place")
            low = word.lower()
            if (
                lex.is_common_word(word)
                or lex.is_name(low)
                or lex.is_stop(low)
                or lex.is_eponym(word)
                or DRUG_SUFFIX.search(low)
                or TITLE_BEFORE_NAME.search(text[max(0, m.start() - 8) : m.start()])
                or (m.group("verb") or "").strip().lower() in _NOT_PLACE_VERBS
            ):
                continue  # "in Lasix", "from Tillman": a word, a drug or a person
            out.append(Span(m.start("place"), m.end("place"), Category.LOCATION, 0.6, "place_cue/bare"))
        return out

    def _caseless(self, text: str) -> list[Span]:
        """Cued towns where capitals carry no evidence: the word itself must be no ordinary or clinical word."""
        case_says_nothing = CaseBlind(text).at  # reads the note's case only where a cue stands, not for every note
        out: list[Span] = []
        cued: set[int] = set()
        for m in _PLACE_AFTER_CUE_CASELESS.finditer(text):
            if not _PREPOSITION_END.search(text, m.start(), m.start("place")):
                if _LIVES_BARE.match(text, m.start()) and self._lives_bare(m) and case_says_nothing(m.group("place"), m.start("place")):
                    end = self._residence_end(m)
                    if end:
                        out.append(Span(m.start("place"), end, Category.LOCATION, 0.6, "place_cue/lives_bare"))
                        cued.add(m.start("place"))
                continue  # "TRIP HAZARD": without its preposition the cue word is a noun
            if _DWELLING.match(text, m.start()) and not self._listed_town(m.group("place").split()[0].lower()):
                continue  # "HOUSE IN DISARRAY": after a dwelling, only a listed town is where it stands
            if case_says_nothing(m.group("place"), m.start("place")):
                end = self._place_end(m, strong_only=False)
                if not end and _RESIDENCE_VERB.match(text, m.start()):
                    end = self._residence_end(m)
                homeward = _HOMEWARD.search(m.group(0))
                if not end and homeward and self._homeward_town(m.group("place").split()[0].lower(), homeward.group(1), text, m.start("place")):
                    end = m.start("place") + len(m.group("place").split()[0])
                if end and _CARRIED_FROM.match(text, m.start()) and _FACILITY_WORD_AFTER.match(text, end):
                    end = None  # "via helicopter from juniper springs critical access": the facility rules name it
                if end:
                    out.append(Span(m.start("place"), end, Category.LOCATION, 0.6, "place_cue/caseless"))
                    cued.add(m.start("place"))
        relative_from = self._after_relative(text, _FROM_PLACE, _RELATIVE_BEFORE_FROM, _RELATIVE_REACH)
        for m in itertools.chain(_RESIDENCE_WITH.finditer(text), _RESIDENCE_OUT.finditer(text), _AGE_SEX_FROM.finditer(text), relative_from):
            if m.start("place") in cued or _FACILITY_WORD_AFTER.match(text, m.end("place")) or _CARE_WORD_AFTER.match(text, m.end("place")):
                continue  # "son visiting from north platte" is found once; "MOM FROM HOLLIS CREEK REGIONAL" names a facility
            if m.re is _RESIDENCE_OUT and m.group("place").split()[0].lower() in _DIRECTIONS:
                continue  # "lives up north", "lives out back"
            if case_says_nothing(m.group("place"), m.start("place")):
                end = self._residence_end(m)
                if end:
                    rule = _RULE_OF.get(m.re, "relative_from")
                    out.append(Span(m.start("place"), end, Category.LOCATION, 0.6, f"place_cue/{rule}"))
                    cued.add(m.start("place"))
        for m in itertools.chain(_from_each_place(_PLACE_AFTER_BARE_CASELESS, text), self._after_relative(text, _IN_PLACE, _RELATIVE_BEFORE_IN, _RELATIVE_IN_REACH)):
            if _FACILITY_WORD_AFTER.match(text, m.end()):
                continue  # "FROM HOLLIS CREEK REGIONAL": the place names a facility
            if m.start("place") not in cued and case_says_nothing(m.group("place"), m.start("place")):
                outside = m.groupdict().get("outside")
                # "A TRAILER OUTSIDE OKEMAW": only a place lies outside a word that is no word ("gale outside rattling")
                if outside and self.resources.lexicon.is_common_word(m.group("place").split()[0]):
                    continue
                end = self._place_end(m, strong_only=not outside)
                if end and not _FACILITY_WORD_AFTER.match(text, end):  # "from big horn valley hospital" names a facility
                    out.append(Span(m.start("place"), end, Category.LOCATION, 0.6, "place_cue/caseless_bare"))
                    cued.add(m.start("place"))
        for m in _PLACE_AFTER_COMMON_PREPOSITION.finditer(text):
            # "walked to nurses' station": a possessive's apostrophe hides the ordinary word from the lists
            words = [re.sub(r"['’]", "", w.lower()) for w in m.group("place", "after") if w]
            if m.start("place") in cued or _FACILITY_WORD_AFTER.match(text, m.end("place")):
                continue
            if not case_says_nothing(m.group("place"), m.start("place")):
                continue
            if len(words) == 2 and words[1] in PLACE_TAILS and not words[1].endswith("ing") and self._town_word(words[0], rare=True) and self._rare(words[0]):
                # "WORKS 2 WKS ON/2 OFF AT PRUDHOE BAY": a word that is no word and a place's last word (not one that
                # reads as a verb: "on snowmachine crossing river")
                out.append(Span(m.start("place"), m.end("after"), Category.LOCATION, 0.6, "place_cue/rare_town"))
                cued.add(m.start("place"))
            elif len(words) == 2 and words[1] in PLACE_TAILS and self._listed_town(" ".join(words)) and self._town_word(words[0], listed_ok=True):
                # "at the rodeo in miles city": a listed town of two words whose last is a place's
                out.append(Span(m.start("place"), state_after(text, m.end("after")), Category.LOCATION, 0.6, "place_cue/listed_town"))
                cued.add(m.start("place"))
            elif self._town_word(words[0]) and self._rare_postal_town(words):
                out.append(Span(m.start("place"), m.end("place"), Category.LOCATION, 0.6, "place_cue/rare_town"))
                cued.add(m.start("place"))
        for m in _FACILITY_IN_TOWN.finditer(text):
            end = self._facility_town_end(m)
            if end and m.start("place") not in cued:
                out.append(Span(m.start("place"), end, Category.LOCATION, 0.6, "place_cue/facility_town"))
                cued.add(m.start("place"))
        for m in _TREATED_AT.finditer(text):
            two = m.group("after") and self._listed_town(f"{m.group('place')} {m.group('after')}".lower())
            end = m.end("after") if two else self._facility_town_end(m)
            if end and m.start("place") not in cued and not _FACILITY_WORD_AFTER.match(text, end):
                out.append(Span(m.start("place"), end, Category.HOSPITAL, 0.6, "place_cue/treated_at"))
                cued.add(m.start("place"))
        for m in _FAMILY_PROPERTY.finditer(text):
            if m.start("name") not in cued and self._family_name(m.group("name")) and case_says_nothing(m.group(0), m.start()):
                out.append(Span(m.start("name"), m.end(), Category.LOCATION, 0.6, "place_cue/family_property"))
        for m in _FEATURE_AFTER_PASTIME.finditer(text):
            words = m.group("name").lower().split()
            if m.start("name") in cued or any(self._describes_water(w) for w in words):
                continue
            out.append(Span(m.start("name"), m.end(), Category.LOCATION, 0.6, "place_cue/feature"))
            cued.add(m.start("name"))
        for m in _TWIN_PLACE.finditer(text):
            out.append(Span(m.start(), m.end(), Category.LOCATION, 0.6, "place_cue/twin"))
        for m in _PARTICLE_TOWN.finditer(text):
            words = m.group("place").lower().replace(".", "").split()
            if self._listed_town(" ".join(words)) and not any(self.resources.lexicon.is_clinical(w) for w in words):
                out.append(Span(m.start("place"), m.end("place"), Category.LOCATION, 0.6, "place_cue/particle_town"))
        for m in _LEAD_NAME.finditer(text):
            name = m.group("name").lower()
            if name.endswith(("ed", "ing")) or m.start() in cued:
                continue  # "PORT DEACCESSED", "port flushing": what was done to the port
            after = (word_after(text, m.end()) or "").lower()
            if after in RESIDENCE_TAILS:
                continue  # "from Bayou Teche Gardens NH": the name goes on as a residence's, for the facility rules
            if self._town_word(name, rare=True) and not self.resources.lexicon.is_common_word(name):
                out.append(Span(m.start(), m.end(), Category.LOCATION, 0.6, "place_cue/lead_name"))
        for m in _FEATURE_NAME.finditer(text):
            name = m.group("name") or m.group("lake")
            if m.start() in cued or name.lower() in _FEATURE_DESCRIPTIONS or not self._town_word(name.lower(), rare=True):
                continue  # "pulled from icy river"
            if name.lower().endswith("ed") and len(name) > 4:
                continue  # "aspirated bay water": a past participle describes the water
            if _DISEASE_AFTER.match(text, m.end()) or _FACILITY_WORD_AFTER.match(text, m.end()):
                continue  # "rocky mountain spotted fever"; "HOLLIS CREEK REGIONAL" names a facility
            if case_says_nothing(m.group(0), m.start()):
                out.append(Span(m.start(), m.end(), Category.LOCATION, 0.6, "place_cue/feature"))
        return out

    def _facility_town_end(self, m: re.Match[str]) -> int | None:
        """Where the town after a hospital's "in" ends: a listed town of two words, or of one that is no function, time,
        dwelling or ordinary word (an eponym may be a town: "glasgow"; "hospital in june", "clinic in town" are none)."""
        lex = self.resources.lexicon
        first, after = m.group("place").lower(), (m.group("after") or "").lower()
        if after and self._listed_town(f"{first} {after}") and (after in PLACE_TAILS or not lex.is_common_word(after)):
            return m.end("after")
        if first in FUNCTION_WORDS or first in _TIME_WORDS or first in _NOT_PLACE_WORDS:
            return None
        if lex.is_common_word(first, strict=True) and not self._famous_town(first):
            return None
        if lex.is_clinical(first) and not lex.is_eponym(first):
            return None
        return m.end("place") if self._listed_town(first) else None

    def _famous_town(self, word: str) -> bool:
        """A listed town that English writes more often than people bear its name only because the place is famous
        ("kidney center in paris", "HOSP IN VERSAILLES"), not because it is an everyday word ("clinic in general")."""
        lex = self.resources.lexicon
        if not self._listed_town(word) or lex.is_stop(word) or lex.is_clinical(word):
            return False
        return word in prominent_places() or (lex.is_name(word) and not lex.is_everyday(word))

    def _describes_water(self, word: str) -> bool:
        """A word that says what kind of water, whose or where, not which: "the frozen lake", "his own creek"."""
        lex = self.resources.lexicon
        clinical = lex.is_clinical(word) and not lex.is_eponym(word)  # "whipple dam" is named for a person, as procedures are
        return word in _FEATURE_DESCRIPTIONS or word in FUNCTION_WORDS or lex.is_stop(word) or clinical or word.endswith("ed")

    @staticmethod
    def _after_relative(text: str, place: re.Pattern[str], relative: re.Pattern[str], reach: int) -> Iterable[re.Match[str]]:
        """Each ``place`` match ("from ...", "in ...") with a relative standing within ``reach`` characters before it."""
        for m in place.finditer(text):
            if relative.search(text, max(0, m.start() - reach), m.start()):
                yield m

    def _place_end(self, m: re.Match[str], *, strong_only: bool) -> int | None:
        """Where the place after a caseless cue ends, or None when it is no place.

        ``strong_only`` (a bare preposition) keeps only what has a place's own shape."""
        place = m.group("place")
        words = place.lower().split()
        state = m.group("state")
        abbr = state.strip(", \t") if state else ""
        with_state = abbr.upper() in STATE_ABBRS and not transfer_not_state(m.string, abbr, m.end("state"))
        two = len(words) == 2
        joined = " ".join(words)
        if strong_only and two and words[0] == "the" and not with_state and self.resources.lexicon.is_common_word(words[1]):
            return None  # "family group from the colony": after a bare preposition, "the" and a word is a thing, listed or not
        if two and (joined in _STATE_NAMES or (self._listed_town(joined) and self._town_word(words[1], listed_ok=True))):
            end = m.end("place")  # "new hampshire", "new bedford"
        elif two and words[0] in _PLACE_LEADS and self._town_word(words[1]):
            end = m.end("place")  # "east harlan"
        elif two and words[0] in _FEATURE_DESCRIPTIONS and words[1] in _FEATURE_TAILS:
            return None  # "pulled from icy river"
        elif two and (words[1] in PLACE_TAILS or words[1] in countries()) and self._town_word(words[0], rare=True):
            end = m.end("place")  # "saltmarsh point", "cobb hollow", "goiania brazil"
        elif two and words[1] in _FEATURE_TAILS and self._town_word(words[0], listed_ok=True):
            end = m.end("place")  # "she is from bitter creek", "from sand lick": a natural feature may be named with a word
        elif two and state_after(m.string, m.start("place") + len(place.split()[0])) == m.end("place") and self._town_word(words[0], rare=True):
            end = m.end("place")  # "pt from woonsocket ri": a town and its state without the comma
        elif self._town_word(words[0]) and (not strong_only or (with_state and len(words) == 1) or self._postal_town_alone(words)):
            if not with_state and self.resources.lexicon.is_common_word(words[0]) and not self._listed_town(words[0]):
                return None  # "LIVES 18 MI FROM PAVEMENT", "DRIVING BACK FROM FLEA MARKET": an ordinary word that names no town is a thing
            end = m.start("place") + len(place.split()[0])
        else:
            return None
        if with_state and end == m.end("place"):
            end = m.end("state")  # "lewiston, me"
        elif two and end == m.end("place"):
            end = self._with_place_tail(m.string, end)  # "from cedar mesa village"
        return state_after(m.string, end)  # "they live in cranston ri"

    def _residence_end(self, m: re.Match[str]) -> int | None:
        """Where a place after a residence cue ends: its words may be ordinary or a name's ("twin buttes",
        "pine ridge"), never a dwelling, a function, time or clinical word (``lives in group home``, ``lives alone in apt``)."""
        lex, end = self.resources.lexicon, None
        words = list(re.finditer(r"\S+", m.group("place")))
        for i, w in enumerate(words):
            word = w.group(0).lower()
            named = word in _NOT_PLACE_WORDS and i + 1 < len(words) and words[i + 1].group(0).lower() in PLACE_TAILS  # "church point"
            if word in _NOT_PLACE_WORDS and not named and i and self._kind_named(words[:i]):
                return None  # "DRIVING BACK FROM FLEA MARKET": ordinary words before a kind of place say which kind
            if word in FUNCTION_WORDS or (word in _NOT_PLACE_WORDS and not named) or word in _TIME_WORDS or lex.is_clinical(word) or word.upper() in CLINICAL_ACRONYMS:
                break  # "on long drives from now on": a time is no place
            if past_tense(word):
                break  # "71 yo m from king brought by ems": a verb ends the place
            if i and self._ends_after_first(words[0].group(0).lower(), word):
                break  # "flew in from vermont tonight", "LIVES ALONE IN GARDNER SINCE ..."
            end = m.start("place") + w.end()
        if not end:
            return None
        # after where someone lives, a state's short form that is no function word needs no comma
        return state_after(m.string, self._with_place_tail(m.string, end), needs_comma=_STATE_WORDS)

    def _kind_named(self, words: list[re.Match[str]]) -> bool:
        """Ordinary words that name no town and end in no place's last word: before a kind of place they say which kind
        ("flea market"; not "twin buttes trailer park" or "oak grove shelter")."""
        lows = [w.group(0).lower() for w in words]
        if self._listed_town(" ".join(lows)) or any(w in PLACE_TAILS for w in lows):
            return False
        return all(self.resources.lexicon.is_common_word(w) for w in lows)

    @staticmethod
    def _with_place_tail(text: str, end: int) -> int:
        """A word after a place that ends a place's name joins it: "lives out on orca rock island", "from cedar mesa village"."""
        tail = word_after(text, end)
        if tail and tail.lower() in PLACE_TAILS:
            return text.index(tail, end) + len(tail)
        return end

    def _postal_town_alone(self, words: list[str]) -> bool:
        """A town with a post office whose name English seldom uses as a word, unless an ordinary word after it makes the
        two a thing ("FROM CAMP", "from canoe", "FELL FROM ORCHARD LADDER"; a verb may follow: "SON IN LINDSBORG CALLED",
        "near thedford swelling to mid forearm")."""
        lex = self.resources.lexicon
        town = words[0]
        if town not in us_postal_towns() or (town not in us_cities() and lex.frequency(town) >= RARE_TOWN_WORD_FREQ):
            return False
        after = words[1] if len(words) > 1 else ""
        if not after or after in FUNCTION_WORDS or after in _SHORT_PREPOSITIONS or after in _TIME_WORDS:
            return True
        return past_tense(after) or (after.endswith("ing") and len(after) > 5) or not lex.is_common_word(after)

    def _lives_bare(self, m: re.Match[str]) -> bool:
        """After "lives" with no preposition, a word English almost never writes is where ("PT LIVES MILILANI",
        "lives waianae w grandkids"); "lives alone", "lives independently", "lives nearby" are words."""
        first = m.group("place").split()[0].lower()
        return self._town_word(first, rare=True) and self._rare(first) and first not in _DIRECTIONS

    def _homeward_town(self, word: str, way: str, text: str, at: int) -> bool:
        """A post-office town that is no function, clinical or dwelling word: where someone drives back to ("back to
        price"; not "back to bed", "home to wife", "back to home"). After "home to" a word is often a verb ("went
        home to check on the horses"), so there the town must be one English never writes; a verb's object after the
        word makes it a verb either way."""
        lex = self.resources.lexicon
        if word in FUNCTION_WORDS or word in _NOT_PLACE_WORDS or word in PLACE_TAILS or word in _FEATURE_TAILS or lex.is_clinical(word):
            return False  # "back to the lake", "home to river"
        if _OBJECT_AFTER.match(text, at) or (way.lower() == "home" and not self._rare(word)):
            return False
        return word in us_postal_towns()

    def _family_name(self, word: str) -> bool:
        """A listed surname that no everyday or clinical word is ("the sorensen place"; not "the dairy farm", "the
        home place", "the mussel farm")."""
        lex, low = self.resources.lexicon, word.lower()
        if low in FUNCTION_WORDS or lex.is_stop(low) or lex.is_clinical(low) or lex.is_everyday(low) or low in _NOT_PLACE_WORDS:
            return False
        return lex.is_last(low)

    def _rare(self, word: str) -> bool:
        """A word English writes less than twice in a million words."""
        return self.resources.lexicon.frequency(word) < RARE_TOWN_WORD_FREQ

    def _rare_postal_town(self, words: list[str]) -> bool:
        """A post-office town, as :meth:`_postal_town_alone`, that English writes as a word less than twice in a
        million words even where it is also a city ("rumford", "peabody"; not "walker", "sunrise", "spring")."""
        return self._rare(words[0]) and self._postal_town_alone(words)

    @staticmethod
    def _listed_town(name: str) -> bool:
        """A listed city or post-office town, with a saint written short as the lists spell it ("sault ste marie" is
        listed "sault sainte marie", "st martinville" "saint martinville")."""
        spelled = " ".join(_SAINTS_SPELLED.get(w, w) for w in name.replace(".", "").split())
        return any(is_listed_town(n) for n in (name, spelled))

    def _ends_after_first(self, first: str, second: str) -> bool:
        """A place of ordinary words ends after its first: before a word of time or a past tense, or when the first is
        a listed place on its own and the two make none ("vermont stayed"; "north platte", "antelope flats" go on)."""
        if second in _TIME_WORDS or (second.endswith("ed") and len(second) > 4):
            return True
        known = first in us_cities() or first in _STATE_NAMES or first in countries()
        return known and second not in PLACE_TAILS and f"{first} {second}" not in us_cities() and self.resources.lexicon.is_common_word(second)

    def _town_word(self, word: str, *, listed_ok: bool = False, rare: bool = False) -> bool:
        """A word that may name a town: no function, clinical or ordinary word (``listed_ok``: the second word of a
        listed town of two, such as "bedford" in "new bedford", may be a surname; ``rare``: not even an uncommon
        word, as before a place word: "insertion point" is none)."""
        lex = self.resources.lexicon
        if word in FUNCTION_WORDS or lex.is_stop(word) or lex.is_clinical(word) or lex.is_eponym(word) or DRUG_SUFFIX.search(word):
            return False
        if word.upper() in CLINICAL_ACRONYMS or word in _NOT_PLACE_WORDS:
            return False
        return listed_ok or word in us_cities() or not lex.is_common_word(word, strict=not rare)
