"""Name surrogates are one bijection over every token, never a name of their own note."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deid_core.anonymizer import pools
from deid_core.anonymizer.engine import Anonymizer, Note
from deid_core.anonymizer.names import NameClashError, NameSurrogateError, NameSurrogates, accented, name_words, stress_names
from deid_core.anonymizer.selection import VOWELS, ShapeCipher
from deid_core.keys import Purpose
from deid_core.spans import Category, Span

FIRST = [n for n in pools.first_names() if n.isalpha()]
LAST = [n for n in pools.last_names() if n.isalpha()]
POOLED = {pools.fold(n) for n in FIRST + LAST}
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def engine(study_key) -> Anonymizer:
    return Anonymizer(study_key)


@pytest.fixture(scope="module")
def names(study_key) -> NameSurrogates:
    return NameSurrogates(study_key.subkey(Purpose.NAMES))


def _note(text: str, *names_: str, category: Category = Category.PATIENT) -> Note:
    """A note with one span per name, each found from where the last one ended."""
    spans, at = [], 0
    for name in names_:
        start = text.index(name, at)
        spans.append(Span(start, start + len(name), category))
        at = start + len(name)
    return Note("n", text, "P1", tuple(spans))


def _surrogates(out) -> list[str]:
    """Replaced (not masked) text of each region of an anonymized note, in order."""
    return [out.text[r.out_start : r.out_end] for r in out.replacements if not r.masked_because]


# -- the counterexamples ------------------------------------------------------------


def test_an_out_of_pool_surname_never_takes_the_surrogate_of_another_in_the_note(engine):
    text = "Ana Xochiquetzal was seen by Dr. Beets."
    out = engine.anonymize(_note(text, "Ana Xochiquetzal", "Dr. Beets"))
    patient, doctor = _surrogates(out)
    assert patient.split()[1] != doctor.split()[1]
    assert pools.fold(patient.split()[1]) not in POOLED  # an invented surname, from its own region


def test_no_two_of_19000_distinct_surnames_share_a_surrogate(names):
    # The family names of the stress set: about one in ten is invented, outside both pools.
    surnames = {w for n in stress_names(20_000, seed=20240601) for w in name_words(n.split()[1])}
    assert len(surnames) > 19_000
    assert sum(w not in POOLED for w in surnames) > 1_500
    images = {pools.fold(names.token(w)) for w in surnames}
    assert len(images) == len(surnames)


def test_a_surrogate_equal_to_another_name_of_the_note_masks_its_span(engine):
    # Whatever "Maria" becomes elsewhere is written in this note as a real given name.
    alone = engine.anonymize(_note("Maria Lopez", "Maria Lopez"))
    given = alone.text.split()[0]
    text = f"Maria Lopez was seen with {given} Ruiz."
    out = engine.anonymize(_note(text, "Maria Lopez", f"{given} Ruiz"))
    first, second = out.replacements
    assert first.masked_because == "NameClashError" and out.text.startswith("[PATIENT] was seen")
    assert second.masked_because is None
    assert not name_words(" ".join(_surrogates(out))) & name_words(text)


def test_an_invented_surrogate_written_in_the_note_masks_its_span(engine):
    alone = engine.anonymize(_note("Danas Xochiquetzal", "Danas Xochiquetzal"))
    invented = alone.text.split()[1]
    text = f"Danas Xochiquetzal and {invented} were seen."
    out = engine.anonymize(_note(text, "Danas Xochiquetzal", invented))
    assert out.replacements[0].masked_because == "NameClashError"
    assert not name_words(" ".join(_surrogates(out))) & name_words(text)


def test_a_clashing_token_is_masked_never_given_a_second_surrogate(engine):
    lone = engine.anonymize(_note("Seen: Maria.", "Maria"))
    given = lone.text[6:-1]
    clash = engine.anonymize(_note(f"Seen: Maria and {given}.", "Maria", given))
    plain = engine.anonymize(_note("Maria Lopez called.", "Maria Lopez"))
    assert clash.text.startswith("Seen: [PATIENT] and ")
    assert plain.text.split()[0] == given  # every other note keeps the one surrogate


@pytest.mark.parametrize("variant", ["Lopez", "López", "LOPEZ", "lopez", "LÓPEZ", "Lo\u0301pez", "lÓpEz"])
def test_accent_and_case_variants_share_one_surrogate_across_notes(engine, variant):
    reference = engine.anonymize(_note("Seen by Dr. Lopez.", "Dr. Lopez")).text[12:-1]
    out = engine.anonymize(_note(f"Follow-up: {variant}, today.", variant))
    written = out.text[len("Follow-up: ") : out.text.index(",")]
    assert pools.fold(written) == pools.fold(reference)
    letters = [c for c in variant if c.isalpha()]
    if len(set(c.isupper() for c in letters)) == 1:
        assert written.isupper() == letters[0].isupper() and written.islower() == letters[0].islower()


# -- property tests -----------------------------------------------------------------

_INVENTED = st.text(alphabet=string.ascii_lowercase, min_size=2, max_size=12).map(str.title)
_TOKEN = st.one_of(st.sampled_from(FIRST), st.sampled_from(LAST), _INVENTED, st.sampled_from(LAST).map(accented))


@PROPERTY
@given(tokens=st.lists(_TOKEN, min_size=2, max_size=40))
def test_distinct_tokens_never_share_a_surrogate(names, tokens):
    keys = {pools.fold(t): t for t in tokens}
    images = {k: pools.fold(names.token(t)) for k, t in keys.items()}
    assert len(set(images.values())) == len(keys)
    assert all(image != key for key, image in images.items())


@PROPERTY
@given(tokens=st.lists(_TOKEN, min_size=1, max_size=8), echo=st.lists(st.booleans(), min_size=8, max_size=8))
def test_surrogates_never_equal_a_name_of_their_note(engine, names, tokens, echo):
    tokens = [t for t in tokens if pools.fold(t) not in pools.HONORIFICS]
    # Some notes also hold, as real names, the surrogates other tokens get elsewhere.
    written = tokens + [names.token(t) for t, e in zip(tokens, echo) if e]
    text = ", ".join(written) + "."
    out = engine.anonymize(_note(text, *written))
    assert not name_words(" ".join(_surrogates(out))) & name_words(text)
    for region in out.replacements:
        try:
            own = names.replace(text[region.start : region.end])
        except NameClashError:  # a short invented word can be its own surrogate: masked too
            assert region.masked_because == "NameClashError"
            continue
        if region.masked_because:  # masked only when its one surrogate is a name of the note
            assert region.masked_because == "NameClashError" and name_words(own) & name_words(text)
        else:
            assert out.text[region.out_start : region.out_end] == own


@PROPERTY
@given(token=st.one_of(st.sampled_from(LAST), _INVENTED), upper=st.lists(st.booleans(), min_size=12, max_size=12))
def test_case_patterns_are_kept(names, token, upper):
    cased = "".join(c.upper() if u else c.lower() for c, u in zip(token, upper * 4))
    out = names.token(cased)
    pattern = [c.isupper() for c in cased]
    if all(pattern) or not any(pattern):
        assert out == (out.upper() if pattern[0] else out.lower())
    elif pattern[0] and not any(pattern[1:]):
        assert out == pools.canonical(out)
    else:  # letter by letter, the last letter's case carrying on ("ß" has no one-letter capital)
        last = len(pattern) - 1
        assert all(c.isupper() == pattern[min(i, last)] for i, c in enumerate(out) if len(c.upper()) == 1)
        assert len(out) == len(names.token(cased.title()))


# -- the invented-word cipher -------------------------------------------------------


@pytest.fixture(scope="module")
def cipher() -> ShapeCipher:
    return ShapeCipher(bytes(32), label="test", reserved={"lopez", "maria", "ab"})


@PROPERTY
@given(word=st.text(alphabet=string.ascii_lowercase, min_size=2, max_size=16))
def test_shape_cipher_keeps_vowels_and_consonants_and_inverts(cipher, word):
    if word in {"lopez", "maria", "ab"}:
        return
    out = cipher.encrypt(word)
    assert cipher.decrypt(out) == word
    assert len(out) == len(word) and out not in {"lopez", "maria", "ab"}
    if len(word) > 2:
        assert [c in VOWELS for c in out] == [c in VOWELS for c in word]


def test_shape_cipher_is_a_bijection_on_two_letter_words_outside_the_reserved_ones(cipher):
    domain = [a + b for a in string.ascii_lowercase for b in string.ascii_lowercase if a + b != "ab"]
    assert sorted(cipher.encrypt(w) for w in domain) == sorted(domain)


def test_shape_cipher_refuses_reserved_and_non_ascii_words(cipher):
    for word in ("lopez", "lópez", "x", "Lopez"):
        with pytest.raises(ValueError):
            cipher.encrypt(word)


def test_a_new_key_remaps_invented_surrogates(names, other_key):
    other = NameSurrogates(other_key.subkey(Purpose.NAMES))
    invented = ["Xochiquetzal", "Brunvaltik", "Zorvelik", "Quandarum", "Thelmivor"]
    assert all(pools.fold(t) not in POOLED for t in invented)
    assert all(names.token(t) != other.token(t) for t in invented)


# -- fail closed ----------------------------------------------------------------------


def test_an_initial_written_with_a_combining_accent_is_an_initial(names):
    assert names.replace("E\u0301. Lopez") == f"{names.initial('E')}. {names.replace('Lopez')}"


def test_a_name_outside_the_pools_in_another_script_is_masked(engine, names):
    with pytest.raises(NameSurrogateError):
        names.replace("Иванов")
    out = engine.anonymize(_note("Seen by Иванов today.", "Иванов"))
    assert out.text == "Seen by [PATIENT] today."
    assert out.replacements[0].masked_because == "NameSurrogateError"
