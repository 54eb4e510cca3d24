"""Records <-> notes for the JSONL interface of ``deid anonymize``."""

from __future__ import annotations

from deid_core.anonymizer.engine import AnonymizationError, AnonymizedNote, Anonymizer, Note
from deid_core.records import Record, RecordError, optional_str, parse_spans
from deid_core.spans import SpanError, span_to_dict


def note_from_record(record: Record) -> Note:
    return Note(
        id=record.id,
        text=record.data["text"],
        patient_id=optional_str(record, "patient_id"),
        spans=parse_spans(record),
    )


def anonymized_to_dict(note: AnonymizedNote) -> dict:
    return {
        "id": note.release_id,
        "patient_id": note.patient_pseudonym,
        "text": note.text,
        "spans": [span_to_dict(s, full=False) for s in note.spans],
        "key_id": note.key_id,
    }


def anonymize_record(anonymizer: Anonymizer, record: Record) -> dict | RecordError:
    """One record in, one output object or one error naming the record out.

    The core pipeline's release step (:meth:`deid_core.pipeline.Deidentifier.release`):
    an output in which the leak report still finds original identifier text
    is withheld, with where and what kind (never the text), as ``deid run`` withholds it.
    """
    from deid_core.leaks import summarize
    from deid_core.notes import ClinicalNote
    from deid_core.pipeline import Deidentifier

    try:
        note = note_from_record(record)
        released = Deidentifier(anonymizer=anonymizer).release(ClinicalNote(note.id, note.text, note.patient_id), note.spans)
        if not released.releasable:
            return RecordError(record.line, record.id, f"output withheld: {summarize(list(released.leaks))}")
        return anonymized_to_dict(released.output)
    except (SpanError, AnonymizationError, ValueError) as exc:
        return RecordError(record.line, record.id, str(exc))
    except Exception as exc:  # one record's failure never stops the batch; the message holds no text
        return RecordError(record.line, record.id, f"anonymization failed ({type(exc).__name__})")
