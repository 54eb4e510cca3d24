"""The model card: what a trained encoder was trained on and how it scores.

``model_card.json`` is the machine-readable record; ``MODEL_CARD.md`` renders
the same facts for a reviewer.  The presence of ``model_card.json`` is also
what marks a directory as ours to overwrite on retraining.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from deid_core.recognizers.encoder import CPU_PRECISION_KEY, MODEL_CARD_FILE
from deid_core.training.quantize import INT8_TOLERANCE

CARD_JSON = MODEL_CARD_FILE
CARD_MD = "MODEL_CARD.md"


def score_table(scores: dict[str, dict[str, Any]]) -> str:
    lines = ["| Category | Gold | Predicted | Matched | Precision | Recall | F1 |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name, s in scores.items():
        label = "**micro**" if name == "micro" else name
        lines.append(
            f"| {label} | {s['gold']} | {s['predicted']} | {s['matched']} | "
            f"{s['precision']:.3f} | {s['recall']:.3f} | {s['f1']:.3f} |"
        )
    return "\n".join(lines)


def _int8_line(card: dict[str, Any]) -> str:
    int8 = card["evaluation"].get("int8")
    if not int8:
        return ""
    loose, strict = int8["iou_0.5"], int8["iou_0.8"]
    runs = (
        f"CPUs run it by default: its recall and F1 stay within {INT8_TOLERANCE} of fp32 here."
        if card.get(CPU_PRECISION_KEY) == "int8"
        else f"CPUs run fp32 by default: int8 fell more than {INT8_TOLERANCE} below it here."
    )
    return (
        f"\nThe int8 form (`precision = \"int8\"`) on the same notes: micro F1 {loose['f1']:.3f} (IoU >= 0.5) and "
        f"{strict['f1']:.3f} (IoU >= 0.8), recall {loose['recall']:.3f} and {strict['recall']:.3f}, "
        f"at {int8['content_tokens_per_second']} content tokens/s. {runs}\n"
    )


def render_markdown(card: dict[str, Any]) -> str:
    data, hp, ev, tp, tr = card["data"], card["hyperparameters"], card["evaluation"], card["throughput"], card["training"]
    backbone = card["backbone"]
    hp_lines = "\n".join(f"- `{k}`: {v}" for k, v in hp.items())
    sw_lines = "\n".join(f"- {k} {v}" for k, v in card.get("software", {}).items())
    return f"""# {card['name']} (version {card['version']})

A token classifier that marks protected health information in clinical
notes, for the recognizer stage of the de-identification engine. It emits
BIO labels for the nine scored categories ({', '.join(sorted({lab[2:] for lab in card['labels'] if lab != 'O'}))}).

## Intended use and limits

Trained **only on synthetic notes** from this project's generator; it has not
been validated on real clinical text. Use it beside the rule recognizers and
measure recall on your own annotated sample before relying on it. The
backbone is uncased, so capitalisation carries no signal.

## Backbone

{backbone['name']}, loaded offline from the `{backbone['package']}` package ({backbone['license']}).

## Data

- Generator: `{data['generator']}`, seed {data['generator_seed']}, {data['notes']} notes
- Training: {data['train_notes']} notes of {data['train_patients']} patients ({data['train_windows']} windows)
- Held out: {data['heldout_notes']} notes of {data['heldout_patients']} patients
- Split: {data['split']}
- Hand-written notes (training side only): {data.get('hand_written_notes', 0)} from {', '.join(data.get('hand_written_files', [])) or 'none'}, each seen {data.get('hand_written_repeat', 1)}x per epoch; all synthetic, none from a held-out evaluation set

## Training

- Seed: {card['seed']}
- {tr['seconds']} s on {tr['threads']} CPU threads, final loss {tr['final_loss']}

{hp_lines}

## Held-out evaluation

{ev['matching']}; decoding threshold 1 - P(O) > {ev['decoding_threshold']}, windows of
{ev['window_tokens']} tokens with {ev['overlap_tokens']} overlap; {ev.get('precision', 'fp32')}, as a CPU runs it.
{_int8_line(card)}

### IoU >= 0.5

{score_table(ev['iou_0.5'])}

### IoU >= 0.8

{score_table(ev['iou_0.8'])}

## Throughput

{tp['content_tokens_per_second']} content tokens/s ({tp['content_tokens']} tokens in {tp['seconds']} s) on
{tp['threads']} CPU threads, {ev.get('precision', 'fp32')}, including tokenization and decoding.

## Software

{sw_lines}
"""


def write_model_card(directory: str | Path, card: dict[str, Any]) -> tuple[Path, Path]:
    d = Path(directory)
    json_path, md_path = d / CARD_JSON, d / CARD_MD
    json_path.write_text(json.dumps(card, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    md_path.write_text(render_markdown(card), encoding="utf-8")
    return json_path, md_path


def read_model_card(directory: str | Path) -> dict[str, Any]:
    return json.loads((Path(directory) / CARD_JSON).read_text(encoding="utf-8"))
