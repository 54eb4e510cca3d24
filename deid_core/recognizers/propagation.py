"""Name propagation: a name caught once is caught everywhere.

Every PATIENT or DOCTOR surface form detected with confidence is expanded
into its variants (``Maria Lopez`` -> ``Lopez``, ``Maria``, ``LOPEZ, MARIA``,
``M. Lopez``...) and searched for again in the note, and, through
:class:`~deid_core.recognizers.base.NoteContext`, in the patient's other
notes.  A weak, uncued name that matches a confident form takes that form's
category, which is how ``Okafor`` becomes a DOCTOR in a note where only
``Dr. Okafor`` says so.

Variants that are ordinary words (a patient named ``Will`` or ``Rose``) are
only propagated where they are capitalised and not opening a sentence, so a
name does not spread onto every ``will`` of the note.

Propagation cannot amplify a guess: only a form found on its own evidence (a
cue, or listed names that are no clinical or ordinary words) seeds it, never a
list guess with an ordinary word in it, and a form whose every word is a
clinical or function word ("SEDATED", "LEVO") seeds nothing.  A propagated
span names its seed's source (``propagation<names/title``; a form from the
patient's other notes is ``propagation<patient``), so false positives can be
counted by where they came from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from deid_core.notes import ClinicalNote
from deid_core.recognizers.base import NoteContext
from deid_core.recognizers.rules.common_words import CLINICAL_ACRONYMS
from deid_core.recognizers.rules.tokens import caps_line_at
from deid_core.recognizers.gazetteer import Gazetteer, followed_by_eponym_trigger, normalise_entry, word_after
from deid_core.recognizers.lexicon import Lexicon, default_lexicon, rule_list
from deid_core.spans import Category, Evidence, Span

NAME_CATEGORIES = frozenset({Category.PATIENT, Category.DOCTOR})
#: name spans at or above this score seed propagation; below it they may be relabelled.
SEED_SCORE = 0.7
PROPAGATED_SCORE = 0.8
SOURCE = "propagation"
#: what a form found in the patient's other notes is propagated from
OTHER_NOTES = "patient"

_NAME_PART = re.compile(r"[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))*\.?")
_WRITTEN_NAME = re.compile(r"[^\W\d_]+(?:(?:[ \t]*[,.'’-][ \t]*|[ \t]+|[ \t]*\n[ \t]*)[^\W\d_]+)*")
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\n\s*)$")
_VERB_NAMES = rule_list("names", "verb_given_names")
_VERB_PARTICLES = rule_list("names", "verb_particles")
_TITLE_BEFORE = re.compile(r"\b(?:Dr|Drs|Mr|Mrs|Ms|Miss|Prof|Doctor|Mx)\.?[ \t]*$", re.IGNORECASE)


@dataclass(frozen=True)
class Variant:
    text: str
    category: Category
    single: bool


def _merge_category(a: Category | None, b: Category) -> Category:
    """Patient wins a tie: a patient's name is the more sensitive one."""
    if a is None or a is b:
        return b
    return Category.PATIENT


def name_variants(surface: str) -> set[str]:
    """The ways a name is written again: full, surname, given name, inverted, initialled."""
    parts = _NAME_PART.findall(surface)
    words = [p.rstrip(".") for p in parts if len(p.rstrip(".")) > 1]
    if not words:
        return set()
    if "," in surface and len(words) >= 2:
        words = words[1:] + words[:1]  # LOPEZ, MARIA -> MARIA LOPEZ
    out = {" ".join(words), surface.strip()}
    last = words[-1]
    first = words[0]
    out.add(last)
    for w in words:
        out.add(w)
        if "-" in w:
            out.update(p for p in w.split("-") if len(p) > 1)
    if len(words) >= 2:
        out.update(
            {
                f"{first} {last}",
                f"{last}, {first}",
                f"{last},{first}",
                f"{first[0]}. {last}",
                f"{first[0]} {last}",
                f"{first[0]}.{last}",
                f"{first} {last[0]}.",
                f"{last} {first}",
            }
        )
    return {v for v in out if v}


