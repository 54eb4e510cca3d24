"""Word checks for tests that assert an original value is gone from de-identified text."""

from __future__ import annotations

import re


def has_word(word: str, text: str) -> bool:
    """The word itself, in any case, not a surrogate that happens to contain it ("marianela" for "maria")."""
    return re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE) is not None
