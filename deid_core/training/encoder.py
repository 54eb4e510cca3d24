"""Fine-tune the default encoder on synthetic notes, on a CPU.

The recipe is deliberately small: all-MiniLM-L6-v2 from a local package,
short windows, a few epochs, one fixed seed.  The result is written with its
model card, and the held-out scores in that card come from the real
recognizer path (:func:`load_encoder`), not from a training-time shortcut.
"""

from __future__ import annotations

import math
import os
import platform
import random
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from deid_core.recognizers.encoder import CPU_PRECISION_KEY, EncoderConfig, load_encoder, repo_model_dir
from deid_core.training.backbone import (
    BACKBONE_NAME,
    BACKBONE_PACKAGE,
    default_backbone_path,
)
from deid_core.training.card import write_model_card
from deid_core.training.data import (
    BIO_LABELS,
    IGNORE_INDEX,
    TrainWindow,
    note_windows,
    read_gold_notes,
    split_by_patient,
)
from deid_core.training.metrics import CategoryScore, score_spans
from deid_core.training.quantize import int8_keeps_accuracy, write_onnx_models


class TrainingError(RuntimeError):
    """Training could not run or could not write its output."""


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides the trained weights; recorded in the model card."""

    notes: int = 800
    epochs: int = 2
    seed: int = 13
    synth_seed: int | None = None
    heldout_fraction: float = 0.2
    max_length: int = 256
    overlap: int = 40
    batch_size: int = 8
    learning_rate: float = 5e-4
    weight_decay: float = 0.01
    warmup_fraction: float = 0.1
    threshold: float = 0.5
    #: Keep only the backbone's first N transformer layers (None: all); fewer is faster on a CPU.
    layers: int | None = None
    #: The word embeddings stay as pretrained: half the parameters, and names unseen in training keep their meaning.
    freeze_embeddings: bool = True
    #: Dropout for hidden states and attention (None: the backbone's own, 0.1).
    dropout: float | None = None
    threads: int | None = None
    #: Hand-written gold JSONL files added to the training side only (never to the held-out split).
    extra: tuple[str, ...] = ()
    #: How many times each hand-written note is seen per epoch: they are few beside the generated ones.
    extra_repeat: int = 3
    #: Generated registers (None: the generator's default set, which leaves out the opt-in ones).
    registers: tuple[str, ...] | None = None
    #: Share of generated notes written wholly in upper or lower case (``generate_notes(recase=...)``).
    recase: float = 0.0

    def __post_init__(self) -> None:
        if self.extra_repeat < 1:
            raise ValueError(f"extra_repeat must be at least 1, got {self.extra_repeat}")
        if not 0.0 <= self.recase <= 1.0:
            raise ValueError(f"recase must be in [0, 1], got {self.recase}")
        if self.notes < 10:
            raise ValueError(f"notes must be at least 10, got {self.notes}")
        if self.epochs < 1:
            raise ValueError(f"epochs must be at least 1, got {self.epochs}")
        if not 16 <= self.max_length <= 512:
            raise ValueError(f"max_length must be in [16, 512], got {self.max_length}")
        if not 0 <= self.overlap < (self.max_length - 2) // 2:
            raise ValueError(f"overlap must be in [0, max_length/2), got {self.overlap}")
        if self.batch_size < 1 or self.learning_rate <= 0:
            raise ValueError("batch_size and learning_rate must be positive")
        if not 0.0 <= self.warmup_fraction < 1.0:
            raise ValueError("warmup_fraction must be in [0, 1)")
        if self.layers is not None and self.layers < 1:
            raise ValueError(f"layers must be at least 1, got {self.layers}")
        if self.dropout is not None and not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout}")

    @property
    def data_seed(self) -> int:
        return self.seed if self.synth_seed is None else self.synth_seed

    def generated_notes(self) -> list:
        """The generated side of the training data, as the recipe digest also reads it."""
        from deid_core.synth import generate_notes

        return generate_notes(self.notes, self.data_seed, registers=self.registers, recase=self.recase)


@dataclass(frozen=True)
class TrainResult:
    out_dir: Path
    scores: dict[str, CategoryScore]
    scores_strict: dict[str, CategoryScore]
    card: dict = field(repr=False)
    train_seconds: float = 0.0
    tokens_per_second: float = 0.0
    #: The same held-out notes through the int8 form; ``scores`` are the fp32 ONNX form's, which CPUs run.
    scores_int8: dict[str, CategoryScore] = field(default_factory=dict)
    tokens_per_second_int8: float = 0.0


def seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import numpy

        numpy.random.seed(seed % 2**32)
    except ImportError:  # pragma: no cover
        pass


def length_batches(windows: Sequence[TrainWindow], batch_size: int, rng: random.Random) -> list[list[TrainWindow]]:
    """Shuffled batches of similar length, so a CPU pads little."""
    order = list(windows)
    rng.shuffle(order)
    pool = batch_size * 32
    batches: list[list[TrainWindow]] = []
    for i in range(0, len(order), pool):
        chunk = sorted(order[i : i + pool], key=lambda w: len(w.input_ids))
        batches.extend(chunk[j : j + batch_size] for j in range(0, len(chunk), batch_size))
    rng.shuffle(batches)
    return batches


def _collate(batch: Sequence[TrainWindow], pad_id: int) -> tuple[Any, Any, Any]:
    import torch

    width = max(len(w.input_ids) for w in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    labels = torch.full((len(batch), width), IGNORE_INDEX, dtype=torch.long)
    for i, w in enumerate(batch):
        n = len(w.input_ids)
        ids[i, :n] = torch.tensor(w.input_ids)
        mask[i, :n] = 1
        labels[i, :n] = torch.tensor(w.labels)
    return ids, mask, labels


def _staging_dir(out_dir: Path) -> Path:
    return out_dir.parent / f".{out_dir.name}.partial-{os.getpid()}"


def _check_target(out_dir: Path) -> None:
    """Refuse to replace a directory that is not an earlier trained model."""
    if out_dir.exists():
        if not out_dir.is_dir():
            raise TrainingError(f"{out_dir} exists and is not a directory")
        if any(out_dir.iterdir()) and not (out_dir / "model_card.json").is_file():
            raise TrainingError(f"{out_dir} is not empty and holds no earlier model; choose another --out")


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for pkg in ("torch", "transformers", "tokenizers", "onnxruntime", BACKBONE_PACKAGE.replace("_", "-")):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            out[pkg] = "missing"
    return out


def _card(
    config: TrainConfig,
    counts: dict[str, Any],
    training: dict[str, Any],
    recognizer: Any,
    scores: tuple[dict[str, CategoryScore], dict[str, CategoryScore]],
) -> dict[str, Any]:
    """The model card's facts; see :mod:`deid_core.training.card` for the rendering."""
    train, held = counts["train"], counts["heldout"]
    hyper = {
        k: v
        for k, v in asdict(config).items()
        if k not in ("notes", "seed", "synth_seed", "heldout_fraction", "threads", "extra", "extra_repeat", "registers", "recase")
    }
    hyper |= {"optimizer": "AdamW", "schedule": "linear warm-up then linear decay", "grad_clip": 1.0, "steps": training["steps"]}
    stats = recognizer.stats
    return {
        "name": "deid-encoder",
        "version": recognizer.version,
        "task": "token classification of PHI spans (BIO)",
        "labels": list(BIO_LABELS),
        "backbone": {"name": BACKBONE_NAME, "package": BACKBONE_PACKAGE.replace("_", "-"), "license": "Apache-2.0"},
        "data": {
            "generator": "deid_core.synth.generate_notes",
            "generator_seed": config.data_seed,
            "registers": list(config.registers) if config.registers else "default",
            "recase": config.recase,
            "notes": len(counts["notes"]),
            "train_notes": len(train),
            "heldout_notes": len(held),
            "train_patients": len({n.patient_id for n in train}),
            "heldout_patients": len({n.patient_id for n in held}),
            "train_windows": counts["windows"],
            "split": f"by patient, held-out fraction {config.heldout_fraction}, split seed {config.seed}",
            "hand_written_files": [Path(p).name for p in config.extra],
            "hand_written_notes": len(counts.get("written", ())),
            "hand_written_repeat": config.extra_repeat,
        },
        "seed": config.seed,
        "hyperparameters": hyper,
        "training": training,
        "evaluation": {
            "split": "held-out synthetic notes (patient-disjoint)",
            "matching": "span-level, same category, one-to-one per note",
            "decoding_threshold": config.threshold,
            "precision": "fp32 (ONNX Runtime)",
            "window_tokens": recognizer.config.window_tokens,
            "overlap_tokens": recognizer.config.overlap_tokens,
            "iou_0.5": {k: v.to_json() for k, v in scores[0].items()},
            "iou_0.8": {k: v.to_json() for k, v in scores[1].items()},
        },
        "throughput": {
            "content_tokens": stats.content_tokens,
            "seconds": round(stats.seconds, 2),
            "content_tokens_per_second": round(stats.tokens_per_second, 1),
            "device": recognizer.device,
            "threads": training["threads"],
        },
        "software": _versions(),
    }