def build_variants(forms: Mapping[str, Category], lexicon: Lexicon) -> dict[str, Variant]:
    """Normalised variant text -> Variant, dropping variants that are not names on their own."""
    out: dict[str, Variant] = {}
    for surface, category in forms.items():
        for v in name_variants(surface):
            tokens = [t.rstrip(".") for t in v.replace(",", " ").split()]
            words = [t for t in tokens if len(t) > 1]
            single = len(words) <= 1
            if single:
                word = words[0] if words else v
                if len(word) < 3 or lexicon.is_eponym(word) or word.lower() in _NEVER_ALONE:
                    continue
            key = normalise_entry(v)
            if not key:
                continue
            prev = out.get(key)
            cat = _merge_category(prev.category if prev else None, category)
            out[key] = Variant(v, cat, single)
    return out


_NEVER_ALONE = frozenset({"the", "and", "van", "von", "der", "del", "de", "la", "le", "da", "di", "du", "bin", "al", "el"})


def is_seed(text: str, span: Span, lexicon: Lexicon) -> bool:
    """May this name span seed propagation: confident, found on its own evidence, not only ordinary words?"""
    if span.category not in NAME_CATEGORIES or span.score < SEED_SCORE:
        return False
    words = re.findall(r"[^\W\d_]{2,}", text[span.start : span.end])
    if span.evidence is Evidence.GUESS:
        # found by the name lists alone: every word must be a listed name and nothing else
        return bool(words) and all(lexicon.is_name(w) and not lexicon.is_common_word(w) for w in words)
    # a cue found it: each occurrence is checked again as it is propagated, but a clinical word never
    # seeds, nor does one ordinary word ("report to hope rn" names one nurse, not every "hope" after it);
    # a whole name of such words does ("Patient: Will Hunter")
    if len(words) == 1 and lexicon.is_common_word(words[0]):
        return False
    return any(not lexicon.is_clinical(w) and not lexicon.is_stop(w) for w in words)


def seed_forms(text: str, spans: Iterable[Span], lexicon: Lexicon | None = None) -> dict[str, Category]:
    """Surface forms of the name spans of a note that may seed propagation (:func:`is_seed`)."""
    lex = lexicon or default_lexicon()
    out: dict[str, Category] = {}
    for s in spans:
        if is_seed(text, s, lex):
            surface = text[s.start : s.end]
            out[surface] = _merge_category(out.get(surface), s.category)
    return out


def _seed_sources(text: str, spans: Iterable[Span], lexicon: Lexicon) -> dict[str, tuple[str, float]]:
    """Surface form -> (source, score) of the seed it was first found as."""
    out: dict[str, tuple[str, float]] = {}
    for s in spans:
        if is_seed(text, s, lexicon):
            out.setdefault(text[s.start : s.end], (s.source, s.score))
    return out


