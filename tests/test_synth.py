"""The synthetic note generator: determinism, exact gold spans, registers, traps."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deid_core.cli import synth as synth_cli
from deid_core.spans import Category, span_from_dict
from deid_core.synth import REGISTERS, SynthError, generate_notes, write_jsonl
from deid_core.synth.builder import NoteBuilder, phi, trap
from deid_core.synth.names import invented_name, is_latin_name

MONTH_WORDS = re.compile(r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec", re.IGNORECASE)
TITLES = ("dr.", "dr ", "mr.", "mrs.", "ms.", "miss ")
CREDENTIALS = {"MD", "DO", "RN", "NP", "PA-C", "MBBS", "LPN"}


@pytest.fixture(scope="module")
def corpus():
    return generate_notes(600, 2024)


def spans_of(notes, category):
    return [(n, s) for n in notes for s in n.spans if s.category is category]


# --- determinism -----------------------------------------------------------


def test_same_seed_writes_byte_identical_jsonl(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(generate_notes(80, 99), a)
    write_jsonl(generate_notes(80, 99), b)
    assert a.read_bytes() == b.read_bytes()


def test_different_seeds_give_different_notes():
    first = [n.text for n in generate_notes(30, 1)]
    second = [n.text for n in generate_notes(30, 2)]
    assert first != second
    assert len(set(first) & set(second)) < 10  # only short PHI-free notes may coincide


def test_output_does_not_depend_on_string_hash_randomization(tmp_path):
    code = (
        "import sys; from deid_core.synth import generate_notes, write_jsonl;"
        "write_jsonl(generate_notes(40, 5), sys.argv[1])"
    )
    outputs = []
    for hash_seed in ("1", "4242"):
        out = tmp_path / f"h{hash_seed}.jsonl"
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        subprocess.run([sys.executable, "-c", code, str(out)], check=True, env=env, timeout=60)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert outputs[0] == b"".join(
        (json.dumps(n.to_json(), ensure_ascii=False) + "\n").encode() for n in generate_notes(40, 5)
    )


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), short=st.integers(min_value=0, max_value=12))
def test_shorter_run_is_a_prefix_of_a_longer_one(seed, short):
    assert generate_notes(short, seed) == generate_notes(short + 9, seed)[:short]


# --- span validity -----------------------------------------------------------


def check_note_spans(note):
    previous_end = 0
    for span in note.spans:
        value = note.text[span.start : span.end]
        assert 0 <= span.start < span.end <= len(note.text)
        assert span.start >= previous_end, f"overlap in {note.id}"
        previous_end = span.end
        assert value == value.strip() and value, f"edge whitespace in {value!r}"
        assert span.source == "gold"
        check_plausible(span.category, value, note)


def check_plausible(category, value, note):
    low = value.lower()
    digits = sum(ch.isdigit() for ch in value)
    if category is Category.DATE:
        assert digits or MONTH_WORDS.search(value), value
        assert parse_date_like(value), value
    elif category is Category.PHONE:
        assert digits >= 7, value
        assert not re.search(r"[A-Za-z]{4,}", value), value
    elif category is Category.AGE:
        number = re.match(r"\d+", value)
        assert number, value
        assert 0 <= int(number.group()) <= 120
    elif category is Category.ID:
        assert digits >= 3, value
        assert not low.startswith(("mrn", "ssn", "acct", "accession")), value
    elif category in (Category.PATIENT, Category.DOCTOR):
        assert digits == 0, value
        assert not low.startswith(TITLES), value
        assert not (set(re.split(r"[\s,]+", value)) & CREDENTIALS), value
        assert is_latin_name(value.replace(",", "")), value
    elif category is Category.WEB:
        assert "@" in value or "://" in value or value.startswith("www.") or re.fullmatch(r"\d+\.\d+\.\d+\.\d+|@?\w+", value), value
    elif category is Category.HOSPITAL:
        assert digits == 0 and value[0].isupper(), value
    elif category is Category.LOCATION:
        assert any(ch.isalpha() for ch in value), value


def parse_date_like(value):
    """Does the value read as a calendar expression in one of the written forms?"""
    text = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", value)
    text = re.sub(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? ", "", text, flags=re.IGNORECASE)
    for fmt in (
        "%m/%d/%Y", "%m/%d/%y", "%Y-%m-%d", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%m/%d/%Y %H:%M", "%m/%d/%y %H%M",
        "%B %d, %Y", "%d %b %Y", "%d %B %Y", "%d-%b-%Y", "%m-%d-%Y", "%b %d %Y", "%B %d", "%b %d", "%b-%y", "%B %Y", "%m/%Y",
    ):
        try:
            datetime.strptime(text, fmt)
            return True
        except ValueError:
            continue
    match = re.fullmatch(r"(\d{1,2})/(\d{1,2})", text)  # month/day without a year
    return bool(match) and 1 <= int(match.group(1)) <= 12 and 1 <= int(match.group(2)) <= 31


def test_every_gold_span_is_exact_and_plausible_for_its_category(corpus):
    for note in corpus:
        check_note_spans(note)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_spans_stay_valid_for_any_seed(seed):
    for note in generate_notes(25, seed):
        check_note_spans(note)


def test_all_nine_scored_categories_occur(corpus):
    seen = {s.category for n in corpus for s in n.spans}
    assert seen == set(Category) - {Category.OTHER}


def test_jsonl_round_trips_to_the_same_spans(tmp_path, corpus):
    path = tmp_path / "notes.jsonl"
    assert write_jsonl(corpus[:50], path) == 50
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 50
    for note, line in zip(corpus, lines):
        row = json.loads(line)
        assert set(row) == {"id", "patient_id", "register", "text", "spans"}
        assert row["text"] == note.text and row["register"] == note.register
        assert all(set(raw) == {"start", "end", "label"} for raw in row["spans"])
        back = [span_from_dict(row["id"], i, raw) for i, raw in enumerate(row["spans"])]
        assert [(s.start, s.end, s.category) for s in back] == [(s.start, s.end, s.category) for s in note.spans]


# --- registers, density, patients ---------------------------------------------


def test_every_register_is_produced_in_a_modest_run():
    assert {n.register for n in generate_notes(60, 8)} == set(REGISTERS)


def test_register_filter_limits_output_and_rejects_unknown_names():
    notes = generate_notes(30, 4, registers=["nursing_note", "icu_note"])
    assert len(notes) == 30 and {n.register for n in notes} == {"nursing_note", "icu_note"}
    with pytest.raises(ValueError, match="unknown register"):
        generate_notes(5, 4, registers=["nursing_note", "sonnet"])
    with pytest.raises(ValueError):
        generate_notes(5, 4, registers=[])
    with pytest.raises(TypeError):
        generate_notes(5, 4, registers="nursing_note")


def test_icu_nursing_register_is_telegraphic_single_cased_and_sparse_in_identifiers():
    notes = generate_notes(120, 21, registers=["icu_nursing"])
    assert {n.register for n in notes} == {"icu_nursing"} and "icu_nursing" not in REGISTERS  # opt-in only
    single_case = [n for n in notes if n.text == n.text.upper() or n.text == n.text.lower()]
    assert len(single_case) >= 0.6 * len(notes)
    per_note = [len(n.spans) for n in notes]
    assert 0.6 <= sum(per_note) / len(notes) <= 1.4
    assert 0.2 <= sum(1 for c in per_note if c == 0) / len(notes) <= 0.5
    assert all(re.search(r"^(?:neuro|NEURO|Neuro): ", n.text, re.M) for n in notes)
    dates = [n.text[s.start : s.end] for n in notes for s in n.spans if s.category is Category.DATE]
    assert dates and all(re.fullmatch(r"\d{1,2}/\d{1,2}", d) for d in dates)  # bare month/day
    for n in notes:
        assert all(n.text[s.start : s.end].strip() == n.text[s.start : s.end] for s in n.spans)


def test_recase_writes_a_share_of_every_register_in_one_case_with_exact_spans():
    plain = generate_notes(200, 5)
    cased = generate_notes(200, 5, recase=0.5)
    changed = [c for p, c in zip(plain, cased) if c.text in (c.text.upper(), c.text.lower()) and p.text != c.text]
    assert 0.3 * len(cased) <= len(changed) <= 0.7 * len(cased)
    assert {n.register for n in changed} >= {"discharge_summary", "progress_note"}
    for note in changed:  # spans still sit on whole values, in the note's one case
        for s in note.spans:
            value = note.text[s.start : s.end]
            assert value.strip() == value and value in (value.upper(), value.lower())
    assert [n.text for n in generate_notes(40, 5, recase=0.0)] == [n.text for n in plain[:40]]  # off by default: corpora unchanged
    with pytest.raises(ValueError):
        generate_notes(5, 1, recase=1.5)


def test_invalid_counts_and_seeds_are_rejected():
    assert generate_notes(0, 1) == []
    for bad in (-1, 2.5, True):
        with pytest.raises(ValueError):
            generate_notes(bad, 1)
    with pytest.raises(ValueError):
        generate_notes(3, "seed")


def test_phi_density_varies_and_some_notes_have_no_spans(corpus):
    counts = [len(n.spans) for n in corpus]
    assert counts.count(0) >= 20
    assert all(not n.spans for n in corpus if n.register == "phi_free")
    assert any(not n.spans for n in corpus if n.register == "nursing_note")
    assert max(counts) >= 18
    dense = [n for n in corpus if n.register == "discharge_summary"]
    assert len({len(n.spans) for n in dense}) >= 6


def test_patients_have_one_to_four_notes_and_reuse_their_names(corpus):
    by_patient = defaultdict(list)
    for note in corpus:
        by_patient[note.patient_id].append(note)
    sizes = Counter(len(v) for v in by_patient.values())
    assert set(sizes) <= {1, 2, 3, 4} and sizes[1] and sizes[3] and sizes[4]

    shared, compared, reworded = 0, 0, 0
    for notes in by_patient.values():
        per_note = [
            {n.text[s.start : s.end] for s in n.spans if s.category is Category.PATIENT}
            for n in notes
        ]
        per_note = [names for names in per_note if names]
        if len(per_note) < 2:
            continue
        compared += 1
        tokens = Counter(
            t for names in per_note for t in {t.casefold() for name in names for t in re.split(r"[\s,.]+", name) if len(t) > 1}
        )
        if tokens.most_common(1)[0][1] >= 2:  # some name token recurs in another note
            shared += 1
        if len({frozenset(names) for names in per_note}) > 1:
            reworded += 1
    assert compared >= 40
    assert shared / compared >= 0.9
    assert reworded / compared >= 0.5


def test_relatives_are_named_without_their_relation_word(corpus):
    relation = re.compile(r"\b(daughter|son|wife|husband|mother|father|sister|brother|partner|granddaughter|grandson|niece)\b[ ,]*$", re.I)
    hits = 0
    for note in corpus:
        for span in note.spans:
            if span.category is Category.PATIENT and relation.search(note.text[max(0, span.start - 20) : span.start]):
                hits += 1
                assert not relation.search(note.text[span.start : span.end])
    assert hits >= 30


def test_nursing_notes_are_all_caps(corpus):
    nursing = [n for n in corpus if n.register == "nursing_note"]
    assert len(nursing) >= 20
    for note in nursing:
        assert note.text == note.text.upper()


def test_case_is_applied_per_piece_so_offsets_survive_length_changes():
    b = NoteBuilder(case=str.upper)
    b.add("Patient ", phi("Groß", Category.PATIENT), " seen by ", phi("Weiß", Category.DOCTOR))
    text, spans, _ = b.build()
    assert [text[s.start : s.end] for s in spans] == ["GROSS", "WEISS"]


def test_builder_records_offsets_as_pieces_land_not_by_search():
    b = NoteBuilder()
    b.add("Ana saw ", phi("Ana", Category.DOCTOR), " at ", trap("14:30", "time"), ".")
    text, spans, traps = b.build()
    assert text == "Ana saw Ana at 14:30."
    assert [(s.start, s.end) for s in spans] == [(8, 11)]  # the second "Ana", not the first
    assert [(t.start, t.end, t.kind) for t in traps] == [(15, 20, "time")]


def test_values_with_edge_whitespace_are_refused():
    with pytest.raises(SynthError):
        NoteBuilder().add(phi(" Ana", Category.PATIENT))


def test_icu_notes_use_bare_month_day_dates(corpus):
    bare = [n.text[s.start : s.end] for n, s in spans_of([n for n in corpus if n.register == "icu_note"], Category.DATE)]
    assert bare and all(re.fullmatch(r"\d{1,2}/\d{1,2}", v) for v in bare)
    assert any(n.text[s.start - 3 : s.start] == "on " for n, s in spans_of(corpus, Category.DATE) if n.register == "icu_note")


def test_dates_come_in_many_formats(corpus):
    shapes = {re.sub(r"[A-Za-z]+", "a", re.sub(r"\d+", "9", n.text[s.start : s.end])) for n, s in spans_of(corpus, Category.DATE)}
    assert len(shapes) >= 15


def test_referral_letters_open_with_a_letterhead(corpus):
    letters = [n for n in corpus if n.register == "referral_letter"]
    assert letters
    for note in letters:
        first = note.spans[0]
        assert first.start == 0 and first.category is Category.HOSPITAL
        head = [s.category for s in note.spans[:4]]
        assert head[1] is Category.LOCATION and head[2] is Category.PHONE and head[3] is Category.PHONE
        assert "fax" in note.text[: note.spans[3].start].lower() or "f: " in note.text[: note.spans[3].start].lower()


def test_portal_messages_carry_emails_and_informal_lowercase(corpus):
    portal = [n for n in corpus if n.register == "portal_message"]
    assert all(any(s.category is Category.WEB and "@" in n.text[s.start : s.end] for s in n.spans) for n in portal)
    bodies = [n.text.split("\n\n", 1)[1] for n in portal]
    assert sum(body.split("\nReply:")[0] == body.split("\nReply:")[0].lower() for body in bodies) >= len(portal) // 3


def test_geriatric_ages_reach_ninety_and_pediatric_ages_use_small_units(corpus):
    old = [int(re.match(r"\d+", n.text[s.start : s.end]).group()) for n, s in spans_of(corpus, Category.AGE) if n.register == "geriatrics_note"]
    assert old and min(old) >= 90
    kid = [n.text[s.start : s.end] for n, s in spans_of(corpus, Category.AGE) if n.register == "pediatrics_note"]
    assert any(re.search(r"day|week|wk|month|mo\b", v) for v in kid)


def test_name_spans_exclude_titles_and_credentials_that_sit_beside_them(corpus):
    doctors = spans_of(corpus, Category.DOCTOR)
    before = Counter(n.text[max(0, s.start - 4) : s.start] for n, s in doctors)
    after = Counter(n.text[s.end : s.end + 4] for n, s in doctors)
    assert before["Dr. "] >= 20
    assert after[", MD"] + after[", RN"] >= 20
    assert any(n.text[s.start - 1] == "-" and n.text[s.end : s.end + 4] == ", RN" for n, s in doctors if s.start)


def test_names_come_from_many_origins_in_latin_script(corpus):
    names = [n.text[s.start : s.end] for n, s in spans_of(corpus, Category.PATIENT)]
    assert all(is_latin_name(v.replace(",", "")) for v in names)
    accented = [v for v in names if any(unicodedata.combining(c) for c in unicodedata.normalize("NFD", v))]
    assert len(accented) >= 20
    assert not is_latin_name("Вера") and not is_latin_name("佐々木") and is_latin_name("Dương")


def test_invented_names_are_reproducible_pronounceable_words():
    import random

    first = [invented_name(random.Random(i)) for i in range(50)]
    assert first == [invented_name(random.Random(i)) for i in range(50)]
    assert len(set(first)) >= 45
    assert all(v.isalpha() and v[0].isupper() and any(c in "aeiou" for c in v) for v in first)


# --- traps -------------------------------------------------------------------


def test_traps_are_present_and_never_inside_gold_spans(corpus):
    kinds = Counter()
    for note in corpus:
        for t in note.traps:
            kinds[t.kind] += 1
            assert not any(s.start < t.end and t.start < s.end for s in note.spans), (note.id, note.text[t.start : t.end])
    expected = {"time", "shift", "vitals", "vent", "dose", "score", "icd", "lab", "eponym", "device", "drug", "name_like", "duration", "role"}
    assert expected <= set(kinds)
    texts = {note.text[t.start : t.end].lower() for note in corpus for t in note.traps}
    for needle in ("foley", "swan-ganz", "babinski", "parkinson's disease", "whipple", "7a-7p", "5/325", "peep 10/5"):
        assert any(needle in t for t in texts), needle
    assert any(t.startswith("apgars") for t in texts)


def test_vitals_and_doses_found_by_pattern_are_unlabelled(corpus):
    pattern = re.compile(r"\bBP \d{2,3}/\d{2,3}|\b\d+/\d{3} mg\b|\bstrength \d/5|\b\d/5 strength", re.IGNORECASE)
    found = 0
    for note in corpus:
        for m in pattern.finditer(note.text):
            found += 1
            assert not any(s.start < m.end() and m.start() < s.end for s in note.spans), m.group()
    assert found >= 200


# --- scale and CLI --------------------------------------------------------------


def test_a_thousand_notes_generate_in_a_few_seconds():
    generate_notes(5, 0)  # warm the Faker instances
    started = time.perf_counter()
    notes = generate_notes(1000, 31337)
    assert len(notes) == 1000
    assert time.perf_counter() - started < 6.0


def _cli(argv):
    parser = argparse.ArgumentParser(prog="deid")
    synth_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_writes_the_requested_notes(tmp_path, capsys):
    out = tmp_path / "synth.jsonl"
    assert _cli(["synth", "--n", "12", "--seed", "3", "--out", str(out), "--registers", "radiology_report,phi_free"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 12 and {r["register"] for r in rows} <= {"radiology_report", "phi_free"}
    assert rows == [n.to_json() for n in generate_notes(12, 3, registers=["radiology_report", "phi_free"])]
    assert "wrote 12 notes" in capsys.readouterr().out


def test_cli_reports_an_unknown_register_without_writing(tmp_path, capsys):
    out = tmp_path / "none.jsonl"
    assert _cli(["synth", "--n", "3", "--seed", "3", "--out", str(out), "--registers", "haiku"]) == 2
    assert not out.exists()
    assert "unknown register" in capsys.readouterr().err
