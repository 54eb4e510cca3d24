"""The CPU forms of a trained encoder, for ONNX Runtime: fp32 ONNX and int8 ONNX.

Written beside the torch weights, which stay for GPUs (fp16).  The int8 form
uses dynamic quantization (int8 weights per output channel, activations
scaled per batch at run time, no calibration set) on the linear layers,
except each layer's feed-forward output and the classifier, whose errors
cost the most recall; the embeddings stay fp32.  Even so it loses recall on
the hand-written held-out notes, so CPUs run the fp32 form unless asked
(``docs/detection.md``).
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import warnings
from pathlib import Path

from deid_core.recognizers.encoder import INT8_MODEL_FILE, ONNX_MODEL_FILE


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
    """The feed-forward output and classifier MatMuls, by the names torch's exporter gives them."""
    import onnx

    graph = onnx.load(str(path), load_external_data=False).graph
    keep = re.compile(r"layer\.\d+/output/dense/MatMul$|classifier")
    return [n.name for n in graph.node if n.op_type == "MatMul" and keep.search(n.name)]
