from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from deid_core.resolution import join_name_parts, join_sources, merge_adjacent, resolve
from deid_core.spans import PRECEDENCE, Category, Evidence, Span

P, D, H, L = Category.PATIENT, Category.DATE, Category.HOSPITAL, Category.LOCATION


def covered(spans) -> set[int]:
    return {i for s in spans for i in range(s.start, s.end)}


def test_overlapping_spans_of_one_category_unite_keeping_best_score_and_all_sources():
    out = resolve([Span(0, 5, P, 0.5, "names"), Span(3, 9, P, 0.9, "propagation")])
    assert out == [Span(0, 9, P, 0.9, "names+propagation")]


def test_touching_spans_stay_separate():
    out = resolve([Span(0, 4, D, 0.9, "a"), Span(4, 8, D, 0.9, "b")])
    assert [(s.start, s.end) for s in out] == [(0, 4), (4, 8)]


def test_partial_overlap_across_categories_goes_to_precedence_and_covers_both():
    # neither span covers the other: DATE precedes PATIENT
    out = resolve([Span(0, 6, P, 0.9, "names"), Span(4, 12, D, 0.8, "date")])
    assert out == [Span(0, 12, D, 0.8, "names+date")]


def test_span_covering_the_whole_cluster_wins_over_precedence():
    # "St. Mary's Hospital" with a name inside: the broader hospital reading is kept
    out = resolve([Span(0, 19, H, 0.8, "facility"), Span(4, 8, P, 0.5, "names")])
    assert len(out) == 1 and out[0].category is H and (out[0].start, out[0].end) == (0, 19)


def test_among_covering_spans_the_higher_score_wins():
    out = resolve([Span(0, 10, Category.ID, 0.5, "id"), Span(0, 10, Category.PHONE, 0.8, "phone")])
    assert out[0].category is Category.PHONE


def test_equal_covering_spans_fall_back_to_precedence():
    out = resolve([Span(0, 10, Category.ID, 0.8, "id"), Span(0, 10, Category.PHONE, 0.8, "phone")])
    assert out[0].category is Category.ID


def test_category_whose_pieces_cover_the_cluster_wins():
    # street + "City, ST ZIP" overlap, a name overlaps both: the address reading covers it all
    spans = [Span(0, 30, L, 0.9, "street"), Span(22, 40, L, 0.85, "city"), Span(5, 12, P, 0.5, "names"), Span(22, 30, Category.DOCTOR, 0.9, "cred")]
    out = resolve(spans)
    assert out == [Span(0, 40, L, 0.9, "street+names+city+cred")]


def test_precedence_can_be_reordered():
    spans = [Span(0, 6, P, 0.9, "a"), Span(4, 12, D, 0.9, "b")]
    out = resolve(spans, precedence=(P, D))
    assert out[0].category is P


def test_transitive_overlaps_form_one_cluster():
    spans = [Span(0, 4, D), Span(3, 8, D), Span(7, 12, D), Span(20, 22, D)]
    assert [(s.start, s.end) for s in resolve(spans)] == [(0, 12), (20, 22)]


def test_join_sources_keeps_each_name_once_in_order():
    assert join_sources([Span(0, 1, D, source="a+b"), Span(0, 1, D, source="b"), Span(0, 1, D, source="c")]) == "a+b+c"


spans_strategy = st.lists(
    st.builds(
        lambda start, length, cat, score: Span(start, start + length, cat, score, f"r{start % 3}"),
        st.integers(0, 60),
        st.integers(1, 15),
        st.sampled_from(list(Category)),
        st.floats(0, 1),
    ),
    max_size=25,
)


@settings(max_examples=200, deadline=None)
@given(spans_strategy)
def test_resolution_covers_every_flagged_character_and_nothing_else(spans):
    out = resolve(spans)
    assert covered(out) == covered(spans)


@settings(max_examples=200, deadline=None)
@given(spans_strategy)
def test_resolved_spans_are_sorted_disjoint_and_typed_by_a_member(spans):
    out = resolve(spans)
    for a, b in zip(out, out[1:]):
        assert a.end <= b.start
    for s in out:
        members = [m for m in spans if m.start < s.end and s.start < m.end]
        assert s.category in {m.category for m in members}
        assert s.score in {m.score for m in members if m.category is s.category}


@settings(max_examples=100, deadline=None)
@given(spans_strategy)
def test_resolution_is_idempotent(spans):
    once = resolve(spans)
    assert [(s.start, s.end, s.category) for s in resolve(once)] == [(s.start, s.end, s.category) for s in once]


def test_default_precedence_puts_structured_categories_before_names():
    assert PRECEDENCE.index(Category.ID) < PRECEDENCE.index(P) < PRECEDENCE.index(L)


def test_address_pieces_separated_by_a_comma_are_merged():
    text = "12 Elm St, Salem, MA 01970"
    pieces = [Span(0, 9, L, 0.9, "street"), Span(11, 16, L, 0.7, "city"), Span(18, 26, L, 0.8, "zip")]
    assert merge_adjacent(pieces, text) == [Span(0, 26, L, 0.9, "street+city+zip")]