def train_encoder(
    config: TrainConfig,
    out_dir: str | os.PathLike[str] | None = None,
    *,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    backbone: str | os.PathLike[str] | None = None,
    stamp: str | None = None,
) -> TrainResult:
    """Train, evaluate on a patient-disjoint held-out split, write model + card.

    ``stamp``, the recipe digest of a default build, is written beside the
    model last, so an interrupted build is never taken for a finished one.
    """
    say = log or (lambda _msg: None)
    out = Path(out_dir) if out_dir is not None else repo_model_dir()
    _check_target(out)
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    try:
        import torch  # noqa: F401
        from transformers.utils import logging as hf_logging
    except ImportError as exc:
        raise TrainingError(f"training needs torch and transformers installed: {exc}") from None

    hf_logging.set_verbosity_error()
    bars_were_on = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # ours is the one bar worth watching
    try:
        return _train(config, out, say, backbone, progress, stamp)
    finally:
        if bars_were_on:
            hf_logging.enable_progress_bar()


def _train(
    config: TrainConfig,
    out: Path,
    say: Callable[[str], None],
    backbone: str | os.PathLike[str] | None,
    progress: bool,
    stamp: str | None,
) -> TrainResult:
    import torch
    from tqdm import tqdm
    from transformers import AutoModelForTokenClassification, AutoTokenizer

    if config.threads:
        torch.set_num_threads(config.threads)
    backbone_dir = Path(backbone) if backbone is not None else default_backbone_path()
    seed_everything(config.seed)

    notes = config.generated_notes()
    train_notes, heldout = split_by_patient(notes, config.heldout_fraction, config.seed)
    written = [n for path in config.extra for n in read_gold_notes(path)]
    generated_train = train_notes
    train_notes = generated_train + written * config.extra_repeat
    tokenizer = AutoTokenizer.from_pretrained(backbone_dir, local_files_only=True, use_fast=True)
    label_ids = {label: i for i, label in enumerate(BIO_LABELS)}
    windows = [
        w
        for n in train_notes
        for w in note_windows(n.text, n.spans, tokenizer, config.max_length, config.overlap, label_ids)
    ]
    say(
        f"{len(train_notes)} training notes ({len(written)} hand-written x{config.extra_repeat}; "
        f"{len(windows)} windows), {len(heldout)} held out"
    )

    extra: dict[str, Any] = {}
    if config.layers is not None:
        extra["num_hidden_layers"] = config.layers
    if config.dropout is not None:
        extra["hidden_dropout_prob"] = config.dropout
        extra["attention_probs_dropout_prob"] = config.dropout
    model = AutoModelForTokenClassification.from_pretrained(
        backbone_dir,
        local_files_only=True,
        num_labels=len(BIO_LABELS),
        id2label=dict(enumerate(BIO_LABELS)),
        label2id=label_ids,
        **extra,
    )
    model.to("cpu", dtype=torch.float32)
    if config.freeze_embeddings:
        for p in model.get_input_embeddings().parameters():
            p.requires_grad = False
    model.train()
    rng = random.Random(config.seed)
    steps_per_epoch = math.ceil(len(windows) / config.batch_size)
    total_steps = steps_per_epoch * config.epochs
    warmup = int(total_steps * config.warmup_fraction)
    no_decay = ("bias", "LayerNorm.weight", "layernorm", "norm.weight")
    trainable = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    groups = [
        {"params": [p for n, p in trainable if not any(k in n for k in no_decay)], "weight_decay": config.weight_decay},
        {"params": [p for n, p in trainable if any(k in n for k in no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=config.learning_rate)

    def lr_factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / (warmup + 1)
        return max(0.0, (total_steps - step) / max(1, total_steps - warmup))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_factor)
    pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    started = time.perf_counter()
    losses: list[float] = []
    bar = tqdm(total=total_steps, desc="train encoder", unit="step", disable=not progress, leave=False)
    try:
        for _epoch in range(config.epochs):
            for batch in length_batches(windows, config.batch_size, rng):
                ids, mask, labels = _collate(batch, pad_id)
                loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
                if not torch.isfinite(loss):
                    raise TrainingError("training loss became non-finite; lower the learning rate")
                loss.backward()
                torch.nn.utils.clip_grad_norm_([p for _, p in trainable], 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad(set_to_none=True)
                losses.append(loss.item())
                bar.update(1)
                bar.set_postfix(loss=f"{sum(losses[-20:]) / len(losses[-20:]):.4f}")
    finally:
        bar.close()
    train_seconds = time.perf_counter() - started
    model.eval()

    staging = _staging_dir(out)
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    try:
        model.save_pretrained(staging)
        tokenizer.save_pretrained(staging)
        say(f"trained in {train_seconds:.0f} s; writing the ONNX forms and scoring {len(heldout)} held-out notes")
        write_onnx_models(staging)
        gold = [n.spans for n in heldout]
        texts = [n.text for n in heldout]
        recognizer = load_encoder(staging, config=EncoderConfig(threshold=config.threshold, device="cpu"))
        predicted = recognizer.analyze_batch(texts)
        scores = score_spans(gold, predicted, 0.5)
        strict = score_spans(gold, predicted, 0.8)
        quantized = load_encoder(staging, config=EncoderConfig(threshold=config.threshold, device="cpu", precision="int8"))
        int8_pred = quantized.analyze_batch(texts)
        int8_scores = (score_spans(gold, int8_pred, 0.5), score_spans(gold, int8_pred, 0.8))
        card = _card(
            config,
            counts={"notes": notes, "train": generated_train, "heldout": heldout, "windows": len(windows), "written": written},
            training={
                "seconds": round(train_seconds, 1),
                "steps": total_steps,
                "final_loss": round(sum(losses[-20:]) / max(1, len(losses[-20:])), 5),
                "threads": torch.get_num_threads(),
                "device": "cpu",
            },
            recognizer=recognizer,
            scores=(scores, strict),
        )
        card["evaluation"]["int8"] = {
            "iou_0.5": int8_scores[0]["micro"].to_json(),
            "iou_0.8": int8_scores[1]["micro"].to_json(),
            "content_tokens_per_second": round(quantized.stats.tokens_per_second, 1),
        }
        # what a CPU runs under precision "auto": int8 only where this build showed it keeps accuracy
        card[CPU_PRECISION_KEY] = "int8" if int8_keeps_accuracy(scores["micro"], int8_scores[0]["micro"]) else "fp32"
        if card[CPU_PRECISION_KEY] == "int8":
            card["version"] = quantized.version  # the form a CPU loads by default, and caches spans under
        write_model_card(staging, card)
        if stamp is not None:
            from deid_core.training.recipe import STAMP_FILE

            (staging / STAMP_FILE).write_text(stamp + "\n", encoding="ascii")
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return TrainResult(
        out, scores, strict, card, train_seconds, recognizer.stats.tokens_per_second, int8_scores[0], quantized.stats.tokens_per_second
    )
