"""The shape check that model spans pass before they join the rules' spans."""

import pytest

from deid_core.recognizers.plausibility import PlausibilityCheck, confirm_model_spans, join_fragments
from deid_core.spans import Category, Span


@pytest.fixture(scope="module")
def check() -> PlausibilityCheck:
    return PlausibilityCheck()


@pytest.mark.parametrize(
    "text,category",
    [
        ("Okonkwo-Baptiste", Category.PATIENT),
        ("Sinéad O'Halloran", Category.DOCTOR),
        ("Wapakoneta", Category.LOCATION),
        ("Briar Hollow Elementary", Category.HOSPITAL),
        ("9/29", Category.DATE),
        ("March 3, 2021", Category.DATE),
        ("sixty-two-year-old", Category.AGE),
        ("89Y", Category.AGE),
        ("(07) 5555 0142", Category.PHONE),
        ("GEN-48215", Category.ID),
        ("k.obrien@clinic.org", Category.WEB),
    ],
)
def test_identifier_shapes_pass(check, text, category):
    assert check.plausible(text, category)


@pytest.mark.parametrize(
    "text,category",
    [
        ("adalimumab", Category.PATIENT),   # drug stem
        ("furosemide", Category.DOCTOR),
        ("CIWA", Category.PATIENT),         # short acronym
        ("palliative", Category.PATIENT),   # ordinary word
        ("Braden 12", Category.PATIENT),    # a score, with a digit
        ("pediatrician", Category.HOSPITAL),
        ("office", Category.LOCATION),
        ("06:05", Category.DATE),           # clock time
        ("2/2", Category.DATE),             # as likely a score as a date
        ("last spring", Category.DATE),
        ("/", Category.AGE),
        ("486", Category.PHONE),
        ("0212", Category.ID),
        ("@ 2145", Category.WEB),
    ],
)
def test_clinical_text_the_model_mistakes_is_rejected(check, text, category):
    assert not check.plausible(text, category)


def test_fragments_split_at_a_space_are_rejoined():
    text = "Seen by Sinéad O'Halloran today"
    a, b = text.index("Sinéad"), text.index("O'Halloran")
    joined = join_fragments(text, [Span(b, b + 10, Category.DOCTOR, 0.9), Span(a, a + 6, Category.DOCTOR, 0.8)])
    assert [(s.start, s.end, s.score) for s in joined] == [(a, b + 10, 0.8)]


def test_only_new_plausible_model_spans_are_added(check):
    text = "Pt Ines Waterhouse seen with CIWA 12, lives in Wapakoneta."
    rule = Span(3, 18, Category.PATIENT, 1.0, "names")
    model = [
        Span(8, 18, Category.PATIENT, 0.99),                       # inside a rule span: nothing new
        Span(text.index("CIWA"), text.index("CIWA") + 4, Category.PATIENT, 0.99),
        Span(text.index("Wapakoneta"), text.index("Wapakoneta") + 10, Category.LOCATION, 0.97),
    ]
    kept = confirm_model_spans(text, model, [rule], check)
    assert [text[s.start : s.end] for s in kept] == ["Wapakoneta"]
