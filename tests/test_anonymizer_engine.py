import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deid_core.anonymizer.engine import AnonymizationError, Anonymizer, Note
from deid_core.cli.main import main
from deid_core.config import AnonymizerConfig
from deid_core.keys import StudyKey
from deid_core.spans import Category, Span

TEXT = "Pt John Smith (MRN 15851368) seen 03/15/2023, age 95, call 650-876-9087, Acct 22222222."


def spans_for(text: str, *pairs: tuple[str, Category]) -> tuple[Span, ...]:
    out, pos = [], 0
    for value, category in pairs:
        start = text.index(value, pos)
        out.append(Span(start, start + len(value), category))
        pos = start + len(value)
    return tuple(out)


def sample_note(patient_id: str | None = "P1") -> Note:
    return Note(
        "n1",
        TEXT,
        patient_id,
        spans_for(
            TEXT,
            ("John Smith", Category.PATIENT),
            ("15851368", Category.ID),
            ("03/15/2023", Category.DATE),
            ("95", Category.AGE),
            ("650-876-9087", Category.PHONE),
            ("22222222", Category.OTHER),
        ),
    )


def test_no_original_value_survives_and_spans_map_to_output(study_key):
    note = sample_note()
    out = Anonymizer(study_key).anonymize(note)
    for value in ("John", "Smith", "15851368", "03/15/2023", "650-876-9087", "22222222"):
        assert value not in out.text
    for before, after in zip(note.spans, out.spans):
        assert note.text[before.start : before.end] != out.text[after.start : after.end]
    assert [s.category for s in out.spans] == [s.category for s in note.spans]
    age = out.spans[3]
    assert out.text[age.start : age.end] == "89"
    assert out.key_id == study_key.key_id
    # text outside the spans is untouched
    assert out.text.startswith("Pt ") and "seen" in out.text and out.text.endswith(".")


def test_same_input_same_keys_same_output(study_key):
    a = Anonymizer(study_key).anonymize(sample_note())
    b = Anonymizer(StudyKey(study_key.study, salt=study_key.salt, key=study_key.key)).anonymize(sample_note())
    assert a.text == b.text


def test_rotated_key_gives_unlinkable_output(study_key, other_key):
    a = Anonymizer(study_key).anonymize(sample_note())
    b = Anonymizer(other_key).anonymize(sample_note())
    sa = [a.text[s.start : s.end] for s in a.spans]
    sb = [b.text[s.start : s.end] for s in b.spans]
    differing = sum(x != y for x, y in zip(sa, sb))
    assert differing >= 5  # age cap is key-independent by design


def test_dates_without_patient_id_fail_the_note(study_key):
    with pytest.raises(AnonymizationError, match="no patient_id"):
        Anonymizer(study_key).anonymize(sample_note(patient_id=None))


def test_error_in_a_strategy_masks_the_span_and_records_why(study_key):
    text = "MRN: ---- and age unknown"
    note = Note("n2", text, "P1", (Span(5, 9, Category.ID), Span(14, 25, Category.AGE)))
    out = Anonymizer(study_key).anonymize(note)
    assert out.text == "MRN: [ID] and [AGE]"
    assert [r.masked_because for r in out.replacements] == ["FpeError", "AgeParseError"]
    assert all("----" not in (r.masked_because or "") for r in out.replacements)


def test_unparseable_date_is_masked_not_passed_through(study_key):
    text = "seen on the feast day"
    note = Note("n3", text, "P1", (Span(12, 21, Category.DATE),))
    out = Anonymizer(study_key).anonymize(note)
    assert out.text == "seen on the [DATE]"


def test_overlapping_spans_are_united_and_no_character_survives(study_key):
    text = "Contact maria.lopez@mail.example.org now"
    email = text.index("maria")
    note = Note(
        "n4",
        text,
        "P1",
        (Span(email, email + 11, Category.PATIENT), Span(email, text.index(" now"), Category.WEB)),
    )
    cfg = AnonymizerConfig(strategies={"WEB": "mask"})
    out = Anonymizer(study_key, cfg).anonymize(note)
    assert out.text == "Contact [WEB] now"
    assert len(out.spans) == 2 and all(out.text[s.start : s.end] == "[WEB]" for s in out.spans)


def test_mask_is_available_for_every_category(study_key):
    cfg = AnonymizerConfig(strategies={c.value: "mask" for c in Category})
    out = Anonymizer(study_key, cfg).anonymize(sample_note())
    assert out.text.startswith("Pt [PATIENT] (MRN [ID]) seen [DATE], age [AGE], call [PHONE], Acct [OTHER].")


