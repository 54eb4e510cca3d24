"""Train a tiny generative de-identifier from scratch on synthetic notes, on a CPU.

No registry package ships a small causal LM with its weights, so this builds
one: a byte-level BPE tokenizer trained on the synthetic prompts and
answers (the schema's tags added as whole tokens, as paper 001 does to
shorten annotations), and a two-layer GPT-2 trained on (prompt -> XML answer)
pairs, loss on the answer only.  Prompts are built by the recognizer's own
prompt and chunking code, so training and inference see the same text.

The result is for plumbing and tests: it learns the answer format, not
how to copy identifiers out of a note; paper 001 fine-tunes a 0.6B model.  A site that wants
accuracy points the recognizer at a real model.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from deid_core.recognizers.generative.chunking import plan_chunks
from deid_core.recognizers.generative.prompt import build_prompt
from deid_core.recognizers.generative.schema import ENTITY_TYPES, entities_from_gold, to_xml
from deid_core.spans import Span
from deid_core.training.data import split_by_patient

IGNORE_INDEX = -100
EOS = "<|endoftext|>"


class GenerativeTrainingError(RuntimeError):
    pass


@dataclass(frozen=True)
class GenerativeTrainConfig:
    """Everything that decides the trained weights; recorded in the model card."""

    notes: int = 400
    seed: int = 13
    synth_seed: int | None = None
    heldout_fraction: float = 0.1
    chunk_chars: int = 240
    overlap_chars: int = 40
    vocab_size: int = 1200
    n_layer: int = 2
    n_head: int = 4
    n_embd: int = 128
    n_positions: int = 1024
    batch_size: int = 8
    learning_rate: float = 3e-3
    steps: int = 400
    max_seconds: float | None = None
    threads: int | None = None

    def __post_init__(self) -> None:
        if self.notes < 4:
            raise ValueError("notes must be at least 4")
        if self.steps < 0 or self.batch_size < 1:
            raise ValueError("steps must be >= 0 and batch_size >= 1")
        if self.n_embd % self.n_head:
            raise ValueError("n_embd must be a multiple of n_head")
        if not 0 <= self.overlap_chars < self.chunk_chars // 2:
            raise ValueError("overlap_chars must be in [0, chunk_chars/2)")


@dataclass(frozen=True)
class TrainingPair:
    prompt: str
    answer: str


@dataclass
class GenerativeTrainResult:
    out_dir: Path
    steps: int
    seconds: float
    final_loss: float
    pairs: int
    heldout_notes: list[Any]


def chunk_pairs(text: str, spans: Sequence[Span], chunk_chars: int, overlap_chars: int) -> list[TrainingPair]:
    """One (prompt, answer) pair per chunk, exactly as the recognizer chunks the note."""
    pairs = []
    for chunk in plan_chunks(text, chunk_chars, overlap_chars):
        piece = chunk.text_of(text)
        inside = [Span(s.start - chunk.start, s.end - chunk.start, s.category) for s in spans if s.start >= chunk.start and s.end <= chunk.end]
        pairs.append(TrainingPair(build_prompt(piece, [], "xml", "brief"), to_xml(entities_from_gold(piece, inside))))
    return pairs


def schema_tokens() -> list[str]:
    """Whole tags of the XML schema, added to the vocabulary as single tokens."""
    tags = ["<phi>", "</phi>", "<variant>", "</variant>", '<name role="patient">', '<name role="clinician">']
    tags += ['<place kind="facility">', '<place kind="location">', "<date", ' normalized="', "<id", ' subtype="', '">']
    for t in ENTITY_TYPES:
        tags.append(f"</{t}>")
        if t not in ("name", "place", "date", "id"):
            tags.append(f"<{t}>")
    return tags


def train_tokenizer(texts: Sequence[str], vocab_size: int) -> Any:
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[EOS],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer)
    tok.add_tokens([AddedToken(t, normalized=False) for t in schema_tokens()])
    return PreTrainedTokenizerFast(tokenizer_object=tok, eos_token=EOS, pad_token=EOS, bos_token=EOS)


def _encode_pairs(tokenizer: Any, pairs: Sequence[TrainingPair], limit: int) -> list[tuple[list[int], list[int]]]:
    out = []
    eos = tokenizer.eos_token_id
    for p in pairs:
        prompt_ids = tokenizer(p.prompt, add_special_tokens=False)["input_ids"]
        answer_ids = tokenizer(p.answer, add_special_tokens=False)["input_ids"] + [eos]
        ids = prompt_ids + answer_ids
        if len(ids) > limit:
            continue
        out.append((ids, [IGNORE_INDEX] * len(prompt_ids) + answer_ids))
    return out


def answer_loss(model_dir: str | Path, notes: Sequence[Any], chunk_chars: int, overlap_chars: int) -> float:
    """Mean per-token loss of the gold answers given their prompts (teacher forcing).

    The plainest measure of what a model learned, independent of decoding:
    an untrained model sits near ``ln(vocabulary)``.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(model_dir, local_files_only=True).eval()
    pairs = [p for n in notes for p in chunk_pairs(n.text, n.spans, chunk_chars, overlap_chars)]
    encoded = _encode_pairs(tokenizer, pairs, int(model.config.n_positions))
    if not encoded:
        raise GenerativeTrainingError("no held-out pair fits the model's context")
    total, count = 0.0, 0
    with torch.inference_mode():
        for ids, labels in encoded:
            out = model(input_ids=torch.tensor([ids]), attention_mask=torch.ones((1, len(ids)), dtype=torch.long), labels=torch.tensor([labels]))
            n = sum(1 for x in labels[1:] if x != IGNORE_INDEX)
            total += float(out.loss) * n
            count += n
    return total / count


