"""The LLM verifier: one forward pass of a causal LM, P("incomplete") from its next token.

The prompt shows the note and the candidate annotation and asks for a
one-word verdict.  Only the first token of each answer word is compared, so
one forward pass (no generation) gives the score:
P(incomplete) = p(incomplete) / (p(incomplete) + p(complete)), the two
probabilities renormalised between themselves.  Two backends: a local
transformers model (CPU or GPU) and a vLLM OpenAI-compatible server.
"""

from __future__ import annotations

import json
import math
import os
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deid_core.spans import Span
from deid_core.verifier.base import VerifierError

INSTRUCTIONS = (
    "You check de-identification of clinical notes. Below is a note and the identifiers an annotator "
    "marked in it (names, ages, dates, places, addresses, phone numbers, e-mails, IDs, URLs, devices). "
    "Answer with one word: complete if every identifier in the note is marked in full, incomplete if any "
    "is missing or only partly marked."
)


@dataclass(frozen=True)
class Answers:
    incomplete: str = "incomplete"
    complete: str = "complete"


def build_prompt(text: str, spans: Sequence[Span], instructions: str = INSTRUCTIONS) -> str:
    """The verifier prompt; the answer follows ``Verdict:`` with a leading space."""
    marked = "\n".join(
        f'- {s.category.value}: "{text[s.start:s.end]}"' for s in sorted(spans, key=lambda s: (s.start, s.end))
    ) or "- (none)"
    return f"{instructions}\n\n### Note\n{text}\n\n### Marked identifiers\n{marked}\n\n### Verdict:"


def two_way(logp_incomplete: float, logp_complete: float) -> float:
    """p_i / (p_i + p_c) from two log-probabilities, without overflow."""
    m = max(logp_incomplete, logp_complete)
    a, b = math.exp(logp_incomplete - m), math.exp(logp_complete - m)
    return a / (a + b)


class TransformersVerifier:
    """A local causal LM (``AutoModelForCausalLM``) as the verifier; loads from disk only."""

    def __init__(self, model: Any, tokenizer: Any, *, answers: Answers = Answers(), name: str = "llm", device: str = "cpu",
                 max_prompt_tokens: int | None = None) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.device = device
        self.name = f"{name}-verifier"
        self.max_prompt_tokens = max_prompt_tokens
        self._ids = (self._first_token(" " + answers.incomplete), self._first_token(" " + answers.complete))
        if self._ids[0] == self._ids[1]:
            raise VerifierError(
                f"the answers {answers.incomplete!r} and {answers.complete!r} begin with the same token; "
                "choose answer words that differ in their first token"
            )

    def _first_token(self, word: str) -> int:
        ids = self.tokenizer(word, add_special_tokens=False)["input_ids"]
        if not ids:
            raise VerifierError(f"the tokenizer turns {word!r} into no tokens")
        return int(ids[0])

    def score(self, text: str, spans: Sequence[Span]) -> float:
        import torch

        enc = self.tokenizer(build_prompt(text, spans), return_tensors="pt", add_special_tokens=True)
        ids = enc["input_ids"]
        limit = self.max_prompt_tokens or getattr(getattr(self.model, "config", None), "n_positions", None) or getattr(
            getattr(self.model, "config", None), "max_position_embeddings", None
        )
        if limit and ids.shape[1] > limit:
            raise VerifierError(f"the verifier prompt has {ids.shape[1]} tokens, over the model's {limit}")
        with torch.no_grad():
            logits = self.model(input_ids=ids.to(self.device), attention_mask=enc["attention_mask"].to(self.device)).logits
        logp = torch.log_softmax(logits[0, -1].float(), dim=-1)
        return two_way(float(logp[self._ids[0]]), float(logp[self._ids[1]]))


def load_transformers_verifier(path: str | os.PathLike[str], *, device: str | None = None, answers: Answers = Answers()) -> TransformersVerifier:
    from deid_core.recognizers.encoder import _force_offline, pick_device

    _force_offline()
    model_dir = Path(path).expanduser()
    if not (model_dir / "config.json").is_file():
        raise VerifierError(f"verifier model {str(path)!r} is not a local model directory (no config.json); nothing is downloaded")
    try:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as exc:
        raise VerifierError(f"the LLM verifier needs torch and transformers installed: {exc}") from None
    dev = pick_device(device)
    try:
        tok = AutoTokenizer.from_pretrained(model_dir, local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(model_dir, local_files_only=True)
    except (OSError, ValueError) as exc:
        raise VerifierError(f"cannot load the verifier model from {model_dir}: {exc}") from None
    model = model.to(device=dev, dtype=torch.float16 if dev.startswith("cuda") else torch.float32).eval()
    return TransformersVerifier(model, tok, answers=answers, name=model_dir.name, device=dev)


class OpenAIServerVerifier:
    """A vLLM (or any OpenAI-compatible) completions endpoint as the verifier.

    One request per note with ``max_tokens=1`` and the top next-token
    log-probabilities.  An answer missing from the returned top tokens gets
    the smallest returned log-probability: an upper bound on its own, so a
    missing "incomplete" can only raise the score, never hide a miss.
    """

    def __init__(self, base_url: str, model: str, *, answers: Answers = Answers(), top_logprobs: int = 20,
                 timeout_s: float = 60.0) -> None:
        self.url = base_url.rstrip("/") + ("/completions" if base_url.rstrip("/").endswith("/v1") else "/v1/completions")
        self.model = model
        self.answers = answers
        self.top_logprobs = top_logprobs
        self.timeout_s = timeout_s
        self.name = f"{model}-verifier"

    def _logprobs(self, prompt: str) -> dict[str, float]:
        body = {"model": self.model, "prompt": prompt, "max_tokens": 1, "temperature": 0.0, "logprobs": self.top_logprobs}
        req = urllib.request.Request(self.url, json.dumps(body).encode(), {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                data = json.loads(resp.read())
            top = data["choices"][0]["logprobs"]["top_logprobs"][0]
        except (urllib.error.URLError, OSError, ValueError, KeyError, IndexError, TypeError) as exc:
            raise VerifierError(f"verifier server {self.url}: {type(exc).__name__}: {exc}") from None
        if not isinstance(top, dict) or not top:
            raise VerifierError(f"verifier server {self.url} returned no log-probabilities")
        return {str(k): float(v) for k, v in top.items()}

    def score(self, text: str, spans: Sequence[Span]) -> float:
        top = self._logprobs(build_prompt(text, spans))
        floor = min(top.values())

        def best(word: str) -> float:
            found = [v for k, v in top.items() if k.strip().lower() and word.lower().startswith(k.strip().lower())]
            return max(found) if found else floor

        return two_way(best(self.answers.incomplete), best(self.answers.complete))
