"""Which device this worker process loads models on.

Recognizers themselves are built by the core's one loader
(:func:`deid_core.recognizers.mix.build_mix`) through the fleet's per-process
cache (:func:`fleet.stages.detector_for`); the worker only says whether it
is a GPU or a CPU worker.
"""

from __future__ import annotations

from deid_core.environment import WORKER_ROLE


def worker_role() -> str:
    """``gpu`` or ``cpu``: set by ``deid worker``; decides the device models load on."""
    role = WORKER_ROLE.get()
    return role if role in ("gpu", "cpu") else "cpu"


def device_for_role(role: str | None = None) -> str:
    return "cuda" if (role or worker_role()) == "gpu" else "cpu"
