"""Unit ``address``: street addresses, ``City, ST ZIP``, foreign postcodes, counties, roads, rooms and beds.

A whole street address is one span (``docs/annotation.md``).  A two-letter
state after ``Name,`` is often a credential (``Lopez, MD``) or a clinical
abbreviation; those need a ZIP, a known city or a place cue (``lives in``).
Lists: ``deid_core/data/rules/addresses/``.  Tests: ``tests/rules/test_address.py``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from deid_core.recognizers.base import NoteContext, RuleRecognizer
from deid_core.recognizers.lexicon import (
    AMBIGUOUS_REGIONS,
    AMBIGUOUS_STATE_ABBRS,
    NUMBERED_BEFORE_PLACE,
    REGIONS,
    STATE_ABBRS,
    STATES,
    Lexicon,
    alternation,
    countries,
    default_lexicon,
    rule_list,
    us_cities,
    us_counties,
)
from deid_core.recognizers.case import note_is_lower
from deid_core.recognizers.gazetteer import transfer_not_state
from deid_core.recognizers.rules.common_words import CLINICAL_ACRONYMS, FUNCTION_WORDS, PLACE_TAILS
from deid_core.recognizers.rules.tokens import caps_line_at
from deid_core.recognizers.rules.nearby import CLOCK_TIME
from deid_core.spans import Category, Span

_I = re.IGNORECASE


_STREET_SUFFIX = (
    r"(?:Street|St|Avenue|Ave|Av|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Circle|Cir|Way|Place|Pl|Terrace|Ter"
    r"|Parkway|Pkwy|Highway|Hwy|Route|Rte|Square|Sq|Trail|Trl|Plaza|Plz|Loop|Alley|Row|Crescent|Path|Pike|Turnpike"
    r"|Tpke|Run|Point|Ridge|Heights|Hts|Crossing|Grove|Pass|Walk|Commons|Landing|Bend|Cove|Glen|Hollow|Meadows?"
    r"|Mews|Expressway|Expy|Freeway|Fwy|Causeway|Wharf|Pier|Concourse|Close|Gardens|Parade|Esplanade|Promenade|Quay)"
)
_DIR = r"(?:N|S|E|W|NE|NW|SE|SW|N\.E\.|N\.W\.|S\.E\.|S\.W\.|North|South|East|West|Northeast|Northwest|Southeast|Southwest)\.?"
_WORD = r"(?:[^\W\d_][\w'’.-]*|\d{1,4}(?:st|nd|rd|th))"
_STATE_NAMES = alternation(STATES)
_STATE_ABBR = "|".join(sorted(STATE_ABBRS))
_ZIP = r"\d{5}(?:-\d{4})?(?!\d)"
_UPPER = "A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ"
_CITY_TOKEN = rf"[{_UPPER}][^\W\d_'’.-]*(?:['’.-][^\W\d_]+)*\.?"
_CITY = rf"(?:{_CITY_TOKEN}[ \t]+){{0,2}}{_CITY_TOKEN}"

_STREET = re.compile(
    rf"(?<![\w/.-])(?P<num>\d{{1,6}}(?:-\d{{1,4}})?[A-Za-z]?)[ \t]+(?:{_DIR}[ \t]+)?(?:{_WORD}[ \t]+){{1,4}}?"
    rf"(?i:{_STREET_SUFFIX})\.?(?![A-Za-z])(?:[ \t]+{_DIR}(?![A-Za-z]))?"
)
_RHYTHM_RUN_WORDS = frozenset({"beat", "beats", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes"})
#: words a street's own name may hold ("Avenue of the Pines", "Camino de la Vista")
_STREET_NAME_PARTICLES = frozenset({"of", "the", "de", "la", "del", "los", "las", "el", "and", "on"})
_SECOND_SUFFIX = re.compile(rf"[ \t]+(?i:{_STREET_SUFFIX})\.?(?![A-Za-z])")
#: a post-office box, or a rural route's box: "PO Box 12", "RT 2 BOX 114", "rr 1 box 22a", "HC 63 Box 10"
_PO_BOX = re.compile(
    r"\b(?:P\.?[ \t]?O\.?[ \t]*Box|Post[ \t]+Office[ \t]+Box"
    r"|(?:R\.?R\.?|Rte?\.?|Route|Rural[ \t]+Route|Star[ \t]+Route|HCR?)[ \t]*#?[ \t]*\d{1,3},?[ \t]+Box)[ \t]+\d{1,6}[A-Z]?\b",
    _I,
)
#: a street grid's address, as Utah and Idaho towns number them: "1187 W 400 S", "250 n 1300 e"
_GRID_STREET = re.compile(
    r"(?<![\w/.-])\d{2,5}[ \t]+(?:[NSEW]|North|South|East|West)\.?[ \t]+\d{0,3}[05]0[ \t]+(?:[NSEW]|North|South|East|West)\b\.?"
    # a lettered or numbered avenue, as plains towns lay theirs out: "home to 409 s ave b", "1204 AVENUE J"
    r"|(?<![\w/.-])\d{1,5}[ \t]+(?:[NSEW]\.?[ \t]+)?(?:ave|avenue)\.?[ \t]+(?:[A-Z]|\d{1,3})(?![\w'’/.-])",
    _I,
)
_UNIT = re.compile(
    r"[ \t]*,?[ \t]*(?:(?:Apt|Apartment|Unit|Suite|Ste|Fl|Floor|Rm|Room|Bldg|Building|Lot|Space)\b\.?|#)[ \t]*#?[ \t]*"
    r"(?=[A-Za-z]{0,2}\d|[A-Za-z]\b)[A-Za-z0-9-]{1,6}\b",
    _I,
)
_CITY_STATE_TAIL = re.compile(
    # a space or a comma between city and state: "ALONE" is no city "ALO" in Nebraska
    rf"[ \t]*,?[ \t]*\n?[ \t]*(?P<city>{_CITY})(?:[ \t]*,[ \t]*|[ \t]+)(?P<state>{_STATE_NAMES}|{_STATE_ABBR})\b(?:[ \t]*,?[ \t]*(?P<zip>{_ZIP}))?"
)
_CITY_ONLY_TAIL = re.compile(rf"[ \t]*,[ \t]*(?P<city>{_CITY})(?=[ \t]*(?:[.;,\n)]|$))")
_ZIP_TAIL = re.compile(rf"[ \t]*,?[ \t]*(?P<zip>{_ZIP})")

_CITY_STATE = re.compile(
    rf"(?<![\w'’-])(?P<city>{_CITY}),[ \t]*(?P<state>{_STATE_NAMES}|{_STATE_ABBR})\b(?:[ \t]*,?[ \t]+(?P<zip>{_ZIP}))?"
)
_ANY_CASE_ADDRESS = re.compile(
    rf"(?<![\w/.-])\d{{1,6}}[A-Za-z]?[ \t]+(?:[^\W\d_][\w'’.-]*[ \t]+){{1,4}}?(?i:{_STREET_SUFFIX})\.?(?![A-Za-z])"
    rf"(?:[ \t]*,?[ \t]*(?i:apt|unit|suite|ste|#)\.?[ \t]*#?[ \t]*[A-Za-z0-9-]{{1,6}})?"
    rf"[ \t]*,?[ \t]+(?:[^\W\d_][\w'’.-]*[ \t]+){{0,2}}[^\W\d_][\w'’.-]*[ \t]*,?[ \t]+(?P<state>[A-Za-z]{{2}}|(?i:{_STATE_NAMES}))[ \t]+{_ZIP}"
)
_COUNTY = re.compile(r"(?<![\w'’-])(?:(?:St\.|[A-Z][a-z'’]+)[ \t]+){1,2}(?:County|Parish|Borough)\b(?![ \t]+(?:of\b|[A-Z]))")
#: the same where case says nothing: "admitted from wrmc in ravenna county", "DUNHAM COUNTY DEPUTY HERE"
_CASELESS_COUNTY = re.compile(
    r"(?<![\w'’-])(?P<name>[a-z][a-z'’]{2,})[ \t]+(?:county|parish|borough|township|twp)\b(?![ \t]+(?:of\b|hosp|hospital|medical|general|memorial|health|jail))",
    _I,
)
#: a county written short, its name one or two words: "TRAINER IN WOODFORD CO", "from san juan co." (only a listed
#: county's name: "CO 4.5" is cardiac output; "co rd" is a road, "co-pay" no county)
_COUNTY_SHORT = re.compile(
    r"(?<![\w'’.-])(?:(?P<lead>[A-Za-z][A-Za-z'’.]*)[ \t]+)?(?P<name>[A-Za-z][A-Za-z'’]{2,})[ \t]+co\b\.?"
    r"(?![-/\w]|[ \t]*\.?[ \t]*(?:rd|road|hwy|highway)\b)",
    _I,
)
#: the word right before a position, on the same line
_WORD_BEFORE = re.compile(r"(?<![\w'’-])([A-Za-z][A-Za-z'’]{2,})[ \t]+$")
#: a ward written as a floor and a wing: "Unit 5 East", "Ward 4 North"
_WARD = re.compile(r"\b(?:Unit|Ward|Floor|Wing)[ \t]+\d{1,2}[ \t]?(?:East|West|North|South|NE|NW|SE|SW|E|W|N|S)\b")
#: numbered roads: "Interstate 80", "I-95", "Highway 287", "County Road 40", "Route 9"
_ROAD = re.compile(
    r"(?<![\w-])(?:(?:Interstate|Highway|Hwy\.?|Expressway|Freeway|Route|Rte\.?|State[ \t]+(?:Route|Road|Highway)|County[ \t]+(?:Road|Rd\.?|Route)"
    r"|U\.?S\.?[ \t]+(?:Route|Highway|Hwy\.?)|Farm[ \t]+to[ \t]+Market|FM)[ \t]*-?[ \t]*\d{1,4}[A-Z]?"
    r"|(?:I|US)-(?!12[35]\b|131\b)\d{1,3})(?![\w/-]|\.\d)(?:[ \t]+Box[ \t]+\d{1,5}\b)?"
)
#: the same typed in one case, with the short forms nurses use: "MVC ON HWY 112", "SNOWMOBILE VS FENCE ON CO RD 12",
#: "rollover on hwy 61", "DRIVING ON EXPRESSWAY 83"; "SR", "CR" and "US" alone are left out (sinus rhythm, creatinine,
#: ultrasound), and so is a bare "route" ("iv route 2 sites")
_CASELESS_ROAD = re.compile(
    r"(?<![\w-])(?:hwy|highway|rte|co\.?[ \t]*rd\.?|county[ \t]+(?:road|rd\.?|hwy|highway)|state[ \t]+(?:route|road|hwy|highway)|interstate"
    r"|expressway|expwy|expy|freeway|fwy)[ \t]*#?[ \t]*-?[ \t]*\d{1,4}[a-z]?(?![\w/-]|\.\d)",
    _I,
)
#: a road known by its number after a preposition of place, and the cross road of an intersection: "ranch off rd 28",
#: "CAR VS DEER ON M-28",
#: "LIVES ALONE OUT ON CR 23", "AT RD 12 AND P.", "OFF AVE 416 AND RD 80" (grid roads of farm counties), "deer on us 80",
#: "off fm 1431", "off rt 17c";
#: "RT" is a route only with a number that no unit follows ("MVC ON RT 13", not "on rt 2 l nc", "on rt 40%")
_NUMBERED_ROAD = re.compile(
    r"(?<![\w-])(?:on|off|at|near|along|past)[ \t]+(?P<road>(?:(?:rd|road|cr|ave|avenue|us|route|rte)[ \t]*#?[ \t]*\d{1,4}(?:(?!x\b)[a-z])?"
    # Texas writes its farm- and ranch-to-market roads, state highways and interstates short: "off fm 1431", "ON RM 337",
    # "mvc on i-10", "ON IH 35"
    r"|(?:fm|rm|sh|ranch[ \t]+(?:road|rd)|(?:farm|ranch)[ \t]+to[ \t]+market(?:[ \t]+(?:road|rd))?)[ \t]*-?[ \t]*\d{2,4}"
    r"|(?:i[ \t]*-|ih[ \t]*-?)[ \t]*\d{1,3}"
    # Michigan's and Kansas's state trunklines: "CAR VS DEER ON M-28", "off k-10"
    r"|[mk]-\d{1,3}"
    # public hunting land is numbered as roads are: "ON STATE GAME LANDS 176", "on sgl 84"
    r"|(?:(?:state[ \t]+)?game[ \t]+lands?|sgl)[ \t]*#?[ \t]*\d{1,4}"
    r"|rt\.?[ \t]*\d{1,3}(?![ \t]*(?:[%\d]|(?:l|lpm|mg|mcg|ml|cc|kg|g|x|units?|breaths?|bpm|min|mins|hrs?|h|lit(?:er|re)s?)\b))(?:[a-f](?!\w))?)(?![\w/-]|\.\d)"
    r"(?:[ \t]+(?:and|&)[ \t]+(?:(?:rd|road|cr|ave|avenue)[ \t]*\d{1,4}(?![\w/-]|\.\d)|[a-z](?=[ \t]*[.,;])))?)",
    _I,
)
#: a highway known by letters, as Missouri and Wisconsin letter their county roads: "LIVES OFF HWY KK", "mvc on route d"
_LETTERED_ROAD = re.compile(
    r"(?<![\w-])(?:on|off|at|near|along|past|up|down)[ \t]+(?P<road>(?:hwy|highway|route|rte|county[ \t]+(?:road|rd|hwy|highway))"
    r"[ \t]+(?P<letters>[a-z]{1,2}))(?![\w'’/-])",
    _I,
)
#: letters after a highway that are no name of it: a direction, a function word, "ok"
_NOT_ROAD_LETTERS = frozenset({"n", "s", "e", "w", "ne", "nw", "se", "sw", "ok", "x"})
#: an unnumbered street after "on", "off", "near": "pick up at Walgreens on Fremont Ave"
_NAMED_STREET = re.compile(
    r"\b(?:on|off|near|along|at|of)[ \t]+(?P<street>(?:[A-Z][a-z'’]+[ \t]+){1,2}"
    r"(?:Ave|Avenue|St|Street|Rd|Road|Blvd|Boulevard|Ln|Lane|Pkwy|Parkway|Dr|Drive|Pike|Terrace|Ct|Court|Pl|Place|Way"
    r"|Hwy|Highway|Turnpike|Tpke|Expressway|Expy|Freeway|Fwy|Causeway)\b\.?)"
    r"(?![ \t]+[A-Z])"
)
#: the same where case says nothing: "shot outside his cousins house on maple st", "LIVES OFF ELM STREET", "fall off
#: coastal hwy" (a bypass is left out: "on cardiopulmonary bypass")
_CASELESS_NAMED_STREET = re.compile(
    r"\b(?P<prep>on|off|along|at)[ \t]+(?P<street>[a-z][a-z'’]+[ \t]+(?:[a-z][a-z'’]+[ \t]+)?"
    r"(?:ave|avenue|st|street|rd|road|blvd|boulevard|ln|lane|pkwy|parkway|pike|terrace|hwy|highway|turnpike|tpke"
    r"|expressway|expy|freeway|fwy|causeway"
    # "lives on ed carey dr in harlingen": a drive ends the street only where no name follows it, as one follows a title
    r"|(?P<drive>dr|drive)(?=[ \t]*(?:[,.;\n]|$|[ \t]+(?:in|and|with|w|near|alone|by|off|outside|since|until)\b)))\b\.?)(?![ \t]*\d)",
    _I,
)
#: what kind of road it is, not its name: "on gravel rd", "ON A DIRT ROAD"
_ROAD_KINDS = frozenset(
    {"gravel", "dirt", "paved", "unpaved", "icy", "wet", "muddy", "rural", "back", "private", "side", "county", "farm", "ranch", "logging"}
    # what a road serves: "FOUND CONFUSED ON LEASE ROAD", "on the caliche road to the tank battery"
    | {"lease", "caliche", "access", "service", "frontage", "haul", "oilfield", "pasture", "fire", "forest", "levee", "section"}
    # when it is open: "lives on seasonal road off rt 17c"
    | {"seasonal", "unmaintained", "summer", "winter"}
)
#: words that lead a street's name though English uses them ("old mill rd", "NEW HOPE RD")
_STREET_LEADS = frozenset({"old", "new", "upper", "lower", "north", "south", "east", "west"})
#: a numbered street, in any case, after "on", "off", "near": "found down on w 63rd st", "LIVES OFF E 14TH STREET"
_ORDINAL_STREET = re.compile(
    r"\b(?:on|off|near|along|at|of)[ \t]+(?P<street>(?:(?:[nsew]|north|south|east|west)\.?[ \t]+)?\d{1,3}(?:st|nd|rd|th)[ \t]+"
    r"(?:ave|avenue|st|street|rd|road|blvd|boulevard|ln|lane|pkwy|parkway|terrace)\b\.?)(?![ \t]+of\b)",
    _I,
)
#: short forms written with a full stop inside a street's name ("Mt. Vernon Rd", "Ft. Hood Blvd")
_STREET_ABBREVIATIONS = frozenset({"MT", "FT", "ST", "STE", "PT", "N", "S", "E", "W", "NE", "NW", "SE", "SW", "DR", "JR", "MLK"})
#: where a home's street follows: "lives at", "home on", "address:"
_HOME_AT_BEFORE = re.compile(
    r"\b(?:(?:lives|living|live|resides|residing|home|address|moved|staying)\b[^\n.;]{0,16}?(?:\bat|\bon|:|\()"
    r"|address(?:[ \t]+(?:on[ \t]+file|of[ \t]+record|is))?)[ \t]*$",  # "home address on file 94-1120 lumiauau st"
    _I,
)
#: "HEAD OF BED 30": what makes a bed's number its angle
_HEAD_OF_BED_BEFORE = re.compile(r"head[ \t]+of[ \t]+$", _I)
#: a town typed in lower or upper case after a street, up to where the clause ends
_CASELESS_TOWN_TAIL = re.compile(
    r"[ \t]*,[ \t]*(?P<city>[A-Za-z][a-z'’-]+|[A-Z][A-Z'’-]+)(?:[ \t]+(?P<tail>[a-z'’-]+|[A-Z'’-]+))?"
    r"(?=[ \t]*(?:[,.;\n]|$|[ \t]+(?i:alone|with|w|per|by|when|until|after|and)\b))"
)
#: "1187 County Road 40": the number after a road word belongs to the street
_ROAD_NUMBER = re.compile(r"(?:(?<=Road)|(?<=Route)|(?<=Highway))[ \t]+\d{1,4}[A-Z]?(?=[ \t]*(?:,|\n|$))")
_ZIP_LABELLED = re.compile(rf"\b(?:zip|zip[ \t]*code|postal[ \t]*code|zipcode)\b[ \t]*[:#]?[ \t]*(?P<zip>{_ZIP})", _I)
#: the ward or block written before a room: "5 North, Rm 5112", "Neuro ICU Bed 14", "C-Block, Cell 214", "6 East Tele, Rm 614-B"
_ROOM_WARD = (
    r"(?-i:(?:\d{1,2}[ \t]?(?:North|South|East|West|N|S|E|W)(?:[ \t]+[A-Z][a-z]+)?|[A-Z]-(?:Unit|Block|Pod|Wing)"
    r"|(?:(?:Neuro|Cardiac|Surgical|Medical|Pediatric|Paediatric|Burn|Trauma|Cardiothoracic)[ \t]+)?(?:ICU|CCU|PACU|NICU|PICU|MICU|SICU|CVICU|HDU)"
    r"|[A-Z][a-z]+[ \t]+Hall)[ \t]*,?[ \t]*)?"
)
_ROOM = re.compile(
    r"(?<![\w-])" + _ROOM_WARD + r"\b(?:room|rm|bed|bay|ward|cubicle|suite|pod|cabin|zimmer|stretcher|isolette|berth|(?-i:Cell|CELL|Chair|CHAIR|Crib))\.?[ \t]*#?[ \t]*"
    # "bed 4 west 12": a floor, its wing and the bed, as a bed board writes a bed
    r"(?:\d{1,2}[ \t]?(?:north|south|east|west)[ \t]+\d{1,3}[A-Za-z]?|\d{1,5}[A-Za-z]?(?:-(?:\d{1,4}[A-Za-z]?|[A-Za-z]))?|(?![xX]\d)[A-Za-z]\d{1,4}[A-Za-z]?)\b"
    # "RM 512 BED B": the bed in the room, by number or by letter
    r"(?:[ \t]*[-/,]?[ \t]*(?:bed[ \t]*#?[ \t]*(?:\d{1,3}[A-Za-z]?|[A-Da-d](?![\w'’]))|b[ \t]*#?[ \t]*\d{1,3}[A-Za-z]?)\b)?",
    _I,
)
#: a post-operative day, with or without the unit before it ("AMBULATE POD 1", "SICU POD 1 Whipple")
_POST_OP_DAY = re.compile(r"(?:.*[ \t])?pod\.?[ \t]*#?[ \t]*\d{1,2}", _I)
_MEASURE_AFTER = re.compile(r"[ \t]*(?:%|(?:hrs?|hours?|h|min|mins|minutes|x)\b)", _I)
_CHAIR_AT = re.compile(r"chair[ \t]*" + CLOCK_TIME, _I)
_BED_AT = re.compile(r"bed[ \t]*" + CLOCK_TIME, _I)
#: "BACK TO BED 1500", "in bed 2200", "SITTING ON EDGE OF BED 0315", "out of bed 1400": where the patient was at that
#: hour, not a bed's number
_TO_BED_BEFORE = re.compile(r"\b(?:to|in|into|of|on|off|from)[ \t]+$", _I)
#: a bed on a bed board: floor and wing then the room, "4W-406", "5N-512", "8S-822", "4W-401A", "5E-522 bed 2"
_BED_CODE = re.compile(
    r"(?<![\w/.-])(?:\d{1,2}[NSEW]-\d{3}[A-Z]?|(?:ED|MICU|SICU|CCU|ICU|PICU|NICU|PACU|CVICU|TCU|OBS)-[A-Z]?\d{1,3}[A-Z]?)"
    r"(?:[ \t]+bed[ \t]+\d{1,2})?(?![\w/-])"
)
_DOSE_WORD = re.compile(
    r"(?:mg|mcg|ug|g|gm|kg|u|lbs?|oz|ft|cm|mm|ml|mL|L|units?|iu|IU|mEq|mmol|tabs?|caps?|puffs?|drops?|bid|tid|qid|qd|qhs|qam|qpm|prn|daily|po|iv|im|sc|sq|x"
    r"|level|times|days?|weeks?|hours?|hrs?|mins?|minutes|fr|french)",
    _I,
)
_CREDENTIAL_LIKE = rule_list("addresses", "credential_like_states")
#: states' short forms that nurses write for something else: "TX TO FLOOR" (transfer), "NH RESIDENT" (nursing home)
_NURSING_STATES = frozenset({"TX", "NH"})
_NUMBERED_BEFORE = re.compile(rf"(?:{NUMBERED_BEFORE_PLACE})[ \t]*,[ \t]*$", _I)
_PLACE_CUE = re.compile(
    r"\b(?:in|from|to|near|of|at|lives|living|live|resides|residing|moved|born|visiting|relocated|transferred)[ \t]*$", _I
)
#: a city and its country or province: "Chennai, India", "Montréal (Québec)", "Townsville, QLD"
_CITY_REGION = re.compile(
    rf"(?<![\w'’-])(?P<city>{_CITY})(?:[ \t]*,[ \t]*|[ \t]+\()(?P<region>[{_UPPER}][^\W\d_]*(?:[ \t]+(?:and[ \t]+)?[{_UPPER}][^\W\d_]*){{0,3}})"
)
# Postcodes of the UK, Canada, Ireland (Eircode) and Australia (state + 4 digits)
_FOREIGN_POSTAL = re.compile(
    r"(?<![\w-])(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?[ \t]?\d[ABD-HJLNP-UW-Z]{2}"
    r"|[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ \t-]?\d[ABCEGHJ-NPRSTV-Z]\d"
    r"|(?:[AC-FHKNPRTV-Y]\d{2}|D6W)[ \t]?(?=[0-9AC-FHKNPRTV-Y]{0,3}[A-Z])[0-9AC-FHKNPRTV-Y]{4}"
    r"|(?:NSW|VIC|QLD|SA|WA|TAS|NT|ACT|Vic|Qld|Tas)[ \t]+\d{4})(?![\w-])"
)
_GCS_PARTS = re.compile(r"E[1-4][ \t-]?V[1-5T][ \t-]?M[1-6]", re.I)
_ADDRESS_WORD = re.compile(
    rf"(?:\d[\w/-]*|[{_UPPER}][\w'’.-]*|\((?:[{_UPPER}][\w'’.-]*[ \t]?){{1,3}}\)|upon|on|de|la|du|des|le|sur|the|of|and|&"
    r"|rue|boul\.?|boulevard|bd\.?|av\.?|avenue|ch\.?|chemin|route|rang|c/o)"
)
_NOT_ADDRESS_HEAD = rule_list("addresses", "not_address_heads")
_TITLE_WORDS = frozenset("dr mr mrs ms miss mx prof doctor".split())
#: first words that cannot begin a county\'s name ("the County", "each County")
_NOT_COUNTY_HEAD = rule_list("addresses", "not_county_heads")
#: words that make "number ... street word" prose: "level 3 and respite at Mercy Place"
_PROSE_WORDS = rule_list("addresses", "prose_words")


def _after_home_cue(text: str, pos: int) -> bool:
    """Does a home cue ("lives at", "home on", "address:") end at ``pos``?"""
    return bool(_HOME_AT_BEFORE.search(text[max(0, pos - 30) : pos]))


class LocationPatternRecognizer(RuleRecognizer):
    """Street addresses (with unit, city, state, ZIP), ``City, ST ZIP``, ZIP codes, rooms and beds.

    A two-letter state after ``Name,`` is often a credential (``Lopez, MD``,
    ``Jones, PA``) or a clinical abbreviation; those need a ZIP, a known
    city or a place cue (``lives in``) before they count as a place.
    """

    name = "address"
    version = "1"
    categories = frozenset({Category.LOCATION})

    def __init__(self, lexicon: "Lexicon | None" = None) -> None:
        self._lexicon = lexicon

    @property
    def lexicon(self) -> "Lexicon":
        if self._lexicon is None:
            self._lexicon = default_lexicon()
        return self._lexicon

    def _home_street_caseless(self, text: str, m: re.Match[str]) -> bool:
        """``lives at 18 pleasant st apt 2``: typed where case says nothing, a numbered street after a home cue,
        its name words no stop, function or clinical words."""
        if not _after_home_cue(text, m.start()):
            return False
        name_words = [w.rstrip(".,") for w in m.group(0).split()[1:-1]]
        if not name_words or not all(w.islower() or w.isupper() for w in name_words):
            return False
        return not any(self._not_street_word(w) or _DOSE_WORD.fullmatch(w) for w in name_words)

    def _town_end(self, town: re.Match[str]) -> int:
        """Where a town after a street ends: a second word joins it when it ends a place's name or is no word itself
        ("22 TANNERY LN, MILLBURY FALLS"); otherwise the town is its first word."""
        tail = town.groupdict().get("tail")  # the cased tail reads one word only
        if tail and (tail.lower() in PLACE_TAILS or self._caseless_town(tail)) and not self._not_street_word(tail):
            return town.end()
        return town.end("city")

    def _caseless_town(self, word: str) -> bool:
        """A town typed after a street where case says nothing: a listed city, or no stop, clinical or ordinary word."""
        return not self._not_street_word(word) and (self._city_known(word) or not self.lexicon.is_common_word(word))

    def _caseless_county(self, text: str, name: str, at: int) -> bool:
        """A county typed where case says nothing, named by a word that is a town, a name or no word ("same county",
        "home county", "this parish" and "PT'S PARISH" are none)."""
        low = re.sub(r"['’]s$", "", name.lower())
        if not (name.islower() or name.isupper()) or not (note_is_lower(text) or caps_line_at(text, at)):
            return False
        lex = self.lexicon
        if low in _NOT_COUNTY_HEAD or low in FUNCTION_WORDS or lex.is_stop(low) or lex.is_clinical(low) or name.upper() in CLINICAL_ACRONYMS:
            return False
        return low in us_cities() or lex.is_name(low) or not lex.is_common_word(low)

    def _not_street_word(self, word: str) -> bool:
        """A stop, function or clinical word is no part of a street's name ("on levo st 110s", "on his way"), nor is
        what a road is made of or where it runs ("on gravel rd", "on a back road")."""
        low = word.lower()
        return (
            self.lexicon.is_stop(low)
            or self.lexicon.is_clinical(low)
            or low in FUNCTION_WORDS
            or low in _ROAD_KINDS
            or word.upper() in CLINICAL_ACRONYMS
        )

    @staticmethod
    def _city_known(city: str) -> bool:
        return city.lower() in us_cities()

    def _trim_city(self, text: str, start: int, end: int) -> int:
        """Drop leading words of a city match that are not part of it (``LIVES IN PORTLAND``)."""
        words = list(re.finditer(r"\S+", text[start:end]))
        for w in words:
            if self._city_known(text[start + w.start() : end]):
                return start + w.start()
        for i, w in enumerate(words[:-1]):
            token = w.group(0).strip(".,")
            if not (self.lexicon.is_stop(token) or self.lexicon.is_common_word(token)):
                return start + w.start()
        return start + words[-1].start() if words else start

    def _state_ok(self, text: str, city_start: int, city: str, state: str, zip_code: str | None, after_street: bool) -> bool:
        if zip_code or after_street:
            return True
        if len(state) > 2:
            return True
        if len(city.strip(" .")) < 2:
            return False  # "58 YO M, VT STORM": a sex, not a town
        ambiguous = state in AMBIGUOUS_STATE_ABBRS or state.upper() in _NURSING_STATES
        if (
            (city.isupper() or city.islower())
            and len(city.split()) == 1
            and self.lexicon.is_common_word(city, strict=not ambiguous)
            and not self._city_known(city)
        ):
            # "GOOD FLOW, RI 0.68": in capitals, an ordinary word that is no listed town, before a short form; before
            # one that is also a word, even a less common word ("R FEMUR IN TRACTION, OR IN AM")
            return False
        if (city.isupper() or city.islower()) and not self._city_known(city) and any(
            self.lexicon.is_clinical(w.lower()) or w.upper() in CLINICAL_ACRONYMS for w in city.split()
        ):
            return False  # "ASP PNA, NH RESIDENT", "K REPLETION, TX TO FLOOR": a clinical word before nursing home, transfer
        if state in _CREDENTIAL_LIKE:
            if _NUMBERED_BEFORE.search(text[max(0, city_start - 12) : city_start]):
                return True
            known = self._city_known(city)
            cue = bool(_PLACE_CUE.search(text[max(0, city_start - 16) : city_start]))
            head = city.split()[0]
            if cue and not self.lexicon.is_first(head) and self.lexicon.census_share(head) < 1e-5 and not self.lexicon.is_clinical(head.lower()):
                return True  # "FROM DUNMORE, PA": a town too small for the lists, after a place cue
            return known and (not self.lexicon.is_name(city) or cue)
        if ambiguous:
            return self._city_known(city) or bool(_PLACE_CUE.search(text[max(0, city_start - 16) : city_start]))
        return True

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        out: list[Span] = []
        for m in itertools.chain(_STREET.finditer(text), _PO_BOX.finditer(text), _GRID_STREET.finditer(text)):
            start, end = m.start(), m.end()
            if m.re is _STREET and m.group("num")[-1:] in "hH":
                continue  # "24H POST TNK CT: NO BLEED": hours after a treatment and a scan, no house number
            home_typed = m.re is _STREET and self._home_street_caseless(text, m)
            if m.re is _STREET and not (home_typed or self._street_ok(m)):
                continue
            second = _SECOND_SUFFIX.match(text, end)
            if second:
                end = second.end()  # "77 Juniper Hollow Rd": the first street word was part of the name
            road_number = _ROAD_NUMBER.match(text, end)
            if road_number:
                end = road_number.end()
            unit = _UNIT.match(text, end)
            if unit:
                end = unit.end()
            tail = _CITY_STATE_TAIL.match(text, end)
            if tail:
                end = tail.end()
            else:
                # where case says nothing ("27 TANNERY LN, MILLBURY."), a town after the street is typed like any word
                caseless = home_typed or caps_line_at(text, m.start()) or note_is_lower(text)
                city = (_CASELESS_TOWN_TAIL if caseless else _CITY_ONLY_TAIL).match(text, end)
                if city and (self._city_known(city.group("city")) or (caseless and self._caseless_town(city.group("city")))):
                    end = self._town_end(city)
                z = _ZIP_TAIL.match(text, end)
                if z:
                    end = z.end()
            out.append(Span(start, end, Category.LOCATION, score=0.9, source="address/street"))
        for m in _CITY_STATE.finditer(text):
            city_start = self._trim_city(text, m.start("city"), m.end("city"))
            city = text[city_start : m.end("city")]
            if not self._state_ok(text, city_start, city, m.group("state"), m.group("zip"), after_street=False):
                continue
            if not m.group("zip") and transfer_not_state(text, m.group("state"), m.end()):
                continue  # "LIVES IN EUNICE, TX FROM SAVOY MEDICAL": a transfer
            if (
                not m.group("zip")
                and (city.isupper() or city.islower())
                and self.lexicon.is_common_word(city, strict=True)
                and re.match(r"[ \t]+[A-Za-z]", text[m.end() : m.end() + 3])
                and not _PLACE_CUE.search(text[max(0, city_start - 16) : city_start])
            ):
                continue  # "TEG: R NORMAL, MA LOW": an ordinary word, a short form, and the sentence goes on
            # "lives in Salem, Oregon": city and state are one place, as an address is (docs/annotation.md)
            out.append(Span(city_start, m.end(), Category.LOCATION, score=0.85, source="address/city_state"))
        out.extend(self._city_regions(text))
        out.extend(self._foreign_addresses(text))
        for m in _ANY_CASE_ADDRESS.finditer(text):
            # a lowercase address ("576 nw washington ln, fairfield, wi 56812") needs its state and ZIP
            if m.group("state").upper() in STATE_ABBRS or len(m.group("state")) > 2:
                out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.85, source="address/any_case"))
        for m in _COUNTY.finditer(text):
            first = m.group(0).split()[0]
            if first.lower() in _NOT_COUNTY_HEAD or self.lexicon.is_stop(first):
                continue
            out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.75, source="address/county"))
        for m in _CASELESS_COUNTY.finditer(text):
            if self._caseless_county(text, m.group("name"), m.start()):
                start = m.start()
                before = _WORD_BEFORE.search(text, max(0, start - 30), start)
                if before and self._caseless_county(text, before.group(1), before.start(1)):
                    start = before.start(1)  # "CHICKASAW BLUFF COUNTY": a name of two words
                out.append(Span(start, m.end(), Category.LOCATION, score=0.7, source="address/county"))
        for m in _COUNTY_SHORT.finditer(text):
            two = f"{m.group('lead')} {m.group('name')}".lower() if m.group("lead") else ""
            if two and f"{two} county" in us_counties():
                out.append(Span(m.start("lead"), m.end(), Category.LOCATION, score=0.7, source="address/county_short"))
            elif f"{m.group('name').lower()} county" in us_counties():
                out.append(Span(m.start("name"), m.end(), Category.LOCATION, score=0.7, source="address/county_short"))
        for m in _ZIP_LABELLED.finditer(text):
            out.append(Span(m.start("zip"), m.end("zip"), Category.LOCATION, score=0.85, source="address/zip"))
        for m in _WARD.finditer(text):
            out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.75, source="address/ward"))
        for m in _ROAD.finditer(text):
            out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.75, source="address/road"))
        for m in _CASELESS_ROAD.finditer(text):
            if m.group(0).islower() or m.group(0).isupper():
                out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.75, source="address/road"))
        for m in _LETTERED_ROAD.finditer(text):
            letters = m.group("letters")
            road = m.group("road")
            low = letters.lower()
            if low in _NOT_ROAD_LETTERS or low in FUNCTION_WORDS or self.lexicon.is_clinical(low) or letters.upper() in CLINICAL_ACRONYMS:
                continue  # "on hwy n of town", "on hwy to ed", "on route po"
            if road.isupper() or road.islower():
                out.append(Span(m.start("road"), m.end("road"), Category.LOCATION, score=0.7, source="address/lettered_road"))
        for m in _NUMBERED_ROAD.finditer(text):
            out.append(Span(m.start("road"), m.end("road"), Category.LOCATION, score=0.75, source="address/numbered_road"))
        for m in _NAMED_STREET.finditer(text):
            first = m.group("street").split()[0]
            if self.lexicon.is_stop(first) or first.lower() in ("the", "this", "that"):
                continue
            out.append(Span(m.start("street"), m.end("street"), Category.LOCATION, score=0.7, source="address/named_street"))
        for m in _ORDINAL_STREET.finditer(text):
            out.append(Span(m.start("street"), m.end("street"), Category.LOCATION, score=0.7, source="address/numbered_street"))
        for m in _CASELESS_NAMED_STREET.finditer(text):
            street = m.group("street")
            if not (street.islower() or street.isupper()) or not (note_is_lower(text) or caps_line_at(text, m.start())):
                continue
            name = street.split()[:-1]
            if len(name) == 2 and name[0].lower() in _STREET_LEADS:
                name = name[1:]  # "OFF OLD MILL RD", "on new county rd": a lead that is a word before the street's own name
            if any(self._not_street_word(w) for w in name):
                continue
            if m.group("drive") and not all(self.lexicon.is_name(w) and not self.lexicon.is_common_word(w) for w in name):
                continue  # "on call dr", "on a long drive": a drive is named by names that are no ordinary words
            if m.group("prep").lower() == "at" and not _after_home_cue(text, m.end("prep")):
                continue  # "THEY LIVE AT WARREN AVE": after "at", only where someone lives
            end = m.end("street")
            town = _CASELESS_TOWN_TAIL.match(text, end)
            if town and self._caseless_town(town.group("city")):
                end = self._town_end(town)  # "struck on main st, wareham"
            out.append(Span(m.start("street"), end, Category.LOCATION, score=0.7, source="address/named_street"))
        for m in _ROOM.finditer(text):
            if re.match(r"[-.][ \t]?\d|[ \t]+\d{3}[-. ]\d{4}(?!\d)", text[m.end() : m.end() + 12]) or re.search(r"\d{3}-\d{4}$", m.group(0)):
                continue  # "cell 503-555-0148", "CELL 410 202-6694", "CELL 555-0187" are telephones
            if _POST_OP_DAY.fullmatch(m.group(0)):
                continue  # "s/p cabg, pod #2", "AMBULATE POD 1": a post-operative day, not a bed pod
            if _HEAD_OF_BED_BEFORE.search(text, max(0, m.start() - 12), m.start()):
                continue  # "HEAD OF BED 30": the bed's angle in degrees
            if _CHAIR_AT.fullmatch(m.group(0)) or re.search(r"chair[ \t]*\d{1,2}[xXhH]$", m.group(0), _I):
                # "OOB TO CHAIR 1500", "chair 1400-1600", "CHAIR 3X", "UP TO CHAIR 2H": the hour, the times or how long
                # the patient sat up
                continue
            if _BED_AT.fullmatch(m.group(0)) and _TO_BED_BEFORE.search(text, max(0, m.start() - 8), m.start()):
                continue  # "BACK TO BED 1500": the hour the patient went back to bed
            if _MEASURE_AFTER.match(text, m.end()):
                continue  # "UP IN CHAIR 2 HRS", "wound bed 70% red": how long, or how much of the wound
            if re.match(r"[/:]\d", text[m.end() : m.end() + 2]):
                continue  # "UP IN CHAIR 2/1 ASSIST", "bed 1:1": the number opens a ratio of staff, not a room
            out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.8, source="address/room"))
        for m in _BED_CODE.finditer(text):
            floor = re.match(r"\d+", m.group(0))
            if floor and int(floor.group(0)) > 30:
                continue  # "HR 90S-100S" is a range of vitals: no ward is on the 90th floor
            out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.7, source="address/bed_code"))
        return out

    def _city_regions(self, text: str) -> list[Span]:
        """``Chennai, India``, ``Montréal (Québec)``, ``Townsville, QLD``: a city with its country or province."""
        out = []
        lex = self.lexicon
        known_countries = countries()
        for m in _CITY_REGION.finditer(text):
            words = m.group("region").split()
            region_end = None
            for n in range(len(words), 0, -1):
                cand = " ".join(words[:n])
                if cand in REGIONS or (cand.lower() in known_countries and cand[:1].isupper() and len(cand) > 3):
                    region_end = m.start("region") + len(cand)
                    region = cand
                    break
            if region_end is None:
                continue
            if text[m.end("city") : m.start("region")].strip().startswith("("):
                if text[region_end : region_end + 1] != ")":
                    continue
                region_end += 1
            city_start = self._trim_city(text, m.start("city"), m.end("city"))
            city = text[city_start : m.end("city")]
            first = city.split()[0].strip(".,")
            if len(city) < 3 or lex.is_stop(first) or first.lower() in ("the", "and", "of") or (city.isupper() and len(city) <= 3):
                continue
            cue = bool(_PLACE_CUE.search(text[max(0, city_start - 16) : city_start]))
            known = self._city_known(city)
            if (region in AMBIGUOUS_REGIONS or lex.is_name(region.lower())) and not (known or cue):
                continue  # "Lopez, Jordan" is a name written surname first
            if not (known or cue) and (lex.is_name(first.lower()) or lex.is_common_word(first.lower(), strict=True)):
                continue
            out.append(Span(city_start, region_end, Category.LOCATION, score=0.8, source="address/city_region"))
        return out

    @staticmethod
    def _foreign_addresses(text: str) -> list[Span]:
        """A UK, Canadian, Irish or Australian postcode and the address pieces before it on its line."""
        out = []
        for m in _FOREIGN_POSTAL.finditer(text):
            if _GCS_PARTS.fullmatch(m.group(0)):
                continue  # "GCS E3V4M6": the coma scale's eye, voice and motor scores
            line_start = text.rfind("\n", 0, m.start()) + 1
            head = text[line_start : m.start()]
            cut = max(head.rfind(": "), head.rfind(";"), head.rfind("\t"), head.rfind("  "))
            base = line_start + (cut + 1 if cut >= 0 else 0)
            head = text[base : m.start()]
            parts = head.split(",")
            start = None
            offset = len(head)
            for k, part in enumerate(reversed(parts)):
                offset -= len(part)
                piece = part.strip()
                if not piece:
                    if k == 0:
                        offset -= 1
                        continue
                    break
                words = piece.split()
                if len(words) > 7 or any(not _ADDRESS_WORD.fullmatch(w) for w in words):
                    break
                if words[-1].lower().strip(".") in _NOT_ADDRESS_HEAD or words[0].lower().strip(".") in _TITLE_WORDS:
                    break
                start = base + offset + (len(part) - len(part.lstrip()))
                if k >= 5:
                    break
                offset -= 1  # the comma
            if start is None:
                continue
            out.append(Span(start, m.end(), Category.LOCATION, score=0.85, source="address/postcode"))
        return out

    @staticmethod
    def _street_ok(m: re.Match[str]) -> bool:
        # the street name must be capitalised (it is, in practice, or all caps)
        name_words = m.group(0).split()[1:-1]
        if m.group("num").startswith("0"):
            return False  # "POD 0 CABG x4. AV PACED": no house is numbered 0
        if any(_DOSE_WORD.fullmatch(w.rstrip(".,")) for w in name_words):
            return False  # "200 mg BID. Sees Dr. Lee" is a dose and a sentence, not "... Dr."
        if any(w.upper() in ("AM", "PM", "HRS", "H") for w in name_words):
            return False  # "0715 AM med pass" is a time and a round
        if name_words and all(w.rstrip(".,").lower() in FUNCTION_WORDS for w in name_words):
            return False  # "PARA @ 1100 BY DR LINDQVIST": a time and a title, not a street called "By"
        if any(w.rstrip(".,").lower() in FUNCTION_WORDS and w.rstrip(".,").lower() not in _STREET_NAME_PARTICLES for w in name_words):
            # "74 YO M TRANSFERRED FROM ST. COLMAN'S", "START @ 2300 PER NEPHRO DR PEÑA": a street's name holds no
            # "from", "with" or "per"
            return False
        if any(w.lower() in _RHYTHM_RUN_WORDS for w in name_words):
            return False  # "4 BEAT RUN NSVT", "30 SEC RUN AFIB": a run of a rhythm, not a street called Run
        if any(w in _PROSE_WORDS for w in name_words):
            return False  # "level 3 and respite at Mercy Place" is prose that ends on a street word
        if any(w.endswith(".") and len(w) > 2 and w[:-1].upper() not in _STREET_ABBREVIATIONS for w in name_words):
            return False  # "1 U PRBC. CT -20", "2L NC. CT SURG": a sentence ends before the street word
        return any(w[:1].isupper() or w[:1].isdigit() for w in name_words)
