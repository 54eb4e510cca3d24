"""Unit ``organization``: congregations by name, and employers, schools and postings after a cue of work or study.

A congregation (``GREATER NEW HOPE MB CHURCH``, ``St. John's Lutheran``,
``first united methodist``), an employer (``works for delta planting co``,
``FOREMAN FROM PINE BELT TIMBER``), a school or a base (``student at chipola
college``, ``stationed at hurlburt field``) narrows a rural patient to a
handful of people.  All are typed OTHER: neither a place of care nor a place.  A
denomination alone (``the Methodist church``, ``PT IS LUTHERAN``) and a
workplace named by its kind (``works at the paper mill``) name none.
Lists: ``deid_core/data/rules/organizations/``.  Tests: ``tests/rules/test_organization.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from deid_core.recognizers.base import NoteContext, RuleRecognizer
from deid_core.recognizers.gazetteer import GazetteerResources, default_resources
from deid_core.recognizers.lexicon import RELATION_WORDS, alternation, rule_list
from deid_core.recognizers.rules.common_words import FACILITY_TAILS, FUNCTION_WORDS, TRADES
from deid_core.recognizers.rules.tokens import CaseBlind
from deid_core.spans import Category, Span

_HEADS = rule_list("organizations", "congregation_heads")
#: denominations that may end a congregation's name; with the words of a denomination, they may stand inside one
_DENOMINATIONS = rule_list("organizations", "denominations")
_DENOMINATION_WORDS = _DENOMINATIONS | rule_list("organizations", "denomination_words")
_GENERIC = rule_list("organizations", "generic_words")
_BUSINESS_TAILS = rule_list("organizations", "business_tails")
#: the words a saint's or a mountain's congregation opens with ("ST. JOHN'S", "MT. ZION")
_LEADS = frozenset({"st", "st.", "saint", "mt", "mt.", "mount", "greater"})
_WORD = re.compile(r"[A-Za-z][\w'’&-]*(?:\.[A-Za-z][\w'’&-]*)*\.?|&")
#: short forms whose full stop is part of the word ("ST.", "CO.", "M.B.")
_DOTTED = _LEADS | _DENOMINATION_WORDS | _BUSINESS_TAILS
_CONGREGATION_END = re.compile(r"\b(?:" + alternation(_HEADS | _DENOMINATIONS) + r")\b", re.I)
_FACILITY_WORD_AFTER = re.compile(r"[ \t]+(?:" + alternation(FACILITY_TAILS) + r")\b", re.I)
_CONGREGATION_GOES_ON = re.compile(r"[ \t]+" + _CONGREGATION_END.pattern, re.I)
#: carers and clinicians: after "at" where they work ("pharmacist at st. anne's"), after "for" whom or what they serve
#: ("interpreter for mother", "PERFUSIONIST FOR PCO2")
_CARERS = frozenset({
    "interpreter", "translator", "caregiver", "doula", "midwife", "orthotist", "prosthetist", "perfusionist", "phlebotomist",
    "sonographer", "radiographer", "dietitian", "dietician", "nutritionist", "pharmacist", "audiologist", "optometrist",
    "podiatrist", "dentist", "hygienist", "medic", "medics", "paramedic", "paramedics",
})
#: the other trades name where they are plied after "at" or "for"
_TRADES_AT_WORK = (TRADES | {"trainer", "trainers", "groom", "jockey", "hotwalker", "cook", "clerk", "driver", "manager"}) - _CARERS
#: what a person does for a living, studies or serves in, then where: "works nights at", "employed by", "retired
#: from", "FOREMAN FROM", "works as a cook at", "student at", "stationed at"
_WORK_CUE = re.compile(
    r"\b(?:(?:works?|working|worked)(?:[ \t]+(?:nights|days|evenings|weekends|overnights|part[ \t-]time|full[ \t-]time|there))?"
    r"(?:[ \t]+as[ \t]+an?[ \t]+[a-z]+(?:[ \t]+[a-z]+)?)?[ \t]+(?:at|for)|employed[ \t]+(?:at|by)|employee[ \t]+of|employer(?:[ \t]*(?:is|:))?"
    r"|retired[ \t]+from|laid[ \t]+off[ \t]+from|(?:boss|foreman|supervisor|co-?worker|hr|owner)[ \t]+(?:from|at|of)"
    # a trade and where it is plied: "HORSE TRAINER AT MEADOWVIEW STABLES", "welder for ohio valley steel"; a letter for
    # an employer, and an employer named with no verb: "WORK NOTE FOR ...", "EMPLOYER BLUE GRASS FREIGHT LINES CALLED"
    r"|(?:" + alternation(_TRADES_AT_WORK) + r")[ \t]+(?:at|for)|(?:" + alternation(_CARERS) + r")[ \t]+at|work[ \t]+(?:note|excuse|letter|release)[ \t]+for"
    # where a person studies or serves: "student at chipola college", "STATIONED AT HURLBURT FIELD"
    r"|(?:student|freshman|sophomore|junior|senior|teacher|professor|coach|principal|cadet)[ \t]+(?:at|of)"
    r"|enrolled[ \t]+at|(?:teaches|taught)(?:[ \t]+[\w-]+){0,2}?[ \t]+at|graduated[ \t]+from|stationed[ \t]+(?:at|in)|deployed[ \t]+(?:at|from))[ \t]+",
    re.I,
)
#: English hardly writes a word rarer than this: alone after a cue of work or study it names the place ("student at
#: transy"; "works at cannery" names a kind)
_UNWRITTEN_WORD_FREQ = 1e-7
_STOP_PUNCTUATION = re.compile(r"[,;:()\n\"]|\.(?:[ \t]|$)")


@dataclass(frozen=True, slots=True)
class _Word:
    """A word of a name, its full stop kept only where the word is a short form ("MT.", "M.B.", "co.")."""

    start: int
    end: int
    text: str


def _words(text: str, start: int, end: int) -> list[_Word]:
    out = []
    for m in _WORD.finditer(text, start, end):
        word = m.group(0)
        if word.endswith(".") and word.lower() not in _DOTTED and "." not in word[:-1]:
            word = word[:-1]  # "RANCH.": the sentence's full stop
        out.append(_Word(m.start(), m.start() + len(word), word))
    return out


class OrganizationRecognizer(RuleRecognizer):
    """Congregations by their name's shape, and employers after a cue of work."""

    name = "organization"
    version = "1"
    categories = frozenset({Category.OTHER})

    def __init__(self, resources: GazetteerResources | None = None) -> None:
        self.resources = resources or default_resources()

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        caseless = CaseBlind(text)
        out = [Span(s, e, Category.OTHER, 0.7, "organization/congregation") for s, e in self._congregations(text, caseless)]
        out += [Span(s, e, Category.OTHER, 0.65, "organization/employer") for s, e in self._employers(text, caseless)]
        return out

    def _proper(self, w: _Word, caseless: CaseBlind) -> bool:
        """A word that may be part of a name: no function, clinical or generic word, capitalised unless case says nothing."""
        word = w.text
        low = word.lower()
        if low in FUNCTION_WORDS or low in _GENERIC or self.resources.lexicon.is_clinical(low.rstrip(".")):
            return False
        return word[:1].isupper() or caseless.at(word, w.start)

    def _name_word(self, low: str) -> bool:
        """Where case says nothing, a congregation's own word is a name or no everyday word ("zion", "bethel",
        "hope", "st. john's"; not "visit after church")."""
        lex = self.resources.lexicon
        bare = low.rstrip(".").removesuffix("'s").removesuffix("’s")
        return lex.is_name(bare) or not lex.is_common_word(bare)

    def _everyday_compound(self, low: str) -> bool:
        """Two everyday words written as one name a kind of workplace, not which one ("feedyard", "sawmill")."""
        lex = self.resources.lexicon
        return any(lex.is_everyday(low[:i]) and lex.is_everyday(low[i:]) for i in range(3, len(low) - 2))

    def _congregations(self, text: str, caseless: CaseBlind) -> list[tuple[int, int]]:
        out = []
        facilities: list[tuple[int, int]] | None = None
        for end_m in _CONGREGATION_END.finditer(text):
            last = end_m.group(0).lower()
            if last in _DENOMINATIONS and _CONGREGATION_GOES_ON.match(text, end_m.end()):
                continue  # "first baptist church": the name goes on to its head
            if last in _DENOMINATIONS and _FACILITY_WORD_AFTER.match(text, end_m.end()):
                continue  # "HOUSTON METHODIST HOSPITAL", "baptist health": a hospital that bears a denomination
            line_start = max(text.rfind("\n", 0, end_m.start()) + 1, end_m.start() - 60)
            start, named = None, False
            for w in reversed(_words(text, line_start, end_m.start())):
                if _STOP_PUNCTUATION.search(text, w.end, (start if start is not None else end_m.start())):
                    break
                low = w.text.lower()
                if low in _DENOMINATION_WORDS or low in _LEADS:
                    start = w.start
                elif self._proper(w, caseless) and (w.text[:1].isupper() and not w.text.isupper() or self._name_word(low)):
                    start, named = w.start, True
                elif named and low in _GENERIC and low not in FUNCTION_WORDS:
                    start = w.start  # "GREATER NEW HOPE", "little zion": a kind's word inside the name
                else:
                    break
            if named and start is not None:
                if facilities is None:
                    facilities = [(h.start, h.end) for h in self.resources.scan(text) if "hospital" in h.kinds]
                if any(s < end_m.start() and start < e for s, e in facilities):
                    continue  # "UPMC PRESBYTERIAN": a listed facility's branch, not a congregation
                out.append((start, end_m.end()))
        return out

    def _employers(self, text: str, caseless: CaseBlind) -> list[tuple[int, int]]:
        lex = self.resources.lexicon
        out = []
        for cue in _WORK_CUE.finditer(text):
            words: list[_Word] = []
            after = _words(text, cue.end(), min(len(text), cue.end() + 60))
            after_the = bool(after) and after[0].text.lower() == "the"
            for w in after[1:] if after_the else after:
                if _STOP_PUNCTUATION.search(text, (words[-1].end if words else cue.end()), w.start):
                    break
                low = w.text.lower()
                ends = low in FUNCTION_WORDS or lex.is_clinical(low) or low in RELATION_WORDS  # a business's last word may be clinical ("LINES")
                if low != "&" and ((ends and low not in _BUSINESS_TAILS) or len(words) == 5):
                    break  # "student at castle valley tech mom darla": a relative begins another phrase
                words.append(w)
            tails = [i for i, w in enumerate(words) if w.text.lower() in _BUSINESS_TAILS]
            if tails:
                words = words[: tails[-1] + 1]
            if after_the and not (tails and self._names_which([w.text.lower() for w in words[: tails[-1]]])):
                continue  # "works at the casino", "at the cheese plant": after "the", a business's last word and a name
            if cue.group(0).strip().lower() == "employer" and not tails and len(words) < 2:
                continue  # "(employer JDA)": with no verb, one word after "employer" may say what it sent, not who it is
            if words and words[-1].text != "&" and self._employer_shape(words, bool(tails), caseless):
                out.append((words[0].start, words[-1].end))
        return out

    def _employer_shape(self, words: list[_Word], tail: bool, caseless: CaseBlind) -> bool:
        """Capitalised words where case is told; where it is not, some word of a name and a business's shape: its
        last word (``tail``), an ampersand, a possessive, or a first word that is no everyday word ("works at tyson",
        "student at transy"; not "works at cannery")."""
        lex = self.resources.lexicon
        first = words[0].text
        if not caseless.at(first, words[0].start):
            return all(w.text[:1].isupper() or w.text == "&" for w in words) and first.lower() not in _GENERIC
        if not any(w.text.lower() not in _BUSINESS_TAILS and self._proper(w, caseless) for w in words):
            return False
        return (
            tail
            or any(w.text == "&" for w in words)
            or first.endswith(("'s", "’s"))
            or not self._ordinary(first.lower()) and (len(words) > 1 or lex.is_name(first.lower()) or lex.frequency(first) < _UNWRITTEN_WORD_FREQ)
        )

    def _names_which(self, lows: list[str]) -> bool:
        """Words before a business's last word that name which one, not what kind: two that say no kind, or one that is
        no everyday word ("the supreme rice mill", "the toyota plant"; not "the cheese plant", "the old paper mill")."""
        named = [w for w in lows if w not in _GENERIC]
        return len(named) >= 2 or any(not self.resources.lexicon.is_everyday(w) for w in named)

    def _ordinary(self, low: str) -> bool:
        """An everyday word, or two of them written as one that is no listed name ("sawmill"; "woodford" is a name)."""
        lex = self.resources.lexicon
        return lex.is_common_word(low) or (self._everyday_compound(low) and not lex.is_name(low))
