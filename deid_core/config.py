"""One validated configuration object, loaded from one TOML file.

Every setting has a safe default here, in one place; the shipped
``default_config.toml`` spells the same values out for people to copy.
Unknown keys are errors, so a typo cannot silently fall back to a default.
"""

from __future__ import annotations

import tomllib
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from deid_core.spans import Category

DEFAULT_CONFIG_PATH = Path(__file__).with_name("default_config.toml")

#: Strategies each category accepts.  "keep" exists for nothing: fail closed.
ALLOWED_STRATEGIES: dict[Category, frozenset[str]] = {
    Category.AGE: frozenset({"cap", "mask"}),
    Category.DATE: frozenset({"shift", "mask"}),
    Category.DOCTOR: frozenset({"surrogate", "mask"}),
    Category.PATIENT: frozenset({"surrogate", "mask"}),
    Category.HOSPITAL: frozenset({"surrogate", "mask"}),
    Category.LOCATION: frozenset({"surrogate", "mask"}),
    Category.ID: frozenset({"fpe", "hash", "mask"}),
    Category.PHONE: frozenset({"fpe", "mask"}),
    Category.WEB: frozenset({"surrogate", "hash", "mask"}),
    Category.OTHER: frozenset({"hash", "mask"}),
}

DEFAULT_STRATEGIES: dict[Category, str] = {
    Category.AGE: "cap",
    Category.DATE: "shift",
    Category.DOCTOR: "surrogate",
    Category.PATIENT: "surrogate",
    Category.HOSPITAL: "surrogate",
    Category.LOCATION: "surrogate",
    Category.ID: "fpe",
    Category.PHONE: "fpe",
    Category.WEB: "surrogate",
    Category.OTHER: "hash",
}


class ConfigError(ValueError):
    pass


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AnonymizerConfig(_Strict):
    reference_date: date = Field(
        default=date(2020, 1, 1),
        description="Resolves dates written without a year and two-digit years; never today's date.",
    )
    day_first: bool = False
    two_digit_year_window_end: int | None = Field(
        default=None, description="Last year a two-digit year may mean; default reference year + 20."
    )
    fpe_mode: Literal["ff1", "ff3-1"] = "ff1"
    fpe_alphabet: Literal["per-class", "radix62"] = "per-class"
    age_cap: Literal["89", "90+"] = "89"
    age_decade: Literal["90s", "80s"] | None = Field(
        default=None, description='A decade of 90 or more ("in her 90s"); default "90s" under the "90+" cap, else "80s".'
    )
    mask_format: str = "[{category}]"
    pseudonymize_id: bool = Field(
        default=False,
        description="Output records carry a keyed pseudonym of `id` too (`patient_id` always gets one).",
    )
    strategies: dict[Category, str] = Field(default_factory=lambda: dict(DEFAULT_STRATEGIES))

    @field_validator("strategies", mode="before")
    @classmethod
    def _merge_defaults(cls, value: object) -> object:
        if not isinstance(value, dict):
            return value
        merged: dict[object, object] = dict(DEFAULT_STRATEGIES)
        for k, v in value.items():
            merged[Category.parse(k)] = v
        return merged

    @model_validator(mode="after")
    def _check_strategies(self) -> "AnonymizerConfig":
        for category, strategy in self.strategies.items():
            allowed = ALLOWED_STRATEGIES[category]
            if strategy not in allowed:
                raise ValueError(
                    f"strategy {strategy!r} is not allowed for {category.value} (allowed: {', '.join(sorted(allowed))})"
                )
        if "{category}" not in self.mask_format:
            raise ValueError("mask_format must contain {category}")
        return self


class LimitsConfig(_Strict):
    max_note_chars: int = Field(
        default=200_000,
        ge=1,
        description="A note with a longer text fails alone, before detection, so one huge note cannot stall a batch.",
    )


class EncoderSettings(_Strict):
    """``[detect.encoder]``: where the token classifier is and how it runs (see ``EncoderConfig``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    path: str | None = Field(default=None, description="Model directory, relative to the config file.")
    threshold: float | None = None
    thresholds: dict[str, float] | None = None
    window_tokens: int | None = None
    overlap_tokens: int | None = None
    batch_tokens: int | None = None
    max_batch_windows: int | None = None
    device: str | None = None
    snap_to_words: bool | None = None
    precision: Literal["auto", "fp32", "int8"] | None = None
    threads: int | None = Field(default=None, ge=1)
    label_map: dict[str, str] | None = None


class DetectSettings(_Strict):
    """``[detect]``: which recognizers run and how their spans are united; unset keys keep their defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    mix: list[str] | None = Field(default=None, description="Recognizer kinds; default: rules plus the trained encoder.")
    recognizers: list[str] | None = Field(default=None, description="Rule recognizers, in order; default: all.")
    gazetteer_dir: str | list[str] | None = None
    gazetteer_dirs: list[str] | None = None
    propagate: bool | None = None
    join_score: float | None = Field(default=None, ge=0.0, le=1.0)
    encoder: EncoderSettings = Field(default_factory=EncoderSettings)
    generative: dict = Field(default_factory=dict, description="Passed to build_generative; see docs/generative.md.")

    @field_validator("mix")
    @classmethod
    def _known_kinds(cls, value: list[str] | None) -> list[str] | None:
        from deid_core.recognizers.kinds import check_kinds

        return value if value is None else list(check_kinds(value))

    @field_validator("recognizers")
    @classmethod
    def _known_rules(cls, value: list[str] | None) -> list[str] | None:
        from deid_core.recognizers.rules import RULE_NAMES

        bad = [n for n in value or () if n not in RULE_NAMES]
        if bad:
            raise ValueError(f"unknown {', '.join(bad)} (known: {', '.join(RULE_NAMES)})")
        return value

    def raw(self) -> dict:
        """The keys that were set, as the TOML table would hold them."""
        return self.model_dump(exclude_none=True)


class Settings(_Strict):
    anonymizer: AnonymizerConfig = Field(default_factory=AnonymizerConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    detect: DetectSettings = Field(default_factory=DetectSettings)


def validation_problems(exc: ValidationError) -> str:
    """A pydantic error as one line: ``where: what; where: what``."""
    def what(err: dict) -> str:
        return "unknown key (a typo?)" if err["type"] == "extra_forbidden" else err["msg"]

    return "; ".join(f"{'.'.join(str(p) for p in err['loc']) or '(top)'}: {what(err)}" for err in exc.errors())


def load_settings(path: Path | str | None = None) -> Settings:
    """Load and validate a TOML file (the shipped default when ``path`` is None)."""
    path = Path(path) if path is not None else DEFAULT_CONFIG_PATH
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"configuration file {path} does not exist") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"configuration file {path} is not valid TOML: {exc}") from None
    try:
        return Settings.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(f"configuration file {path}: {validation_problems(exc)}") from None
