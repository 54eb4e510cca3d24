"""The recognizer mix: rules, encoder and generative recognizers, in any combination.

Each member finds spans on its own; their union then goes through the rules
pipeline's finishing steps (name propagation across a patient's notes,
overlap resolution, joining address pieces), so a name the encoder found in
one note is found in the patient's other notes too.  A member that fails on
a note fails that note alone: its spans are never silently left out, since
a missing recognizer is a missed identifier.

Configuration (``[detect]``)::

    [detect]
    mix = ["rules", "encoder", "generative"]   # any non-empty combination
    [detect.encoder]
    path = "models/encoder"      # default: the trained default encoder
    threshold = 0.5
    thresholds = { PATIENT = 0.3 }
    [detect.generative]          # passed to build_generative
    model_path = "..."

When the rules are in the mix, a model member's span joins only if no rule
span overlaps it, the model is very sure of it (``[detect] join_score``) and
its text has the shape of its category; where both found something the
rules' span stands, unless it was only a list guess that a sure model span
covers (:mod:`deid_core.recognizers.plausibility`).  A model trained on
synthetic notes is confidently wrong on unfamiliar text (drug names as
patients, billing codes as identifiers), while the rules' boundaries are the
better ones.  Scored alone, a member's spans are its own.

Without ``mix`` the default is rules plus the trained default encoder when
one is present (``deid train encoder``), else rules alone, and the detector
carries a notice saying so.  :func:`resolve_kinds` is that rule, for every
caller.  Members load on first use (a fleet worker that only runs the rules
never loads a model); :meth:`MixedDetector.load` loads them all at once, so
a command fails on a bad model before it reads any input.  A worker's own
configuration may name a factory for a model kind (``[fleet.models.KIND]``),
which replaces that kind's ``[detect.KIND]`` table: one loader serves both.  ``DEID_DETECT_MIX=rules`` (a comma-separated
list) replaces that default without a configuration file, for operators and
for tests that must not depend on whether a model has been trained.
"""


from __future__ import annotations

import importlib
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deid_core.detection import as_batch_detector, as_recognizer_error, run_isolated
from deid_core.environment import DETECT_MIX
from deid_core.notes import ClinicalNote
from deid_core.recognizers.base import NoteContext, RecognizerError
from deid_core.recognizers.kinds import check_kinds
from deid_core.recognizers.known import KnownIdentifierRecognizer, known_wins
from deid_core.recognizers.plausibility import PlausibilityCheck, unite_with_rules
from deid_core.recognizers.pipeline import DetectConfig, DetectConfigError, RulesPipeline, build_default_pipeline
from deid_core.recognizers.propagation import propagate_batch
from deid_core.spans import Category, Span

MIX_ENV = DETECT_MIX.name
NO_ENCODER_NOTICE = "no trained encoder found (train one with `deid train encoder`); detecting with the rules only"
#: Notes per encoder call: windows of several notes share forward passes, and a chunk's last pass is
#: part-filled, so larger chunks waste less (32 notes ran the benchmark corpus about 20% slower than one call).
ENCODER_CHUNK_NOTES = 128

NoteSpans = list[Span] | BaseException


def load_factory(path: str) -> Callable[..., Any]:
    """``module:callable`` from a worker's own configuration (never from a batch)."""
    module_name, _, attr = path.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise DetectConfigError(f"cannot load recognizer factory {path!r}: {type(exc).__name__}") from None


@dataclass
class Member:
    """One recognizer of the mix, loaded on first use, behind a per-batch call."""

    name: str
    loader: Callable[[], Any]
    texts: bool = False  # the recognizer's analyze_batch takes texts
    chunk_notes: int | None = None
    #: batches halved for running out of memory, over this member's life (the fleet audits the change)
    oom_splits: int = field(default=0, init=False)
    _recognizer: Any = field(default=None, init=False, repr=False)

    @property
    def recognizer(self) -> Any:
        if self._recognizer is None:
            self._recognizer = self.loader()
        return self._recognizer

    def batch(self, notes: Sequence[ClinicalNote]) -> list[NoteSpans]:
        """Each note's spans or its error; a member that cannot load fails every note, with why."""
        try:
            detector = as_batch_detector(self.recognizer, self.name, texts=self.texts)
        except Exception as exc:  # noqa: BLE001 - fail closed: no note goes on without this member
            return [exc] * len(notes)
        step = self.chunk_notes or max(1, len(notes))
        out: list[NoteSpans] = []
        for i in range(0, len(notes), step):
            found = run_isolated(self.name, detector.detect_batch, notes[i : i + step])
            self.oom_splits += found.oom_splits
            out.extend(r if isinstance(r, list) else as_recognizer_error(self.name, r) for r in found.results)
        return out


@dataclass
class _RawRules:
    """The rules' own spans, before propagation and resolution: what the mix unites."""

    rules: RulesPipeline
    name: str = "rules"
    version: str = "1"

    def detect_batch(self, notes: Sequence[ClinicalNote]) -> list[list[Span]]:
        return [self.rules.raw_spans(n.text, context=NoteContext(n.id, n.patient_id)) for n in notes]


