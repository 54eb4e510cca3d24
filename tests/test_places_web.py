"""LOCATION, HOSPITAL and WEB surrogates: shape kept, keyed, never the original."""

from __future__ import annotations

import ipaddress
import re
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deid_core.anonymizer.places import (
    RESTRICTED_ZIP3,
    PlaceSurrogateError,
    PlaceSurrogates,
    is_retained_region,
    keyed_shape,
    load_pool,
)
from deid_core.anonymizer.web import WebSurrogateError, WebSurrogates
from deid_core.keys import Purpose

CITIES = {c.casefold() for c in load_pool("cities")}
STREETS = {s.casefold() for s in load_pool("streets")}
COUNTIES = {c.casefold() for c in load_pool("counties")}
FACILITIES = {f.casefold() for f in load_pool("facilities")}
SAINTS = {s.casefold() for s in load_pool("saints")}

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def places(study_key) -> PlaceSurrogates:
    return PlaceSurrogates(study_key.subkey(Purpose.PLACES))


@pytest.fixture(scope="module")
def other_places(other_key) -> PlaceSurrogates:
    return PlaceSurrogates(other_key.subkey(Purpose.PLACES))


@pytest.fixture(scope="module")
def web(study_key) -> WebSurrogates:
    return WebSurrogates(study_key.subkey(Purpose.WEB))


@pytest.fixture(scope="module")
def other_web(other_key) -> WebSurrogates:
    return WebSurrogates(other_key.subkey(Purpose.WEB))


def _shape(s: str) -> str:
    """Character classes of a string: 9 for a digit, A/a for letters, others as written."""
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", s)))


# -- synthetic inputs ----------------------------------------------------------

# "Qx" keeps generated names out of the kept vocabulary ("The", "Apt", "County").
_word = st.text(alphabet=string.ascii_lowercase, min_size=2, max_size=9).map(lambda s: "Qx" + s)
_suffix = st.sampled_from(
    ["St", "Street", "Ave", "Ave.", "Avenue", "Rd", "Blvd", "Dr", "Ln", "Way", "Ct"]
)
_state = st.sampled_from(["MA", "NY", "CA", "TX", "Ohio", "Oregon", "New Jersey"])
_zip = st.from_regex(r"[0-9]{5}", fullmatch=True)
_street = st.builds(lambda n, w, s: f"{n} {w} {s}", st.integers(1, 99999), _word, _suffix)
_address = st.builds(lambda a, c, s, z: f"{a}, {c}, {s} {z}", _street, _word, _state, _zip)
_facility = st.builds(
    lambda w, t: f"{w} {t}",
    _word,
    st.sampled_from(["Hospital", "Medical Center", "Clinic", "General Hospital"]),
)


# -- LOCATION ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,number,directional,suffix",
    [
        ("123 Main St", "123", "", "St"),
        ("4410 N. Oak Avenue", "4410", "N. ", "Avenue"),
        ("7 Beacon Street", "7", "", "Street"),
        ("90210 West Maple Rd.", "90210", "West ", "Rd."),
    ],
)
def test_street_number_keyed_same_digits_and_suffix_style_kept(
    places, text, number, directional, suffix
):
    out = places.location(text)
    m = re.fullmatch(rf"(\d+) {re.escape(directional)}(.+) {re.escape(suffix)}", out)
    assert m, out
    assert len(m.group(1)) == len(number) and m.group(1) != number and not m.group(1).startswith("0")
    assert m.group(2).casefold() in STREETS
    assert m.group(2) not in text


def test_unit_number_keeps_its_shape_and_word(places):
    out = places.location("4410 N. Oak Avenue Apt 3B")
    m = re.fullmatch(r"\d{4} N\. (.+) Avenue Apt (\S+)", out)
    assert m, out
    assert _shape(m.group(2)) == "9A" and m.group(2) != "3B"


def test_full_address_replaces_street_and_city_keeps_state_and_zip_zone(places):
    out = places.location("123 Main St, Boston, MA 02115")
    street, city, state_zip = out.split(", ")
    assert re.fullmatch(r"\d{3} .+ St", street) and street != "123 Main St"
    assert city.casefold() in CITIES and city != "Boston"
    state, zip_code = state_zip.split(" ")
    assert state == "MA"
    assert zip_code.startswith("021") and len(zip_code) == 5 and zip_code != "02115"