def test_a_place_and_its_region_are_one_place_as_the_conventions_say():
    text = "lives in Salem, Oregon"
    pieces = [Span(9, 14, L, 0.7, "city"), Span(16, 22, L, 0.8, "state")]
    assert merge_adjacent(pieces, text) == [Span(9, 22, L, 0.8, "city+state")]


def test_a_list_of_places_stays_a_list():
    text = "trips to Boston, Chicago, Denver"
    pieces = [Span(9, 15, L), Span(17, 24, L), Span(26, 32, L)]
    assert merge_adjacent(pieces, text) == pieces
    text = "trips to Boston, Chicago and Denver"
    pieces = [Span(9, 15, L), Span(17, 24, L), Span(29, 35, L)]
    assert merge_adjacent(pieces, text) == pieces


def test_merge_never_joins_different_categories_or_distant_spans():
    text = "12 Elm St and Mercy Hospital, 01970"
    spans = [Span(0, 9, L), Span(14, 28, H), Span(30, 35, L)]
    assert merge_adjacent(spans, text) == spans


A = Category.AGE


def test_age_never_wins_a_cluster_with_a_name_it_overlaps():
    # "72 yo Maria Lopez here": AGE[0,14) + PATIENT[6,17)
    out = resolve([Span(0, 14, A, 0.9, "age"), Span(6, 17, P, 0.8, "names")])
    assert out == [Span(0, 17, P, 0.8, "age+names")]


def test_age_covering_an_id_loses_it_to_the_id():
    # "age 72 MRN 00123456": AGE over the whole text, ID on the number
    out = resolve([Span(0, 19, A, 0.9, "age"), Span(11, 19, Category.ID, 0.5, "id")])
    assert [(s.start, s.end, s.category) for s in out] == [(0, 19, Category.ID)]


def test_age_covering_a_date_loses_it_to_the_date():
    # "72 yo on 03/14/2019"
    out = resolve([Span(0, 19, A, 0.95, "age"), Span(9, 19, D, 0.5, "date")])
    assert out[0].category is D


def test_a_higher_scored_place_does_not_outrank_a_name_covering_the_same_text():
    # "Georgia Smith": Georgia read as a state (0.9) and as the patient's given name (0.5)
    out = resolve([Span(0, 7, L, 0.9, "state"), Span(0, 7, P, 0.5, "names"), Span(8, 13, P, 0.8, "names")])
    assert [(s.start, s.end, s.category) for s in out] == [(0, 7, P), (8, 13, P)]
    out = resolve([Span(0, 13, L, 0.95, "city"), Span(0, 13, Category.DOCTOR, 0.4, "names")])
    assert out[0].category is Category.DOCTOR


@settings(max_examples=300, deadline=None)
@given(spans_strategy)
def test_a_kept_category_wins_only_clusters_of_its_own(spans):
    for s in resolve(spans):
        members = {m.category for m in spans if m.start < s.end and s.start < m.end}
        if s.category is A:
            assert members == {A}


def test_two_person_spans_one_space_apart_become_one_name_typed_by_the_stronger_evidence():
    text = "RANCH HAND TOMAS ECHEVERRIA DROVE HIM IN. WIFE ANA, SON LUIS."
    given = Span(11, 16, Category.DOCTOR, 0.5, "names/listed", Evidence.GUESS)
    surname = Span(17, 27, Category.PATIENT, 0.9, "names/relation", Evidence.CUE)
    ana = Span(text.index("ANA"), text.index("ANA") + 3, Category.PATIENT, 0.9, "names/relation", Evidence.CUE)
    luis = Span(text.index("LUIS"), text.index("LUIS") + 4, Category.PATIENT, 0.9, "names/relation", Evidence.CUE)
    joined = join_name_parts([surname, given, ana, luis], text)
    assert [(text[s.start : s.end], s.category) for s in joined] == [
        ("TOMAS ECHEVERRIA", Category.PATIENT),
        ("ANA", Category.PATIENT),
        ("LUIS", Category.PATIENT),
    ]
    assert joined[0].source == "names/listed+names/relation"


def test_a_place_a_cue_found_wins_over_a_name_only_the_lists_guessed():
    # "F/U W/ PCP IN GORHAM": the place cue found a town, the name lists alone a surname
    out = resolve([Span(0, 6, L, 0.6, "place_cue/rare_town"), Span(0, 6, P, 0.5, "names/listed", Evidence.GUESS)])
    assert out[0].category is L
    # a place the gazetteer alone listed is a guess too, and the name still wins
    out = resolve([Span(0, 7, L, 0.7, "gazetteer/place", Evidence.GUESS), Span(0, 7, P, 0.5, "names/listed", Evidence.GUESS)])
    assert out[0].category is P
    # a name a cue found stays a name
    out = resolve([Span(0, 7, L, 0.6, "place_cue/caseless"), Span(0, 7, P, 0.8, "names/relation", Evidence.CUE)])
    assert out[0].category is P
