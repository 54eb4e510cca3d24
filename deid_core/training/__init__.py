"""Training our own recognizer models on synthetic notes.

Importing this package needs neither torch nor transformers; only calling
:func:`train_encoder` does.
"""

from deid_core.training.backbone import BackboneError, default_backbone_path
from deid_core.training.card import read_model_card, write_model_card
from deid_core.training.data import BIO_LABELS, split_by_patient, token_labels
from deid_core.training.encoder import (
    TrainConfig,
    TrainingError,
    TrainResult,
    train_encoder,
)
from deid_core.training.metrics import CategoryScore, macro_f1, score_spans

__all__ = [
    "BIO_LABELS",
    "BackboneError",
    "CategoryScore",
    "TrainConfig",
    "TrainResult",
    "TrainingError",
    "default_backbone_path",
    "macro_f1",
    "read_model_card",
    "score_spans",
    "split_by_patient",
    "token_labels",
    "train_encoder",
    "write_model_card",
]