@pytest.mark.parametrize(
    "text,kept",
    [
        ("Boston, MA", ", MA"),
        ("Boston, Massachusetts 02115", ", Massachusetts 021"),
        ("Springfield MA 01103", " MA 011"),
        ("Paris, France", ", France"),
        ("Kansas City, MO", ", MO"),
    ],
)
def test_city_is_keyed_and_region_kept(places, text, kept):
    out = places.location(text)
    assert kept in out
    city = out.split(kept)[0]
    original_city = text.split(kept)[0]
    assert city.casefold() in CITIES and city != original_city


def test_city_alone_and_multiword_city_come_from_the_pool(places):
    for city in ("Boston", "San Francisco", "Winston-Salem", "St. Louis"):
        out = places.location(city)
        assert out.rstrip(".").casefold() in CITIES and out != city


@pytest.mark.parametrize("zip_code", ["02115", "94305", "60614", "10001", "99501"])
def test_zip_keeps_three_digit_zone_and_keys_the_rest(places, zip_code):
    out = places.location(zip_code)
    assert re.fullmatch(r"\d{5}", out)
    assert out[:3] == zip_code[:3] and out[3:] != zip_code[3:]


def test_zip_plus4_is_replaced_and_agrees_with_the_five_digit_form(places):
    out = places.location("02115-1234")
    assert re.fullmatch(r"021\d\d-\d{4}", out) and out[-4:] != "1234"
    assert out[:5] == places.location("02115")


def test_restricted_zip_zones_are_the_safe_harbor_list():
    assert RESTRICTED_ZIP3 == {
        "036",
        "059",
        "063",
        "102",
        "203",
        "556",
        "692",
        "790",
        "821",
        "823",
        "830",
        "831",
        "878",
        "879",
        "884",
        "890",
        "893",
    }


@pytest.mark.parametrize("zone", sorted(RESTRICTED_ZIP3))
def test_restricted_zip_zone_becomes_000(places, zone):
    out = places.location(f"{zone}47")
    assert re.fullmatch(r"000\d\d", out)
    assert places.location(f"Lebanon, NH {zone}47").endswith(" NH " + out)


@pytest.mark.parametrize(
    "text",
    [
        "Massachusetts",
        "MA",
        "New York",
        "california",
        "N.Y.",
        "USA",
        "United States",
        "the United States",
        "Canada",
        "U.K.",
        "MA, USA",
        "Georgia, USA",
        "England, UK",
    ],
)
def test_state_or_country_alone_is_retained_unchanged(places, text):
    assert is_retained_region(text)
    assert places.location(text) == text


@pytest.mark.parametrize(
    "text,state",
    [
        ("Washington, DC", ", DC"),
        ("New York, NY", ", NY"),
        ("Cuba, NY", ", NY"),
        ("New York, New York", ", New York"),
    ],
)
def test_state_or_country_name_before_a_state_is_a_city(places, text, state):
    assert not is_retained_region(text)
    out = places.location(text)
    assert out.endswith(state)
    assert out[: -len(state)].casefold() in CITIES


@pytest.mark.parametrize(
    "text", ["Boston", "123 Main St", "Port Washington", "02115", "Suffolk County", "MA 02115"]
)
def test_places_below_state_level_are_not_retained(text):
    assert not is_retained_region(text)


def test_city_ending_in_a_state_name_is_replaced_whole(places):
    out = places.location("Port Washington")
    assert "Washington" not in out and out.casefold() in CITIES


def test_county_keeps_the_word_county(places):
    out = places.location("Suffolk County")
    name, word = out.rsplit(" ", 1)
    assert word == "County" and name.casefold() in COUNTIES and name != "Suffolk"


@pytest.mark.parametrize(
    "text,pattern",
    [
        ("PO Box 4521", r"PO Box \d{4}"),
        ("P.O. Box 12", r"P\.O\. Box \d\d"),
        ("Apt 4B", r"Apt \d[A-Z]"),
        ("Suite 200", r"Suite \d{3}"),
        ("2nd Floor", r"\d(st|nd|rd|th) Floor"),
        ("55 5th Ave", r"\d\d \d(st|nd|rd|th) Ave"),
        ("1200 Route 9", r"\d{4} Route \d"),
    ],
)
def test_numbered_components_keep_their_words_and_shape(places, text, pattern):
    out = places.location(text)
    assert re.fullmatch(pattern, out), out
    assert out != text


