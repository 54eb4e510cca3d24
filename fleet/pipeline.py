"""What a batch runs: the stage plan and its configuration, fixed at submission.

The configuration a batch was submitted with is stored by digest, and the
pipeline version is derived from it, so every result row says exactly
which configuration made it and a changed configuration never reuses
results computed under another one.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import fleet
from deid_core.config import Settings, load_settings
from deid_core.recognizers.kinds import GPU_KINDS

STAGE_RESOLVE = "resolve"
#: the recognizer name under which a note's finished spans are stored
RESOLVED = "resolved"
STAGE_VERIFY = "verify"
STAGE_ANONYMIZE = "anonymize"
STAGE_DONE = "done"
STAGE_SUBMIT = "submit"


def recognize_stage(kind: str) -> str:
    return f"recognize:{kind}"


def stage_kind(stage: str) -> str | None:
    """The recognizer kind of a recognize stage, None for the others."""
    prefix, _, kind = stage.partition(":")
    return kind if prefix == "recognize" and kind else None


@dataclass(frozen=True)
class PipelineConfig:
    settings: Settings
    recognizers: tuple[str, ...] = ("rules",)
    verifier_threshold: float = 0.5
    base_dir: str | None = None  # where relative paths in [detect] resolve

    @classmethod
    def load(cls, path: Path | str | None, recognizers: tuple[str, ...], verifier_threshold: float) -> "PipelineConfig":
        settings = load_settings(path)
        base = str(Path(path).resolve().parent) if path is not None else None
        return cls(settings, tuple(recognizers), float(verifier_threshold), base)

    def to_dict(self) -> dict:
        return {
            "settings": self.settings.model_dump(mode="json", exclude_none=True),
            "recognizers": list(self.recognizers),
            "verifier_threshold": self.verifier_threshold,
            "base_dir": self.base_dir,
        }

    @cached_property
    def body(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_body(cls, body: str) -> "PipelineConfig":
        raw = json.loads(body)
        return cls(
            Settings.model_validate(raw["settings"]),
            tuple(raw["recognizers"]),
            float(raw["verifier_threshold"]),
            raw.get("base_dir"),
        )

    @cached_property
    def digest(self) -> str:
        return hashlib.sha256(self.body.encode()).hexdigest()

    @property
    def version(self) -> str:
        return f"{fleet.__version__}+{self.digest[:12]}"

    @property
    def stages(self) -> tuple[str, ...]:
        return tuple(recognize_stage(k) for k in self.recognizers) + (STAGE_RESOLVE, STAGE_VERIFY, STAGE_ANONYMIZE)

    @property
    def uses_gpu(self) -> bool:
        return any(k in GPU_KINDS for k in self.recognizers)

    def next_stage(self, stage: str) -> str:
        plan = self.stages
        i = plan.index(stage)
        return plan[i + 1] if i + 1 < len(plan) else STAGE_DONE
