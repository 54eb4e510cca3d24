"""The generative recognizer: prompt, generate, read, ground, QC; one report per note.

``detect_batch`` sends every chunk of every note to the backend in one call
(vLLM in-process turns that into one ``LLM.generate``), then reads each
note's outputs.  After each call, ``last_reports`` holds one
:class:`NoteReport` per note, in input order; ``stats`` accumulates over the
recognizer's life.  Reports hold counts and action codes only, never note
text or returned strings, so they are safe to log.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from deid_core.recognizers.base import LabelMap, LabelMapError, NoteContext, Recognizer, RecognizerError, wanted_categories
from deid_core.recognizers.generative.backends import (
    ENDPOINTS,
    STRUCTURED_FIELDS,
    GenerationBackend,
    ServerBackend,
    TransformersBackend,
    VLLMBackend,
)
from deid_core.recognizers.generative.chunking import plan_chunks
from deid_core.recognizers.generative.grounding import ground
from deid_core.recognizers.generative.prompt import INSTRUCTION_STYLES, Example, build_prompt, few_shot_examples
from deid_core.recognizers.generative.qc import QCConfig, QualityControl, read_output
from deid_core.recognizers.generative.schema import ENTITY_TYPES, default_label_map
from deid_core.resolution import resolve
from deid_core.spans import Category, Span

BACKENDS: tuple[str, ...] = ("transformers", "vllm-server", "vllm")
FORMATS: tuple[str, ...] = ("xml", "json")


class GenerativeConfigError(ValueError):
    pass


class NoteLike(Protocol):
    """What ``detect_batch`` needs of a note (``deid_core.notes.ClinicalNote`` fits)."""

    id: str
    text: str
    patient_id: str | None


@dataclass(frozen=True)
class _Note:
    id: str
    text: str
    patient_id: str | None = None


@dataclass(frozen=True)
class GenerativeConfig:
    """Validated ``build_generative`` options (unknown keys are errors)."""

    backend: str = "transformers"
    model_path: str | None = None
    base_url: str | None = None
    model: str | None = None
    endpoint: str = "completions"
    structured: str = "structured_outputs"
    api_key_env: str | None = None
    timeout_s: float = 120.0
    concurrency: int = 16
    vllm_options: Mapping[str, object] = field(default_factory=dict)
    device: str | None = None
    batch_size: int = 8
    few_shot: int = 0
    few_shot_seed: int = 7
    instructions: str = "standard"
    format: str = "xml"
    max_new_tokens: int = 512
    chunk_chars: int = 1500
    overlap_chars: int = 200
    score: float = 0.9
    label_map: Mapping[str, str] = field(default_factory=dict)
    qc: QCConfig = field(default_factory=QCConfig)
    name: str = "generative"

    @classmethod
    def from_mapping(cls, raw: Mapping[str, object]) -> "GenerativeConfig":
        qc_keys = {"patterns", "escalate", "empty_min_chars", "sparse_min_chars", "min_density"}
        known = {f for f in cls.__dataclass_fields__ if f != "qc"} | qc_keys
        unknown = sorted(set(raw) - known)
        if unknown:
            raise GenerativeConfigError(f"generative: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        values = {k: v for k, v in raw.items() if k not in qc_keys}
        if "backend" not in values:
            values["backend"] = "vllm-server" if values.get("base_url") else "transformers"
        patterns = raw.get("patterns", [])
        if not (isinstance(patterns, (list, tuple)) and all(isinstance(p, str) for p in patterns)):
            raise GenerativeConfigError("generative: patterns must be a list of pattern kinds")
        try:
            qc = QCConfig(**{k: (tuple(v) if k == "patterns" else v) for k, v in raw.items() if k in qc_keys})  # type: ignore[arg-type]
            return cls(**values, qc=qc)  # type: ignore[arg-type]
        except GenerativeConfigError:
            raise
        except (TypeError, ValueError) as exc:
            raise GenerativeConfigError(f"generative: {exc}") from None

    def __post_init__(self) -> None:
        def need(ok: bool, message: str) -> None:
            if not ok:
                raise GenerativeConfigError(f"generative: {message}")

        need(self.backend in BACKENDS, f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        need(self.instructions in INSTRUCTION_STYLES, f"instructions must be one of {', '.join(INSTRUCTION_STYLES)}")
        need(self.format in FORMATS, f"format must be one of {', '.join(FORMATS)}, got {self.format!r}")
        if self.backend == "vllm-server":
            need(bool(self.base_url) and bool(self.model), "backend 'vllm-server' needs base_url and model")
            need(self.model_path is None, "backend 'vllm-server' takes base_url and model, not model_path")
            need(str(self.base_url).startswith(("http://", "https://")), f"base_url must be an http(s) URL, got {self.base_url!r}")
        else:
            need(bool(self.model_path), f"backend {self.backend!r} needs model_path (a local directory)")
            need(self.base_url is None, f"backend {self.backend!r} loads model_path; base_url is for 'vllm-server'")
        need(self.endpoint in ENDPOINTS, f"endpoint must be one of {', '.join(ENDPOINTS)}")
        need(self.structured in STRUCTURED_FIELDS, f"structured must be one of {', '.join(STRUCTURED_FIELDS)}")
        need(isinstance(self.few_shot, int) and self.few_shot >= 0, "few_shot must be an integer >= 0")
        for key in ("max_new_tokens", "chunk_chars", "batch_size", "concurrency"):
            need(isinstance(getattr(self, key), int) and getattr(self, key) >= 1, f"{key} must be an integer >= 1")
        need(
            isinstance(self.overlap_chars, int) and 0 <= self.overlap_chars < self.chunk_chars // 2,
            "overlap_chars must be an integer in [0, chunk_chars/2)",
        )
        need(0.0 < float(self.score) <= 1.0, "score must be in (0, 1]")
        need(float(self.timeout_s) > 0, "timeout_s must be positive")
        need(isinstance(self.label_map, Mapping), "label_map must be a table of schema label -> category")
        need(isinstance(self.vllm_options, Mapping), "vllm_options must be a table")


@dataclass
class NoteReport:
    """What happened to one note; counts and action codes only (no text)."""

    note_id: str | None
    chars: int
    chunks: int = 0
    parsed: bool = True  # every chunk's output was well-formed as written
    repaired_chunks: int = 0
    unparseable_chunks: int = 0
    truncated_generations: int = 0
    strings_returned: int = 0
    strings_grounded: int = 0
    ungrounded_dropped: int = 0
    model_spans: int = 0
    pattern_spans_added: int = 0
    fallback_spans_added: int = 0
    empty_output: bool = False
    escalated: str | None = None
    qc_actions: list[str] = field(default_factory=list)
    spans: int = 0

    @property
    def grounding_rate(self) -> float | None:
        return self.strings_grounded / self.strings_returned if self.strings_returned else None

    def to_dict(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__} | {"grounding_rate": self.grounding_rate}


@dataclass
class GenerativeStats:
    """Running totals: parse, grounding and empty-output rates over all notes seen."""

    notes: int = 0
    parsed_notes: int = 0
    unparseable_notes: int = 0
    empty_notes: int = 0
    escalated_notes: int = 0
    strings_returned: int = 0
    strings_grounded: int = 0
    generations: int = 0
    seconds: float = 0.0

    def add(self, report: NoteReport) -> None:
        self.notes += 1
        self.parsed_notes += report.parsed
        self.unparseable_notes += report.unparseable_chunks > 0
        self.empty_notes += report.empty_output
        self.escalated_notes += report.escalated is not None
        self.strings_returned += report.strings_returned
        self.strings_grounded += report.strings_grounded

    @property
    def parse_rate(self) -> float:
        return self.parsed_notes / self.notes if self.notes else 0.0

    @property
    def grounding_rate(self) -> float:
        return self.strings_grounded / self.strings_returned if self.strings_returned else 0.0

    @property
    def empty_rate(self) -> float:
        return self.empty_notes / self.notes if self.notes else 0.0


class GenerativeRecognizer:
    """A generative model behind the recognizer protocol (see :func:`build_generative`)."""

    def __init__(
        self,
        backend: GenerationBackend,
        config: GenerativeConfig,
        *,
        fallback: Recognizer | None = None,
        examples: Sequence[Example] | None = None,
    ) -> None:
        self.backend = backend
        self.config = config
        self.name = config.name
        self.version = f"{backend.name}-{backend.version}"
        self.label_map: LabelMap = default_label_map().with_labels(dict(config.label_map)) if config.label_map else default_label_map()
        try:
            missing = [t for t in ENTITY_TYPES if t not in self.label_map]
            if missing:
                raise LabelMapError(f"the label map has no category for {', '.join(missing)}")
            self.categories = frozenset(c for c in self.label_map.values() if c is not Category.OTHER)
        except LabelMapError as exc:
            raise GenerativeConfigError(f"generative: {exc}") from None
        self.examples = list(examples) if examples is not None else few_shot_examples(config.few_shot, config.format, seed=config.few_shot_seed)
        self.fallback = fallback
        self.qc = QualityControl(config.qc, fallback)
        self.last_reports: list[NoteReport] = []
        self.stats = GenerativeStats()

    def prompt_for(self, chunk_text: str) -> str:
        return build_prompt(chunk_text, self.examples, self.config.format, self.config.instructions)

    # -- protocol --------------------------------------------------------
    def analyze(
        self,
        text: str,
        entities: Sequence[Category] | None = None,
        context: NoteContext | None = None,
    ) -> list[Span]:
        note_id = context.note_id if context is not None and context.note_id else "note"
        patient = context.patient_id if context is not None else None
        spans = self._detect([_Note(note_id, text, patient)], [context])[0]
        want = wanted_categories(entities)
        return spans if want is None else [s for s in spans if s.category in want]

    def detect_batch(self, notes: Sequence[NoteLike]) -> list[list[Span]]:
        """Spans for each note, all chunks generated in one backend call."""
        return self._detect(notes, [NoteContext(n.id, getattr(n, "patient_id", None)) for n in notes])

    def analyze_batch(self, notes: Sequence[NoteLike | str]) -> list[list[Span]]:
        """Like :meth:`detect_batch`; plain texts are accepted too (ids become their positions)."""
        if isinstance(notes, str):
            raise TypeError("analyze_batch takes a sequence of notes or texts, not one string")
        return self.detect_batch([_Note(str(i), n) if isinstance(n, str) else n for i, n in enumerate(notes)])

    # -- work ------------------------------------------------------------
    def _detect(self, notes: Sequence[NoteLike], contexts: Sequence[NoteContext | None]) -> list[list[Span]]:
        if isinstance(notes, str):
            raise TypeError("detect_batch takes a sequence of notes, not one string")
        started = time.perf_counter()
        plans = []
        prompts: list[str] = []
        for n in notes:
            if not isinstance(n.text, str):
                raise RecognizerError(f"note {n.id!r}: text must be a string")
            chunks = plan_chunks(n.text, self.config.chunk_chars, self.config.overlap_chars) if n.text.strip() else []
            plans.append((len(prompts), chunks))
            prompts.extend(self.prompt_for(c.text_of(n.text)) for c in chunks)
        try:
            generations = self.backend.generate(prompts, self.config.max_new_tokens) if prompts else []
        except RecognizerError:
            raise
        except Exception as exc:
            if _is_out_of_memory(exc):
                raise  # as it is, so the batch is split in halves upstream
            raise RecognizerError(
                f"generative backend {self.backend.name!r} failed on a batch of {len(notes)} notes: {type(exc).__name__}"
            ) from exc
        if len(generations) != len(prompts):
            raise RecognizerError(f"backend returned {len(generations)} generations for {len(prompts)} prompts")
        reports: list[NoteReport] = []
        out: list[list[Span]] = []
        for n, ctx, (first, chunks) in zip(notes, contexts, plans):
            report = NoteReport(n.id, len(n.text), chunks=len(chunks))
            entities = []
            for g in generations[first : first + len(chunks)]:
                parsed = read_output(g.text, self.config.format)
                if g.truncated:
                    report.truncated_generations += 1
                    report.qc_actions.append("generation_truncated")
                if not parsed.strict:
                    report.parsed = False
                    if parsed.usable:
                        report.repaired_chunks += 1
                    else:
                        report.unparseable_chunks += 1
                        report.qc_actions.append("unparseable")
                report.qc_actions.extend(f"repaired:{r}" for r in parsed.repairs)
                entities.extend(parsed.entities)
            g_result = ground(n.text, entities, self.label_map, self.name, self.config.score)
            report.strings_returned = g_result.strings
            report.strings_grounded = g_result.grounded
            report.ungrounded_dropped = g_result.ungrounded
            if g_result.ungrounded:
                report.qc_actions.append(f"ungrounded_dropped:{g_result.ungrounded}")
            if g_result.extended:
                report.qc_actions.append(f"truncated_string_completed:{g_result.extended}")
            report.model_spans = len(g_result.spans)
            report.empty_output = g_result.strings == 0
            qc = self.qc.apply(
                n.id,
                n.text,
                g_result.spans,
                unreadable=report.unparseable_chunks > 0,
                strings=g_result.strings,
                context=ctx,
            )
            report.qc_actions.extend(qc.actions)
            report.pattern_spans_added = qc.pattern_spans_added
            report.fallback_spans_added = qc.fallback_spans_added
            report.escalated = qc.escalated
            spans = resolve(qc.spans)
            report.spans = len(spans)
            reports.append(report)
            out.append(spans)
        self.last_reports = reports
        for r in reports:
            self.stats.add(r)
        self.stats.generations += len(prompts)
        self.stats.seconds += time.perf_counter() - started
        return out


def _is_out_of_memory(exc: BaseException) -> bool:
    return isinstance(exc, MemoryError) or "OutOfMemory" in type(exc).__name__ or "out of memory" in str(exc).lower()


def _make_backend(config: GenerativeConfig) -> GenerationBackend:
    if config.backend == "transformers":
        return TransformersBackend(config.model_path, device=config.device, batch_size=config.batch_size)  # type: ignore[arg-type]
    if config.backend == "vllm":
        return VLLMBackend(config.model_path, fmt=config.format, options=config.vllm_options)  # type: ignore[arg-type]
    api_key = os.environ.get(config.api_key_env) if config.api_key_env else None
    return ServerBackend(
        config.base_url,  # type: ignore[arg-type]
        config.model,  # type: ignore[arg-type]
        fmt=config.format,
        endpoint=config.endpoint,
        structured=config.structured,
        timeout_s=float(config.timeout_s),
        concurrency=config.concurrency,
        api_key=api_key,
    )


def build_generative(config: Mapping[str, object] | GenerativeConfig, fallback: Recognizer | None = None) -> GenerativeRecognizer:
    """A generative recognizer from configuration; ``fallback`` is what QC escalates to.

    Keys: ``backend`` ("transformers" | "vllm-server" | "vllm"; default
    "vllm-server" when ``base_url`` is given, else "transformers"),
    ``model_path`` or ``base_url`` + ``model``, ``few_shot``, ``format``,
    ``max_new_tokens``, ``chunk_chars``, ``overlap_chars``, the QC keys
    (``patterns``, ``escalate``, ``empty_min_chars``, ``sparse_min_chars``,
    ``min_density``) and the rest of :class:`GenerativeConfig`.
    """
    cfg = config if isinstance(config, GenerativeConfig) else GenerativeConfig.from_mapping(config)
    return GenerativeRecognizer(_make_backend(cfg), cfg, fallback=fallback)