@dataclass
class MixedDetector:
    """Members' spans, united and finished by the rules pipeline's resolution."""

    members: dict[str, Member]
    finisher: RulesPipeline
    notice: str | None = None
    name: str = field(init=False)
    check: PlausibilityCheck = field(default_factory=PlausibilityCheck)
    #: the patients' known identifiers; their spans win over every member's (docs/known.md)
    known: KnownIdentifierRecognizer | None = None

    def __post_init__(self) -> None:
        if not self.members:
            raise DetectConfigError("the recognizer mix is empty")
        self.name = "+".join(self.members)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.members)

    def load(self) -> "MixedDetector":
        """Load every member now; a member that cannot load is a configuration error."""
        for m in self.members.values():
            try:
                m.recognizer
            except DetectConfigError:
                raise
            except Exception as exc:
                raise DetectConfigError(f"recognizer {m.name!r} cannot load: {exc}") from None
        return self

    def member_spans(self, notes: Sequence[ClinicalNote], names: Sequence[str] | None = None) -> dict[str, list[NoteSpans]]:
        """Each member's own spans for every note, before union and resolution.

        Members run side by side: a model's inference leaves the interpreter
        lock while it runs, so the rules use a core the model would leave idle
        between its batches."""
        use = list(names or self.names)
        if len(use) < 2:
            return {name: self.members[name].batch(notes) for name in use}
        with ThreadPoolExecutor(max_workers=len(use), thread_name_prefix="deid-member") as pool:
            running = {name: pool.submit(self.members[name].batch, notes) for name in use}
            return {name: running[name].result() for name in use}

    def combine(
        self,
        notes: Sequence[ClinicalNote],
        raw: Mapping[str, Sequence[NoteSpans]],
        names: Sequence[str] | None = None,
        *,
        known: bool | KnownIdentifierRecognizer | None = True,
    ) -> list[NoteSpans]:
        """The union of ``names`` (default: all members), propagated and resolved across the batch.

        Known identifiers win last: ``known=True`` uses the detector's own
        (if any), a recognizer uses that one, ``False``/``None`` none.
        """
        use = tuple(names) if names is not None else self.names
        failures: dict[int, BaseException] = {}
        union: list[list[Span]] = []
        for i in range(len(notes)):
            got = {n: raw[n][i] for n in use}
            failed = [g for g in got.values() if isinstance(g, BaseException)]
            if failed:
                failures[i] = failed[0]
                union.append([])
            elif "rules" in got:
                union.append(unite_with_rules(notes[i].text, got["rules"], [got[n] for n in use if n != "rules"], self.check))  # type: ignore[arg-type]
            else:
                union.append([s for n in use for s in got[n]])  # type: ignore[union-attr]
        index = {id(n): i for i, n in enumerate(notes)}

        def detect(note: ClinicalNote, ctx: NoteContext) -> list[Span]:
            i = index[id(note)]
            return [] if i in failures else self.finisher.finish(note.text, union[i])

        def refine(note: ClinicalNote, spans: list[Span], others: Mapping[str, Category]) -> list[Span]:
            return spans if index[id(note)] in failures else self.finisher.finish(note.text, spans, others)

        found = propagate_batch(list(notes), detect, refine) if self.finisher.propagate else [
            detect(n, NoteContext(n.id, n.patient_id)) for n in notes
        ]
        floor = self.known if known is True else (known or None)
        if floor is None:
            return [failures.get(i, spans) for i, spans in enumerate(found)]
        return [failures.get(i) or _with_known(floor, notes[i], spans) for i, spans in enumerate(found)]

    def detect_batch(self, notes: Sequence[ClinicalNote]) -> list[NoteSpans]:
        return self.combine(notes, self.member_spans(notes))

    def analyze(self, text: str, entities: Sequence[Category] | None = None, context: NoteContext | None = None) -> list[Span]:
        note = ClinicalNote(context.note_id or "note" if context else "note", text, context.patient_id if context else None)
        out = self.detect_batch([note])[0]
        if isinstance(out, BaseException):
            raise out
        want = None if entities is None else {Category.parse(e) for e in entities}
        return out if want is None else [s for s in out if s.category in want]


def _with_known(known: KnownIdentifierRecognizer, note: ClinicalNote, spans: list[Span]) -> NoteSpans:
    """Known identifiers win last, so no join, arbiter or resolution step can drop them."""
    try:
        found = known.analyze(note.text, context=NoteContext(note.id, note.patient_id))
        return known_wins(note.text, spans, found, known.lexicon)
    except Exception as exc:  # noqa: BLE001 - fail closed: the note fails, never goes out without its floor
        return RecognizerError(f"recognizer 'known' failed: {type(exc).__name__}: {exc}")