def test_ordinal_suffix_matches_the_keyed_number(places):
    for text in ("1st Ave", "22nd St", "13th Street", "101st Rd"):
        out = places.location(text)
        m = re.match(r"(\d+)(st|nd|rd|th) ", out)
        assert m, out
        n = int(m.group(1))
        expected = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        assert m.group(2) == expected


def test_all_caps_address_gives_all_caps_surrogate(places):
    text = "123 MAIN ST, BOSTON, MA 02115"
    out = places.location(text)
    assert out == out.upper() and out != text
    assert out.casefold() == places.location("123 Main St, Boston, MA 02115").casefold()


def test_lowercase_city_gives_lowercase_surrogate(places):
    out = places.location("boston")
    assert out == out.lower() and out.casefold() == places.location("Boston").casefold()


@pytest.mark.parametrize("text", ["", "   ", "<b>Boston</b>", "Apt", "County", "Boston; MA", "(Boston)"])
def test_unhandled_location_raises_place_error(places, text):
    with pytest.raises(PlaceSurrogateError):
        places.location(text)


def test_malformed_zip_raises(places):
    with pytest.raises(PlaceSurrogateError):
        places.zip_code("0211")


# -- HOSPITAL ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,kept",
    [
        ("Mercy General Hospital", "General Hospital"),
        ("Massachusetts General Hospital", "General Hospital"),
        ("Beth Israel Deaconess Medical Center", "Medical Center"),
        ("Mayo Clinic", "Clinic"),
        ("Riverside Rehabilitation Center", "Rehabilitation Center"),
        ("Cedar Sinai Children's Hospital", "Children's Hospital"),
    ],
)
def test_facility_type_words_kept_and_name_keyed(places, text, kept):
    out = places.hospital(text)
    assert out.endswith(" " + kept)
    name = out[: -len(kept) - 1]
    original = text[: -len(kept) - 1]
    assert name.casefold() in FACILITIES and name != original


def test_connectors_and_inner_type_words_stay_in_place(places):
    out = places.hospital("Hospital of the University of Pennsylvania")
    assert out.startswith("Hospital of the University of ")
    assert out.removeprefix("Hospital of the University of ").casefold() in FACILITIES
    out = places.hospital("Memorial Sloan Kettering Cancer Center")
    assert out.startswith("Memorial ") and out.endswith(" Cancer Center") and "Sloan" not in out


@pytest.mark.parametrize("text", ["MGH", "UCSF", "UPMC", "CHOP"])
def test_acronym_becomes_keyed_letters_of_same_length_and_case(places, text):
    out = places.hospital(text)
    assert re.fullmatch(rf"[A-Z]{{{len(text)}}}", out) and out != text


def test_acronym_inside_a_name_keeps_the_type_words(places):
    out = places.hospital("UCSF Medical Center")
    assert re.fullmatch(r"[A-Z]{4} Medical Center", out) and not out.startswith("UCSF")
    assert out.split()[0] == places.hospital("UCSF")


def test_saint_name_comes_from_the_saints_pool_with_possessive(places):
    out = places.hospital("St. Mary's Hospital")
    m = re.fullmatch(r"St\. (\w+)'s Hospital", out)
    assert m and m.group(1).casefold() in SAINTS and m.group(1) != "Mary"


def test_name_of_only_type_words_gets_a_keyed_name(places):
    for text in ("Children's Hospital", "General Hospital", "ICU"):
        out = places.hospital(text)
        assert out.endswith(" " + text)
        assert out[: -len(text) - 1].casefold() in FACILITIES


def test_same_facility_same_surrogate_in_any_case(places):
    a = places.hospital("Mercy General Hospital")
    assert places.hospital("Mercy General Hospital") == a
    assert places.hospital("MERCY GENERAL HOSPITAL") == a.upper()
    assert places.hospital("Mercy Medical Center").split(" Medical")[0] == a.split(" General")[0]


