import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from deid_core.anonymizer.fpe import FpeError, IdCipher
from deid_core.keys import StudyKey

MODES = [("ff1", "per-class"), ("ff3-1", "per-class"), ("ff1", "radix62"), ("ff3-1", "radix62")]


@pytest.fixture(scope="module", params=MODES, ids=lambda m: f"{m[0]}-{m[1]}")
def cipher(request, study_key):
    mode, alphabet = request.param
    return IdCipher(study_key, mode=mode, alphabet=alphabet)


@pytest.mark.parametrize("width", [1, 2, 3, 4])
def test_short_numeric_ids_are_a_bijection_on_their_full_domain(cipher, width):
    values = [str(i).zfill(width) for i in range(10**width)]
    out = [cipher.encrypt(v, entity="ID") for v in values]
    assert sorted(out) == values  # a permutation of the whole domain: no collisions
    assert all(cipher.decrypt(o, entity="ID") == v for v, o in zip(values, out))


def test_five_digit_domain_is_a_bijection(study_key):
    c = IdCipher(study_key)
    values = [f"{i:05d}" for i in range(10**5)]
    out = {c.encrypt(v, entity="ID") for v in values}
    assert len(out) == 10**5 and all(len(o) == 5 and o.isdigit() for o in out)


id_text = st.text(alphabet="0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-/. #", min_size=1, max_size=24).filter(
    lambda s: any(c.isalnum() for c in s)
)


@settings(max_examples=150, deadline=None)
@given(id_text)
def test_format_is_preserved_and_inverse_exists(cipher, value):
    enc = cipher.encrypt(value, entity="ID")
    assert len(enc) == len(value)
    for a, b in zip(value, enc):
        if not a.isalnum():
            assert a == b  # punctuation and spaces stay in place
        elif cipher.alphabet == "per-class" or all(c.isdigit() for c in value if c.isalnum()):
            assert a.isdigit() == b.isdigit() and a.isupper() == b.isupper()
    assert cipher.decrypt(enc, entity="ID") == value


def test_same_value_same_surrogate_and_punctuation_does_not_change_content(study_key):
    c = IdCipher(study_key)
    a = c.encrypt("123-45-6789", entity="ID")
    assert a == c.encrypt("123-45-6789", entity="ID")
    assert a.replace("-", "") == c.encrypt("123456789", entity="ID")


def test_entity_type_changes_the_tweak(study_key):
    c = IdCipher(study_key)
    values = [f"{i:08d}" for i in range(200)]
    same = sum(c.encrypt(v, entity="ID") == c.encrypt(v, entity="PHONE") for v in values)
    assert same <= 2


def test_rotated_key_remaps_ids(study_key, other_key):
    a, b = IdCipher(study_key), IdCipher(other_key)
    values = [f"{i:08d}" for i in range(500)]
    assert sum(a.encrypt(v, entity="ID") == b.encrypt(v, entity="ID") for v in values) <= 2


@pytest.mark.parametrize("mode", ["ff1", "ff3-1"])
def test_above_cipher_maximum_a_keyed_fallback_keeps_the_format(study_key, mode):
    c = IdCipher(study_key, mode=mode)
    long_value = "4" * 300 + "-AB"
    enc = c.encrypt(long_value, entity="ID")
    assert enc != long_value and len(enc) == len(long_value)
    assert enc[-3] == "-" and enc[-2:].isupper() and enc[:300].isdigit()
    assert enc == c.encrypt(long_value, entity="ID")
    assert not c.is_invertible(long_value)
    with pytest.raises(FpeError):
        c.decrypt(enc, entity="ID")


def test_ff3_1_cipher_limit_is_56_digits(study_key):
    c = IdCipher(study_key, mode="ff3-1")
    assert c.is_invertible("9" * 56)
    assert not c.is_invertible("9" * 57)


def test_value_without_letters_or_digits_is_an_error(study_key):
    with pytest.raises(FpeError):
        IdCipher(study_key).encrypt("--", entity="ID")


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5])
def test_no_short_identifier_is_its_own_surrogate(study_key, width):
    c = IdCipher(study_key)
    assert all(c.encrypt(str(i).zfill(width), entity="ID") != str(i).zfill(width) for i in range(10**width))


# -- scripts other than ASCII ----------------------------------------------------


def _ascii_digits(text: str) -> str:
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in text)


@pytest.mark.parametrize(
    "value,digits",
    [
        ("１２３-４５-６７８9", "０１２３４５６７８９"),  # fullwidth, one ASCII digit at the end
        ("٠١٢٣٤٥٦٧", "٠١٢٣٤٥٦٧٨٩"),  # Arabic-Indic
        ("१२३४५६७", "०१२३४५६७८९"),  # Devanagari
    ],
)
def test_unicode_digits_are_encrypted_as_digits_of_their_own_script(cipher, value, digits):
    enc = cipher.encrypt(value, entity="ID")
    assert len(enc) == len(value)
    for a, b in zip(value, enc):
        if a in digits:
            assert b in digits
        elif a.isdigit():
            assert b.isascii() and b.isdigit()
        else:
            assert a == b
    # every digit is content: the value encrypts as its ASCII twin does, none passes as punctuation
    assert _ascii_digits(enc) == cipher.encrypt(_ascii_digits(value), entity="ID")
    assert cipher.decrypt(enc, entity="ID") == value


