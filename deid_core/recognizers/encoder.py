"""A Hugging Face token classifier as a recognizer.

Any token-classification model on local disk fills the slot: its labels reach
our categories through a :class:`LabelMap`, in BIO or IO form.  Notes longer
than the model's window are cut into token-accurate windows (512-token budget,
40-token overlap); every token is decided by the one window in which it sits
furthest from an edge, so a span at a window boundary comes out once, with
offsets taken from the fast tokenizer's offset mapping into the original text.

Decoding is biased toward recall: a token is PHI when ``1 - P(O)`` passes its
category's threshold, even where ``O`` is the single most likely label,
because a missed identifier is a disclosure while a false alarm only costs a
clinical word.

On a CPU the model runs in ONNX Runtime when the model directory holds
``model.onnx`` (every build of ours writes it and an int8 form,
``model.int8.onnx``, beside it): in int8 where the build's model card says
the int8 form kept its held-out accuracy, in fp32 otherwise
(``docs/detection.md``), as many one-thread passes at once as this process
may use cores; in torch when there is no ONNX form, and in fp16 on a GPU.

Nothing is fetched at run time: the loader sets ``HF_HUB_OFFLINE``, passes
``local_files_only`` and refuses anything that is not a local directory.
torch, transformers and onnxruntime are imported lazily, so ``deid_core``
imports without them.
"""

from __future__ import annotations

from deid_core.environment import ENCODER_DIR
import hashlib
import json
import math
import os
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from deid_core.recognizers.base import (
    LabelMap,
    NoteContext,
    RecognizerError,
    resolve_label_map,
    wanted_categories,
)
from deid_core.spans import Category, Evidence, Span

if TYPE_CHECKING:  # pragma: no cover
    import torch

ENCODER_DIR_ENV = ENCODER_DIR.name
DEFAULT_WINDOW_TOKENS = 512
DEFAULT_OVERLAP_TOKENS = 40
DEFAULT_THRESHOLD = 0.5
#: The CPU forms of a model, beside its torch weights: fp32 and int8 ONNX.
ONNX_MODEL_FILE = "model.onnx"
INT8_MODEL_FILE = "model.int8.onnx"
PRECISIONS = ("auto", "fp32", "int8")
#: The model card a build writes, and its entry naming the CPU form that build verified (``int8`` or ``fp32``).
MODEL_CARD_FILE = "model_card.json"
CPU_PRECISION_KEY = "cpu_precision"
CPU_BATCH_TOKENS = 2048
GPU_BATCH_TOKENS = 16384


def repo_model_dir() -> Path:
    """Where ``deid train encoder`` writes by default: ``models/encoder/`` at the repo root."""
    return Path(__file__).resolve().parents[2] / "models" / "encoder"


def default_encoder_path() -> Path | None:
    """The encoder the default pipeline should load, or None for rules only.

    ``DEID_ENCODER_DIR`` wins when set, and is returned even if it holds no
    model: an operator who asked for an encoder must get a loud load failure,
    not a silent fall-back to rules.
    """
    override = ENCODER_DIR.get().strip()
    if override:
        return Path(override).expanduser()
    candidate = repo_model_dir()
    if (candidate / "config.json").is_file():
        return candidate
    return None


# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EncoderConfig:
    """How the token classifier is run and decoded.

    ``window_tokens`` counts the model's special tokens; ``batch_tokens`` is
    the padded-token budget of one forward pass (windows x padded length).
    Left unset it depends on the device: a CPU runs fastest on small batches
    that stay in cache, a GPU on large ones.
    """

    window_tokens: int = DEFAULT_WINDOW_TOKENS
    overlap_tokens: int = DEFAULT_OVERLAP_TOKENS
    threshold: float = DEFAULT_THRESHOLD
    thresholds: Mapping[Category, float] = field(default_factory=dict)
    batch_tokens: int | None = None
    max_batch_windows: int = 64
    device: str | None = None
    snap_to_words: bool = True
    #: CPU only. ``auto``: the int8 ONNX form where the build verified it, else the fp32 ONNX form,
    #: else the torch weights; ``fp32``: the torch weights; ``int8``: the int8 ONNX form.  A GPU runs fp16.
    precision: str = "auto"
    #: CPU threads (ONNX Runtime: that many passes side by side, one thread each); None: every core this process may use.
    threads: int | None = None

    def __post_init__(self) -> None:
        if self.window_tokens < 8:
            raise ValueError(f"window_tokens must be at least 8, got {self.window_tokens}")
        if not 0 <= self.overlap_tokens < self.window_tokens // 2:
            raise ValueError(
                f"overlap_tokens must be in [0, window_tokens/2), got {self.overlap_tokens} for {self.window_tokens}"
            )
        if self.batch_tokens is not None and self.batch_tokens < self.window_tokens:
            raise ValueError("batch_tokens must hold at least one full window")
        if self.precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {self.precision!r}")
        if self.threads is not None and self.threads < 1:
            raise ValueError(f"threads must be at least 1, got {self.threads}")
        if self.max_batch_windows < 1:
            raise ValueError("max_batch_windows must be at least 1")
        parsed = {Category.parse(k): float(v) for k, v in dict(self.thresholds).items()}
        for cat, value in [(None, float(self.threshold)), *parsed.items()]:
            if not (0.0 <= value < 1.0) or math.isnan(value):
                where = f" for {cat.value}" if cat else ""
                raise ValueError(f"threshold{where} must be in [0, 1), got {value}")
        object.__setattr__(self, "thresholds", parsed)

    def threshold_for(self, category: Category) -> float:
        return self.thresholds.get(category, self.threshold)

    def batch_tokens_for(self, device: str) -> int:
        if self.batch_tokens is not None:
            return self.batch_tokens
        default = GPU_BATCH_TOKENS if device.startswith("cuda") else CPU_BATCH_TOKENS
        return max(default, self.window_tokens)


# ---------------------------------------------------------------------------
# Windowing (pure, no torch)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Window:
    """Content tokens ``[start, end)`` of one note; it decides ``[keep_start, keep_end)``."""

    note: int
    start: int
    end: int
    keep_start: int
    keep_end: int

    @property
    def length(self) -> int:
        return self.end - self.start


def plan_windows(n_tokens: int, budget: int, overlap: int, note: int = 0) -> list[Window]:
    """Cut ``n_tokens`` content tokens into windows of at most ``budget`` tokens.

    Neighbours share ``overlap`` tokens and split them at the middle, so each
    token is kept by exactly one window and has at least ``overlap // 2``
    tokens of context on each side unless it is near the note's own edge.
    """
    if budget < 1 or not 0 <= overlap < budget:
        raise ValueError(f"need budget >= 1 and 0 <= overlap < budget, got {budget}, {overlap}")
    if n_tokens <= 0:
        return []
    if n_tokens <= budget:
        return [Window(note, 0, n_tokens, 0, n_tokens)]
    step = budget - overlap
    starts = [0]
    while starts[-1] + budget < n_tokens:
        starts.append(starts[-1] + step)
    windows: list[Window] = []
    for i, s in enumerate(starts):
        e = min(s + budget, n_tokens)
        keep_start = 0 if i == 0 else s + overlap // 2
        keep_end = n_tokens if i == len(starts) - 1 else starts[i + 1] + overlap // 2
        windows.append(Window(note, s, e, keep_start, keep_end))
    return windows


def pack_batches(windows: Sequence[Window], batch_tokens: int, max_windows: int, extra: int) -> list[list[Window]]:
    """Group windows so that count x padded length stays within ``batch_tokens``.

    Windows are sorted longest first, so a batch pads little; ``extra`` is the
    number of special tokens each window adds.
    """
    ordered = sorted(windows, key=lambda w: (-w.length, w.note, w.start))
    batches: list[list[Window]] = []
    current: list[Window] = []
    width = 0
    for w in ordered:
        need = w.length + extra
        new_width = max(width, need)
        if current and (new_width * (len(current) + 1) > batch_tokens or len(current) >= max_windows):
            batches.append(current)
            current, new_width = [], need
        current.append(w)
        width = new_width
    if current:
        batches.append(current)
    return batches


def special_template(tokenizer: Any) -> tuple[list[int], list[int]]:
    """The special tokens a tokenizer puts before and after one sequence.

    Found by probing rather than by tokenizer internals, so it holds for BERT's
    [CLS]/[SEP], RoBERTa's <s>/</s> and anything else with one template.
    """
    plain = list(tokenizer("a", add_special_tokens=False)["input_ids"])
    full = list(tokenizer("a", add_special_tokens=True)["input_ids"])
    if plain:
        for i in range(len(full) - len(plain) + 1):
            if full[i : i + len(plain)] == plain:
                return full[:i], full[i + len(plain) :]
    raise RecognizerError("cannot find where the tokenizer puts the text between its special tokens")


