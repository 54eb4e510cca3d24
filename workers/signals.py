"""Worker process hooks: build the recognizers before the first task.

In a prefork (CPU) worker the main process builds them in ``worker_init``
and every child inherits them at fork, so a child recycled by
``max_memory_per_child`` starts warm.  A GPU worker runs a solo or thread
pool: its one process builds the models once and never forks after CUDA
is initialised.  ``DEID_PRELOAD=0`` skips this (a worker then builds on
first use).
"""

from __future__ import annotations

import logging
import os

from celery.signals import worker_init

log = logging.getLogger(__name__)


def preload() -> list[str]:
    """Build what this worker's configuration names; return the kinds built."""
    from fleet.pipeline import PipelineConfig
    from fleet.settings import load_fleet_settings
    from workers.models import device_for_role, get_detector, worker_role

    settings = load_fleet_settings()
    built: list[str] = []
    if worker_role() == "gpu":
        kinds = [k for k in dict.fromkeys([*settings.recognizers, *settings.models]) if k != "rules"]
    else:
        kinds = ["rules"]
    config = PipelineConfig.load(settings.pipeline_config, settings.recognizers, settings.verifier_threshold)
    for kind in kinds:
        get_detector(
            kind, detect=config.settings.detect, base_dir=config.base_dir, models=settings.models, device=device_for_role()
        )
        built.append(kind)
    return built


@worker_init.connect
def _withhold_exception_details(**_kwargs) -> None:
    """Before anything can fail: no traceback or exception text in this worker's log (children inherit it)."""
    from fleet.logsafe import withhold_exception_details

    withhold_exception_details()


@worker_init.connect
def _preload_models(**_kwargs) -> None:
    if os.environ.get("DEID_PRELOAD", "1") == "0":
        return
    try:
        built = preload()
        log.info("recognizers ready: %s", ", ".join(built) or "none")
    except Exception as exc:  # the tasks report it per note; never die at start for it
        log.warning("could not preload recognizers: %s", type(exc).__name__)
