"""The rules pipeline: run recognizers, propagate names, resolve overlaps.

:func:`build_default_pipeline` is the best rules-only detection available on
a CPU with nothing downloaded.  A :class:`RulesPipeline` is itself a
recognizer (same ``analyze`` signature), so it can be wrapped for Presidio
or combined with a model-based recognizer in a larger pipeline.

Configuration (the ``[detect]`` table of the TOML file given to
``deid detect --config``)::

    [detect]
    gazetteer_dir = "site-lists"      # extra lists; relative to the config file
    recognizers = ["date", "age", "phone", "id", "web", "address",
                   "gazetteer", "facility", "place_cue", "organization", "names",
                   "table"]                      # default: every unit of rules.RULE_UNITS
    propagate = true                  # names found once are found everywhere
    join_score = 0.99                 # how sure a model must be to add a span no rule found
"""

from __future__ import annotations

from deid_core.notes import ClinicalNote
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from deid_core.config import DetectSettings, validation_problems
from deid_core.detection import as_recognizer_error, check_spans
from deid_core.recognizers.base import NoteContext, Recognizer, wanted_categories
from deid_core.recognizers.completion import complete_names
from deid_core.recognizers.gazetteer import build_resources, default_resources
from deid_core.recognizers.propagation import Propagator, ages_after_names, propagate_acronyms, propagate_batch
from deid_core.resolution import join_name_parts, merge_adjacent, resolve
from deid_core.recognizers.rules import RULE_NAMES, RULE_UNITS
from deid_core.spans import Category, Span, SpanError


class DetectConfigError(ValueError):
    pass


@dataclass(frozen=True)
class DetectConfig:
    """``[detect]`` with its defaults filled in and its paths resolved against the config file's folder."""

    gazetteer_dirs: tuple[Path, ...] = ()
    recognizers: tuple[str, ...] = RULE_NAMES
    propagate: bool = True
    #: None: rules plus the trained default encoder when present.
    mix: tuple[str, ...] | None = None
    encoder: Mapping[str, object] = field(default_factory=dict)
    generative: Mapping[str, object] = field(default_factory=dict)
    #: how sure a model member must be for a span no rule overlaps to join (see plausibility)
    join_score: float = 0.99
    #: where relative model paths in ``encoder`` start (the config file's folder)
    base_dir: Path | None = None

    @classmethod
    def from_mapping(cls, raw: Mapping[str, object] | DetectSettings, base_dir: Path | None = None) -> "DetectConfig":
        """Validate a ``[detect]`` table (through :class:`~deid_core.config.DetectSettings`) and fill in defaults."""
        if isinstance(raw, DetectSettings):
            settings = raw
        else:
            try:
                settings = DetectSettings.model_validate(dict(raw))
            except ValidationError as exc:
                raise DetectConfigError(f"[detect]: {validation_problems(exc)}") from None
        dirs: list[Path] = []
        for value in (settings.gazetteer_dir, settings.gazetteer_dirs):
            for v in [value] if isinstance(value, str) else value or []:
                p = Path(v)
                dirs.append(p if p.is_absolute() or base_dir is None else base_dir / p)
        return cls(
            tuple(dirs),
            tuple(settings.recognizers) if settings.recognizers is not None else RULE_NAMES,
            settings.propagate if settings.propagate is not None else True,
            tuple(settings.mix) if settings.mix is not None else None,
            settings.encoder.model_dump(exclude_none=True),
            dict(settings.generative),
            float(settings.join_score) if settings.join_score is not None else cls.join_score,
            base_dir,
        )


@dataclass
class RulesPipeline:
    """Recognizers in, one resolved span list out."""

    recognizers: Sequence[Recognizer]
    propagate: bool = True
    name: str = "rules"
    version: str = "1"
    propagator: Propagator = field(default_factory=Propagator)

    @property
    def categories(self) -> frozenset[Category]:
        out: set[Category] = set()
        for r in self.recognizers:
            out |= set(r.categories)
        return frozenset(out)

    @property
    def label_map(self) -> Mapping[str, Category]:
        return {c.value: c for c in self.categories}

    def raw_spans(self, text: str, entities: Sequence[Category] | None = None, context: NoteContext | None = None) -> list[Span]:
        """Every recognizer's output, checked against the text, before resolution."""
        out: list[Span] = []
        for r in self.recognizers:
            try:
                spans = r.analyze(text, entities, context)
            except Exception as exc:  # fail closed: a broken recognizer fails the note
                raise as_recognizer_error(r.name, exc) from exc
            out.extend(check_spans(r.name, text, spans))
        return out

    def finish(self, text: str, spans: Sequence[Span], known: Mapping[str, Category] | None = None, entities: Sequence[Category] | None = None) -> list[Span]:
        """Propagate names, resolve overlaps, join address pieces and the parts of a name, complete places and facilities."""
        work = list(spans)
        if self.propagate:
            work = self.propagator.propagate(text, resolve(work), known)
            work = propagate_acronyms(text, work)
        work = resolve(work)
        work = work + ages_after_names(text, work)
        out = complete_names(text, join_name_parts(merge_adjacent(resolve(work), text), text), self.propagator.lexicon)
        want = wanted_categories(entities)
        return out if want is None else [s for s in out if s.category in want]

    def analyze(self, text: str, entities: Sequence[Category] | None = None, context: NoteContext | None = None) -> list[Span]:
        known = context.known_names if context is not None else None
        return self.finish(text, self.raw_spans(text, entities, context), known, entities)

    def analyze_batch(self, notes: Sequence[ClinicalNote]) -> list[list[Span]]:
        """Detect every note; names travel across the notes of each patient."""
        return propagate_batch(
            notes,
            lambda note, ctx: self.analyze(note.text, context=ctx),
            lambda note, spans, known: self.finish(note.text, spans, known),
        )


def build_default_pipeline(config: DetectConfig | None = None) -> RulesPipeline:
    """The rule units ``config.recognizers`` names (see :data:`~deid_core.recognizers.rules.RULE_UNITS`), sharing one gazetteer; nothing is downloaded."""
    config = config or DetectConfig()
    try:
        resources = build_resources(config.gazetteer_dirs) if config.gazetteer_dirs else default_resources()
    except (OSError, ValueError, SpanError) as exc:
        raise DetectConfigError(str(exc)) from None
    recognizers = [RULE_UNITS[n].build(resources) for n in config.recognizers]
    return RulesPipeline(recognizers, propagate=config.propagate, propagator=Propagator(resources.lexicon))
