"""The de-identification pipeline, whole and pure: detect, unite, finish, verify, anonymize, scan.

:class:`Deidentifier` is the one implementation of the pipeline.  ``deid
detect`` calls :meth:`Deidentifier.detect`; the fleet's stages (and the
embedded ``deid run``, which runs those stages in one process) call the
same steps one at a time and only store what comes back:

* :meth:`~Deidentifier.recognize`: one recognizer kind's own spans (a
  fleet ``recognize:KIND`` stage);
* :meth:`~Deidentifier.finish`: the kinds united, names propagated across
  each patient's notes, overlaps resolved, known identifiers winning last
  (the ``resolve`` stage);
* :meth:`~Deidentifier.verify` and :meth:`~Deidentifier.release` (the
  ``verify`` and ``anonymize`` stages; a release carries its leak report).

Name propagation reaches across the notes handed in together, by patient:
callers hand in a patient's notes as one group (:func:`deid_core.notes.patient_groups`),
which is what makes the spans of a note independent of how a batch was cut.
Detection runs on each text's NFC form; :meth:`recognize` returns spans in
that form's offsets, and :meth:`finish` returns them in the text's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from deid_core.anonymizer.engine import AnonymizedNote, Anonymizer, Note
from deid_core.detection import NoteSpans
from deid_core.leaks import Leak, scan_output
from deid_core.normalization import nfc, to_original_spans
from deid_core.notes import ClinicalNote, patient_groups
from deid_core.recognizers.base import RecognizerError
from deid_core.recognizers.known import KnownIdentifierRecognizer
from deid_core.recognizers.mix import MixedDetector
from deid_core.spans import Span
from deid_core.verifier.base import Verifier


@dataclass(frozen=True)
class Verdict:
    score: float
    flagged: bool


@dataclass(frozen=True)
class Release:
    """An anonymized note and its leak report; with any leak, the text must not be released."""

    output: AnonymizedNote
    leaks: tuple[Leak, ...]

    @property
    def releasable(self) -> bool:
        return not self.leaks


def _nfc_notes(notes: Sequence[ClinicalNote]) -> list[ClinicalNote]:
    return [replace(n, text=nfc(n.text).text) for n in notes]


@dataclass
class Deidentifier:
    """The pipeline's parts; a caller that only anonymizes (``deid anonymize``) gives no detector."""

    detector: MixedDetector | None = None
    anonymizer: Anonymizer | None = None
    verifier: Verifier | None = None
    verifier_threshold: float = 0.5

    @property
    def kinds(self) -> tuple[str, ...]:
        return self._detector.names

    @property
    def _detector(self) -> MixedDetector:
        if self.detector is None:
            raise RuntimeError("this pipeline has no detector")
        return self.detector

    # -- detection
    def recognize(self, kind: str, notes: Sequence[ClinicalNote]) -> list[NoteSpans]:
        """One kind's own spans per note (NFC offsets), or the note's error."""
        return self._detector.members[kind].batch(_nfc_notes(notes))

    def finish(
        self,
        notes: Sequence[ClinicalNote],
        raw: Mapping[str, Sequence[NoteSpans]],
        known: KnownIdentifierRecognizer | bool | None = None,
        kinds: Sequence[str] | None = None,
    ) -> list[NoteSpans]:
        """Unite the ``kinds`` (default: all) of :meth:`recognize`, propagate, resolve; spans in each text's offsets.

        ``known`` (None: the detector's own; False: none) wins last over everything.
        """
        forms = [nfc(n.text) for n in notes]
        normal = [replace(n, text=f.text) if f.changed else n for n, f in zip(notes, forms)]
        floor = True if known is None else known

        def combine(idx: Sequence[int]) -> list[NoteSpans]:
            return self._detector.combine([normal[i] for i in idx], {k: [v[i] for i in idx] for k, v in raw.items()}, kinds, known=floor)

        done: list[NoteSpans] = [RuntimeError("not finished")] * len(notes)
        for group in patient_groups([n.patient_id for n in notes]):
            try:
                found = combine(group)
            except Exception as exc:  # noqa: BLE001 - the patient's notes fail, with why; other patients go on
                found = [RecognizerError(f"finishing failed: {type(exc).__name__}: {exc}")] * len(group)
            for i, r in zip(group, found):
                done[i] = r
        return [r if not isinstance(r, list) else to_original_spans(r, f) for r, f in zip(done, forms)]

    def detect(self, notes: Sequence[ClinicalNote], known: KnownIdentifierRecognizer | None = None) -> list[NoteSpans]:
        """Every kind, then :meth:`finish`: the spans of ``deid detect``."""
        return self.finish(notes, {k: self.recognize(k, notes) for k in self.kinds}, known)

    # -- after detection
    def verify(self, note: ClinicalNote, spans: Sequence[Span]) -> Verdict:
        if self.verifier is None:
            raise RuntimeError("this pipeline has no verifier")
        score = float(self.verifier.score(note.text, spans))
        return Verdict(score, score > self.verifier_threshold)

    def release(self, note: ClinicalNote, spans: Sequence[Span], spellings: Mapping[str, str] | None = None) -> Release:
        """Anonymize, then scan the output for any original identifier text (:mod:`deid_core.leaks`)."""
        if self.anonymizer is None:
            raise RuntimeError("this pipeline has no anonymizer (no study key)")
        out = self.anonymizer.anonymize(Note(note.id, note.text, note.patient_id, tuple(spans), dict(spellings or {})))
        leaks = scan_output(note.text, spans, out.text, out.replacements, note.patient_id)
        return Release(out, tuple(leaks))