@pytest.mark.parametrize("text", ["", "  ", "Mercy <Hospital>", "Mercy (Main) Hospital"])
def test_unhandled_hospital_raises_place_error(places, text):
    with pytest.raises(PlaceSurrogateError):
        places.hospital(text)


# -- places: determinism, keys, no identity ----------------------------------


def test_same_key_same_surrogates_across_instances(study_key, places):
    again = PlaceSurrogates(study_key.subkey(Purpose.PLACES))
    for text in ("123 Main St, Boston, MA 02115", "Suffolk County", "02115-1234"):
        assert again.location(text) == places.location(text)
    assert again.hospital("Mercy General Hospital") == places.hospital("Mercy General Hospital")


@FAST
@given(address=_address)
def test_generated_addresses_never_keep_street_city_or_number(places, address):
    out = places.location(address)
    assert out != address
    street, city, state_zip = address.split(", ")
    o_street, o_city, o_state_zip = out.split(", ")
    number, name = street.split(" ")[:2]
    o_number, o_name = o_street.split(" ")[0], " ".join(o_street.split(" ")[1:-1])
    assert o_number != number and len(o_number) == len(number)
    assert o_name.casefold() != name.casefold() and o_name.casefold() in STREETS
    assert o_city.casefold() != city.casefold() and o_city.casefold() in CITIES
    assert o_state_zip.rsplit(" ", 1)[0] == state_zip.rsplit(" ", 1)[0]
    assert o_state_zip[-5:] != state_zip[-5:]


@FAST
@given(facility=_facility)
def test_generated_facilities_never_map_to_themselves(places, facility):
    out = places.hospital(facility)
    assert out != facility
    assert out.split(" ")[0] != facility.split(" ")[0]


def test_new_key_remaps_nearly_all_places(places, other_places):
    addresses = [
        f"{100 + i} {w} St, {c}, MA 0{2100 + i}"
        for i, (w, c) in enumerate(zip(sorted(STREETS), sorted(CITIES)))
    ]
    differ = sum(places.location(a) != other_places.location(a) for a in addresses)
    assert differ >= 0.97 * len(addresses)
    names = [f"{f.title()} Hospital" for f in sorted(FACILITIES)]
    differ = sum(places.hospital(n) != other_places.hospital(n) for n in names)
    assert differ >= 0.9 * len(names)


def test_distinct_pool_cities_get_distinct_surrogates(places):
    outs = [places.location(c.title()) for c in sorted(CITIES)]
    assert len(set(o.casefold() for o in outs)) == len(outs)


def test_keyed_shape_keeps_classes_and_never_returns_the_token(study_key):
    subkey = study_key.subkey(Purpose.PLACES)
    for token in ("3B", "12-14", "#4", "a", "0", "Z9"):
        out = keyed_shape(subkey, token, "test")
        assert _shape(out) == _shape(token) and out != token
    with pytest.raises(PlaceSurrogateError):
        keyed_shape(subkey, "--", "test")


def test_short_subkey_is_rejected():
    with pytest.raises(ValueError):
        PlaceSurrogates(b"short")
    with pytest.raises(ValueError):
        WebSurrogates(b"short")


# -- WEB -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,tld",
    [
        ("jdoe@example.org", ".org"),
        ("John.Doe88@Mercy-Health.ORG", ".ORG"),
        ("johnsonjoshua@example.org", ".org"),
        ("pat_smith+labs@clinic.co.uk", ".co.uk"),
    ],
)
def test_email_keyed_local_part_of_similar_length_and_tld_kept(web, text, tld):
    out = web.replace(text)
    local, domain = out.split("@")
    o_local, o_domain = text.split("@")
    assert domain.endswith(tld) and domain != o_domain
    assert local != o_local
    # separators and digit runs keep their places, word runs keep about their length
    runs = lambda s: re.sub(r"[A-Za-z]+", "w", re.sub(r"[0-9]", "9", s))  # noqa: E731
    assert runs(local) == runs(o_local)
    for a, b in zip(re.findall(r"[A-Za-z]+", local), re.findall(r"[A-Za-z]+", o_local)):
        assert abs(len(a) - len(b)) <= 3


