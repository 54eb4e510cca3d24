"""Fleet settings: one validated object from a TOML file and the environment.

The pipeline's own settings (anonymizer, detect) stay in the ``deid_core``
TOML file, named here by ``pipeline_config``; this file only says where the
state, the broker, the keys and the models are.  Environment variables win
over the file so a container can be pointed elsewhere without a new file.
"""

from __future__ import annotations

import deid_core.environment as _env
from deid_core.config import validation_problems
from deid_core.recognizers.kinds import KIND_NAMES, check_kinds
import os
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

#: Environment variable -> field of :class:`FleetSettings`.
ENV_OVERRIDES: dict[str, str] = {
    _env.DATABASE_URL.name: "database_url",
    _env.DATABASE_SCHEMA.name: "database_schema",
    _env.BROKER_URL.name: "broker_url",
    _env.QUEUE_PREFIX.name: "queue_prefix",
    _env.KEY_DIR.name: "key_dir",
    _env.PIPELINE_CONFIG.name: "pipeline_config",
    _env.CHAIN_STAGES.name: "chain_stages",
}



#: Notes per stage message.  A message costs a few store round trips and a broker hop
#: whatever its size, so small chunks cost one worker speed; large ones leave the last
#: worker of a fleet busy alone at a batch's end.  With ``chain_stages`` a chunk is one
#: message for all four CPU stages, and on a 2-core machine 12 notes kept one CPU worker
#: at 0.73-0.80x the embedded rate while two ran at 1.86-2.10x one (``deid bench-fleet``,
#: docs/fleet.md).  A patient's notes are never split, and a redelivered message is split
#: into single notes, so the size changes no note's spans.
DEFAULT_CHUNK_SIZE = 12

class FleetConfigError(ValueError):
    pass


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelSpec(_Strict):
    """Where a worker finds a recognizer: ``factory`` is ``module:callable``.

    The callable gets ``device`` ("cuda" or "cpu") and the ``options`` as
    keyword arguments and returns an object with ``detect_batch(notes)`` or
    ``analyze(text)``.  Only the worker's own file names factories; a batch
    only names recognizer kinds, so a submitter cannot make a worker import
    code.
    """

    factory: str
    options: dict = Field(default_factory=dict)

    @field_validator("factory")
    @classmethod
    def _has_colon(cls, value: str) -> str:
        module, _, attr = value.partition(":")
        if not module or not attr:
            raise ValueError("factory must read 'package.module:callable'")
        return value


class WarehouseSettings(_Strict):
    """A source table of notes, a target table for de-identified ones, and a known-identifier table."""

    source_url: str = ""
    source_table: str = "notes"
    id_column: str = "note_id"
    text_column: str = "note_text"
    patient_column: str | None = "patient_id"
    target_url: str = ""
    target_table: str = "deid_notes"
    #: known identifiers, one value a row (patient, kind, value), read from the source database; none when unset
    known_table: str | None = None
    known_patient_column: str = "patient_id"
    known_kind_column: str = "kind"
    known_value_column: str = "value"


class FleetSettings(_Strict):
    database_url: str = "postgresql+psycopg://postgres@127.0.0.1:5432/deid"
    database_schema: str | None = None
    broker_url: str = "redis://127.0.0.1:6379/0"
    queue_prefix: str = ""
    key_dir: Path = Path("keys")
    pipeline_config: Path | None = None
    recognizers: tuple[str, ...] = ("rules",)
    chunk_size: int = Field(default=DEFAULT_CHUNK_SIZE, ge=1, le=1000, description="Notes per stage message.")
    chain_stages: bool = Field(
        default=True, description="A CPU worker runs the next CPU stage of a chunk itself when it consumes that stage's queue."
    )
    gpu_token_budget: int = Field(default=16384, ge=64, description="Estimated tokens per GPU task.")
    gpu_fallback: Literal["auto", "always", "never"] = "auto"
    verifier_threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    max_deliveries: int = Field(default=4, ge=1, le=100)
    models: dict[str, ModelSpec] = Field(default_factory=dict)
    warehouse: WarehouseSettings = Field(default_factory=WarehouseSettings)

    @field_validator("recognizers")
    @classmethod
    def _known_kinds(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return check_kinds(value)

    @field_validator("models")
    @classmethod
    def _known_models(cls, value: dict[str, ModelSpec]) -> dict[str, ModelSpec]:
        bad = [k for k in value if k not in KIND_NAMES]
        if bad:
            raise ValueError(f"models: unknown recognizer kind(s) {bad}")
        return value

    def with_overrides(self, **changes: object) -> "FleetSettings":
        data = self.model_dump()
        data.update({k: v for k, v in changes.items() if v is not None})
        return FleetSettings.model_validate(data)

    def worker_environment(self) -> dict[str, str]:
        """What a worker process needs in its environment to join this fleet."""
        env = {
            _env.DATABASE_URL.name: self.database_url,
            _env.BROKER_URL.name: self.broker_url,
            _env.QUEUE_PREFIX.name: self.queue_prefix,
            _env.KEY_DIR.name: str(self.key_dir),
        }
        if self.database_schema:
            env[_env.DATABASE_SCHEMA.name] = self.database_schema
        if self.pipeline_config is not None:
            env[_env.PIPELINE_CONFIG.name] = str(self.pipeline_config)
        if not self.chain_stages:
            env[_env.CHAIN_STAGES.name] = "0"
        return env


def load_fleet_settings(path: Path | str | None = None, env: dict[str, str] | None = None) -> FleetSettings:
    """The ``[fleet]`` table of ``path`` (or of ``$DEID_FLEET_CONFIG``), then the environment."""
    env = dict(os.environ) if env is None else env
    raw: dict = {}
    path = path if path is not None else env.get(_env.FLEET_CONFIG.name) or None
    if path is not None:
        path = Path(path)
        try:
            doc = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise FleetConfigError(f"fleet configuration {path} does not exist") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise FleetConfigError(f"fleet configuration {path} is not valid TOML: {exc}") from None
        unknown = sorted(set(doc) - {"fleet"})
        if unknown:
            raise FleetConfigError(f"fleet configuration {path}: unknown table(s) {', '.join(unknown)}")
        raw = dict(doc.get("fleet", {}))
        for key in ("key_dir", "pipeline_config"):
            if isinstance(raw.get(key), str) and not Path(raw[key]).is_absolute():
                raw[key] = str(path.parent / raw[key])
    for var, field in ENV_OVERRIDES.items():
        if env.get(var):
            raw[field] = env[var]
    try:
        return FleetSettings.model_validate(raw)
    except ValidationError as exc:
        raise FleetConfigError(f"fleet configuration: {validation_problems(exc)}") from None
