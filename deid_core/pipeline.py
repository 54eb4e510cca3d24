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
from dataclasses import dataclass

from deid_core.anonymizer.engine import AnonymizedNote, Anonymizer, Note
from deid_core.detection import NoteSpans
from deid_core.leaks import Leak, scan_output
from deid_core.normalization import detect_on_nfc, nfc_notes
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
        return self._detector.members[kind].batch(nfc_notes(notes))

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
        floor = True if known is None else known

        def combine(normal: list[ClinicalNote]) -> list[NoteSpans]:
            done: list[NoteSpans] = [RuntimeError("not finished")] * len(normal)
            for group in patient_groups([n.patient_id for n in normal]):
                try:
                    found = self._detector.combine(
                        [normal[i] for i in group], {k: [v[i] for i in group] for k, v in raw.items()}, kinds, known=floor
                    )
                except Exception as exc:  # noqa: BLE001 - the patient's notes fail, with why; other patients go on
                    found = [RecognizerError(f"finishing failed: {type(exc).__name__}: {exc}")] * len(group)
                for i, r in zip(group, found):
                    done[i] = r
            return done

        return detect_on_nfc(list(notes), combine)

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
