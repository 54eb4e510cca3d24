"""The CPU forms of a trained encoder, for ONNX Runtime: fp32 ONNX and int8 ONNX.

Written beside the torch weights, which stay for GPUs (fp16).  The int8 form
uses dynamic quantization (int8 weights per output channel, activations
scaled per batch at run time, no calibration set) on every linear layer but
the classifier; the embeddings stay fp32.  Each build scores both forms on
its held-out notes and lets CPUs run int8 only when it keeps recall and F1
within ``INT8_TOLERANCE`` of fp32 (``docs/detection.md``).
"""

from __future__ import annotations

import logging
import os
import tempfile
import warnings
from pathlib import Path

from deid_core.recognizers.encoder import INT8_MODEL_FILE, ONNX_MODEL_FILE
from deid_core.training.metrics import CategoryScore


#: How far int8 may fall below fp32, in held-out micro recall and F1, for CPUs to run it by default.
INT8_TOLERANCE = 0.005


def int8_keeps_accuracy(fp32: CategoryScore, int8: CategoryScore) -> bool:
    """Whether the int8 form's held-out micro recall and F1 are within ``INT8_TOLERANCE`` of fp32's."""
    return int8.recall >= fp32.recall - INT8_TOLERANCE and int8.f1 >= fp32.f1 - INT8_TOLERANCE


class QuantizeError(RuntimeError):
    """The int8 model could not be written."""


def write_onnx_models(model_dir: str | os.PathLike[str]) -> tuple[Path, Path]:
    """Export ``model_dir``'s token classifier to ``model.onnx`` there, and quantize that to ``model.int8.onnx``."""
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
    fp32, out = src / ONNX_MODEL_FILE, src / INT8_MODEL_FILE
    with tempfile.TemporaryDirectory(dir=src) as tmp:
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
            quantize_dynamic(
                str(fp32),
                str(Path(tmp) / INT8_MODEL_FILE),
                weight_type=QuantType.QInt8,
                per_channel=True,
                op_types_to_quantize=["MatMul"],
                nodes_to_exclude=_kept_in_fp32(fp32),
            )
        finally:
            root.setLevel(level)
        os.replace(Path(tmp) / INT8_MODEL_FILE, out)
    return fp32, out


def _kept_in_fp32(path: Path) -> list[str]:
    """The classifier's MatMul, by the name torch's exporter gives it: the last layer decides each label."""
    import onnx

    graph = onnx.load(str(path), load_external_data=False).graph
    return [n.name for n in graph.node if n.op_type == "MatMul" and "classifier" in n.name]
