"""Known identifiers: the input format, every matching variant, and known spans winning the join."""

from __future__ import annotations

from deid_core.notes import ClinicalNote
import json

import pytest

from deid_core.cli.main import main
from deid_core.known import KnownError, KnownPatient, KnownSet, known_from_dict, read_known
from deid_core.recognizers.base import NoteContext
from deid_core.recognizers.known import KnownIdentifierRecognizer, known_wins, within_one_edit
from deid_core.recognizers.mix import build_mix
from deid_core.recognizers.pipeline import DetectConfig

from deid_core.spans import Category, Evidence, Span
from tests.words import has_word

MARIA = KnownPatient(
    "P1",
    names=("Maria T. Lopez-Garcia", "Hope Bell"),
    relatives=("Ana Quintero",),
    staff=("Sam Okafor",),
    ids=("00123456",),
    dates=("1961-03-14",),
    phones=("617-555-0134",),
    emails=("m.lopez@mail.example",),
    addresses=("12 Elm Street, Salem, MA 01970",),
)


@pytest.fixture(scope="module")
def recognizer() -> KnownIdentifierRecognizer:
    return KnownIdentifierRecognizer(KnownSet.of([MARIA]))


def found(recognizer, text: str, patient: str = "P1") -> list[tuple[str, str]]:
    return [(s.category.value, text[s.start : s.end]) for s in recognizer.analyze(text, context=NoteContext("n", patient))]


# -- input -----------------------------------------------------------------


def test_record_with_only_a_patient_id_is_valid_and_empty():
    assert known_from_dict({"patient_id": "P9"}).empty


@pytest.mark.parametrize(
    "raw, says",
    [
        ({"names": ["A B"]}, "patient_id"),
        ({"patient_id": "P1", "nickname": ["Mo"]}, "unknown field(s) nickname"),
        ({"patient_id": "P1", "ids": [123456]}, "'ids' value 0 is not a string"),
        ({"patient_id": "P1", "phones": {"home": "1"}}, "'phones' must be a list"),
        ({"patient_id": "P1", "names": ["x" * 500]}, "longer than"),
    ],
)
def test_bad_record_names_the_record_and_field_without_its_values(raw, says):
    with pytest.raises(KnownError) as err:
        known_from_dict(raw, "line 4")
    assert "line 4" in str(err.value) and says in str(err.value)
    assert "123456" not in str(err.value) and "home" not in str(err.value)


def test_file_keeps_good_records_reports_bad_lines_and_merges_a_patients_rows(tmp_path):
    path = tmp_path / "known.jsonl"
    path.write_bytes(
        b'{"patient_id": "P1", "names": ["Maria Lopez"]}\n'
        b"{not json\n"
        b'{"patient_id": "P2", "ids": [7]}\n'
        b'{"patient_id": "P1", "ids": ["00123456"]}\n'
        b"\xff\xfe\n" + b"[" * 100000 + b"\n"
    )
    read = read_known(path)
    assert read.known.get("P1") == KnownPatient("P1", names=("Maria Lopez",), ids=("00123456",))
    assert [(e.line, e.patient_id) for e in read.errors] == [(2, None), (3, "P2"), (5, None), (6, None)]
    assert read.failed_patients == {"P2"}


def test_unknown_patient_is_no_extra_knowledge(recognizer):
    assert found(recognizer, "Maria Lopez-Garcia, MRN 00123456", patient="P404") == []
    assert found(recognizer, "Maria Lopez-Garcia, MRN 00123456", patient=None) == []


# -- names -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, span",
    [
        ("Seen: LOPEZ-GARCIA, MARIA today.", "LOPEZ-GARCIA, MARIA"),
        ("Seen: Maria T. Lopez-Garcia today.", "Maria T. Lopez-Garcia"),
        ("Seen: M. Lopez today.", "M. Lopez"),
        ("Spoke with Ms. Lopez today.", "Lopez"),
        ("pt maria c/o pain", "maria"),
        ("Lopez-Garcia's pain is better", "Lopez-Garcia"),
        ("Mrs Garcia called", "Garcia"),
        ("Garcia Lopez, Maria", "Garcia Lopez, Maria"),
    ],
)
def test_patient_name_found_in_any_case_order_and_form(recognizer, text, span):
    assert ("PATIENT", span) in found(recognizer, text)