def train_generative(
    config: GenerativeTrainConfig,
    out_dir: str | Path,
    *,
    log: Callable[[str], None] | None = None,
) -> GenerativeTrainResult:
    """Train and write a model directory that ``backend = "transformers"`` loads."""
    try:
        import torch
        from transformers import GPT2Config, GPT2LMHeadModel
    except ImportError as exc:
        raise GenerativeTrainingError(f"training needs torch and transformers: {exc}") from None
    from deid_core.synth import generate_notes

    say = log or (lambda _m: None)
    out = Path(out_dir)
    if out.exists() and any(out.iterdir()):
        raise GenerativeTrainingError(f"{out} exists and is not empty; choose a new directory")
    if config.threads:
        torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    rng = random.Random(config.seed)

    notes = generate_notes(config.notes, config.synth_seed if config.synth_seed is not None else config.seed)
    train_notes, heldout = split_by_patient(notes, config.heldout_fraction, config.seed)
    pairs = [p for n in train_notes for p in chunk_pairs(n.text, n.spans, config.chunk_chars, config.overlap_chars)]
    tokenizer = train_tokenizer([p.prompt + "\n" + p.answer for p in pairs], config.vocab_size)
    encoded = _encode_pairs(tokenizer, pairs, config.n_positions)
    if not encoded:
        raise GenerativeTrainingError("no training pair fits in n_positions; lower chunk_chars")
    say(f"{len(train_notes)} training notes, {len(encoded)} pairs, vocabulary {len(tokenizer)}")

    model = GPT2LMHeadModel(
        GPT2Config(
            vocab_size=len(tokenizer),
            n_positions=config.n_positions,
            n_embd=config.n_embd,
            n_layer=config.n_layer,
            n_head=config.n_head,
            bos_token_id=tokenizer.eos_token_id,
            eos_token_id=tokenizer.eos_token_id,
            pad_token_id=tokenizer.pad_token_id,
        )
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.learning_rate, weight_decay=0.01)
    warmup = max(1, config.steps // 20)

    def lr_at(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        progress = (step - warmup) / max(1, config.steps - warmup)
        return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))

    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_at)
    model.train()
    started = time.perf_counter()
    order: list[int] = []
    loss_value = float("nan")
    step = 0
    pad = tokenizer.pad_token_id
    while step < config.steps:
        if config.max_seconds is not None and time.perf_counter() - started > config.max_seconds:
            say(f"stopped at step {step}: time limit of {config.max_seconds:.0f} s")
            break
        if len(order) < config.batch_size:
            fresh = list(range(len(encoded)))
            rng.shuffle(fresh)
            order.extend(fresh)
        batch = [encoded[order.pop()] for _ in range(config.batch_size)]
        width = max(len(ids) for ids, _ in batch)
        ids = torch.full((len(batch), width), pad, dtype=torch.long)
        labels = torch.full((len(batch), width), IGNORE_INDEX, dtype=torch.long)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        for i, (row, lab) in enumerate(batch):
            ids[i, : len(row)] = torch.tensor(row)
            labels[i, : len(lab)] = torch.tensor(lab)
            mask[i, : len(row)] = 1
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad(set_to_none=True)
        loss_value = float(loss.detach())
        step += 1
        if step % 50 == 0:
            say(f"step {step}: loss {loss_value:.3f}")
    seconds = time.perf_counter() - started

    out.mkdir(parents=True, exist_ok=True)
    model.eval()
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    card = {
        "name": "deid tiny generative de-identifier",
        "purpose": "tests and plumbing of the generative recognizer; not for accuracy",
        "data": {"synthetic_notes": config.notes, "training_notes": len(train_notes), "heldout_notes": len(heldout), "pairs": len(encoded)},
        "hyperparameters": asdict(config),
        "training": {"steps": step, "seconds": round(seconds, 1), "final_loss": round(loss_value, 4)},
        "format": "xml",
        "instructions": "brief",
        "chunk_chars": config.chunk_chars,
        "overlap_chars": config.overlap_chars,
    }
    if heldout:
        card["evaluation"] = {
            "heldout_answer_loss": round(answer_loss(out, heldout, config.chunk_chars, config.overlap_chars), 4),
            "untrained_reference_loss": round(math.log(len(tokenizer)), 4),
        }
    (out / "model_card.json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    (out / "MODEL_CARD.md").write_text(_card_markdown(card), encoding="utf-8")
    return GenerativeTrainResult(out, step, seconds, loss_value, len(encoded), heldout)


def _card_markdown(card: dict[str, Any]) -> str:
    hp = "\n".join(f"- `{k}`: {v}" for k, v in card["hyperparameters"].items())
    tr = card["training"]
    return f"""# {card['name']}

A two-layer GPT-2 trained from scratch, with its own byte-level BPE
tokenizer, on synthetic notes from this project's generator only. It writes
the generative recognizer's XML schema for one chunk of a note.

**It is for tests and plumbing, not for de-identifying anything**: it learns
the answer format, not how to copy identifiers from a note. Use it with
`instructions = "brief"` and `chunk_chars = {card['chunk_chars']}` (the
prompt and chunk size it was trained on).

## Training

{tr['steps']} steps in {tr['seconds']} s, final loss {tr['final_loss']};
{card['data']['pairs']} (prompt, answer) pairs from {card['data']['training_notes']} notes.
Held-out answer loss (teacher forcing): {card.get('evaluation', {}).get('heldout_answer_loss', 'n/a')}
(an untrained model: about {card.get('evaluation', {}).get('untrained_reference_loss', 'n/a')}).

{hp}
"""
