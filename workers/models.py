"""Recognizers loaded once per worker process, by kind and configuration.

The rules pipeline is built from the batch's ``[detect]`` table.  Model
recognizers (``encoder``, ``generative``) come from the worker's own
configuration (:class:`fleet.settings.ModelSpec`), so the machine that owns
the GPU decides which model file it loads; the same spec runs on the CPU
when a GPU queue has no worker.  Nothing is downloaded here: factories load
from local paths.
"""

from __future__ import annotations

import importlib
import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path

from fleet.settings import ModelSpec
from tasks.detect import BatchDetector, DetectorError, as_batch_detector
from workers.recognizers import DEFAULT_FACTORIES

_CACHE: dict[tuple[str, str, str], BatchDetector] = {}
_LOCK = threading.Lock()


def worker_role() -> str:
    """``gpu`` or ``cpu``: set by ``deid worker``; decides the device models load on."""
    role = os.environ.get("DEID_WORKER_ROLE", "cpu")
    return role if role in ("gpu", "cpu") else "cpu"


def device_for_role(role: str | None = None) -> str:
    return "cuda" if (role or worker_role()) == "gpu" else "cpu"


def load_factory(path: str):
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
        return getattr(module, attr)
    except (ImportError, AttributeError) as exc:
        raise DetectorError(f"cannot load recognizer factory {path!r}: {type(exc).__name__}") from None


def _build_rules(detect: Mapping, base_dir: str | None) -> BatchDetector:
    from deid_core.recognizers.pipeline import DetectConfig, build_default_pipeline

    config = DetectConfig.from_mapping(dict(detect), Path(base_dir) if base_dir else None)
    return as_batch_detector(build_default_pipeline(config), "rules")


def get_detector(
    kind: str,
    *,
    detect: Mapping | None = None,
    base_dir: str | None = None,
    models: Mapping[str, ModelSpec] | None = None,
    device: str | None = None,
) -> BatchDetector:
    """The process's detector for ``kind``, built on first use and kept."""
    device = device or device_for_role()
    spec = (models or {}).get(kind)
    if spec is None and kind in DEFAULT_FACTORIES:
        spec = ModelSpec(factory=DEFAULT_FACTORIES[kind])
    if spec is not None:
        ident = json.dumps({"factory": spec.factory, "options": spec.options}, sort_keys=True, default=str)
    elif kind == "rules":
        ident = json.dumps({"detect": dict(detect or {}), "base": base_dir}, sort_keys=True, default=str)
    else:
        raise DetectorError(
            f"no {kind} recognizer is configured on this worker; "
            f"set [fleet.models.{kind}] factory in its fleet configuration"
        )
    cache_key = (kind, ident, device)
    with _LOCK:
        found = _CACHE.get(cache_key)
        if found is not None:
            return found
        if spec is not None:
            detector = as_batch_detector(load_factory(spec.factory)(device=device, **spec.options), kind)
        else:
            detector = _build_rules(detect or {}, base_dir)
        _CACHE[cache_key] = detector
        return detector


def clear_cache() -> None:
    with _LOCK:
        _CACHE.clear()