@pytest.mark.parametrize("text, span", [("Marai tolerated diet", "Marai"), ("Lopes-Garcia at bedside", "Lopes-Garcia"), ("Mariia ok", "Mariia")])
def test_one_letter_misspelling_of_a_long_token_is_found(recognizer, text, span):
    assert ("PATIENT", span) in found(recognizer, text)


def test_misspelling_never_makes_an_ordinary_word_a_name():
    rec = KnownIdentifierRecognizer(KnownSet.of([KnownPatient("P1", names=("Ruth Chest",))]))
    # "chess" and "truth" are one edit from the known tokens but ordinary words; "Chest" alone needs a cue
    assert found(rec, "Chest x-ray clear; played chess; truth is", "P1") == []
    assert found(rec, "Ruth Chest, truth", "P1") == [("PATIENT", "Ruth Chest")]


def test_common_word_token_needs_a_cue_or_its_own_name_beside_it(recognizer):
    assert found(recognizer, "I hope she rings the bell.") == []
    assert found(recognizer, "Hope Bell is here") == [("PATIENT", "Hope Bell")]
    assert found(recognizer, "Spoke with Ms. Bell.") == [("PATIENT", "Bell")]


def test_relatives_are_patients_and_staff_are_doctors(recognizer):
    assert found(recognizer, "daughter Ana Quintero; Dr. Okafor") == [("PATIENT", "Ana Quintero"), ("DOCTOR", "Okafor")]


def test_two_mentions_after_a_comma_stay_two_spans(recognizer):
    assert found(recognizer, "Maria Lopez, M. Lopez") == [("PATIENT", "Maria Lopez"), ("PATIENT", "M. Lopez")]


def test_edit_distance_counts_a_swap_of_neighbours_as_one():
    assert within_one_edit("lopez", "lopze") and within_one_edit("maria", "mara") and not within_one_edit("maria", "mraai")


# -- numbers, dates, contact -------------------------------------------------


@pytest.mark.parametrize("written", ["00123456", "001-234-56", "00 12 34 56", "0012.3456"])
def test_id_found_whatever_its_punctuation_or_grouping(recognizer, written):
    assert found(recognizer, f"MRN: {written}.") == [("ID", written)]


def test_id_is_not_found_inside_a_longer_number(recognizer):
    assert found(recognizer, "acct 9900123456") == []


@pytest.mark.parametrize("written", ["(617) 555-0134", "617.555.0134", "+1 617 555 0134", "6175550134", "1-617-555-0134"])
def test_phone_found_whatever_its_grouping(recognizer, written):
    assert found(recognizer, f"call {written} today") == [("PHONE", written)]


@pytest.mark.parametrize(
    "written", ["03/14/1961", "3/14/61", "14.03.1961", "1961-03-14", "March 14, 1961", "14th of March, 1961", "14-Mar-1961", "19610314"]
)
def test_date_of_birth_found_in_every_written_format(recognizer, written):
    assert found(recognizer, f"DOB {written}.") == [("DATE", written)]


def test_another_date_is_not_the_date_of_birth(recognizer):
    assert found(recognizer, "seen 03/15/1961 and 1961") == []


def test_email_found_in_any_case(recognizer):
    assert found(recognizer, "write to M.Lopez@Mail.Example") == [("WEB", "M.Lopez@Mail.Example")]


def test_address_street_city_and_zip_found(recognizer):
    text = "lives at 12 elm st, moved from SALEM 01970"
    assert found(recognizer, text) == [("LOCATION", "12 elm st"), ("LOCATION", "SALEM"), ("LOCATION", "01970")]


# -- known spans win ---------------------------------------------------------


def test_known_span_decides_category_and_boundaries_over_another_category():
    text = "Hope Bell Clinic"
    known = [Span(0, 9, Category.PATIENT, 1.0, "known/name")]
    out = known_wins(text, [Span(0, 16, Category.HOSPITAL, 0.9, "facility")], known)
    assert [(s.category, text[s.start : s.end]) for s in out] == [(Category.PATIENT, "Hope Bell"), (Category.HOSPITAL, "Clinic")]
    assert out[0].source == "known/name+facility"


