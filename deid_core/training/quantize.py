"""The CPU form of a trained encoder: ONNX with int8 weights, for ONNX Runtime.

Written beside the fp32 weights, which stay for GPUs (fp16) and for anyone
who wants the exact model.  Dynamic quantization: weights are int8, and each
activation is scaled per batch at run time, so no calibration set is needed.
"""

from __future__ import annotations

import logging
import os
import tempfile
import warnings
from pathlib import Path

from deid_core.recognizers.encoder import CPU_MODEL_FILE


class QuantizeError(RuntimeError):
    """The int8 model could not be written."""


def write_int8_model(model_dir: str | os.PathLike[str]) -> Path:
    """Export ``model_dir``'s token classifier to ONNX and quantize it to ``model.int8.onnx`` there."""
    try:
        import torch
        from onnxruntime.quantization import QuantType, quantize_dynamic
        from transformers import AutoModelForTokenClassification
    except ImportError as exc:
        raise QuantizeError(f"the int8 model needs torch, transformers, onnx and onnxruntime: {exc}") from None
    src = Path(model_dir)
    model = AutoModelForTokenClassification.from_pretrained(src, local_files_only=True, attn_implementation="eager")
    model.eval()
    ids = torch.ones((2, 16), dtype=torch.long)
    axes = {0: "windows", 1: "tokens"}
    out = src / CPU_MODEL_FILE
    with tempfile.TemporaryDirectory(dir=src) as tmp:
        fp32 = Path(tmp) / "model.onnx"
        with torch.inference_mode(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tracer's notes on constant shapes; the axes below stay dynamic
            torch.onnx.export(
                model,
                (ids, torch.ones_like(ids)),
                str(fp32),
                input_names=["input_ids", "attention_mask"],
                output_names=["logits"],
                dynamic_axes={"input_ids": axes, "attention_mask": axes, "logits": axes},
                opset_version=17,
                dynamo=False,
            )
        root = logging.getLogger()
        level = root.level
        root.setLevel(logging.ERROR)  # the quantizer's advice on static pre-processing does not apply to dynamic
        try:
            quantize_dynamic(str(fp32), str(out), weight_type=QuantType.QInt8)
        finally:
            root.setLevel(level)
    return out