def test_span_outside_text_is_an_error_naming_the_note(study_key):
    with pytest.raises(AnonymizationError, match="note 'bad'"):
        Anonymizer(study_key).anonymize(Note("bad", "abc", "P1", (Span(1, 10, Category.ID),)))


def test_anonymize_cli_writes_good_records_and_reports_bad_ones(tmp_path, capsys):
    key_path = tmp_path / "k.json"
    assert main(["keygen", "--study", "s", "--out", str(key_path)]) == 0
    good = {"id": "a", "patient_id": "P1", "text": "MRN 12345678", "spans": [{"start": 4, "end": 12, "label": "ID"}]}
    bad_span = {"id": "b", "patient_id": "P1", "text": "short", "spans": [{"start": 0, "end": 99, "label": "ID"}]}
    bad_label = {"id": "c", "patient_id": "P1", "text": "x y", "spans": [{"start": 0, "end": 1, "label": "NAME"}]}
    no_pid = {"id": "d", "text": "on 3/4/2020", "spans": [{"start": 3, "end": 11, "label": "DATE"}]}
    good2 = {"id": "e", "patient_id": "P2", "text": "on 3/4/2020", "spans": [{"start": 3, "end": 11, "label": "DATE"}]}
    lines = [json.dumps(good), json.dumps(bad_span), "{not json", json.dumps(bad_label), json.dumps(no_pid), json.dumps(good2)]
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(("\n".join(lines) + "\n").encode() + b"\xff\xfe\n")
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    code = main(["anonymize", "--in", str(inp), "--out", str(out), "--key-file", str(key_path)])
    err = capsys.readouterr().err
    assert code == 1
    records = [json.loads(l) for l in out.read_text().splitlines()]
    assert [r["id"] for r in records] == ["a", "e"]
    assert records[0]["text"] != "MRN 12345678" and records[0]["key_id"] == StudyKey.read(key_path).key_id
    assert "line 2: record 'b'" in err and "line 3" in err and "malformed JSON" in err
    assert "line 4: record 'c'" in err and "unknown category" in err
    assert "line 5: record 'd'" in err and "patient_id" in err
    assert "line 7" in err and "UTF-8" in err
    key_material = json.loads(key_path.read_text())
    assert key_material["key"] not in out.read_text() and key_material["key"] not in err


def test_anonymize_cli_withholds_an_output_that_still_holds_a_marked_value(tmp_path, capsys):
    """A value marked once but written again unmarked would pass through: the record fails, the text is not written."""
    key_path = tmp_path / "k.json"
    assert main(["keygen", "--study", "s", "--out", str(key_path)]) == 0
    text = "Pt Wilhelmina Oyelaran seen. Oyelaran agrees."
    leaky = {"id": "a", "patient_id": "P1", "text": text, "spans": [{"start": 3, "end": 22, "label": "PATIENT"}]}
    full = dict(leaky, id="b", spans=[*leaky["spans"], {"start": 29, "end": 37, "label": "PATIENT"}])
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps(leaky) + "\n" + json.dumps(full) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    assert main(["anonymize", "--in", str(inp), "--out", str(out), "--key-file", str(key_path)]) == 1
    err = capsys.readouterr().err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in records] == ["b"] and "Oyelaran" not in out.read_text()
    assert "record 'a'" in err and "output withheld" in err and "Oyelaran" not in err