def test_known_span_keeps_a_longer_span_of_its_own_category():
    text = "at 12 Elm St, Salem MA 01970"
    out = known_wins(text, [Span(3, len(text), Category.LOCATION, 0.9, "address")], [Span(3, 12, Category.LOCATION, 1.0, "known/street")])
    assert [(s.start, s.end, s.category) for s in out] == [(3, len(text), Category.LOCATION)]


def test_title_left_over_from_a_replaced_span_is_dropped():
    text = "Dr. Hope came"
    out = known_wins(text, [Span(0, 8, Category.DOCTOR, 0.9, "names/cued")], [Span(4, 8, Category.PATIENT, 1.0, "known/name")])
    assert [(s.category, text[s.start : s.end]) for s in out] == [(Category.PATIENT, "Hope")]


def test_mix_with_known_finds_a_lowercase_common_word_surname_the_rules_miss():
    text = "pt seen w daughter. young, maria c/o cough. sister rose young at bedside"
    detector = build_mix(DetectConfig(mix=("rules",)))
    note = ClinicalNote("n1", text, "P7")
    without = detector.detect_batch([note])[0]
    detector.known = KnownIdentifierRecognizer(KnownSet.of([KnownPatient("P7", names=("Maria Young",), relatives=("Rose Young",))]))
    with_known = detector.detect_batch([note])[0]
    names = {text[s.start : s.end] for s in with_known if s.category is Category.PATIENT}
    assert {"young, maria", "rose young"} <= names
    assert not {"young, maria", "rose young"} <= {text[s.start : s.end] for s in without}


def test_detect_known_fails_only_the_notes_of_a_patient_whose_record_is_bad(tmp_path, capsys):
    notes = tmp_path / "notes.jsonl"
    notes.write_text(
        json.dumps({"id": "a", "patient_id": "P1", "text": "pt lopez-garcia, maria; ph 617 555 0134"}) + "\n"
        + json.dumps({"id": "b", "patient_id": "P2", "text": "seen"}) + "\n"
    )
    known = tmp_path / "known.jsonl"
    known.write_text(json.dumps(MARIA.to_dict()) + "\n" + json.dumps({"patient_id": "P2", "ids": [1]}) + "\n")
    out = tmp_path / "spans.jsonl"
    assert main(["detect", "--in", str(notes), "--out", str(out), "--known", str(known)]) == 1
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    text = "pt lopez-garcia, maria; ph 617 555 0134"
    got = {(s["label"], text[s["start"] : s["end"]]) for s in rows[0]["spans"]}
    assert {("PATIENT", "lopez-garcia, maria"), ("PHONE", "617 555 0134")} <= got
    assert "known-identifier record" in rows[1]["error"]
    err = capsys.readouterr().err
    assert "line 2" in err and "'P2'" in err


def test_a_name_inside_an_email_or_handle_is_left_to_it():
    rec = KnownIdentifierRecognizer(KnownSet.of([KnownPatient("P1", names=("Christine Watson",))]))
    assert found(rec, "mail mwatson@clinic.example or christine_p or watson38", "P1") == []


def test_a_longer_name_around_a_known_token_is_another_persons():
    text = "Seen by Dr. Mikako Clark today"
    start = text.index("Mikako")
    rule = Span(start, start + len("Mikako Clark"), Category.DOCTOR, 0.9, "names/title")
    known = [Span(text.index("Clark"), text.index("Clark") + 5, Category.PATIENT, 1.0, "known/name")]
    out = known_wins(text, [rule], known)
    assert [(s.category, text[s.start : s.end]) for s in out] == [(Category.DOCTOR, "Mikako Clark")]


def test_the_persons_particle_before_a_name_belongs_to_it():
    rec = KnownIdentifierRecognizer(KnownSet.of([KnownPatient("P1", staff=("Caoimhe Ó Dearáin",))]))
    assert found(rec, "hi dr ó dearáin, thanks", "P1") == [("DOCTOR", "ó dearáin")]