def test_email_keeps_case_style(web):
    out = web.replace("John.Doe@Mercy.ORG")
    first, last = out.split("@")[0].split(".")
    assert first[0].isupper() and first[1:].islower() and last[0].isupper()
    assert out.split("@")[1].endswith(".ORG")


def test_url_keeps_scheme_port_tld_and_known_extension_and_replaces_every_token(web):
    text = "https://portal.mercyhealth.org:8443/patients/12345/chart.pdf?id=889&name=jdoe#top"
    out = web.replace(text)
    m = re.fullmatch(
        r"https://portal\.([a-z\-]+)\.org:8443/([a-z]{8})/(\d{5})/([a-z]{5})\.pdf"
        r"\?([a-z]{2})=(\d{3})&([a-z]{4})=([a-z]{4})#([a-z]{3})",
        out,
    )
    assert m, out
    host, seg1, seg2, stem, qname1, qid, qname2, qvalue, frag = m.groups()
    assert host != "mercyhealth" and seg1 != "patients" and seg2 != "12345" and stem != "chart"
    assert qname1 != "id" and qid != "889" and qname2 != "name" and qvalue != "jdoe" and frag != "top"


def test_dotted_path_segment_is_replaced_whole_when_its_tail_is_no_known_extension(web):
    out = web.replace("https://portal.example.org/u/maria.lopez")
    m = re.fullmatch(r"https://portal\.[a-z\-]+\.org/([a-z])/([a-z]{5})\.([a-z]{5})", out)
    assert m, out
    assert m.group(1) != "u" and m.group(2) != "maria" and m.group(3) != "lopez"


@pytest.mark.parametrize("extension", ["pdf", "PDF", "html", "docx", "dcm"])
def test_known_file_extensions_are_kept(web, extension):
    out = web.replace(f"https://x-clinic.org/files/lopez.{extension}")
    assert out.endswith(f".{extension}") and "lopez" not in out


def test_query_parameter_names_are_replaced_token_by_token(web):
    out = web.replace("https://x-clinic.org/a?Lopez_Maria=1&mrn=00123")
    m = re.fullmatch(
        r"https://[a-z\-]+\.org/[a-z]\?([A-Z][a-z]{4})_([A-Z][a-z]{4})=(\d)&([a-z]{3})=(\d{5})", out
    )
    assert m, out
    assert m.group(1) != "Lopez" and m.group(2) != "Maria" and m.group(4) != "mrn" and m.group(5) != "00123"


def test_url_whose_host_is_only_generic_labels_keeps_it_and_replaces_the_path(web):
    out = web.replace("https://www.www.org/maria")
    assert re.fullmatch(r"https://www\.www\.org/[a-z]{5}", out) and out != "https://www.www.org/maria"
    with pytest.raises(WebSurrogateError):
        web.replace("https://www.www.org/")


def test_same_token_same_surrogate_in_path_query_and_fragment(web):
    out = web.replace("https://x-clinic.org/lopez/chart?lopez=lopez#lopez")
    m = re.fullmatch(r"https://[a-z\-]+\.org/([a-z]+)/[a-z]+\?([a-z]+)=([a-z]+)#([a-z]+)", out)
    assert m and len({m.group(1), m.group(2), m.group(3), m.group(4)}) == 1 and m.group(1) != "lopez"


def test_url_with_ip_host_and_userinfo(web):
    out = web.replace("http://admin:pw@10.1.2.3:8080/a")
    m = re.fullmatch(r"http://([a-z]{5}):([a-z]{2})@([\d.]+):8080/([a-z])", out)
    assert m, out
    assert m.group(1) != "admin" and m.group(3) != "10.1.2.3"
    ipaddress.IPv4Address(m.group(3))


@pytest.mark.parametrize("text", ["192.168.1.20", "10.0.0.1", "8.8.8.8", "172.16.254.1"])
def test_ipv4_keyed_valid_address_in_dotted_form(web, text):
    out = web.replace(text)
    addr = ipaddress.IPv4Address(out)
    assert out != text and not addr.is_multicast and not addr.is_loopback and out.count(".") == 3


