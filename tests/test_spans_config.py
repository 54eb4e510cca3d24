import pytest

from deid_core.config import ConfigError, load_settings
from deid_core.spans import Category, Span, SpanError, UnknownCategoryError, span_from_dict, validate_spans


def test_span_is_immutable_and_category_is_parsed():
    s = Span(0, 4, "date")
    assert s.category is Category.DATE
    with pytest.raises(AttributeError):
        s.start = 2  # type: ignore[misc]


@pytest.mark.parametrize("start,end", [(3, 3), (5, 2), (-1, 2)])
def test_span_needs_start_before_end(start, end):
    with pytest.raises(SpanError):
        Span(start, end, Category.ID)


def test_span_outside_text_names_the_note():
    with pytest.raises(SpanError, match="note 'n-7'.*outside the text"):
        validate_spans("n-7", "short", [Span(2, 40, Category.ID)])


def test_unknown_category_is_a_clear_error():
    with pytest.raises(UnknownCategoryError, match="unknown category 'NAME'"):
        span_from_dict("n1", 0, {"start": 0, "end": 2, "label": "NAME"})


def test_span_from_dict_rejects_non_integer_offsets():
    with pytest.raises(SpanError, match="note 'n1': span 0"):
        span_from_dict("n1", 0, {"start": "0", "end": 2, "label": "ID"})


def test_default_settings_load_and_validate():
    s = load_settings()
    assert s.anonymizer.strategies[Category.DATE] == "shift"
    assert s.anonymizer.fpe_mode == "ff1"


def test_unknown_config_key_is_an_error(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("[anonymizer]\nfpe_mod = 'ff1'\n")
    with pytest.raises(ConfigError, match="fpe_mod"):
        load_settings(p)


def test_disallowed_strategy_is_an_error(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("[anonymizer.strategies]\nPATIENT = 'keep'\n")
    with pytest.raises(ConfigError, match="not allowed for PATIENT"):
        load_settings(p)


def test_partial_strategy_table_keeps_other_defaults(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("[anonymizer.strategies]\nID = 'hash'\n")
    s = load_settings(p).anonymizer.strategies
    assert s[Category.ID] == "hash" and s[Category.PHONE] == "fpe"


@pytest.mark.parametrize("field", ["start", "end"])
def test_span_from_dict_rejects_boolean_offsets(field):
    raw = {"start": 0, "end": 1, "label": "ID", field: True}
    with pytest.raises(SpanError, match="must be integers"):
        span_from_dict("n1", 0, raw)


def test_note_size_limit_is_validated(tmp_path):
    assert load_settings().limits.max_note_chars == 200_000
    p = tmp_path / "c.toml"
    p.write_text("[limits]\nmax_note_chars = 0\n")
    with pytest.raises(ConfigError, match="max_note_chars"):
        load_settings(p)
