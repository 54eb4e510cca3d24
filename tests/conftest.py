from __future__ import annotations

import pytest

from deid_core.keys import StudyKey


@pytest.fixture(scope="session")
def study_key() -> StudyKey:
    return StudyKey.generate("test-study")


@pytest.fixture(scope="session")
def other_key() -> StudyKey:
    return StudyKey.generate("test-study")
