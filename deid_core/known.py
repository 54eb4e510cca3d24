"""Known identifiers: what the warehouse already holds about each patient.

A hospital stores each note beside the patient's structured record (name,
MRN, date of birth, phones, next of kin, treating clinicians).  Handing
those values to the detector gives a recall floor no model gives: every
form of a patient's own name and numbers is found, however it is written
(:mod:`deid_core.recognizers.known`).

One record per patient, every field but ``patient_id`` optional::

    {"patient_id": "P001", "names": ["Maria T. Lopez"], "relatives": ["Ana Lopez"],
     "staff": ["Sam Okafor"], "ids": ["00123456"], "dates": ["1961-03-14"],
     "phones": ["617-555-0134"], "emails": ["m.lopez@mail.example"],
     "addresses": ["12 Elm St, Salem, MA 01970"]}

These values are PHI: they are validated here and never echoed in an error
message; errors name the record by its line and patient id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from deid_core.records import RecordError, atomic_writer, dump, json_lines

#: a known value longer than this is no identifier (and bounds the matching work)
MAX_VALUE_CHARS = 200
#: values per field and patient; a longer list is a mapping error upstream
MAX_VALUES = 200


class KnownError(ValueError):
    """A known-identifier record that cannot be used; the message names it, never its values."""


@dataclass(frozen=True, slots=True)
class KnownPatient:
    """The known identifiers of one patient."""

    patient_id: str
    names: tuple[str, ...] = ()
    relatives: tuple[str, ...] = ()
    staff: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    dates: tuple[str, ...] = ()
    phones: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    addresses: tuple[str, ...] = ()

    def merged(self, other: "KnownPatient") -> "KnownPatient":
        """Both records' values, each once: a patient may come in several rows."""
        if other.patient_id != self.patient_id:
            raise KnownError("only records of one patient merge")
        values = {f: tuple(dict.fromkeys(getattr(self, f) + getattr(other, f))) for f in KNOWN_FIELDS}
        return KnownPatient(self.patient_id, **values)

    def to_dict(self) -> dict:
        out: dict = {"patient_id": self.patient_id}
        out.update({f: list(getattr(self, f)) for f in KNOWN_FIELDS if getattr(self, f)})
        return out

    @property
    def empty(self) -> bool:
        return not any(getattr(self, f) for f in KNOWN_FIELDS)


#: the value fields of a record, in the documented order
KNOWN_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(KnownPatient))[1:]


def known_from_dict(raw: object, where: str = "record") -> KnownPatient:
    """Validate one record; :class:`KnownError` says which field is wrong and where."""
    if not isinstance(raw, Mapping):
        raise KnownError(f"{where}: a known-identifier record must be a JSON object")
    pid = raw.get("patient_id")
    if isinstance(pid, int) and not isinstance(pid, bool):
        pid = str(pid)
    if not isinstance(pid, str) or not pid.strip():
        raise KnownError(f"{where}: missing or invalid 'patient_id' (a non-empty string)")
    where = f"{where} (patient {pid!r})"
    unknown = sorted(set(raw) - {"patient_id", *KNOWN_FIELDS})
    if unknown:
        raise KnownError(f"{where}: unknown field(s) {', '.join(unknown)} (known: patient_id, {', '.join(KNOWN_FIELDS)})")
    values: dict[str, tuple[str, ...]] = {}
    for name in KNOWN_FIELDS:
        items = raw.get(name, [])
        if items is None:
            items = []
        if isinstance(items, str):
            items = [items]
        if not isinstance(items, list):
            raise KnownError(f"{where}: '{name}' must be a list of strings")
        if len(items) > MAX_VALUES:
            raise KnownError(f"{where}: '{name}' holds {len(items)} values (at most {MAX_VALUES})")
        clean: list[str] = []
        for i, v in enumerate(items):
            if not isinstance(v, str):
                raise KnownError(f"{where}: '{name}' value {i} is not a string")
            if len(v) > MAX_VALUE_CHARS:
                raise KnownError(f"{where}: '{name}' value {i} is longer than {MAX_VALUE_CHARS} characters")
            if v.strip():
                clean.append(v.strip())
        values[name] = tuple(dict.fromkeys(clean))
    return KnownPatient(pid, **values)


@dataclass(frozen=True)
class KnownSet:
    """Known identifiers by patient id; an unknown patient is simply no extra knowledge."""

    patients: Mapping[str, KnownPatient]

    def get(self, patient_id: str | None) -> KnownPatient | None:
        return None if patient_id is None else self.patients.get(patient_id)

    def __len__(self) -> int:
        return len(self.patients)

    @classmethod
    def of(cls, records: Iterable[KnownPatient]) -> "KnownSet":
        out: dict[str, KnownPatient] = {}
        for r in records:
            prev = out.get(r.patient_id)
            out[r.patient_id] = r if prev is None else prev.merged(r)
        return cls(out)


class KnownRecordError(RecordError):
    """A line of a known-identifier file that could not be used; its message names the patient."""

    @property
    def patient_id(self) -> str | None:
        return self.record_id

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def parse_known_lines(lines: Iterable[bytes | str]) -> Iterator[KnownPatient | KnownRecordError]:
    """One result per non-blank JSONL line: a record or the error naming it."""
    for number, data, error in json_lines(lines):
        if error is not None:
            yield KnownRecordError(number, None, error)
            continue
        pid = data.get("patient_id") if isinstance(data, dict) else None
        try:
            yield known_from_dict(data, "known-identifier record")
        except KnownError as exc:
            yield KnownRecordError(number, pid if isinstance(pid, str) else None, str(exc))


@dataclass(frozen=True)
class KnownFile:
    """A known-identifier file read whole: the good records and the bad lines."""

    known: KnownSet
    errors: tuple[KnownRecordError, ...]

    @property
    def failed_patients(self) -> frozenset[str]:
        """Patients whose record was bad: their notes fail rather than lose the floor silently."""
        return frozenset(e.patient_id for e in self.errors if e.patient_id is not None)


def read_known(path: Path | str) -> KnownFile:
    path = Path(path)
    if not path.exists():
        raise KnownError(f"known-identifier file {path} does not exist")
    with open(path, "rb") as fh:
        results = list(parse_known_lines(fh))
    good = [r for r in results if isinstance(r, KnownPatient)]
    bad = tuple(r for r in results if isinstance(r, KnownRecordError))
    return KnownFile(KnownSet.of(good), bad)


def write_known(path: Path | str, records: Iterable[KnownPatient]) -> int:
    n = 0
    with atomic_writer(path) as fh:
        for r in records:
            fh.write(dump(r.to_dict()) + "\n")
            n += 1
    return n

