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


class Settings(_Strict):
    anonymizer: AnonymizerConfig = Field(default_factory=AnonymizerConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    detect: dict = Field(default_factory=dict, description="Recognizer settings; see deid_core.recognizers.")


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
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(top)'}: {err['msg']}" for err in exc.errors()
        )
        raise ConfigError(f"configuration file {path}: {problems}") from None