@pytest.mark.parametrize(
    "text,network",
    [
        ("192.168.1.20", "192.168.0.0/16"),
        ("10.0.0.1", "10.0.0.0/8"),
        ("172.16.254.1", "172.16.0.0/12"),
        ("172.31.7.200", "172.16.0.0/12"),
        ("127.0.0.1", "127.0.0.0/8"),
        ("169.254.10.3", "169.254.0.0/16"),
        ("100.64.3.3", "100.64.0.0/10"),
        ("198.18.0.1", "198.18.0.0/15"),
        ("192.0.2.44", "192.0.2.0/24"),
        ("224.0.0.251", "224.0.0.0/4"),
    ],
)
def test_special_ipv4_stays_in_its_block_with_its_dotted_shape(web, text, network):
    out = web.replace(text)
    addr = ipaddress.IPv4Address(out)
    assert out != text and addr in ipaddress.ip_network(network)
    assert [len(o) for o in out.split(".")] == [len(o) for o in text.split(".")]


@pytest.mark.parametrize("text", ["8.8.8.8", "93.184.216.34", "151.101.1.69"])
def test_public_ipv4_stays_public_with_its_dotted_shape(web, text):
    out = web.replace(text)
    addr = ipaddress.IPv4Address(out)
    assert out != text and addr.is_global and not addr.is_private
    assert [len(o) for o in out.split(".")] == [len(o) for o in text.split(".")]


@pytest.mark.parametrize("text", ["0.0.0.0", "255.255.255.255", "::1"])
def test_an_address_alone_in_its_class_is_an_error_so_it_is_masked(web, text):
    with pytest.raises(WebSurrogateError):
        web.replace(text)


@pytest.mark.parametrize(
    "text,network",
    [
        ("fe80::1ff:fe23:4567:890a", "fe80::/10"),
        ("fd12:3456:789a::1", "fc00::/7"),
        ("2001:db8:0:1::1", "2001:db8::/32"),
        ("2a00:1450:4007:80e::200e", None),
    ],
)
def test_ipv6_keeps_its_class(web, text, network):
    out = web.replace(text)
    addr = ipaddress.IPv6Address(out)
    assert out != text
    if network:
        assert addr in ipaddress.ip_network(network)
    else:
        assert addr.is_global


def test_ipv4_keeps_port_and_prefix_length(web):
    assert re.fullmatch(r"[\d.]+/24", web.replace("10.0.0.0/24"))
    assert re.fullmatch(r"[\d.]+:8080", web.replace("10.0.0.7:8080"))


@pytest.mark.parametrize(
    "text",
    [
        "2001:db8::1",
        "2001:0DB8:85A3:0000:0000:8A2E:0370:7334",
        "fe80::1ff:fe23:4567:890a",
        "::ffff:192.0.2.1",
    ],
)
def test_ipv6_keyed_with_same_group_count(web, text):
    out = web.replace(text)
    ipaddress.IPv6Address(out)
    assert out != text
    assert out.count(":") == text.count(":") and ("::" in out) == ("::" in text)
    groups_out, groups_in = ((s.rsplit(":", 1)[0] if "." in text else s).split(":") for s in (out, text))
    assert [len(g) for g in groups_out] == [len(g) for g in groups_in]


def test_bracketed_ipv6_with_port(web):
    out = web.replace("[2001:db8::1]:443")
    m = re.fullmatch(r"\[(.+)\]:443", out)
    assert m and m.group(1) != "2001:db8::1"
    ipaddress.IPv6Address(m.group(1))


@pytest.mark.parametrize(
    "text,pattern",
    [
        ("www.example-clinic.org", r"www\.[a-z]+-[a-z]+\.org"),
        ("mercyhealth.com", r"[a-z]+\.com"),
        ("example-clinic.org/portal/login", r"[a-z]+-[a-z]+\.org/[a-z]{6}/[a-z]{5}"),
    ],
)
def test_bare_domain_keeps_generic_labels_and_tld(web, text, pattern):
    out = web.replace(text)
    assert re.fullmatch(pattern, out), out
    assert out.split(".")[-2].split("/")[0] != text.split(".")[-2].split("/")[0]


