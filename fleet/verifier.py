"""The verify stage's scorer: the trained CPU verifier when present, else the rule scorer.

The protocol and both scorers live in :mod:`deid_core.verifier`; this module
only picks one for the fleet.  Notes above the threshold are flagged for
review; they are not held back.
"""

from __future__ import annotations

from deid_core.verifier import ResidualPatternVerifier, Verifier, load_default_verifier

__all__ = ["ResidualPatternVerifier", "Verifier", "default_verifier"]


def default_verifier() -> Verifier:
    """The model at ``DEID_VERIFIER_DIR`` or ``models/verifier/``, else residual patterns.

    A configured directory that holds no readable model raises instead of
    falling back, so a fleet never runs with less checking than was asked for.
    """
    found = load_default_verifier()
    return found if found is not None else ResidualPatternVerifier()
