"""Span-level evaluation of recognizers against gold (paper 000, Methods).

Readers turn gold and predictions into documents, the crosswalk aligns
foreign label sets and boundary conventions with ours, matching pairs spans
one-to-one at an IoU threshold, and the metrics add bootstrap intervals.
"""

from deid_core.evaluation.crosswalk import Crosswalk, CrosswalkError, LabelRule, age_unit_end
from deid_core.evaluation.documents import EvalDocument, EvalInputError, PredictionIssue, SourceDocument, SourceSpan
from deid_core.evaluation.matching import NAME, Counts, Match, char_coverage, count_document, iou, match_spans
from deid_core.evaluation.metrics import (
    CategoryResult,
    CharRecall,
    EvalConfig,
    EvalResult,
    Estimate,
    Scores,
    TauResult,
    bootstrap_totals,
    evaluate,
    score_pairs,
)
from deid_core.evaluation.readers import (
    FORMATS,
    PredictionSet,
    ScoredPair,
    detect_format,
    load_gold,
    load_predictions,
    pair_documents,
    read_brat,
    read_i2b2,
    read_jsonl,
)
from deid_core.evaluation.report import format_table, to_json

__all__ = [
    "FORMATS",
    "NAME",
    "CategoryResult",
    "CharRecall",
    "Counts",
    "Crosswalk",
    "CrosswalkError",
    "Estimate",
    "EvalConfig",
    "EvalDocument",
    "EvalInputError",
    "EvalResult",
    "LabelRule",
    "Match",
    "PredictionIssue",
    "PredictionSet",
    "Scores",
    "ScoredPair",
    "SourceDocument",
    "SourceSpan",
    "TauResult",
    "age_unit_end",
    "bootstrap_totals",
    "char_coverage",
    "count_document",
    "detect_format",
    "evaluate",
    "format_table",
    "iou",
    "load_gold",
    "load_predictions",
    "match_spans",
    "pair_documents",
    "read_brat",
    "read_i2b2",
    "read_jsonl",
    "score_pairs",
    "to_json",
]