@pytest.mark.parametrize(
    "text,pattern",
    [
        ("@jdoe88", r"@[a-z]+\d\d"),
        ("jdoe88", r"[a-z]+\d\d"),
        ("@Dr_Smith", r"@[A-Z][a-z]+_[A-Z][a-z]+"),
        ("john.doe", r"[a-z]+\.[a-z]+"),
    ],
)
def test_handle_keyed_with_same_shape(web, text, pattern):
    out = web.replace(text)
    assert re.fullmatch(pattern, out) and out != text


def test_wrapping_and_mailto_are_kept(web):
    assert re.fullmatch(r"<[a-z]+@[a-z]+\.org>", web.replace("<jdoe@x.org>"))
    assert web.replace("jdoe@x.org.").endswith(".org.")
    assert web.replace("mailto:jdoe@x.org").startswith("mailto:")


def test_same_domain_same_host_in_email_and_url(web):
    email_host = web.replace("jdoe@mercyhealth.org").split("@")[1]
    url_host = web.replace("https://mercyhealth.org/x").split("/")[2]
    assert email_host == url_host


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "not a url",
        "www.com",
        "::",
        "@",
        "a@b",
        "foo$bar",
        "999.1.1.1",
        "jdoe@",
        "http://exa mple.org",
    ],
)
def test_unknown_web_shape_raises_web_error(web, text):
    with pytest.raises(WebSurrogateError):
        web.replace(text)


_local = st.from_regex(r"[a-z]{2,12}(\.[a-z]{2,10})?[0-9]{0,3}", fullmatch=True)
_host = st.from_regex(r"[a-z]{3,14}(-[a-z]{3,8})?", fullmatch=True)
_tld = st.sampled_from(["org", "com", "edu", "net"])
_segment = st.from_regex(r"[a-z0-9]{1,12}", fullmatch=True)
_web_value = st.one_of(
    st.builds(lambda u, h, t: f"{u}@{h}.{t}", _local, _host, _tld),
    st.builds(lambda h, p: f"https://www.{h}.org/{p}", _host, _segment),
    st.builds(lambda local: f"@{local}", _local),
    st.builds(lambda a, b, c, d: f"{a}.{b}.{c}.{d}", *[st.integers(0, 255)] * 4).filter(
        lambda ip: ip not in ("0.0.0.0", "255.255.255.255")  # alone in their class: masked
    ),
)


@FAST
@given(value=_web_value)
def test_generated_web_values_never_map_to_themselves(web, value):
    out = web.replace(value)
    assert out != value
    assert web.replace(value) == out


def test_new_key_remaps_nearly_all_web_values(web, other_web):
    names = sorted(load_pool("web_names"))
    values = [f"{n}{i}@{h}.org" for i, (n, h) in enumerate(zip(names, sorted(load_pool("web_hosts"))))]
    values += [f"https://{h}.com/{n}" for n, h in zip(names, sorted(load_pool("web_hosts")))]
    values += [f"10.{i}.{i * 7 % 256}.1" for i in range(100)]
    differ = sum(web.replace(v) != other_web.replace(v) for v in values)
    assert differ >= 0.97 * len(values)


def test_same_key_same_web_surrogates_across_instances(study_key, web):
    again = WebSurrogates(study_key.subkey(Purpose.WEB))
    for value in ("jdoe@example.org", "https://x.org/a?b=c", "2001:db8::1", "@jdoe88"):
        assert again.replace(value) == web.replace(value)


# -- engine --------------------------------------------------------------------


def test_engine_keeps_retained_region_and_replaces_address(study_key):
    engine = pytest.importorskip("deid_core.anonymizer.engine", exc_type=ImportError)
    Anonymizer, Note = engine.Anonymizer, engine.Note
    from deid_core.spans import Category, Span

    text = "Lives at 12 Oak St, Boston, MA 02115. Moved from Ohio."
    addr = text.index("12 Oak")
    ohio = text.index("Ohio")
    note = Note(
        id="n1",
        text=text,
        spans=(Span(addr, text.index("."), Category.LOCATION), Span(ohio, ohio + 4, Category.LOCATION)),
    )
    out = Anonymizer(study_key).anonymize(note)
    assert out.masked_count == 0
    assert "Moved from Ohio." in out.text and "12 Oak St" not in out.text and "Boston" not in out.text
