"""Unit ``web``: e-mail addresses, URLs, domains, IP addresses, user names and handles.

Tests: ``tests/rules/test_web.py``.
"""

from __future__ import annotations

import re

from deid_core.recognizers.rules.base import PatternRecognizer, PatternRule
from deid_core.spans import Category

_I = re.IGNORECASE


_TLDS = r"(?:com|org|net|edu|gov|mil|int|io|us|uk|ca|info|biz|health|care|med|example|test|local|me|co|app|online)"
_WEB_RULES: tuple[PatternRule, ...] = (
    PatternRule(
        "email",
        Category.WEB,
        re.compile(r"(?<![\w.+-])[^\W_][\w.%+-]*@[^\W_](?:[\w-]*[^\W_])?(?:\.[\w-]+)*\.[A-Za-z]{2,}\b"),
        score=0.97,
    ),
    PatternRule(
        "url",
        Category.WEB,
        re.compile(r"\b(?:https?://|ftp://|www\.)[^\s<>\"'()\[\]{}]+(?<![.,;:!?])", _I),
        score=0.95,
    ),
    PatternRule(
        "domain",
        Category.WEB,
        re.compile(
            rf"(?<![\w@./-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+{_TLDS}\b(?:/[^\s<>\"'()]*)?(?<![.,;:!?])",
            _I,
        ),
        score=0.8,
    ),
    PatternRule(
        "ipv4",
        Category.WEB,
        re.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?!\w|\.\d)"),
        score=0.9,
    ),
    PatternRule(
        "ipv6",
        Category.WEB,
        re.compile(r"(?<![\w:])(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(?![\w:])", _I),
        score=0.9,
    ),
    PatternRule(
        "username",
        Category.WEB,
        re.compile(
            r"\b(?:user[ \t]?name|user[ \t]?id|login|log-?in[ \t]+name|handle|screen[ \t]?name|portal[ \t]+id)\b"
            r"(?:[ \t]+is|[ \t]*[:=])[ \t]*(?P<v>(?=[\w.-]*[A-Za-z])[A-Za-z0-9][\w.-]{2,40})(?<![.-])",
            _I,
        ),
        score=0.85,
        group="v",
    ),
    # "From: jtrevino88": a message header naming a lowercase account, not a person
    PatternRule(
        "header_handle",
        Category.WEB,
        re.compile(
            r"(?:^|(?<=\n))[ \t]*(?i:from|to|sender|sent[ \t]+by|reply[ \t]+from)[ \t]*:[ \t]*"
            r"(?P<v>(?=[a-z0-9._-]*(?:\d|[._]))[a-z][a-z0-9._-]{1,30}[a-z0-9])(?=[ \t]*(?:\n|$|\(|<))"
        ),
        score=0.8,
        group="v",
    ),
    PatternRule(
        "handle",
        Category.WEB,
        re.compile(r"(?<![\w@.])@(?=[A-Za-z0-9_.]*[a-z])[A-Za-z][A-Za-z0-9_.]{2,29}(?<!\.)\b"),
        score=0.7,
    ),
)


def web_recognizer() -> PatternRecognizer:
    return PatternRecognizer("web", _WEB_RULES)