def encoder_config(raw: Mapping[str, object], base_dir: Path | None):
    """``[detect.encoder]`` as (path or None, EncoderConfig, label map or None)."""
    from deid_core.recognizers.encoder import EncoderConfig

    path = raw.get("path")
    resolved = None
    if path is not None:
        p = Path(str(path)).expanduser()
        resolved = p if p.is_absolute() or base_dir is None else base_dir / p
    kwargs = {k: v for k, v in raw.items() if k not in ("path", "label_map") and v is not None}
    try:
        cfg = EncoderConfig(**kwargs)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise DetectConfigError(f"[detect.encoder]: {exc}") from None
    return resolved, cfg, raw.get("label_map")


def _override_member(kind: str, spec: Any, device: str | None) -> Member:
    """A worker's own ``factory``/``options`` (a ``fleet.settings.ModelSpec``) for ``kind``."""

    def load() -> Any:
        return load_factory(spec.factory)(device=device or "cpu", **dict(spec.options or {}))

    return Member(kind, load, texts=kind == "encoder", chunk_notes=ENCODER_CHUNK_NOTES if kind == "encoder" else None)


def _encoder_member(config: DetectConfig, device: str | None) -> Member:
    from dataclasses import replace

    from deid_core.recognizers.encoder import default_encoder_path, load_encoder

    path, cfg, label_map = encoder_config(config.encoder, config.base_dir)
    if device is not None and cfg.device is None:
        cfg = replace(cfg, device=device)

    def load() -> Any:
        found = path or default_encoder_path()
        if found is None:
            raise DetectConfigError(
                "the mix names the encoder but no model is configured ([detect.encoder].path) and no trained "
                "default is present (train one with `deid train encoder`)"
            )
        return load_encoder(found, label_map, cfg)

    return Member("encoder", load, texts=True, chunk_notes=ENCODER_CHUNK_NOTES)


def _generative_member(config: DetectConfig, fallback: Callable[[], Any]) -> Member:
    def load() -> Any:
        try:
            from deid_core.recognizers.generative import build_generative
        except ImportError as exc:
            raise DetectConfigError(f"the generative recognizer is not available: {exc}") from None
        try:
            return build_generative(dict(config.generative), fallback=fallback())
        except (ValueError, TypeError) as exc:
            raise DetectConfigError(f"[detect.generative]: {exc}") from None

    return Member("generative", load)


def _env_mix() -> tuple[str, ...] | None:
    raw = DETECT_MIX.get().strip()
    if not raw:
        return None
    try:
        return check_kinds([n.strip() for n in raw.split(",") if n.strip()])
    except ValueError as exc:
        raise DetectConfigError(f"{MIX_ENV}={raw!r}: {exc}") from None


def resolve_kinds(config: DetectConfig | None = None) -> tuple[tuple[str, ...], str | None]:
    """The members that run, and the notice to show, if any.

    ``[detect] mix`` when set, else ``DEID_DETECT_MIX``, else the rules plus
    the encoder when one is configured or trained, else the rules alone
    (with a notice).
    """
    config = config or DetectConfig()
    if config.mix is not None:
        return config.mix, None
    env = _env_mix()
    if env is not None:
        return env, None
    from deid_core.recognizers.encoder import default_encoder_path

    if config.encoder.get("path") is not None or default_encoder_path() is not None:
        return ("rules", "encoder"), None
    return ("rules",), NO_ENCODER_NOTICE


def build_mix(
    config: DetectConfig | None = None,
    base_dir: Path | None = None,
    *,
    kinds: Sequence[str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    device: str | None = None,
    eager: bool = True,
) -> MixedDetector:
    """The detector that ``[detect]`` asks for (see the module docstring).

    ``kinds`` fixes the members (a fleet batch's plan); ``overrides`` maps a
    model kind to a worker's ``factory``/``options``; ``eager`` loads every
    member now.
    """
    config = config or DetectConfig()
    if base_dir is not None and config.base_dir is None:
        from dataclasses import replace

        config = replace(config, base_dir=base_dir)
    notice = None
    if kinds is None:
        kinds, notice = resolve_kinds(config)
    try:
        kinds = check_kinds(kinds)
    except ValueError as exc:
        raise DetectConfigError(f"recognizers: {exc}") from None
    rules = build_default_pipeline(config)
    overrides = overrides or {}
    built: dict[str, Member] = {}
    for kind in sorted(kinds, key=lambda k: k == "generative"):  # the generative member's fallback is built first
        if kind in overrides:
            built[kind] = _override_member(kind, overrides[kind], device)
        elif kind == "rules":
            built[kind] = Member("rules", lambda: _RawRules(rules))
        elif kind == "encoder":
            built[kind] = _encoder_member(config, device)
        else:
            # What the QC layer escalates a doubtful note to: the encoder when it is in the mix.
            enc = built.get("encoder")
            built[kind] = _generative_member(config, (lambda: enc.recognizer) if enc is not None else (lambda: rules))
    mix = MixedDetector({k: built[k] for k in kinds}, rules, notice, check=PlausibilityCheck(join_score=config.join_score))
    return mix.load() if eager else mix
