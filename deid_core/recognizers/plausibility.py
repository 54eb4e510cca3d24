"""A shape check for spans that a model found and no rule did.

A token classifier trained only on synthetic notes is confidently wrong on
text unlike its training data: it tags drug names as patients, clock times
as dates, single letters as ages.  The rules already know what each
category looks like, so a model span that no rule confirmed is kept only
when its text could be that category at all: a name has a word that is not
an ordinary English or clinical word, a date has a month, a year or a full
numeric form, a phone has seven digits.  This costs little recall (the
checks are about shape, not about any list of known identifiers) and
removes most of the model's false positives.

:func:`join_fragments` first rejoins pieces a model split at a space or a
hyphen ("Sinéad" + "O'Halloran"), so the check sees the whole span.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deid_core.recognizers.lexicon import Lexicon, default_lexicon
from deid_core.spans import Category, Span

_MONTH = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b", re.I)
_CLOCK = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_NUMERIC_DATE = re.compile(r"\b\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\b")
_MONTH_DAY = re.compile(r"^(\d{1,2})[/-](\d{1,2})$")
_NUMBER_WORD = re.compile(r"(?:ty|teen|one|two|three|four|five|six|seven|eight|nine|ten)\b", re.I)
_WEB = re.compile(r"[^\W_]@[^\W_]|://|\bwww\.|\b[a-z0-9-]+\.(?:com|org|net|edu|gov|io|us|uk|ca|au)\b", re.I)
_TOKEN = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*")
# Generic-name stems of drug classes: a token ending so is a drug before it is a name.
_DRUG_STEM = re.compile(
    r"(?:mab|pril|olol|sartan|statin|mycin|cillin|azole|tinib|zepam|floxacin|parin|xaban|gliptin|glutide|formin|semide|thasone|olone)$",
    re.I,
)
_EDGE = " \t\r\n,;:()[]/"
_NAMES = frozenset({Category.PATIENT, Category.DOCTOR})


class PlausibilityCheck:
    """``plausible(text, category)``: could this string be an identifier of that category?"""

    def __init__(self, lexicon: Lexicon | None = None) -> None:
        self.lexicon = lexicon or default_lexicon()

    def _acronym(self, token: str) -> bool:
        return token.isupper() and len(token) <= 5 and not self.lexicon.is_name(token)

    def _informative(self, token: str) -> bool:
        lex = self.lexicon
        if lex.is_stop(token) or lex.is_eponym(token) or self._acronym(token):
            return False
        if not lex.is_name(token) and _DRUG_STEM.search(token):
            return False
        return not lex.is_common_word(token)

    def plausible(self, text: str, category: Category) -> bool:
        t = text.strip(_EDGE)
        if sum(ch.isalnum() for ch in t) < 2:
            return False
        digits = sum(ch.isdigit() for ch in t)
        if category is Category.DATE:
            if _CLOCK.match(t):
                return False
            if _MONTH.search(t) or _YEAR.search(t) or _NUMERIC_DATE.search(t):
                return True
            md = _MONTH_DAY.match(t)  # "9/29" is a date; "2/2" and "8/9" are as likely scores
            return bool(md) and int(md.group(1)) <= 12 < int(md.group(2)) <= 31
        if category is Category.AGE:
            return digits > 0 or bool(_NUMBER_WORD.search(t))
        if category is Category.PHONE:
            return digits >= 7
        if category is Category.ID:
            return digits >= 3 and sum(ch.isalnum() for ch in t) >= 5
        if category is Category.WEB:
            return bool(_WEB.search(t))
        tokens = _TOKEN.findall(t)
        if not tokens:
            return False
        if category in _NAMES:
            if digits or any(self._acronym(tok) for tok in tokens):
                return False
            return any(self._informative(tok) and (tok[:1].isupper() or self.lexicon.is_name(tok)) for tok in tokens)
        if category in (Category.HOSPITAL, Category.LOCATION):
            return any(self._informative(tok) and tok[:1].isupper() for tok in tokens)
        return True


def join_fragments(text: str, spans: Sequence[Span]) -> list[Span]:
    """Unite same-category spans separated only by up to two spaces or hyphens."""
    out: list[Span] = []
    for s in sorted(spans, key=lambda x: (x.start, x.end)):
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.category is s.category
            and 0 <= s.start - prev.end <= 2
            and text[prev.end : s.start].strip(" -") == ""
        ):
            out[-1] = Span(prev.start, max(prev.end, s.end), s.category, min(prev.score, s.score), prev.source)
        else:
            out.append(s)
    return out


def confirm_model_spans(
    text: str, model_spans: Sequence[Span], rule_spans: Sequence[Span], check: PlausibilityCheck
) -> list[Span]:
    """The model spans worth adding to the rules' own: new ones, of a plausible shape.

    A model span that overlaps a rule span adds nothing the rules did not
    cover, and its boundaries are usually the worse of the two.
    """
    ruled = sorted((r.start, r.end) for r in rule_spans)
    kept: list[Span] = []
    for s in join_fragments(text, model_spans):
        if any(a < s.end and s.start < b for a, b in ruled):
            continue
        if check.plausible(text[s.start : s.end], s.category):
            kept.append(s)
    return kept


def unite_with_rules(
    text: str, rule_spans: Sequence[Span], model_spans: Sequence[Sequence[Span]], check: PlausibilityCheck
) -> list[Span]:
    """The rules' spans plus what each model adds that :func:`confirm_model_spans` keeps."""
    out = list(rule_spans)
    for spans in model_spans:
        out.extend(confirm_model_spans(text, spans, rule_spans, check))
    return out
