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
carries a notice saying so.  ``DEID_DETECT_MIX=rules`` (a comma-separated
list) replaces that default without a configuration file, for operators and
for tests that must not depend on whether a model has been trained.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deid_core.recognizers.base import NoteContext, RecognizerError
from deid_core.recognizers.known import KnownIdentifierRecognizer, known_wins
from deid_core.recognizers.plausibility import PlausibilityCheck, unite_with_rules
from deid_core.recognizers.pipeline import MIX_KINDS, DetectConfig, DetectConfigError, RulesPipeline, build_default_pipeline
from deid_core.recognizers.propagation import BatchNote, propagate_batch
from deid_core.spans import Category, Span

MIX_NAMES: tuple[str, ...] = MIX_KINDS
MIX_ENV = "DEID_DETECT_MIX"
NO_ENCODER_NOTICE = "no trained encoder found (train one with `deid train encoder`); detecting with the rules only"
_ENCODER_KEYS = frozenset(
    {"path", "threshold", "thresholds", "window_tokens", "overlap_tokens", "batch_tokens", "max_batch_windows", "device",
     "snap_to_words", "label_map"}
)
#: Notes per encoder call: windows of several notes share forward passes.
ENCODER_CHUNK_NOTES = 32

NoteSpans = list[Span] | RecognizerError
BatchFn = Callable[[Sequence[BatchNote]], list[NoteSpans]]


def _isolated(name: str, batch: Callable[[Sequence[BatchNote]], list[list[Span]]], notes: Sequence[BatchNote]) -> list[NoteSpans]:
    """Run a batch; when it fails, run its notes one by one so a bad note fails alone."""
    try:
        out = batch(notes)
        if len(out) != len(notes):
            raise RecognizerError(f"recognizer {name!r} returned {len(out)} results for {len(notes)} notes")
        return [_checked(name, n, s) for n, s in zip(notes, out)]
    except Exception as first:  # noqa: BLE001 - any failure is retried note by note, then fails closed
        if len(notes) == 1:
            return [first if isinstance(first, RecognizerError) else RecognizerError(f"recognizer {name!r} failed: {type(first).__name__}: {first}")]
        results: list[NoteSpans] = []
        for n in notes:
            results.extend(_isolated(name, batch, [n]))
        return results


def _checked(name: str, note: BatchNote, spans: Sequence[Span]) -> NoteSpans:
    for s in spans:
        if not isinstance(s, Span) or s.end > len(note.text):
            return RecognizerError(f"recognizer {name!r} returned an invalid span {s!r}")
    return list(spans)


@dataclass
class Member:
    """One recognizer of the mix, behind a per-batch call."""

    name: str
    recognizer: Any
    batch: BatchFn


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

    def member_spans(self, notes: Sequence[BatchNote]) -> dict[str, list[NoteSpans]]:
        """Each member's own spans for every note, before union and resolution."""
        return {name: m.batch(notes) for name, m in self.members.items()}

    def combine(
        self, notes: Sequence[BatchNote], raw: Mapping[str, list[NoteSpans]], names: Sequence[str] | None = None, *, known: bool = True
    ) -> list[NoteSpans]:
        """The union of ``names`` (default: all members), propagated and resolved across the batch.

        With ``known`` (and known identifiers given) their spans win last.
        """
        use = tuple(names) if names is not None else self.names
        failures: dict[int, RecognizerError] = {}
        union: list[list[Span]] = []
        for i in range(len(notes)):
            got = {n: raw[n][i] for n in use}
            failed = [g for g in got.values() if isinstance(g, RecognizerError)]
            if failed:
                failures[i] = failed[0]
                union.append([])
            elif "rules" in got:
                union.append(unite_with_rules(notes[i].text, got["rules"], [got[n] for n in use if n != "rules"], self.check))
            else:
                union.append([s for n in use for s in got[n]])
        index = {id(n): i for i, n in enumerate(notes)}

        def detect(note: BatchNote, ctx: NoteContext) -> list[Span]:
            i = index[id(note)]
            return [] if i in failures else self.finisher.finish(note.text, union[i])

        def refine(note: BatchNote, spans: list[Span], known: Mapping[str, Category]) -> list[Span]:
            return spans if index[id(note)] in failures else self.finisher.finish(note.text, spans, known)

        found = propagate_batch(list(notes), detect, refine) if self.finisher.propagate else [
            detect(n, NoteContext(n.id, n.patient_id)) for n in notes
        ]
        if not known:
            return [failures.get(i, spans) for i, spans in enumerate(found)]
        return [failures.get(i) or self._with_known(notes[i], spans) for i, spans in enumerate(found)]

    def _with_known(self, note: BatchNote, spans: list[Span]) -> NoteSpans:
        """Known identifiers win last, so no join, arbiter or resolution step can drop them."""
        if self.known is None:
            return spans
        try:
            found = self.known.analyze(note.text, context=NoteContext(note.id, note.patient_id))
            return known_wins(note.text, spans, found, self.known.lexicon)
        except Exception as exc:  # noqa: BLE001 - fail closed: the note fails, never goes out without its floor
            return RecognizerError(f"recognizer 'known' failed: {type(exc).__name__}: {exc}")

    def detect_batch(self, notes: Sequence[BatchNote]) -> list[NoteSpans]:
        return self.combine(notes, self.member_spans(notes))

    def analyze(self, text: str, entities: Sequence[Category] | None = None, context: NoteContext | None = None) -> list[Span]:
        note = BatchNote(context.note_id or "note" if context else "note", text, context.patient_id if context else None)
        out = self.detect_batch([note])[0]
        if isinstance(out, RecognizerError):
            raise out
        want = None if entities is None else {Category.parse(e) for e in entities}
        return out if want is None else [s for s in out if s.category in want]