# ---------------------------------------------------------------------------
# Out-of-memory detection
# ---------------------------------------------------------------------------


def is_out_of_memory(exc: BaseException) -> bool:
    """True for a CUDA OOM, whether torch raised its own class or a RuntimeError."""
    try:
        import torch

        oom_types: tuple[type[BaseException], ...] = (torch.cuda.OutOfMemoryError,)
    except (ImportError, AttributeError):  # pragma: no cover - torch without cuda module
        oom_types = ()
    if oom_types and isinstance(exc, oom_types):
        return True
    return isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower()


# ---------------------------------------------------------------------------
# The recognizer
# ---------------------------------------------------------------------------


@dataclass
class InferenceStats:
    """Counters across calls; ``content_tokens`` excludes special tokens."""

    notes: int = 0
    content_tokens: int = 0
    windows: int = 0
    forward_calls: int = 0
    oom_splits: int = 0
    seconds: float = 0.0
    #: Of ``seconds``: spent in the tokenizer, and in the model's forward passes.
    tokenize_seconds: float = 0.0
    model_seconds: float = 0.0

    @property
    def tokens_per_second(self) -> float:
        return self.content_tokens / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class _Tokenized:
    """One note's content tokens and their character offsets, as arrays."""

    ids: np.ndarray
    starts: np.ndarray
    ends: np.ndarray


_EMPTY = _Tokenized(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))


@dataclass(frozen=True)
class _LabelPlan:
    """Model label indices grouped by our category, with B-/I- roles."""

    outside: tuple[int, ...]
    by_category: dict[Category, tuple[int, ...]]
    begin: dict[Category, tuple[int, ...]]
    bio: bool

    @property
    def order(self) -> tuple[Category, ...]:
        return tuple(self.by_category)

    def columns(self, n_labels: int) -> list[list[float]]:
        """A (labels x (1 + 2C)) matrix summing probabilities into
        [P(O), P(category)..., P(B-category)...] per token."""
        cats = self.order
        matrix = [[0.0] * (1 + 2 * len(cats)) for _ in range(n_labels)]
        for i in self.outside:
            matrix[i][0] = 1.0
        for j, cat in enumerate(cats):
            for i in self.by_category[cat]:
                matrix[i][1 + j] = 1.0
            for i in self.begin.get(cat, ()):
                matrix[i][1 + len(cats) + j] = 1.0
        return matrix


def _label_plan(labels: Sequence[str], label_map: LabelMap) -> _LabelPlan:
    outside: list[int] = []
    groups: dict[Category, list[int]] = {}
    begin: dict[Category, list[int]] = {}
    bio = False
    for i, label in enumerate(labels):
        if LabelMap.is_outside(label):
            outside.append(i)
            continue
        cat = label_map.map(label)  # an unmapped label fails here, at load time
        groups.setdefault(cat, []).append(i)
        prefix = label.strip().upper()[:2]
        if prefix in ("B-", "B_", "S-", "S_", "U-", "U_"):
            begin.setdefault(cat, []).append(i)
            bio = True
        elif prefix in ("I-", "I_", "E-", "E_", "L-", "L_"):
            bio = True
    if not outside:
        raise RecognizerError("the model has no 'O' label, so nothing could ever be decided as outside an entity")
    if not groups:
        raise RecognizerError("the model has no entity labels")
    return _LabelPlan(
        tuple(outside),
        {c: tuple(v) for c, v in groups.items()},
        {c: tuple(v) for c, v in begin.items()},
        bio,
    )


