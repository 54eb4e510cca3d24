"""The generative recognizer of paper 001 and its QC layer (``docs/generative.md``).

Importing this package needs neither torch, transformers, httpx nor vllm;
each backend imports its own libraries when it is built.
"""

from deid_core.recognizers.generative.backends import Generation, GenerationBackend, ServerBackend, TransformersBackend, VLLMBackend
from deid_core.recognizers.generative.chunking import Chunk, plan_chunks
from deid_core.recognizers.generative.grounding import Grounding, ground
from deid_core.recognizers.generative.parse import AnnotationParseError, parse_strict
from deid_core.recognizers.generative.prompt import Example, build_prompt, few_shot_examples
from deid_core.recognizers.generative.qc import QCConfig, QualityControl, read_output
from deid_core.recognizers.generative.recognizer import (
    GenerativeConfig,
    GenerativeConfigError,
    GenerativeRecognizer,
    GenerativeStats,
    NoteReport,
    build_generative,
)
from deid_core.recognizers.generative.repair import repair
from deid_core.recognizers.generative.schema import ENTITY_TYPES, Entity, ParsedAnnotation, default_label_map, entities_from_gold, render

__all__ = [
    "ENTITY_TYPES",
    "AnnotationParseError",
    "Chunk",
    "Entity",
    "Example",
    "Generation",
    "GenerationBackend",
    "GenerativeConfig",
    "GenerativeConfigError",
    "GenerativeRecognizer",
    "GenerativeStats",
    "Grounding",
    "NoteReport",
    "ParsedAnnotation",
    "QCConfig",
    "QualityControl",
    "ServerBackend",
    "TransformersBackend",
    "VLLMBackend",
    "build_generative",
    "build_prompt",
    "default_label_map",
    "entities_from_gold",
    "few_shot_examples",
    "ground",
    "parse_strict",
    "plan_chunks",
    "read_output",
    "render",
    "repair",
]
