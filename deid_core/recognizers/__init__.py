"""Recognizers: everything that turns note text into typed spans.

One interface (:class:`~deid_core.recognizers.base.Recognizer`, shaped like
Presidio's ``analyze(text, entities)``) for rules, gazetteers, context
rules and foreign models; :func:`~deid_core.recognizers.pipeline.build_default_pipeline`
is the rules-only detection that needs nothing downloaded.
"""

from deid_core.notes import ClinicalNote
from deid_core.recognizers.base import LabelMap, LabelMapError, NoteContext, Recognizer, RecognizerError
from deid_core.recognizers.pipeline import DetectConfig, RulesPipeline, build_default_pipeline


__all__ = [
    "DetectConfig",
    "LabelMap",
    "LabelMapError",
    "NoteContext",
    "Recognizer",
    "RecognizerError",
    "RulesPipeline",
    "build_default_pipeline",
]
