"""Every ``DEID_*`` environment variable, declared once with its default and meaning.

Code reads a variable through its :class:`EnvVar` here, never by a string
of its own, so this table is the whole list an operator has to know.
``DEID_KEY_<STUDY>`` (a study key for the environment key store) is a
family, read by :mod:`fleet.keystore` under :data:`KEY_PREFIX`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class EnvVar:
    name: str
    default: str
    help: str

    def get(self, environ: Mapping[str, str] | None = None) -> str:
        return (os.environ if environ is None else environ).get(self.name, self.default)

    def get_int(self, environ: Mapping[str, str] | None = None) -> int:
        raw = self.get(environ).strip()
        try:
            return int(raw) if raw else int(self.default or 0)
        except ValueError:
            raise ValueError(f"{self.name}={raw!r} is not a whole number") from None

    def enabled(self, environ: Mapping[str, str] | None = None) -> bool:
        """Off only when set to ``0``."""
        return self.get(environ).strip() != "0"


def _var(name: str, default: str, help: str) -> EnvVar:
    var = EnvVar(name, default, help)
    VARIABLES[name] = var
    return var


VARIABLES: dict[str, EnvVar] = {}

# -- detection and models (deid_core)
DETECT_MIX = _var("DEID_DETECT_MIX", "", "comma-separated recognizer kinds that replace the default mix, without a config file")
ENCODER_DIR = _var("DEID_ENCODER_DIR", "", "directory of the default encoder (default: models/encoder)")
VERIFIER_DIR = _var("DEID_VERIFIER_DIR", "", "directory of the trained CPU verifier (default: models/verifier)")

# -- where the fleet is (fleet.settings; they win over the [fleet] table)
FLEET_CONFIG = _var("DEID_FLEET_CONFIG", "", "fleet TOML with a [fleet] table")
DATABASE_URL = _var("DEID_DATABASE_URL", "", "state store URL")
DATABASE_SCHEMA = _var("DEID_DATABASE_SCHEMA", "", "Postgres schema of the state store")
BROKER_URL = _var("DEID_BROKER_URL", "redis://127.0.0.1:6379/0", "Redis broker URL")
QUEUE_PREFIX = _var("DEID_QUEUE_PREFIX", "", "prefix of every queue name, to share a broker")
KEY_DIR = _var("DEID_KEY_DIR", "", "directory of the file key store")
KEY_STORE = _var("DEID_KEY_STORE", "", "'env' reads study keys from DEID_KEY_<STUDY> variables")
PIPELINE_CONFIG = _var("DEID_PIPELINE_CONFIG", "", "pipeline TOML ([anonymizer], [detect]) a fleet runs")
CHAIN_STAGES = _var("DEID_CHAIN_STAGES", "", "0: a worker sends every stage's result to the broker, never runs the next stage itself")

# -- workers (celeryconfig, workers/)
WORKER_ROLE = _var("DEID_WORKER_ROLE", "cpu", "'gpu' or 'cpu': the device a worker loads models on (set by `deid worker`)")
TASK_TIME_LIMIT = _var("DEID_TASK_TIME_LIMIT", "", "seconds a stage task may run before it is killed")
VISIBILITY_TIMEOUT = _var("DEID_VISIBILITY_TIMEOUT", "", "seconds before an unacknowledged message is redelivered")
MAX_MEMORY_PER_CHILD = _var("DEID_MAX_MEMORY_PER_CHILD", "", "KiB a worker child may grow to before it is replaced")
PRELOAD = _var("DEID_PRELOAD", "1", "0: do not load recognizers when a worker starts")
SWEEPER = _var("DEID_SWEEPER", "1", "0: this worker does not re-send stalled items")
FAULT_ON_RECEIVE = _var("DEID_FAULT_ON_RECEIVE", "", "fault injection for crash trials only (stage:action)")

#: ``DEID_KEY_<STUDY>``: a study's key for the environment key store.
KEY_PREFIX = "DEID_KEY_"
