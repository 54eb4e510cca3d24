"""The anonymizer's surrogate name pools: the shared lists of :mod:`deid_core.person_names`."""

from deid_core.person_names import (
    CREDENTIALS,
    HONORIFICS,
    POOL_SOURCES,
    canonical,
    first_names,
    fold,
    last_names,
    pool_fingerprint,
)

__all__ = ["CREDENTIALS", "HONORIFICS", "POOL_SOURCES", "canonical", "first_names", "fold", "last_names", "pool_fingerprint"]