class EncoderRecognizer:
    """A token classifier behind the recognizer protocol.

    Build one with :func:`load_encoder`; the constructor takes any callable
    model ``(input_ids, attention_mask) -> logits`` so that tests and other
    backends can stand in for a transformers model.
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        labels: Sequence[str],
        label_map: LabelMap | Mapping[str, Category | str] | None = None,
        config: EncoderConfig | None = None,
        *,
        name: str = "encoder",
        version: str = "1",
        device: str = "cpu",
    ) -> None:
        if not getattr(tokenizer, "is_fast", False):
            raise RecognizerError("the encoder needs a fast tokenizer: offsets come from its offset mapping")
        self.model = model
        self.tokenizer = tokenizer
        self.labels = tuple(labels)
        self.label_map: LabelMap = resolve_label_map(label_map, LabelMap.identity())
        self.config = config or EncoderConfig()
        self.name = name
        self.version = version
        self.device = device
        self._plan = _label_plan(self.labels, self.label_map)
        self.categories: frozenset[Category] = frozenset(self._plan.by_category)
        for cat in self.config.thresholds:
            if cat not in self.categories:
                raise RecognizerError(f"threshold given for {cat.value}, which this model never predicts")
        self._prefix, self._suffix = special_template(tokenizer)
        extra = len(self._prefix) + len(self._suffix)
        limit = self.config.window_tokens
        model_max = getattr(tokenizer, "model_max_length", None)
        if isinstance(model_max, int) and 0 < model_max < limit:
            limit = model_max
        self.content_budget = limit - extra
        if self.content_budget <= self.config.overlap_tokens:
            raise RecognizerError(f"a window of {limit} tokens leaves no room beside {extra} special tokens")
        pad = getattr(tokenizer, "pad_token_id", None)
        self._pad_id = int(pad) if pad is not None else 0
        self._batch_tokens = self.config.batch_tokens_for(device)
        self._columns: Any = None
        self._thresholds = np.array([self.config.threshold_for(c) for c in self._plan.order], dtype=np.float64)
        self.stats = InferenceStats()
        self._stats_lock = threading.Lock()
        #: forward passes run side by side, as many as the model says it takes at once (an ONNX Runtime session on a
        #: CPU: one per thread, each pass on one thread); any other model runs one pass at a time
        self.concurrent_batches = max(1, int(getattr(model, "concurrent_batches", 1)))

    @property
    def batch_tokens(self) -> int:
        """The padded-token budget now in force; it halves after each out-of-memory split."""
        return self._batch_tokens

    # -- protocol --------------------------------------------------------
    def analyze(
        self,
        text: str,
        entities: Sequence[Category] | None = None,
        context: NoteContext | None = None,
    ) -> list[Span]:
        return self.analyze_batch([text], entities)[0]

    def analyze_batch(self, texts: Sequence[str], entities: Sequence[Category] | None = None) -> list[list[Span]]:
        """Spans for each text; windows of all texts share forward passes."""
        if isinstance(texts, str):
            raise TypeError("analyze_batch takes a sequence of texts, not one string")
        want = wanted_categories(entities)
        if want is not None and not (want & self.categories):
            return [[] for _ in texts]
        started = time.perf_counter()
        tokenized = self._tokenize_all(texts)
        windows = [
            w
            for i, tok in enumerate(tokenized)
            for w in plan_windows(len(tok.ids), self.content_budget, self.config.overlap_tokens, note=i)
        ]
        width = 1 + 2 * len(self._plan.order)
        feats = [np.zeros((len(t.ids), width), dtype=np.float32) for t in tokenized]
        filled = [np.zeros(len(t.ids), dtype=bool) for t in tokenized]
        batches = pack_batches(windows, self._batch_tokens, self.config.max_batch_windows, len(self._prefix) + len(self._suffix))
        for batch, results in zip(batches, self._run_all(batches, tokenized)):
            for w, rows in zip(batch, results):
                feats[w.note][w.keep_start : w.keep_end] = rows[w.keep_start - w.start : w.keep_end - w.start]
                filled[w.note][w.keep_start : w.keep_end] = True
        out: list[list[Span]] = []
        for text, tok, note_feats, done in zip(texts, tokenized, feats, filled):
            if not done.all():  # pragma: no cover - a planning bug must not pass silently
                raise RecognizerError("a token received no prediction; refusing to return partial spans")
            spans = self._decode(text, tok, note_feats)
            out.append(spans if want is None else [s for s in spans if s.category in want])
        self.stats.notes += len(texts)
        self.stats.content_tokens += sum(len(t.ids) for t in tokenized)
        self.stats.windows += len(windows)
        self.stats.seconds += time.perf_counter() - started
        return out

    # -- tokenization ----------------------------------------------------
    def _tokenize_all(self, texts: Sequence[str]) -> list[_Tokenized]:
        """All texts in one call, so the fast tokenizer works through them in Rust, not per note in Python."""
        started = time.perf_counter()
        for text in texts:
            if not isinstance(text, str):
                raise RecognizerError(f"note text must be a string, got {type(text).__name__}")
        todo = [i for i, t in enumerate(texts) if t.strip()]
        out = [_EMPTY] * len(texts)
        if todo:
            enc = self.tokenizer(
                [texts[i] for i in todo], add_special_tokens=False, return_offsets_mapping=True, verbose=False
            )
            for i, ids, offsets in zip(todo, enc["input_ids"], enc["offset_mapping"]):
                if len(ids) != len(offsets):
                    raise RecognizerError("tokenizer returned offsets that do not match its tokens")
                spans = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
                out[i] = _Tokenized(np.asarray(ids, dtype=np.int64), spans[:, 0], spans[:, 1])
        self.stats.tokenize_seconds += time.perf_counter() - started
        return out

    # -- inference -------------------------------------------------------
    def _run_all(self, batches: Sequence[Sequence[Window]], tokenized: Sequence[_Tokenized]) -> Iterable[list[np.ndarray]]:
        """Every batch's rows, in order.  Single-threaded passes side by side use a small machine's cores
        better than one pass split across them, whose threads wait for each other at every layer while the
        rules hold one of the cores (docs/detection.md has the measurement)."""
        if self.concurrent_batches == 1 or len(batches) < 2:
            return (self._run_batch(b, tokenized) for b in batches)
        with ThreadPoolExecutor(max_workers=self.concurrent_batches, thread_name_prefix="deid-encoder") as pool:
            return list(pool.map(lambda b: self._run_batch(b, tokenized), batches))

    def _run_batch(self, batch: Sequence[Window], tokenized: Sequence[_Tokenized]) -> list[np.ndarray]:
        """Pooled probabilities per content token of each window; splits the batch on OOM."""
        try:
            return self._infer(batch, tokenized)
        except Exception as exc:
            if not is_out_of_memory(exc):
                raise
            self._release_memory()
            if len(batch) == 1:
                w = batch[0]
                raise RecognizerError(
                    f"out of memory on a single window of {w.length} tokens; lower window_tokens"
                ) from exc
            self.stats.oom_splits += 1
            # Later batches start smaller, so one OOM does not repeat on every batch.
            self._batch_tokens = max(self.config.window_tokens, self._batch_tokens // 2)
            mid = len(batch) // 2
            return self._run_batch(batch[:mid], tokenized) + self._run_batch(batch[mid:], tokenized)

    def _infer(self, batch: Sequence[Window], tokenized: Sequence[_Tokenized]) -> list[np.ndarray]:
        import torch

        pre, suf = len(self._prefix), len(self._suffix)
        width = max(w.length for w in batch) + pre + suf
        ids = np.full((len(batch), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for i, w in enumerate(batch):
            n = w.length
            ids[i, :pre] = self._prefix
            ids[i, pre : pre + n] = tokenized[w.note].ids[w.start : w.end]
            ids[i, pre + n : pre + n + suf] = self._suffix
            mask[i, : pre + n + suf] = 1
        started = time.perf_counter()
        probs = self._forward(torch.from_numpy(ids), torch.from_numpy(mask))
        with self._stats_lock:
            self.stats.forward_calls += 1
            self.stats.model_seconds += time.perf_counter() - started
        if tuple(probs.shape[:2]) != (len(batch), width) or probs.shape[2] != len(self.labels):
            raise RecognizerError(
                f"model returned shape {tuple(probs.shape)}, expected ({len(batch)}, {width}, {len(self.labels)})"
            )
        if self._columns is None:
            self._columns = torch.tensor(self._plan.columns(len(self.labels)), dtype=torch.float32)
        feats = (probs.float() @ self._columns).numpy()
        return [feats[i, pre : pre + w.length] for i, w in enumerate(batch)]

    def _forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """One forward pass; returns float32 probabilities on the CPU."""
        import torch

        with torch.inference_mode():
            result = self.model(input_ids=input_ids.to(self.device), attention_mask=attention_mask.to(self.device))
            logits = getattr(result, "logits", result)
            return torch.softmax(logits.float(), dim=-1).cpu()

    def _release_memory(self) -> None:
        try:
            import torch

            if torch.cuda.is_available():
                torch.cuda.empty_cache()
        except ImportError:  # pragma: no cover
            pass

    # -- decoding --------------------------------------------------------
    def _decode(self, text: str, tok: _Tokenized, feats: np.ndarray) -> list[Span]:
        """Runs of PHI tokens to spans.

        ``feats`` holds ``[P(O), P(category)..., P(B-category)...]`` per token.
        A token is PHI when ``1 - P(O)`` passes the threshold of its category,
        the most probable one once its B- and I- labels are pooled.  The test
        is vectorised; Python walks only the PHI tokens.
        """
        if not len(tok.ids):
            return []
        order = self._plan.order
        f = feats.astype(np.float64)
        n_cat = len(order)
        phi = 1.0 - f[:, 0]
        best = f[:, 1 : 1 + n_cat].argmax(axis=1)
        rows = np.arange(len(f))
        nonempty = tok.ends > tok.starts  # rare normalisation artefacts carry no text
        is_phi = nonempty & (phi > self._thresholds[best])
        if self._plan.bio:
            b = f[rows, 1 + n_cat + best]
            begins = b > f[rows, 1 + best] - b
        else:
            begins = np.zeros(len(f), dtype=bool)
        # Any text token outside PHI between two PHI tokens keeps them apart.
        breaks = np.cumsum(nonempty & ~is_phi)
        runs: list[tuple[int, int, Category, list[float]]] = []
        prev = -1
        for i in np.flatnonzero(is_phi).tolist():
            start, end, cat = int(tok.starts[i]), int(tok.ends[i]), order[best[i]]
            joined = prev >= 0 and breaks[i] == breaks[prev] and runs[-1][2] is cat
            # A B- label splits two same-category entities only at a word gap,
            # never inside a word that the tokenizer cut into pieces.
            if joined and not (begins[i] and start > tok.ends[prev]):
                s0, _, c0, scores = runs[-1]
                scores.append(float(phi[i]))
                runs[-1] = (s0, end, c0, scores)
            else:
                runs.append((start, end, cat, [float(phi[i])]))
            prev = i
        spans = [self._span(text, s, e, c, scores) for s, e, c, scores in runs]
        return _unite_overlaps(spans)

    def _span(self, text: str, start: int, end: int, cat: Category, scores: list[float]) -> Span:
        if self.config.snap_to_words:
            # A span that stops inside a word would leave part of a name or
            # number in the released text.
            while start > 0 and text[start - 1].isalnum() and text[start].isalnum():
                start -= 1
            while end < len(text) and text[end].isalnum() and text[end - 1].isalnum():
                end += 1
        return Span(start, end, cat, round(sum(scores) / len(scores), 6), self.name, Evidence.MODEL)


def _unite_overlaps(spans: list[Span]) -> list[Span]:
    """Word snapping can make neighbours overlap; unite them under the stronger one."""
    out: list[Span] = []
    for s in sorted(spans, key=lambda x: (x.start, x.end)):
        if out and s.start < out[-1].end:
            last = out.pop()
            keep = last if last.score * last.length >= s.score * s.length else s
            s = replace(keep, start=last.start, end=max(last.end, s.end), score=max(last.score, s.score))
        out.append(s)
    return out


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------


def _force_offline() -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    try:  # the hub reads the variable at import; correct it if it was imported earlier
        import huggingface_hub.constants as hub_constants

        hub_constants.HF_HUB_OFFLINE = True
    except (ImportError, AttributeError):  # pragma: no cover
        pass


def _model_version(path: Path, precision: str) -> str:
    """A short fingerprint of the model's config, tokenizer and weight files, and the precision it runs in.

    The model card is left out: it describes the model and is written after
    the fingerprint is taken.
    """
    digest = hashlib.sha256(precision.encode())
    for f in sorted(path.iterdir()):
        if f.name == MODEL_CARD_FILE:
            continue
        if f.is_file() and (f.suffix in (".json", ".safetensors", ".bin", ".onnx") or f.name == "vocab.txt"):
            stat = f.stat()
            digest.update(f.name.encode())
            digest.update(str(stat.st_size).encode())
            if f.suffix == ".json" and stat.st_size < 1_000_000:
                digest.update(f.read_bytes())
    return digest.hexdigest()[:12]


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), not the machine's count."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - platforms without affinity
        return max(1, os.cpu_count() or 1)


class OnnxTokenClassifier:
    """An ONNX Runtime session in the torch model's place: ``(input_ids, attention_mask) -> logits``."""

    def __init__(self, path: Path, threads: int) -> None:
        try:
            import onnxruntime as ort
        except ImportError as exc:
            raise RecognizerError(f"{path.name} needs onnxruntime installed (the encoder extra): {exc}") from None
        #: the recognizer runs this many passes at once, one thread each (a session may be run from several threads)
        self.concurrent_batches = threads
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own untyped errors
            raise RecognizerError(f"cannot load {path}: {exc}") from None

    def __call__(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        import torch

        feed = {"input_ids": input_ids.cpu().numpy(), "attention_mask": attention_mask.cpu().numpy()}
        return torch.from_numpy(self.session.run(["logits"], feed)[0])


def _verified_cpu_form(model_dir: Path) -> str:
    """``int8`` where the build showed the int8 form keeps held-out accuracy, else fp32 ONNX, else the torch weights."""
    if (model_dir / INT8_MODEL_FILE).is_file():
        try:
            card = json.loads((model_dir / MODEL_CARD_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            card = {}
        if isinstance(card, dict) and card.get(CPU_PRECISION_KEY) == "int8":
            return "int8"
    return "onnx-fp32" if (model_dir / ONNX_MODEL_FILE).is_file() else "fp32"


def pick_device(requested: str | None) -> str:
    import torch

    if requested:
        return requested
    return "cuda" if torch.cuda.is_available() else "cpu"


def load_encoder(
    path: str | os.PathLike[str],
    label_map: LabelMap | Mapping[str, Category | str] | None = None,
    config: EncoderConfig | None = None,
    *,
    name: str = "encoder",
) -> EncoderRecognizer:
    """Load a token classifier from a local directory; never from the hub.

    The model's ``id2label`` names are mapped through ``label_map`` (by default
    our own category names, with B-/I- prefixes); an unmapped label is an
    error here, not a dropped entity later.  fp16 on a GPU; on a CPU see
    :class:`EncoderConfig` ``precision``.
    """
    _force_offline()
    model_dir = Path(path).expanduser()
    if not model_dir.is_dir():
        raise RecognizerError(
            f"encoder model {str(path)!r} is not a local directory; models load from disk only "
            "(nothing is downloaded), so copy the model files there first"
        )
    if not (model_dir / "config.json").is_file():
        raise RecognizerError(f"encoder model directory {model_dir} has no config.json")
    try:
        import torch
        from transformers import AutoConfig, AutoModelForTokenClassification, AutoTokenizer
    except ImportError as exc:
        raise RecognizerError(f"the encoder recognizer needs torch and transformers installed: {exc}") from None
    config = config or EncoderConfig()
    device = pick_device(config.device)
    precision = "fp16" if device.startswith("cuda") else config.precision
    if precision == "auto":
        precision = _verified_cpu_form(model_dir)
    onnx_file = model_dir / (INT8_MODEL_FILE if precision == "int8" else ONNX_MODEL_FILE)
    if precision == "int8" and not onnx_file.is_file():
        raise RecognizerError(f"{model_dir} has no int8 form ({INT8_MODEL_FILE}); rebuild it with `deid train encoder`")
    try:
        tokenizer = AutoTokenizer.from_pretrained(model_dir, local_files_only=True, use_fast=True)
        model_config = AutoConfig.from_pretrained(model_dir, local_files_only=True)
        # An ONNX form stands in for the torch weights, which then need not be read.
        on_onnx = precision in ("int8", "onnx-fp32")
        model = None if on_onnx else AutoModelForTokenClassification.from_pretrained(model_dir, local_files_only=True)
    except (OSError, ValueError) as exc:
        raise RecognizerError(f"cannot load the encoder from {model_dir}: {exc}") from None
    id2label = getattr(model_config, "id2label", None) or {}
    labels = [str(id2label[i]) for i in sorted(id2label)]
    if len(labels) != model_config.num_labels:
        raise RecognizerError(f"model config lists {len(labels)} labels for {model_config.num_labels} outputs")
    if device.startswith("cuda"):
        model = model.eval().to(device=device, dtype=torch.float16)
    else:
        threads = config.threads or available_cores()
        torch.set_num_threads(threads)
        model = OnnxTokenClassifier(onnx_file, threads) if model is None else model.eval().to(device=device, dtype=torch.float32)
    return EncoderRecognizer(
        model,
        tokenizer,
        labels,
        label_map,
        config,
        name=name,
        version=_model_version(model_dir, precision),
        device=device,
    )


def load_default_encoder(config: EncoderConfig | None = None) -> EncoderRecognizer | None:
    """The trained default encoder when one is present, else None (rules only)."""
    path = default_encoder_path()
    return None if path is None else load_encoder(path, config=config)