def test_synth_writes_a_known_file_with_gaps_and_eval_scores_with_and_without(tmp_path, capsys):
    notes, known = tmp_path / "notes.jsonl", tmp_path / "known.jsonl"
    assert main(["synth", "--n", "40", "--seed", "5", "--out", str(notes), "--known", str(known)]) == 0
    read = read_known(known)
    rows = [json.loads(x) for x in notes.read_text().splitlines()]
    assert not read.errors and set(read.known.patients) == {r["patient_id"] for r in rows}
    assert all(p.names and p.dates and p.ids for p in read.known.patients.values())
    capsys.readouterr()
    assert main(["eval", "--gold", str(notes), "--mix", "rules", "--known", str(known), "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    assert "rules+known" in out and "recall on gold spans that hold a known identifier" in out
    known_row = [line for line in out.splitlines() if line.startswith("rules+known") and "/" in line][0]
    found_total = [cell.split("/") for cell in known_row.split() if "/" in cell]
    assert found_total and all(f == t for f, t in found_total)


@pytest.mark.parametrize(
    "text, span",
    [
        ('Attendees: Harold "Hal" Pettibone (pt)', 'Harold "Hal" Pettibone'),
        ("PID|1||X^^^^MR||PETTIBONE^HAROLD||19300312", "PETTIBONE^HAROLD"),
        ("Patient: PETTIBONE/HAROLD MR", "PETTIBONE/HAROLD"),
        ("pt: yeah its harold harold pettibone", "harold pettibone"),
    ],
)
def test_name_written_with_a_nickname_in_quotes_or_in_record_separators_is_one_span(text, span):
    rec = KnownIdentifierRecognizer(KnownSet.of([KnownPatient("P1", names=("Harold Pettibone", "Hal"))]))
    assert ("PATIENT", span) in found(rec, text, "P1")


def test_ordinary_words_a_rule_put_before_a_known_name_are_left_out_but_a_middle_name_is_kept():
    text = "Pt: Baby Boy Nguyen; Maria Rose Lopez"
    rules = [Span(8, 19, Category.PATIENT, 0.8, "names/relation", Evidence.CUE), Span(21, 37, Category.PATIENT, 0.8, "names/listed", Evidence.GUESS)]
    known = [Span(13, 19, Category.PATIENT, 1.0, "known/name"), Span(21, 26, Category.PATIENT, 1.0, "known/name"),
             Span(32, 37, Category.PATIENT, 1.0, "known/name")]
    got = {text[s.start : s.end] for s in known_wins(text, rules, known)}
    assert "Nguyen" in got and "Maria Rose Lopez" in got


def test_a_known_name_gets_one_surrogate_in_every_form_found_only_through_the_list(study_key):
    from deid_core.anonymizer.engine import Anonymizer, Note

    text = "Patient: Maria Quintero seen.\nf/u: quintero, maria c/o cough; QUINTERO's daughter called. Spoke w/ maria."
    detector = build_mix(DetectConfig(mix=("rules",)))
    detector.known = KnownIdentifierRecognizer(KnownSet.of([KnownPatient("P1", names=("Maria Quintero",))]))
    spans = detector.detect_batch([ClinicalNote("n1", text, "P1")])[0]
    out = Anonymizer(study_key).anonymize(Note("n1", text, "P1", tuple(spans))).text
    assert not has_word("quintero", out) and not has_word("maria", out)
    first, last = out.split("Patient: ")[1].split(" seen")[0].split(" ")
    assert f"{last.lower()}, {first.lower()}" in out and f"{last.upper()}'s daughter" in out and f"w/ {first.lower()}." in out


def test_a_misspelling_found_through_the_list_gets_the_surrogate_of_the_records_spelling(study_key):
    from deid_core.anonymizer.engine import Anonymizer, Note

    text = "Patient: Maria Quintero seen. Mrs Quinteros (sp?) asked; QUINTEROS called"
    rec = KnownIdentifierRecognizer(KnownSet.of([KnownPatient("P1", names=("Maria Quintero",))]))
    spellings = rec.spellings(text, "P1")
    assert spellings == {"Quinteros": "Quintero", "QUINTEROS": "QUINTERO"}
    spans = tuple(rec.analyze(text, context=NoteContext("n1", "P1")))
    out = Anonymizer(study_key).anonymize(Note("n1", text, "P1", spans, spellings)).text
    surname = out.split("Patient: ")[1].split(" seen")[0].split(" ")[1]
    assert f"Mrs {surname} (sp?)" in out and f"; {surname.upper()} called" in out
