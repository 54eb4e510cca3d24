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
                   "gazetteer", "facility", "place_cue", "names", "table"]   # default: all
    propagate = true                  # names found once are found everywhere
    join_score = 0.99                 # how sure a model must be to add a span no rule found
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from deid_core.recognizers.base import NoteContext, Recognizer, RecognizerError, wanted_categories
from deid_core.recognizers.propagation import BatchNote, Propagator, ages_after_names, propagate_acronyms, propagate_batch
from deid_core.resolution import merge_adjacent, resolve
from deid_core.spans import Category, Span, SpanError

RECOGNIZER_NAMES: tuple[str, ...] = (
    "date",
    "age",
    "phone",
    "id",
    "web",
    "address",
    "gazetteer",
    "facility",
    "place_cue",
    "names",
    "table",
)


class DetectConfigError(ValueError):
    pass


#: Recognizer kinds the ``mix`` key may name (see ``deid_core.recognizers.mix``).
MIX_KINDS: tuple[str, ...] = ("rules", "encoder", "generative")


@dataclass(frozen=True)
class DetectConfig:
    gazetteer_dirs: tuple[Path, ...] = ()
    recognizers: tuple[str, ...] = RECOGNIZER_NAMES
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
    def from_mapping(cls, raw: Mapping[str, object], base_dir: Path | None = None) -> "DetectConfig":
        known = {"gazetteer_dir", "gazetteer_dirs", "recognizers", "propagate", "mix", "encoder", "generative", "join_score"}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise DetectConfigError(f"[detect]: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        dirs: list[Path] = []
        for key in ("gazetteer_dir", "gazetteer_dirs"):
            value = raw.get(key)
            if value is None:
                continue
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
                raise DetectConfigError(f"[detect].{key} must be a path or a list of paths")
            for v in items:
                p = Path(v)
                dirs.append(p if p.is_absolute() or base_dir is None else base_dir / p)
        names = raw.get("recognizers", list(RECOGNIZER_NAMES))
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise DetectConfigError("[detect].recognizers must be a list of names")
        bad = [n for n in names if n not in RECOGNIZER_NAMES]
        if bad:
            raise DetectConfigError(f"[detect].recognizers: unknown {', '.join(bad)} (known: {', '.join(RECOGNIZER_NAMES)})")
        propagate = raw.get("propagate", True)
        if not isinstance(propagate, bool):
            raise DetectConfigError("[detect].propagate must be true or false")
        mix = raw.get("mix")
        if mix is not None:
            if not isinstance(mix, list) or not mix or not all(isinstance(m, str) for m in mix):
                raise DetectConfigError(f"[detect].mix must be a non-empty list drawn from {', '.join(MIX_KINDS)}")
            bad = [m for m in mix if m not in MIX_KINDS]
            if bad:
                raise DetectConfigError(f"[detect].mix: unknown {', '.join(bad)} (known: {', '.join(MIX_KINDS)})")
            if len(set(mix)) != len(mix):
                raise DetectConfigError("[detect].mix names a recognizer twice")
        join_score = raw.get("join_score", cls.join_score)
        if isinstance(join_score, bool) or not isinstance(join_score, (int, float)) or not 0.0 <= join_score <= 1.0:
            raise DetectConfigError(f"[detect].join_score must be a number in [0, 1], got {join_score!r}")
        tables = {}
        for key in ("encoder", "generative"):
            value = raw.get(key, {})
            if not isinstance(value, Mapping):
                raise DetectConfigError(f"[detect.{key}] must be a table")
            tables[key] = dict(value)
        return cls(
            tuple(dirs), tuple(names), propagate, tuple(mix) if mix is not None else None,
            tables["encoder"], tables["generative"], float(join_score), base_dir,
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
            except RecognizerError:
                raise
            except Exception as exc:  # fail closed: a broken recognizer fails the note
                raise RecognizerError(f"recognizer {r.name!r} failed: {type(exc).__name__}: {exc}") from exc
            for s in spans:
                if not isinstance(s, Span) or s.end > len(text):
                    raise RecognizerError(f"recognizer {r.name!r} returned an invalid span {s!r}")
                out.append(s)
        return out

    def finish(self, text: str, spans: Sequence[Span], known: Mapping[str, Category] | None = None, entities: Sequence[Category] | None = None) -> list[Span]:
        """Propagate names, resolve overlaps, join address pieces."""
        work = list(spans)
        if self.propagate:
            work = self.propagator.propagate(text, resolve(work), known)
            work = propagate_acronyms(text, work)
        work = resolve(work)
        work = work + ages_after_names(text, work)
        out = merge_adjacent(resolve(work), text)
        want = wanted_categories(entities)
        return out if want is None else [s for s in out if s.category in want]

    def analyze(self, text: str, entities: Sequence[Category] | None = None, context: NoteContext | None = None) -> list[Span]:
        known = context.known_names if context is not None else None
        return self.finish(text, self.raw_spans(text, entities, context), known, entities)

    def analyze_batch(self, notes: Sequence[BatchNote]) -> list[list[Span]]:
        """Detect every note; names travel across the notes of each patient."""
        return propagate_batch(
            notes,
            lambda note, ctx: self.analyze(note.text, context=ctx),
            lambda note, spans, known: self.finish(note.text, spans, known),
        )


def build_default_pipeline(config: DetectConfig | None = None) -> RulesPipeline:
    """Every rule recognizer, sharing one gazetteer; nothing is downloaded."""
    from deid_core.recognizers.context import FacilityRecognizer, NameRecognizer, PlaceCueRecognizer
    from deid_core.recognizers.gazetteer import GazetteerRecognizer, build_resources, default_resources
    from deid_core.recognizers.tables import TableColumnRecognizer
    from deid_core.recognizers.patterns import (
        DateRecognizer,
        LocationPatternRecognizer,
        age_recognizer,
        id_recognizer,
        phone_recognizer,
        web_recognizer,
    )

    config = config or DetectConfig()
    try:
        resources = build_resources(config.gazetteer_dirs) if config.gazetteer_dirs else default_resources()
    except (OSError, ValueError, SpanError) as exc:
        raise DetectConfigError(str(exc)) from None
    factories = {
        "date": DateRecognizer,
        "age": age_recognizer,
        "phone": phone_recognizer,
        "id": id_recognizer,
        "web": web_recognizer,
        "address": lambda: LocationPatternRecognizer(resources.lexicon),
        "gazetteer": lambda: GazetteerRecognizer(resources),
        "facility": lambda: FacilityRecognizer(resources),
        "place_cue": lambda: PlaceCueRecognizer(resources),
        "names": lambda: NameRecognizer(resources),
        "table": TableColumnRecognizer,
    }
    recognizers = [factories[n]() for n in config.recognizers]
    return RulesPipeline(recognizers, propagate=config.propagate, propagator=Propagator(resources.lexicon))