class Propagator:
    """Searches a note for every variant of the names it (and the patient's other notes) contain."""

    def __init__(self, lexicon: Lexicon | None = None) -> None:
        self._lexicon = lexicon

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = default_lexicon()
        return self._lexicon

    def _occurrence_ok(self, text: str, start: int, end: int, variant: Variant) -> bool:
        surface = text[start:end]
        lex = self.lexicon
        if (start > 1 and text[start - 1] == "-" and text[start - 2].isalnum()) or (text[end : end + 1] == "-" and text[end + 1 : end + 2].isalnum()):
            return False  # "ray" never reaches "x-ray", nor "may" "may-thurner": a word joined by a hyphen is part of another
        titled = bool(_TITLE_BEFORE.search(text[max(0, start - 8) : start]))
        if variant.single and not titled:
            word = max(re.findall(r"[^\W\d_]+", surface) or [surface], key=len)
            if lex.is_word_too(word) and not (surface[:1].isupper() and surface[1:].islower() and not caps_line_at(text, start)):
                # "Dr. Young" reaches "Young", never "YOUNG ADULT" or "young"
                return False
        if variant.single and not titled and surface.lower() in _VERB_NAMES:
            nxt = word_after(text, end)
            if nxt and nxt.lower() in _VERB_PARTICLES:
                return False  # a name that is also a verb, before a particle, is the verb: "drew up a list"
        if surface.islower():
            # lowercase only for rare names typed in messages: "thanks, chidi"
            return all(not lex.is_common_word(t) and not lex.is_stop(t) for t in re.findall(r"[^\W\d_]+", surface))
        if not titled and followed_by_eponym_trigger(text, end):
            return False
        if variant.single:
            word = max(re.findall(r"[^\W\d_]+", surface) or [surface], key=len)
            if surface.isupper() and len(word) <= 3 and "-" not in surface and not titled and (lex.is_common_word(word) or not lex.is_name(word)):
                # "MIN" of "KWON, MIN-SEO" is not the "35 MIN" of a turnover target, nor are a writer's initials
                # ("KPT") more than the column they sign; a listed name that is no word ("ANN") is the person
                return False
            if lex.is_stop(word) and not titled:
                # a patient named Will: "see Will next week", never "Will follow up" or "WILL"
                title_case = word[:1].isupper() and word[1:].islower()
                return title_case and not _SENTENCE_START.search(text[max(0, start - 3) : start])
            if lex.is_common_word(word) and not titled:
                # a patient named Mark: "Mark" is propagated, "mark" is not
                return surface[:1].isupper()
        return True

    def propagate(self, text: str, spans: Sequence[Span], known: Mapping[str, Category] | None = None) -> list[Span]:
        """``spans`` plus a span for every further occurrence of a known name.

        Weak name spans that match a known form take its category.
        """
        forms = seed_forms(text, spans, self.lexicon)
        for surface, cat in (known or {}).items():
            forms[surface] = _merge_category(forms.get(surface), cat)
        if not forms:
            return list(spans)
        variants = build_variants(forms, self.lexicon)
        origin: dict[str, tuple[str, float]] = {}
        for surface, (source, score) in _seed_sources(text, spans, self.lexicon).items():
            for v in name_variants(surface):
                origin.setdefault(normalise_entry(v), (f"{SOURCE}<{source}", min(score, PROPAGATED_SCORE)))
        out: list[Span] = []
        for s in spans:
            if s.category in NAME_CATEGORIES and s.score < SEED_SCORE:
                v = variants.get(normalise_entry(text[s.start : s.end]))
                if v is not None and v.category is not s.category:
                    s = replace(s, category=v.category)
            out.append(s)
        # one automaton pass finds every variant, whatever its punctuation ("M. Lopez", "LOPEZ,MARIA")
        already = {(s.start, s.end) for s in out if s.category in NAME_CATEGORIES}
        for hit in Gazetteer({"variant": [v.text for v in variants.values()]}).scan(text):
            if (hit.start, hit.end) in already:
                continue
            if not _WRITTEN_NAME.fullmatch(text[hit.start : hit.end]):
                continue  # "Qian <kiah_q72@...": the words must be joined as a name is written
            v = variants.get(normalise_entry(text[hit.start : hit.end]))
            if v is None or not self._occurrence_ok(text, hit.start, hit.end, v):
                continue
            source, score = origin.get(normalise_entry(v.text), (f"{SOURCE}<{OTHER_NOTES}", PROPAGATED_SCORE))
            out.append(Span(hit.start, hit.end, v.category, score, source, Evidence.PROPAGATED))
        return out


_ACRONYM_SKIP = frozenset({"And", "Of", "The", "For", "At", "De", "&"})


def facility_acronym(name: str) -> str:
    """``Lakeside Nursing and Rehabilitation Center`` -> ``LNRC``."""
    name = re.sub(r"['’]s\b", "", name).replace("St.", "Saint").replace("Mt.", "Mount")
    words = [w for w in re.findall(r"[^\W\d_][\w-]*", name) if w[0].isupper() and w not in _ACRONYM_SKIP]
    return "".join(w[0] for w in words)


def propagate_acronyms(text: str, spans: Sequence[Span]) -> list[Span]:
    """Facility names are shortened to their initials or a bracketed short form; find those too."""
    forms: set[str] = set()
    for s in spans:
        if s.category is not Category.HOSPITAL:
            continue
        acronym = facility_acronym(text[s.start : s.end])
        if len(acronym) >= 3:
            forms.add(acronym)
        bracket = re.match(r"[ \t]*\(([A-Z][A-Za-z&]{1,7})\)", text[s.end : s.end + 12])
        if bracket and bracket.group(1).upper() not in CLINICAL_ACRONYMS and not default_lexicon().is_clinical(bracket.group(1)):
            # "Linden Court (LC)", never the type of "LINDEN COURT (ALF)" or the days of "RIVERMEAD DIALYSIS (MWF)"
            forms.add(bracket.group(1))
    out = list(spans)
    for form in forms:
        for m in re.finditer(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text):
            out.append(Span(m.start(), m.end(), Category.HOSPITAL, 0.75, "propagation/acronym"))
    return out