def _rules_member(rules: RulesPipeline) -> Member:
    def one(note: BatchNote) -> NoteSpans:
        try:
            return rules.raw_spans(note.text, context=NoteContext(note.id, note.patient_id))
        except RecognizerError as exc:
            return exc

    return Member("rules", rules, lambda notes: [one(n) for n in notes])


def encoder_config(raw: Mapping[str, object], base_dir: Path | None):
    """``[detect.encoder]`` as (path or None, EncoderConfig, label map or None)."""
    from deid_core.recognizers.encoder import EncoderConfig

    unknown = sorted(set(raw) - _ENCODER_KEYS)
    if unknown:
        raise DetectConfigError(f"[detect.encoder]: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(_ENCODER_KEYS))})")
    path = raw.get("path")
    if path is not None and not isinstance(path, str):
        raise DetectConfigError("[detect.encoder].path must be a path")
    resolved = None
    if path is not None:
        p = Path(path).expanduser()
        resolved = p if p.is_absolute() or base_dir is None else base_dir / p
    kwargs = {k: v for k, v in raw.items() if k not in ("path", "label_map")}
    try:
        cfg = EncoderConfig(**kwargs)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise DetectConfigError(f"[detect.encoder]: {exc}") from None
    label_map = raw.get("label_map")
    if label_map is not None and not isinstance(label_map, Mapping):
        raise DetectConfigError("[detect.encoder].label_map must be a table of label = category")
    return resolved, cfg, label_map


def _encoder_member(raw: Mapping[str, object], base_dir: Path | None, required: bool) -> Member | None:
    from deid_core.recognizers.encoder import default_encoder_path, load_encoder

    path, cfg, label_map = encoder_config(raw, base_dir)
    path = path or default_encoder_path()
    if path is None:
        if required:
            raise DetectConfigError(
                "the mix names the encoder but no model is configured ([detect.encoder].path) and no trained "
                "default is present (train one with `deid train encoder`)"
            )
        return None
    rec = load_encoder(path, label_map, cfg)

    def batch(notes: Sequence[BatchNote]) -> list[NoteSpans]:
        out: list[NoteSpans] = []
        for i in range(0, len(notes), ENCODER_CHUNK_NOTES):
            chunk = notes[i : i + ENCODER_CHUNK_NOTES]
            out.extend(_isolated("encoder", lambda ns: rec.analyze_batch([n.text for n in ns]), chunk))
        return out

    return Member("encoder", rec, batch)


def _generative_member(raw: Mapping[str, object], fallback: Any) -> Member:
    try:
        from deid_core.recognizers.generative import build_generative
    except ImportError as exc:
        raise DetectConfigError(f"the generative recognizer is not available: {exc}") from None
    try:
        rec = build_generative(raw, fallback=fallback)
    except (ValueError, TypeError) as exc:
        raise DetectConfigError(f"[detect.generative]: {exc}") from None
    if callable(getattr(rec, "detect_batch", None)):
        call = lambda ns: rec.detect_batch(list(ns))  # noqa: E731
    else:
        call = lambda ns: [rec.analyze(n.text, context=NoteContext(n.id, n.patient_id)) for n in ns]  # noqa: E731
    return Member("generative", rec, lambda notes: _isolated("generative", call, notes))


def _env_mix() -> tuple[str, ...] | None:
    raw = os.environ.get(MIX_ENV, "").strip()
    if not raw:
        return None
    names = tuple(n.strip() for n in raw.split(",") if n.strip())
    bad = [n for n in names if n not in MIX_NAMES]
    if bad or not names or len(set(names)) != len(names):
        raise DetectConfigError(f"{MIX_ENV}={raw!r}: expected distinct names from {', '.join(MIX_NAMES)}")
    return names


def default_mix() -> tuple[tuple[str, ...], str | None]:
    """The members that run when nothing is configured, and the notice to show, if any.

    For callers that build their own pipeline (``deid run``); :func:`build_mix`
    follows the same rule.
    """
    env = _env_mix()
    if env is not None:
        return env, None
    from deid_core.recognizers.encoder import default_encoder_path

    if default_encoder_path() is not None:
        return ("rules", "encoder"), None
    return ("rules",), NO_ENCODER_NOTICE


def build_mix(config: DetectConfig | None = None, base_dir: Path | None = None) -> MixedDetector:
    """The detector that ``[detect]`` asks for (see the module docstring)."""
    config = config or DetectConfig()
    rules = build_default_pipeline(config)
    wanted = config.mix if config.mix is not None else _env_mix()
    notice = None
    members: dict[str, Member] = {}
    if wanted is None:
        members["rules"] = _rules_member(rules)
        enc = _encoder_member(config.encoder, base_dir or config.base_dir, required=False)
        if enc is None:
            notice = NO_ENCODER_NOTICE
        else:
            members["encoder"] = enc
        return MixedDetector(members, rules, notice, check=PlausibilityCheck(join_score=config.join_score))
    built: dict[str, Member] = {}
    if "rules" in wanted:
        built["rules"] = _rules_member(rules)
    if "encoder" in wanted:
        built["encoder"] = _encoder_member(config.encoder, base_dir or config.base_dir, required=True)  # type: ignore[assignment]
    if "generative" in wanted:
        # What the QC layer escalates a doubtful note to: the encoder when it is in the mix.
        fallback = built["encoder"].recognizer if "encoder" in built else rules
        built["generative"] = _generative_member(config.generative, fallback)
    return MixedDetector({n: built[n] for n in wanted}, rules, notice, check=PlausibilityCheck(join_score=config.join_score))
