"""Property tests: a WEB surrogate keeps the shape of its input and none of its tokens.

For random URLs, emails and IP addresses: the scheme, the number of path
segments, a known file extension, the query's layout, an IP address's
version, class and written shape are kept; every token of the path, query
and fragment is replaced where it stands, and no long token turns up
anywhere else.
"""

from __future__ import annotations

import ipaddress
import re
import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from deid_core.anonymizer.web import WebSurrogateError, WebSurrogates
from deid_core.keys import Purpose

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_TOKENS = re.compile(r"[^\W\d_]+|\d+")


@pytest.fixture(scope="module")
def web(study_key) -> WebSurrogates:
    return WebSurrogates(study_key.subkey(Purpose.WEB))


# -- inputs --------------------------------------------------------------------

_letters = st.text(alphabet=string.ascii_letters, min_size=1, max_size=10)
_digits = st.text(alphabet=string.digits, min_size=1, max_size=6)
_token = st.one_of(_letters, _digits)
_separator = st.sampled_from(["-", "_", "."])
_joined = st.lists(_token, min_size=1, max_size=3).flatmap(
    lambda parts: st.lists(_separator, min_size=len(parts) - 1, max_size=len(parts) - 1).map(
        lambda seps: "".join(p + s for p, s in zip(parts, seps + [""]))
    )
)
_extension = st.sampled_from(["", ".pdf", ".html", ".PNG", ".docx"])
_host = st.from_regex(r"[a-z]{3,12}(-[a-z]{3,8})?\.(org|com|net|edu)", fullmatch=True)


@st.composite
def urls(draw) -> str:
    scheme = draw(st.sampled_from(["http", "https", "ftp"]))
    segments = draw(st.lists(_joined, min_size=1, max_size=4))
    segments[-1] += draw(_extension)
    url = f"{scheme}://{draw(_host)}/" + "/".join(segments)
    if draw(st.booleans()):
        items = draw(st.lists(st.tuples(_joined, _joined), min_size=1, max_size=3))
        url += "?" + "&".join(f"{k}={v}" for k, v in items)
    if draw(st.booleans()):
        url += "#" + draw(_joined)
    return url


_V4_BLOCKS = [
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16", "100.64.0.0/10"
]
_V6_BLOCKS = ["fe80::/10", "fc00::/7", "2001:db8::/32"]
_V6_PUBLIC = "2a00::/12"


def _in_block(block: str):
    net = ipaddress.ip_network(block)
    return st.integers(0, net.num_addresses - 1).map(lambda i: net.network_address + i)


_ipv4 = st.one_of(
    st.sampled_from(_V4_BLOCKS).flatmap(_in_block),
    st.integers(0, 2**32 - 1).map(ipaddress.IPv4Address),
).filter(lambda a: str(a) not in ("0.0.0.0", "255.255.255.255"))  # each alone in its class: masked
_ipv6 = st.sampled_from(_V6_BLOCKS + [_V6_PUBLIC]).flatmap(_in_block)


def _ip_class(address) -> tuple:
    blocks = [b for b in _V4_BLOCKS + _V6_BLOCKS if address in ipaddress.ip_network(b)]  # special ones
    return (
        address.version,
        tuple(blocks),
        address.is_private,
        address.is_global,
        address.is_loopback,
        address.is_link_local,
        address.is_multicast,
    )


# -- properties ------------------------------------------------------------------


def _classes(text: str) -> str:
    return re.sub(r"[^\W\d_]", "a", re.sub(r"\d", "9", text))


def _parts(url: str) -> tuple[str, list[str], str, str]:
    m = re.fullmatch(r"([a-z]+)://[^/]+/([^?#]*)(?:\?([^#]*))?(?:#(.*))?", url)
    assert m, url
    return m.group(1), m.group(2).split("/"), m.group(3) or "", m.group(4) or ""


@PROPERTY
@given(url=urls())
def test_url_keeps_its_shape_and_no_path_or_query_token(web, url):
    out = web.replace(url)
    scheme, segments, query, fragment = _parts(url)
    o_scheme, o_segments, o_query, o_fragment = _parts(out)
    assert o_scheme == scheme
    assert len(o_segments) == len(segments)
    extension = re.search(r"\.(pdf|html|PNG|docx)$", segments[-1])
    if extension:
        assert o_segments[-1].endswith(extension.group())
        segments[-1], o_segments[-1] = segments[-1][: extension.start()], o_segments[-1][: extension.start()]
    assert re.sub(r"[^&=]", "", o_query) == re.sub(r"[^&=]", "", query)
    before = "/".join(segments) + "?" + query + "#" + fragment
    after = "/".join(o_segments) + "?" + o_query + "#" + o_fragment
    # tokens keep their places and classes, and each one is replaced where it stands
    assert _classes(after) == _classes(before)
    for a, b in zip(_TOKENS.findall(before), _TOKENS.findall(after)):
        assert a != b
    # and no longer token of the input turns up anywhere else
    long_tokens = {t for t in _TOKENS.findall(before) if len(t) >= 6 and not t.isdigit()}
    assert not long_tokens & set(_TOKENS.findall(after))


@PROPERTY
@given(address=_ipv4)
def test_ipv4_keeps_version_class_and_dotted_shape(web, address):
    text = str(address)
    out = web.replace(text)
    new = ipaddress.ip_address(out)
    assert out != text
    assert _ip_class(new) == _ip_class(address)
    assert [len(o) for o in out.split(".")] == [len(o) for o in text.split(".")]


@PROPERTY
@given(address=_ipv6)
def test_ipv6_keeps_version_class_and_group_layout(web, address):
    text = str(address)
    try:
        out = web.replace(text)
    except WebSurrogateError:
        # only an address written as nothing but its block's prefix ("2001:db8::") has no room
        assert any(address == ipaddress.ip_network(b).network_address for b in _V6_BLOCKS)
        return
    new = ipaddress.ip_address(out)
    assert out != text and _ip_class(new) == _ip_class(address)
    assert [len(g) for g in out.split(":")] == [len(g) for g in text.split(":")]


def test_a_public_ipv6_address_gets_a_public_surrogate_under_every_key():
    from deid_core.keys import StudyKey

    for i in range(200):  # one draw in eight would leave 2000::/3 if the first digit were free
        out = WebSurrogates(StudyKey.generate(f"k{i}").subkey(Purpose.WEB)).replace("2a00::3a:2df0:b33:545c")
        assert ipaddress.IPv6Address(out).is_global and out != "2a00::3a:2df0:b33:545c"


def test_an_email_whose_host_is_only_generic_labels_still_gets_a_new_host(web):
    out = web.replace("jdoe@www.org")
    assert out.endswith(".org") and out.split("@")[1] != "www.org" and "jdoe" not in out


@PROPERTY
@given(local=_joined, host=_host)
def test_email_keeps_tld_and_layout_and_drops_long_tokens(web, local, host):
    assume(local[0] not in "._-" and local[-1] not in "._-")
    text = f"{local}@{host}"
    out = web.replace(text)
    o_local, o_host = out.split("@")
    assert o_host.rsplit(".", 1)[1] == host.rsplit(".", 1)[1] and o_host != host
    assert re.sub(r"[^._\-]", "", o_local) == re.sub(r"[^._\-]", "", local)
    long_tokens = {t for t in _TOKENS.findall(local) if len(t) >= 6 and not t.isdigit()}
    assert not long_tokens & set(_TOKENS.findall(out))
