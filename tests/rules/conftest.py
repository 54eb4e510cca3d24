"""Run one rule unit alone, or the whole rules pipeline with one unit switched off."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from deid_core.recognizers.gazetteer import default_resources
from deid_core.recognizers.pipeline import DetectConfig, RulesPipeline, build_default_pipeline
from deid_core.recognizers.rules import RULE_NAMES, RULE_UNITS
from deid_core.spans import Category

Found = dict[str, Category]


def _found(pipeline: RulesPipeline, text: str) -> Found:
    return {text[s.start : s.end]: s.category for s in pipeline.analyze(text)}


@pytest.fixture(scope="session")
def unit_finds() -> Callable[[str, str], Found]:
    """``unit_finds("date", text)``: what that unit alone finds, as {text: category}."""

    def finds(name: str, text: str) -> Found:
        return {text[s.start : s.end]: s.category for s in RULE_UNITS[name].build(default_resources()).analyze(text)}

    return finds


@pytest.fixture(scope="session")
def detect() -> Callable[[str, str | None], Found]:
    """``detect(text)``: the default rules pipeline; ``detect(text, without="date")``: that unit left out of ``[detect] recognizers``."""
    pipelines: dict[str | None, RulesPipeline] = {}

    def run(text: str, without: str | None = None) -> Found:
        if without not in pipelines:
            names = [n for n in RULE_NAMES if n != without]
            pipelines[without] = build_default_pipeline(DetectConfig.from_mapping({"recognizers": names}))
        return _found(pipelines[without], text)

    return run
