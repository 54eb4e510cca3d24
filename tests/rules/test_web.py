"""Unit ``web``."""

from deid_core.spans import Category


def test_email_url_and_ip_address_are_web_identifiers(unit_finds):
    text = "Email jdoe@example.com or see www.example.org/info from 192.168.1.20"
    assert unit_finds("web", text) == {
        "jdoe@example.com": Category.WEB,
        "www.example.org/info": Category.WEB,
        "192.168.1.20": Category.WEB,
    }


def test_dotted_numbers_and_a_blood_pressure_are_not_web_identifiers(unit_finds):
    assert unit_finds("web", "ratio 1.2.3, BP 120/80.") == {}


def test_switched_off_email_addresses_are_not_detected(detect):
    text = "Email jdoe@example.com today."
    assert detect(text) == {"jdoe@example.com": Category.WEB}
    assert detect(text, without="web") == {}
