"""Factories for the model recognizers the GPU queues run.

``[fleet.models.encoder]`` defaults to :func:`encoder`, which loads the
token classifier of :mod:`deid_core.recognizers.encoder` from a local
directory (``model_path``, else the encoder's own default location) onto
the worker's device.  ``[fleet.models.generative]`` defaults to
:func:`generative`, which builds the generative recognizer of
:mod:`deid_core.recognizers.generative` from its options (a vLLM server's
``base_url`` and ``model``, or a local ``model_path``); with neither, every
note sent to it fails with that message rather than passing undetected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deid_core.spans import Span
from tasks.detect import DetectNote, DetectorError

DEFAULT_FACTORIES = {
    "encoder": "workers.recognizers:encoder",
    "generative": "workers.recognizers:generative",
}


@dataclass
class TextBatchDetector:
    """For recognizers whose ``analyze_batch`` takes texts (the encoder does)."""

    inner: object
    name: str
    version: str

    def detect_batch(self, notes: Sequence[DetectNote]) -> list[list[Span]]:
        return [list(s) for s in self.inner.analyze_batch([n.text for n in notes])]  # type: ignore[attr-defined]


def encoder(device: str = "cpu", model_path: str | None = None, **config: object) -> TextBatchDetector:
    from deid_core.recognizers.encoder import EncoderConfig, default_encoder_path, load_encoder

    path = model_path or default_encoder_path()
    if path is None:
        raise DetectorError("no encoder model: set [fleet.models.encoder] options.model_path or DEID_ENCODER_DIR")
    recognizer = load_encoder(path, config=EncoderConfig(device=device, **config))
    return TextBatchDetector(recognizer, recognizer.name, recognizer.version)


GENERATIVE_FALLBACKS = ("rules", "encoder", "none")


def _fallback(kind: str, device: str):
    if kind == "rules":
        from deid_core.recognizers.pipeline import build_default_pipeline

        return build_default_pipeline()
    if kind == "encoder":
        from deid_core.recognizers.encoder import EncoderConfig, default_encoder_path, load_encoder

        path = default_encoder_path()
        if path is None:
            raise DetectorError("generative fallback 'encoder' needs a trained encoder (DEID_ENCODER_DIR)")
        return load_encoder(path, config=EncoderConfig(device=device))
    return None


def generative(device: str = "cpu", fallback: str = "rules", **options: object):
    """The generative recognizer; its QC layer escalates doubtful notes to ``fallback``.

    ``options`` are :func:`deid_core.recognizers.generative.build_generative`'s
    keys.  A local model (``transformers``) loads on the worker's device
    unless ``device`` is set in the options; a server backend ignores it.
    """
    if not options.get("model_path") and not options.get("base_url"):
        raise DetectorError(
            "no generative model is configured: set [fleet.models.generative] options.base_url and "
            "options.model (a vLLM server) or options.model_path (a local model), or leave 'generative' "
            "out of [fleet].recognizers"
        )
    if fallback not in GENERATIVE_FALLBACKS:
        raise DetectorError(f"generative fallback must be one of {', '.join(GENERATIVE_FALLBACKS)}, got {fallback!r}")
    from deid_core.recognizers.base import RecognizerError
    from deid_core.recognizers.generative import GenerativeConfigError, build_generative

    opts = dict(options)
    if opts.get("backend", "vllm-server" if opts.get("base_url") else "transformers") == "transformers":
        opts.setdefault("device", device)
    try:
        return build_generative(opts, fallback=_fallback(fallback, device))
    except (GenerativeConfigError, RecognizerError) as exc:
        raise DetectorError(f"generative recognizer: {exc}") from None
