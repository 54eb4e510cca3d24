"""Seeded synthetic clinical notes with exact gold spans (``docs/annotation.md``).

Notes are assembled piece by piece in eleven registers, from dense discharge
summaries to telegraphic ALL-CAPS nursing notes and notes with no PHI, with
clinical look-alikes (vitals, doses, eponyms) left unlabelled.  Several notes
share a patient, so cross-note consistency of a release can be tested.
"""

from .builder import SynthError, TrapSpan
from .generator import ALL_REGISTERS, OPT_IN_REGISTERS, REGISTERS, SyntheticNote, generate_notes, write_jsonl

__all__ = ["ALL_REGISTERS", "OPT_IN_REGISTERS", "REGISTERS", "SynthError", "SyntheticNote", "TrapSpan", "generate_notes", "write_jsonl"]
