"""Factories for the model recognizers the GPU queues run.

``[fleet.models.encoder]`` defaults to :func:`encoder`, which loads the
token classifier of :mod:`deid_core.recognizers.encoder` from a local
directory (``model_path``, else the encoder's own default location) onto
the worker's device.  The generative slot has no implementation in
``deid_core`` yet: :func:`generative` says so, and every note sent to it
fails with that message rather than passing undetected.
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


def generative(device: str = "cpu", **options: object) -> TextBatchDetector:
    raise DetectorError(
        "no generative recognizer is available in this build; configure [fleet.models.generative] "
        "with a factory, or leave 'generative' out of [fleet].recognizers"
    )
