"""Factories a worker's own configuration may name for a model kind.

Without ``[fleet.models.KIND]`` a worker builds a model kind from the
batch's ``[detect.KIND]`` table, as ``deid detect`` does.  With
``factory = "workers.recognizers:encoder"`` it loads the token classifier
of :mod:`deid_core.recognizers.encoder` from ``model_path`` (else the
default location) onto its device; with ``"workers.recognizers:generative"``
it builds the generative recognizer of :mod:`deid_core.recognizers.generative`
from its options (a vLLM server's ``base_url`` and ``model``, or a local
``model_path``); with neither, every note sent to it fails with that message
rather than passing undetected.
"""

from __future__ import annotations

from deid_core.detection import DetectorError


def encoder(device: str = "cpu", model_path: str | None = None, **config: object):
    from deid_core.recognizers.encoder import EncoderConfig, default_encoder_path, load_encoder

    path = model_path or default_encoder_path()
    if path is None:
        raise DetectorError("no encoder model: set [fleet.models.encoder] options.model_path or DEID_ENCODER_DIR")
    return load_encoder(path, config=EncoderConfig(device=device, **config))


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