def test_fullwidth_digits_get_the_surrogate_of_their_ascii_twin_in_fullwidth(study_key):
    c = IdCipher(study_key)
    fullwidth = c.encrypt("１２３-４５-６７８９", entity="ID")
    ascii_twin = c.encrypt("123-45-6789", entity="ID")
    assert fullwidth == ascii_twin.translate(str.maketrans("0123456789", "０１２３４５６７８９"))


@pytest.mark.parametrize("value", ["ＡＢ１２３", "МРН-4471", "ΑΒΓ-12", "Ñandú7", "123²"])
def test_letters_of_other_alphabets_keep_alphabet_and_case(study_key, value):
    c = IdCipher(study_key)
    enc = c.encrypt(value, entity="ID")
    assert len(enc) == len(value)
    for a, b in zip(value, enc):
        if a.isalnum():
            assert a.isupper() == b.isupper() and a.isdigit() == b.isdigit()
            assert a.isascii() == b.isascii()
        else:
            assert a == b
    assert c.decrypt(enc, entity="ID") == value


def test_letter_without_a_kept_alphabet_is_an_error_so_the_span_is_masked(study_key):
    with pytest.raises(FpeError):
        IdCipher(study_key).encrypt("ID 中文123", entity="ID")


# -- phone numbers ---------------------------------------------------------------


@pytest.mark.parametrize(
    "value,label",
    [
        ("617-555-0100 x221", " x"),
        ("617-555-0100 ext 12", " ext "),
        ("(617) 555-0100, ext. 4412", ", ext. "),
        ("617.555.0100x12", "x"),
    ],
)
def test_phone_extension_keeps_its_label_and_gets_digits(study_key, value, label):
    c = IdCipher(study_key)
    enc = c.encrypt(value, entity="PHONE")
    number, ext = value.rsplit(label, 1)
    enc_number, enc_ext = enc[: len(number)], enc[len(number) + len(label) :]
    assert enc[len(number) : len(number) + len(label)] == label
    assert enc_ext.isdigit() and len(enc_ext) == len(ext) and enc_ext != ext
    assert enc_number == c.encrypt(number, entity="PHONE")  # one surrogate with or without extension
    assert c.decrypt(enc, entity="PHONE") == value


def test_extension_alone_keeps_its_label(study_key):
    enc = IdCipher(study_key).encrypt("x221", entity="PHONE")
    assert enc[0] == "x" and enc[1:].isdigit() and enc != "x221"


@pytest.mark.parametrize(
    "value,kept",
    [
        ("+1 617-555-0100", "+1 "),
        ("+44 20 7946 0958", "+44 "),
        ("+442079460958", "+44"),
        ("+353 1 234 5678", "+353 "),
        ("Tel: +33 1 42 68 53 00", "Tel: +33 "),
        ("1-800-555-0100", "1-"),
        ("＋８１ ３-１２３４-５６７８", "＋８１ "),
    ],
)
def test_phone_country_code_and_label_are_kept(study_key, value, kept):
    c = IdCipher(study_key)
    enc = c.encrypt(value, entity="PHONE")
    assert enc.startswith(kept)
    rest, enc_rest = value[len(kept) :], enc[len(kept) :]
    assert enc_rest != rest and len(enc_rest) == len(rest)
    assert c.decrypt(enc, entity="PHONE") == value


def test_unknown_country_code_is_kept_and_still_invertible(study_key):
    c = IdCipher(study_key)
    enc = c.encrypt("+999 1234 5678", entity="PHONE")
    assert enc.startswith("+999 ") and c.decrypt(enc, entity="PHONE") == "+999 1234 5678"


# -- small domains: cost and caching do not change the map -----------------------


@pytest.mark.parametrize("untabled_uses,budget", [(10**9, 2**25), (0, 2**25), (0, 10)])
def test_small_domain_outputs_do_not_depend_on_tables_or_cache(study_key, monkeypatch, untabled_uses, budget):
    """Stepped without a table, through tables, or with every table evicted at once:
    the same surrogates, so a value never gets two."""
    from deid_core.anonymizer import fpe
    from deid_core.benchmarks.ids import sample_ids, shape_patterns

    values = sample_ids(shape_patterns(40), 120, seed=3) + [f"{i:03d}" for i in range(0, 1000, 7)]
    monkeypatch.setattr(fpe, "_TABLES", fpe._TableCache(budget=2**25))
    monkeypatch.setattr(fpe, "_uses", {})
    monkeypatch.setattr(fpe, "_UNTABLED_USES", 10**9)
    untabled = [IdCipher(study_key).encrypt(v, entity="ID") for v in values]
    monkeypatch.setattr(fpe, "_TABLES", fpe._TableCache(budget=budget))
    monkeypatch.setattr(fpe, "_uses", {})
    monkeypatch.setattr(fpe, "_UNTABLED_USES", untabled_uses)
    c = IdCipher(study_key)
    assert [c.encrypt(v, entity="ID") for v in values] == untabled
    assert [c.decrypt(o, entity="ID") for o in untabled] == values


def test_mixed_small_domain_is_a_cyclic_bijection(study_key):
    """A pattern of 26*10*10*10 values maps onto itself, one value to another."""
    c = IdCipher(study_key)
    values = [f"{chr(65 + i % 26)}{i // 26:03d}" for i in range(26 * 1000)]
    out = [c.encrypt(v, entity="ID") for v in values]
    assert sorted(out) == sorted(values)
    assert all(o != v for v, o in zip(values, out))