def test_output_file_is_not_left_half_written_on_a_missing_key(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text('{"id": "a", "text": "x", "spans": []}\n')
    out = tmp_path / "out.jsonl"
    assert main(["anonymize", "--in", str(inp), "--out", str(out), "--key-file", str(tmp_path / "none")]) == 2
    assert not out.exists()


def _anonymized(key, text, *spans, config=None):
    return Anonymizer(key, config).anonymize(Note("n", text, "P1", tuple(spans)))


def test_an_age_overlapping_a_name_does_not_keep_the_name(study_key):
    out = _anonymized(study_key, "72 yo Maria Lopez here", Span(0, 14, Category.AGE), Span(6, 17, Category.PATIENT))
    assert "Maria" not in out.text and "Lopez" not in out.text and out.text.endswith(" here")


def test_an_age_covering_an_id_does_not_keep_the_id(study_key):
    out = _anonymized(study_key, "age 72 MRN 00123456", Span(0, 19, Category.AGE), Span(11, 19, Category.ID))
    assert "00123456" not in out.text and out.replacements[0].category is Category.ID


def test_an_age_covering_a_date_does_not_keep_the_date(study_key):
    out = _anonymized(study_key, "72 yo on 03/14/2019", Span(0, 19, Category.AGE), Span(9, 19, Category.DATE))
    assert "03/14/2019" not in out.text


def test_a_higher_scored_state_does_not_keep_a_patients_given_name(study_key):
    text = "Georgia Smith"
    out = _anonymized(
        study_key, text, Span(0, 7, Category.LOCATION, 0.9), Span(0, 7, Category.PATIENT, 0.5), Span(8, 13, Category.PATIENT, 0.8)
    )
    # whole words: a surrogate may happen to begin with the same letters ("Georgianne")
    assert not re.search(r"\b(?:Georgia|Smith)\b", out.text), out.text


def test_a_replacement_that_keeps_an_overlapping_spans_word_is_masked(study_key):
    # the state is kept by the place strategy, but a name span marks it too
    text = "Smith, Georgia"
    out = _anonymized(study_key, text, Span(0, 14, Category.LOCATION), Span(7, 14, Category.PATIENT))
    assert out.text == "[LOCATION]" and out.replacements[0].masked_because == "ForeignTextKept"


def test_a_region_another_category_also_marks_is_never_kept_as_written(study_key):
    # a state alone is kept as written; with an age span over it, it is not
    out = _anonymized(study_key, "from MA", Span(5, 7, Category.LOCATION), Span(5, 7, Category.AGE))
    assert out.text == "from [LOCATION]"


_WORDS = ("Maria", "Lopez", "Qorvath", "Zelmink", "72", "95", "1931", "00123456", "03/14/2019", "Boston", "MA", "Dr.", "yo", "of")


@st.composite
def _notes_with_overlaps(draw):
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=12))
    text = " ".join(words)
    spans = []
    for _ in range(draw(st.integers(1, 6))):
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start + 1, len(text)))
        spans.append(Span(start, end, draw(st.sampled_from(list(Category)))))
    return text, tuple(spans)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_notes_with_overlaps())
def test_no_word_of_a_replaced_span_survives_an_overlap(study_key, note):
    """Wherever spans of several categories overlap, no word that a replaced
    (not kept) category marks comes out in its region, and the region never
    comes out as written."""
    text, spans = note
    out = Anonymizer(study_key).anonymize(Note("n", text, "P1", spans))
    word = re.compile(r"[^\W_]{3,}")
    for r in out.replacements:
        members = [s for s in spans if s.start < r.end and r.start < s.end]
        replaced = [s for s in members if s.category is not Category.AGE]
        if len({s.category for s in members}) < 2 or not replaced:
            continue
        written = out.text[r.out_start : r.out_end]
        assert written != text[r.start : r.end]
        assert r.category is not Category.AGE
        survivors = set(word.findall(written.casefold()))
        for s in replaced:
            if s.category is not r.category:
                assert not survivors & set(word.findall(s.text_in(text).casefold()))


def _dated(key, text, *dates):
    spans = tuple(Span(text.index(d), text.index(d) + len(d), Category.DATE) for d in dates)
    return Anonymizer(key).anonymize(Note("n", text, "P1", spans))


def test_a_birth_date_that_shows_an_age_over_89_with_a_visit_date_is_masked(study_key):
    # born 1930-02-11, seen 2024-03-14: the shifted dates would still say 94
    out = _dated(study_key, "DOB: 02/11/1930. Seen 03/14/2024 in clinic.", "02/11/1930", "03/14/2024")
    assert out.text.startswith("DOB: [DATE]. Seen ") and "[DATE]" not in out.text[12:]
    assert out.replacements[0].masked_because == "BirthDateShowsAgeOver89"


def test_a_birth_date_of_someone_89_or_younger_is_shifted_as_usual(study_key):
    out = _dated(study_key, "Date of birth 03/20/1934, visit 03/14/2024.", "03/20/1934", "03/14/2024")
    assert "[DATE]" not in out.text and "03/20/1934" not in out.text


def test_a_birth_year_is_read_at_its_widest_against_the_latest_date(study_key):
    # born in 1934 may be January 1934: 90 by December 2024
    out = _dated(study_key, "born 1934; seen 05/01/2020 and again Dec 2024", "1934", "05/01/2020", "Dec 2024")
    assert out.text.startswith("born [DATE];")


def test_a_lone_birth_date_is_measured_against_the_reference_date(study_key):
    out = _dated(study_key, "DOB 07/04/1925", "07/04/1925")
    assert out.text == "DOB [DATE]"
    out = _dated(study_key, "DOB 07/04/1955", "07/04/1955")
    assert out.text != "DOB [DATE]"
