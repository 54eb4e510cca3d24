"""Verifiers: P(incomplete) for a note and a candidate annotation (paper 001).

``ResidualPatternVerifier`` needs nothing; the CPU verifier needs a model
trained with ``deid train verifier``; the LLM verifiers need a local causal
LM or a vLLM server.  Importing this package needs neither scikit-learn nor
torch.
"""

from deid_core.verifier.base import (
    ResidualPatternVerifier,
    Verifier,
    VerifierError,
    covered_intervals,
    flagged,
    is_covered,
    is_incomplete,
)
from deid_core.verifier.cpu import (
    VERIFIER_DIR_ENV,
    CpuVerifier,
    default_verifier_path,
    load_cpu_verifier,
    load_default_verifier,
)

__all__ = [
    "VERIFIER_DIR_ENV",
    "CpuVerifier",
    "ResidualPatternVerifier",
    "Verifier",
    "VerifierError",
    "covered_intervals",
    "default_verifier_path",
    "flagged",
    "is_covered",
    "is_incomplete",
    "load_cpu_verifier",
    "load_default_verifier",
]
