"""Where the text is generated: transformers on a CPU, a vLLM server, vLLM in-process.

Every backend turns a batch of prompts into a batch of :class:`Generation`
(text plus whether it stopped at the token limit), always greedy, so the
same note gives the same annotation.  Output parsing is the recognizer's,
shared by all three.  Model files load from local paths only; the server
backend talks to a server the site runs itself.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from deid_core.recognizers.base import RecognizerError


@dataclass(frozen=True, slots=True)
class Generation:
    text: str
    truncated: bool  # stopped at max_new_tokens, not at the end of its answer


class GenerationBackend(Protocol):
    name: str
    version: str

    def generate(self, prompts: Sequence[str], max_new_tokens: int) -> list[Generation]: ...


def _local_dir(path: str | os.PathLike[str], what: str) -> Path:
    model_dir = Path(path).expanduser()
    if not model_dir.is_dir():
        raise RecognizerError(
            f"{what} {str(path)!r} is not a local directory; models load from disk only (nothing is downloaded)"
        )
    if not (model_dir / "config.json").is_file():
        raise RecognizerError(f"{what} directory {model_dir} has no config.json")
    return model_dir


# ---------------------------------------------------------------------------
# transformers generate (CPU, or a GPU without vLLM)
# ---------------------------------------------------------------------------


class TransformersBackend:
    """Greedy ``generate`` of a local causal LM, prompts padded on the left in batches."""

    name = "transformers"

    def __init__(self, model_path: str | os.PathLike[str], *, device: str | None = None, batch_size: int = 8) -> None:
        from deid_core.recognizers.encoder import _force_offline, _model_version, pick_device

        _force_offline()
        model_dir = _local_dir(model_path, "generative model")
        try:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError as exc:
            raise RecognizerError(f"the transformers backend needs torch and transformers installed: {exc}") from None
        self.device = pick_device(device)
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(model_dir, local_files_only=True)
            self.model = AutoModelForCausalLM.from_pretrained(model_dir, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise RecognizerError(f"cannot load the generative model from {model_dir}: {exc}") from None
        dtype = torch.float16 if self.device.startswith("cuda") else torch.float32
        self.model = self.model.to(device=self.device, dtype=dtype).eval()
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.context = int(getattr(self.model.config, "n_positions", None) or getattr(self.model.config, "max_position_embeddings", 0) or 0)
        self.batch_size = max(1, int(batch_size))
        self.version = _model_version(model_dir, str(dtype).removeprefix("torch."))

    def generate(self, prompts: Sequence[str], max_new_tokens: int) -> list[Generation]:
        out: list[Generation] = []
        for i in range(0, len(prompts), self.batch_size):
            out.extend(self._generate(prompts[i : i + self.batch_size], max_new_tokens))
        return out

    def _generate(self, prompts: Sequence[str], max_new_tokens: int) -> list[Generation]:
        import torch

        enc = self.tokenizer(list(prompts), return_tensors="pt", padding=True)
        width = enc["input_ids"].shape[1]
        if self.context and width + max_new_tokens > self.context:
            raise RecognizerError(
                f"a prompt of {width} tokens plus {max_new_tokens} new tokens exceeds the model's "
                f"context of {self.context}; lower chunk_chars, few_shot or max_new_tokens"
            )
        eos = self.tokenizer.eos_token_id
        with torch.inference_mode():
            result = self.model.generate(
                input_ids=enc["input_ids"].to(self.device),
                attention_mask=enc["attention_mask"].to(self.device),
                max_new_tokens=max_new_tokens,
                do_sample=False,
                num_beams=1,
                pad_token_id=self.tokenizer.pad_token_id,
                eos_token_id=eos,
            )
        out = []
        for row in result[:, width:].tolist():
            ended = eos in row
            if ended:
                row = row[: row.index(eos)]
            text = self.tokenizer.decode(row, skip_special_tokens=True)
            out.append(Generation(text, truncated=not ended and len(row) >= max_new_tokens))
        return out


# ---------------------------------------------------------------------------
# An OpenAI-compatible server (vLLM's `vllm serve`)
# ---------------------------------------------------------------------------

STRUCTURED_FIELDS = ("structured_outputs", "guided", "none")
ENDPOINTS = ("completions", "chat")


@dataclass
class ServerBackend:
    """``/v1/completions`` or ``/v1/chat/completions`` over HTTP, one request per prompt.

    vLLM batches concurrent requests itself, so prompts go out in parallel
    (``concurrency`` at a time).  ``structured`` chooses how the output
    constraint is sent: ``structured_outputs`` (vLLM 0.12 and later:
    ``{"structured_outputs": {"regex" | "json": ...}}``), ``guided`` (older
    vLLM: ``guided_regex`` / ``guided_json``) or ``none``.
    """

    base_url: str
    model: str
    fmt: str = "xml"
    endpoint: str = "completions"
    structured: str = "structured_outputs"
    timeout_s: float = 120.0
    concurrency: int = 16
    api_key: str | None = field(default=None, repr=False)
    name: str = "vllm-server"

    def __post_init__(self) -> None:
        if self.endpoint not in ENDPOINTS:
            raise ValueError(f"endpoint must be one of {', '.join(ENDPOINTS)}, got {self.endpoint!r}")
        if self.structured not in STRUCTURED_FIELDS:
            raise ValueError(f"structured must be one of {', '.join(STRUCTURED_FIELDS)}, got {self.structured!r}")
        if not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http(s) URL, got {self.base_url!r}")
        self.version = self.model
        import httpx

        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        self._client = httpx.Client(base_url=self.base_url.rstrip("/") + "/", timeout=self.timeout_s, headers=headers)

    def close(self) -> None:
        self._client.close()

    def constraint(self) -> dict[str, Any]:
        from deid_core.recognizers.generative.schema import json_schema, xml_regex

        if self.structured == "none":
            return {}
        kind, value = ("regex", xml_regex()) if self.fmt == "xml" else ("json", json_schema())
        if self.structured == "structured_outputs":
            return {"structured_outputs": {kind: value}}
        return {f"guided_{kind}": value}

    def request_body(self, prompt: str, max_new_tokens: int) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "max_tokens": max_new_tokens, "temperature": 0.0}
        if self.endpoint == "chat":
            body["messages"] = [{"role": "user", "content": prompt}]
        else:
            body["prompt"] = prompt
        body.update(self.constraint())
        return body

    def _one(self, prompt: str, max_new_tokens: int) -> Generation:
        import httpx

        path = "chat/completions" if self.endpoint == "chat" else "completions"
        try:
            response = self._client.post(path, json=self.request_body(prompt, max_new_tokens))
        except httpx.HTTPError as exc:
            raise RecognizerError(f"generative server at {self.base_url} failed: {type(exc).__name__}") from None
        if response.status_code != 200:
            # The body may echo the prompt, which holds note text: report the status only.
            raise RecognizerError(f"generative server at {self.base_url} answered HTTP {response.status_code}")
        try:
            choice = response.json()["choices"][0]
            text = choice["message"]["content"] if self.endpoint == "chat" else choice["text"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise RecognizerError(f"generative server at {self.base_url} sent a response without choices") from None
        if not isinstance(text, str):
            text = ""
        return Generation(text, truncated=choice.get("finish_reason") == "length")

    def generate(self, prompts: Sequence[str], max_new_tokens: int) -> list[Generation]:
        if not prompts:
            return []
        workers = max(1, min(self.concurrency, len(prompts)))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(lambda p: self._one(p, max_new_tokens), prompts))


# ---------------------------------------------------------------------------
# vLLM in-process
# ---------------------------------------------------------------------------


class VLLMBackend:
    """``vllm.LLM.generate`` on the whole batch at once, with guided decoding."""

    name = "vllm"

    def __init__(self, model_path: str | os.PathLike[str], *, fmt: str = "xml", options: Mapping[str, Any] | None = None) -> None:
        from deid_core.recognizers.encoder import _force_offline, _model_version

        _force_offline()
        model_dir = _local_dir(model_path, "generative model")
        try:
            import vllm
        except ImportError as exc:
            raise RecognizerError(
                "backend 'vllm' needs the vllm package in this environment (a CUDA machine); "
                f"use backend 'vllm-server' to reach a vLLM server, or 'transformers' on a CPU ({exc})"
            ) from None
        self._vllm = vllm
        self.fmt = fmt
        self.llm = vllm.LLM(model=str(model_dir), **dict(options or {}))
        self.version = _model_version(model_dir, str(dict(options or {}).get("dtype", "auto")))

    def _sampling(self, max_new_tokens: int) -> Any:
        from deid_core.recognizers.generative.schema import json_schema, xml_regex

        kind, value = ("regex", xml_regex()) if self.fmt == "xml" else ("json", json_schema())
        params = self._vllm.SamplingParams
        try:
            from vllm.sampling_params import StructuredOutputsParams

            return params(temperature=0.0, max_tokens=max_new_tokens, structured_outputs=StructuredOutputsParams(**{kind: value}))
        except ImportError:  # vLLM before 0.12
            from vllm.sampling_params import GuidedDecodingParams

            return params(temperature=0.0, max_tokens=max_new_tokens, guided_decoding=GuidedDecodingParams(**{kind: value}))

    def generate(self, prompts: Sequence[str], max_new_tokens: int) -> list[Generation]:
        if not prompts:
            return []
        results = self.llm.generate(list(prompts), self._sampling(max_new_tokens), use_tqdm=False)
        out = []
        for r in results:
            best = r.outputs[0]
            out.append(Generation(best.text, truncated=getattr(best, "finish_reason", None) == "length"))
        return out
