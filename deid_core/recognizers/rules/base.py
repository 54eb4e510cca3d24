"""The shape every pattern unit shares: compiled rules run in order over the note.

A rule may carry an ``accept`` check that looks at the words around a match;
that is how a date like ``3/4`` is told from a score like ``strength 3/5``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from deid_core.recognizers.base import NoteContext, RuleRecognizer
from deid_core.spans import Category, Span

Accept = Callable[[str, "re.Match[str]"], bool]


@dataclass(frozen=True)
class PatternRule:
    """One regular expression; ``group`` selects the part that is the identifier."""

    name: str
    category: Category
    regex: re.Pattern[str]
    score: float = 0.9
    group: int | str = 0
    accept: Accept | None = None


class PatternRecognizer(RuleRecognizer):
    """Runs its rules in order and reports every accepted match."""

    def __init__(self, name: str, rules: Sequence[PatternRule], version: str = "1") -> None:
        self.name = name
        self.version = version
        self.rules = tuple(rules)
        self.categories = frozenset(r.category for r in self.rules)

    def matches(self, text: str) -> Iterator[tuple[PatternRule, re.Match[str]]]:
        for rule in self.rules:
            for m in rule.regex.finditer(text):
                if rule.accept is None or rule.accept(text, m):
                    yield rule, m

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        for rule, m in self.matches(text):
            start, end = m.span(rule.group)
            if 0 <= start < end:
                yield Span(start, end, rule.category, score=rule.score, source=f"{self.name}/{rule.name}")
