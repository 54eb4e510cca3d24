from __future__ import annotations

import os

import pytest

# The suite must not depend on which models someone trained in this checkout:
# the default detector is the rules and the default verifier the rule scorer,
# for this process and for the worker processes the fleet tests start.  Tests
# of the mix and of the learned verifier configure their own.
os.environ["DEID_DETECT_MIX"] = "rules"
os.environ["DEID_VERIFIER_DIR"] = "none"

from deid_core.keys import StudyKey


@pytest.fixture(scope="session")
def study_key() -> StudyKey:
    return StudyKey.generate("test-study")


@pytest.fixture(scope="session")
def other_key() -> StudyKey:
    return StudyKey.generate("test-study")