def propagate_batch(
    notes: Sequence[ClinicalNote],
    detect: Callable[[ClinicalNote, NoteContext], list[Span]],
    refine: Callable[[ClinicalNote, list[Span], Mapping[str, Category]], list[Span]],
) -> list[list[Span]]:
    """Detect every note, then let each patient's names reach all of that patient's notes.

    ``detect`` runs the recognizers on one note; ``refine`` re-runs
    propagation and resolution for a note given the names found in the
    patient's other notes.  Notes without a patient id are only propagated
    within themselves.
    """
    first = [detect(n, NoteContext(note_id=n.id, patient_id=n.patient_id)) for n in notes]
    per_patient: dict[str, dict[str, Category]] = {}
    per_note: list[dict[str, Category]] = []
    for note, spans in zip(notes, first):
        forms = seed_forms(note.text, spans)
        per_note.append(forms)
        if note.patient_id is not None:
            bucket = per_patient.setdefault(note.patient_id, {})
            for surface, cat in forms.items():
                bucket[surface] = _merge_category(bucket.get(surface), cat)
    out: list[list[Span]] = []
    for note, spans, own in zip(notes, first, per_note):
        if note.patient_id is None:
            out.append(spans)
            continue
        others = {k: v for k, v in per_patient.get(note.patient_id, {}).items() if k not in own or own[k] is not v}
        out.append(refine(note, spans, others) if others and _may_occur(note.text, others) else spans)
    return out


_LETTERS = re.compile(r"[^\W\d_]{2,}")


def _may_occur(text: str, forms: Mapping[str, Category]) -> bool:
    """Could any variant of ``forms`` occur in ``text``? Every variant holds a word of two letters or more
    from its form, so a note holding none of those words needs no second pass."""
    words = {w for form in forms for w in _LETTERS.findall(form.lower())}
    return any(w in words for w in _LETTERS.findall(text.lower()))


# "(Radomir Kovalenko, 71)", "Ines Quintanar, 88, who", "Delphine Arceneaux, 38F": a bare number
# right after a patient's name is that patient's age; the name is what makes the number an age.
_AGE_AFTER_NAME = re.compile(
    r"(?:[ \t]*(?:,[ \t]*|\([ \t]*)(?P<age>(?:1[01]\d|12[0-5]|\d{1,2})(?:[ \t]?(?:yo|y/o|y\.o\.?|years?|yrs?|mos?|months?|wks?|weeks?|y)(?![\w/]))?)"
    r"(?=[ \t]*(?:[,;)]|[MF](?![\w/])|\n|$))"
    # "Dashiell Moncrieff 46M", "YAMAMOTO, KENJI  81y": a number glued to the sex or a unit, after spaces only
    r"|[ \t]+(?P<glued>(?:1[01]\d|12[0-5]|\d{1,2})(?:y|yo|y/o))(?![\w/])"
    r"|[ \t]+(?P<sexed>1[01]\d|12[0-5]|\d{1,2})(?=[MF](?![\w/])))"
)


def ages_after_names(text: str, spans: Sequence[Span]) -> list[Span]:
    """AGE spans for bare numbers that follow a PATIENT name (the name's age)."""
    taken = sorted((s.start, s.end) for s in spans)
    out: list[Span] = []
    for s in spans:
        if s.category is not Category.PATIENT:
            continue
        m = _AGE_AFTER_NAME.match(text, s.end)
        if not m:
            continue
        group = next(g for g in ("age", "glued", "sexed") if m.group(g) is not None)
        start, end = m.start(group), m.end(group)
        if any(a < end and start < b for a, b in taken):
            continue
        out.append(Span(start, end, Category.AGE, 0.7, "age/after_name"))
    return out
