"""WEB surrogates: emails, URLs, IP addresses, bare domains and user handles.

The kind is told from the shape of the span, and each part is replaced on
its own so the surrogate is still a working-looking address of the same
kind:

* words in email local parts and handles become name-like tokens of about
  the same length, digits become keyed digits, separators stay;
* host labels become keyed words; the top-level domain (and a country's
  second level, as in ``.co.uk``) and generic labels such as ``www`` stay;
* URL schemes and ports stay; path segments, query names and values and
  fragments are replaced token by token (each run of letters or digits gets
  keyed characters of the same length and class, the same token the same
  surrogate wherever it stands), and a file extension stays only when it is
  a known one (``.pdf``, not the ``.lopez`` of ``maria.lopez``);
* IP addresses keep their version, their class (private, loopback,
  link-local, documentation, multicast or public: the same special block, or
  none) and their written shape: an IPv4 octet keeps its number of digits,
  an IPv6 address its group count and compression.

Word pools live beside the place pools in ``deid_core/data/places``.  A span
of any other shape raises :class:`WebSurrogateError`, and the caller masks it.
"""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache

from deid_core.anonymizer.places import keyed_shape, load_pool, match_case
from deid_core.anonymizer.selection import KeyedPool
from deid_core.keys import keyed_digest, keyed_index


class WebSurrogateError(ValueError):
    """A WEB span of a shape this module does not replace; the caller masks it."""


_MAX_ATTEMPTS = 64
_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")
_MIN_POOL = 12  # a smaller length window gives too few surrogates to keep keys apart

#: Labels that say nothing about who runs the host.
_GENERIC_LABELS = frozenset(
    """www www1 www2 www3 mail email webmail m mobile ftp smtp imap pop portal my app apps api
    secure login web""".split()
)
#: Second-level labels under a country code that belong to the public suffix.
_SECOND_LEVEL = frozenset("co com org net ac edu gov govt nhs or ne go gob mil nic health med".split())
#: Generic top-level domains recognised in bare domains (any 2-letter code is one too).
_GTLDS = frozenset(
    """com org net edu gov mil int info biz name pro health care clinic hospital healthcare
    medical doctor dental io ai app dev online site tech xyz cloud mobi museum aero coop jobs
    travel email link live life news blog shop store services""".split()
)

#: File extensions a URL keeps: common document, image, data and page types.
_KNOWN_EXTENSIONS = frozenset(
    """html htm xhtml php asp aspx jsp cgi js css json xml csv tsv txt rtf pdf doc docx xls xlsx
    ppt pptx odt ods odp png jpg jpeg gif bmp tif tiff svg webp ico mp3 mp4 wav avi mov mkv webm zip
    gz tgz tar 7z rar dcm hl7""".split()
)
#: Special IPv4 and IPv6 blocks; an address keeps the block it is in, or stays outside all of them.
_IP_BLOCKS = tuple(
    ipaddress.ip_network(n)
    for n in """0.0.0.0/8 10.0.0.0/8 100.64.0.0/10 127.0.0.0/8 169.254.0.0/16 172.16.0.0/12
    192.0.0.0/24 192.0.2.0/24 192.88.99.0/24 192.168.0.0/16 198.18.0.0/15 198.51.100.0/24
    203.0.113.0/24 224.0.0.0/4 240.0.0.0/4 255.255.255.255/32
    ::/128 ::1/128 64:ff9b::/96 100::/64 2001::/23 2001:db8::/32 2002::/16
    fc00::/7 fe80::/10 ff00::/8""".split()
)
_URL_TOKENS = re.compile(r"%[0-9A-Fa-f]{2}|[^\W\d_]+|\d+|[\W_]+")

_URL = re.compile(
    r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*://)(?:(?P<userinfo>[^@/?#\s]*)@)?"
    r"(?P<host>\[[^\]]*\]|[^:/?#\s]*)(?P<port>:\d{1,5})?(?P<rest>[/?#]\S*)?",
    re.ASCII,
)
_EMAIL = re.compile(r"(?P<local>[A-Za-z0-9._+\-]+)@(?P<domain>[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+)")
_DOMAIN = re.compile(
    r"(?P<host>[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+)(?P<port>:\d{1,5})?(?P<rest>[/?#]\S*)?", re.ASCII
)
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?")
_HANDLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._\-]*")
_IPV4 = re.compile(r"(?P<addr>\d{1,3}(?:\.\d{1,3}){3})(?P<port>:\d{1,5})?(?P<cidr>/\d{1,2})?", re.ASCII)
_RUNS = re.compile(r"[A-Za-z]+|[0-9]+|[^A-Za-z0-9]+")


class _WordPicker:
    """Keyed name-like words of about a given length, from one pool."""

    def __init__(self, subkey: bytes, words: tuple[str, ...], label: str) -> None:
        self._subkey = keyed_digest(subkey, "words", label)
        self._words = tuple(sorted({w.casefold() for w in words if w.isalpha()}))
        self._longest = max(len(w) for w in self._words)
        self._label = label
        self._pools: dict[tuple[int, int], KeyedPool | None] = {}

    def _pool(self, lo: int, hi: int) -> KeyedPool | None:
        if (lo, hi) not in self._pools:
            words = [w for w in self._words if lo <= len(w) <= hi]
            self._pools[(lo, hi)] = (
                KeyedPool(self._subkey, words, label=f"{self._label}.{lo}-{hi}")
                if len(words) >= 2
                else None
            )
        return self._pools[(lo, hi)]

    def pick(self, run: str) -> str:
        """A keyed word for an alphabetic run, in its case style, never the run itself."""
        length = len(run)
        if length <= 2:
            return keyed_shape(self._subkey, run, "short", error=WebSurrogateError)
        folded = run.casefold()
        for width in (1, 2, 3):
            pool = self._pool(length - width, length + width)
            if pool is not None and len(pool) >= _MIN_POOL:
                return match_case(run, pool.surrogate(folded))
        if length >= 6:
            for attempt in range(_MAX_ATTEMPTS):
                word = self._compose(folded, length, str(attempt))
                if word != folded:
                    return match_case(run, word)
        pool = self._pool(max(3, length - 3), length + 3)
        if pool is None:
            raise WebSurrogateError("no surrogate words of a fitting length")
        return match_case(run, pool.surrogate(folded))

    def _compose(self, run: str, length: int, attempt: str) -> str:
        """Two or more pool words whose lengths add up to about ``length``."""
        if length <= self._longest + 1:
            choices = [w for w in self._words if abs(len(w) - length) <= 1] or list(self._words)
            return choices[keyed_index(self._subkey, f"{run}|{attempt}|{length}|last", len(choices))]
        hi = min(self._longest, length - 3)
        choices = [w for w in self._words if 3 <= len(w) <= hi]
        first = choices[keyed_index(self._subkey, f"{run}|{attempt}|{length}|first", len(choices))]
        return first + self._compose(run, length - len(first), attempt)


@lru_cache(maxsize=1)
def _pools() -> tuple[tuple[str, ...], tuple[str, ...]]:
    return load_pool("web_names"), load_pool("web_hosts")


def _split_wrapping(text: str) -> tuple[str, str, str]:
    """Keep brackets and sentence punctuation that a recognizer took with the span."""
    lead, core, trail = "", text.strip(), ""
    start = text.index(core) if core else 0
    lead_ws, trail_ws = text[:start], text[start + len(core) :]
    for opening, closing in (("<", ">"), ("(", ")"), ('"', '"'), ("'", "'")):
        if len(core) > 2 and core.startswith(opening) and core.endswith(closing):
            lead, core, trail = opening, core[1:-1], closing
            break
    m = re.search(r"[.,;:!?]+$", core)
    if m and m.start() > 0 and not WebSurrogates._looks_ipv6(core):  # "2001:db8::" ends in "::"
        trail = m.group() + trail
        core = core[: m.start()]
    return lead_ws + lead, core, trail + trail_ws


class WebSurrogates:
    """The WEB strategy under one web subkey."""

    def __init__(self, subkey: bytes) -> None:
        if not isinstance(subkey, bytes) or len(subkey) < 16:
            raise ValueError("a web subkey needs at least 16 bytes")
        self._subkey = subkey
        names, hosts = _pools()
        self._names = _WordPicker(subkey, names, "web.name")
        self._hosts = _WordPicker(subkey, hosts, "web.host")

    def replace(self, text: str) -> str:
        """Tell the kind of a WEB span from its shape and replace it."""
        if not isinstance(text, str) or not text.strip():
            raise WebSurrogateError("empty web span")
        lead, core, trail = _split_wrapping(text)
        if not core or re.search(r"\s", core):
            raise WebSurrogateError("a web span cannot contain spaces")
        out = lead + self._replace_core(core) + trail
        if out == text:
            raise WebSurrogateError("web span has nothing to replace")
        return out

    def _replace_core(self, core: str) -> str:
        if core[:7].casefold() == "mailto:":
            address, sep, query = core[7:].partition("?")
            return core[:7] + self.email(address) + (sep + self._query(query) if sep else "")
        if _URL.fullmatch(core):
            return self.url(core)
        if _IPV4.fullmatch(core):
            return self.ipv4(core)
        if ":" in core and self._looks_ipv6(core):
            return self.ipv6(core)
        bracketed = re.fullmatch(r"\[([^\]]+)\](:\d{1,5})?", core)
        if bracketed:
            return "[" + self.ipv6(bracketed.group(1)) + "]" + (bracketed.group(2) or "")
        if core.startswith("@"):
            return self.handle(core)
        if _EMAIL.fullmatch(core):
            return self.email(core)
        m = _DOMAIN.fullmatch(core)
        if m and self._has_tld(m.group("host")):
            return self.domain(core)
        if _HANDLE.fullmatch(core):
            return self.handle(core)
        raise WebSurrogateError("web span of unknown shape")

    # -- kinds --------------------------------------------------------------
    def email(self, text: str) -> str:
        m = _EMAIL.fullmatch(text)
        if m is None:
            raise WebSurrogateError("not an email address")
        return self._local(m.group("local")) + "@" + self._host(m.group("domain"), generic_too=True)

    def handle(self, text: str) -> str:
        """A user handle of the same shape: "@jdoe88" -> "@" and keyed runs; "@user@host" too."""
        at = "@" if text.startswith("@") else ""
        body = text[len(at) :]
        if "@" in body:
            return at + self.email(body)
        if not body or _HANDLE.fullmatch(body) is None:
            raise WebSurrogateError("not a user handle")
        return at + self._local(body)

    def domain(self, text: str) -> str:
        """A bare domain, possibly with a port and path ("www.example-clinic.org/portal")."""
        m = _DOMAIN.fullmatch(text)
        if m is None:
            raise WebSurrogateError("not a domain")
        return self._host(m.group("host")) + (m.group("port") or "") + self._rest(m.group("rest") or "")

    def url(self, text: str) -> str:
        m = _URL.fullmatch(text)
        if m is None:
            raise WebSurrogateError("not a URL")
        out = m.group("scheme")
        if m.group("userinfo") is not None:
            parts = m.group("userinfo").split(":")
            out += ":".join(self._shape(p, "userinfo") if p else p for p in parts) + "@"
        host = m.group("host")
        if host.startswith("["):
            out += "[" + self.ipv6(host[1:-1]) + "]"
        elif _IPV4.fullmatch(host):
            out += self.ipv4(host)
        elif host:
            out += self._host(host, may_keep=True)
        out += m.group("port") or ""
        out += self._rest(m.group("rest") or "")
        if out == text:
            raise WebSurrogateError("URL has nothing to replace")
        return out

    def ipv4(self, text: str) -> str:
        """A keyed address of the same class, each octet with as many digits as before."""
        m = _IPV4.fullmatch(text)
        if m is None:
            raise WebSurrogateError("not an IPv4 address")
        addr = m.group("addr")
        try:
            original = ipaddress.IPv4Address(addr)
        except ValueError:
            raise WebSurrogateError("not a valid IPv4 address") from None
        octets = addr.split(".")
        block = _block_of(original)
        bits = block.prefixlen if block else 0
        first = [int(o) for o in str(block.network_address).split(".")] if block else [0] * 4
        ranges = [
            (0, 255) if 8 * i >= bits else (first[i], first[i] + (1 << max(0, 8 * (i + 1) - bits)) - 1)
            for i in range(4)
        ]
        for attempt in range(_MAX_ATTEMPTS):
            d = keyed_digest(self._subkey, "ipv4", addr, str(attempt))
            out = [o if 8 * (i + 1) <= bits else _octet(o, d[i], *ranges[i]) for i, o in enumerate(octets)]
            candidate = ".".join(out)
            if candidate != addr and _ip_class(ipaddress.IPv4Address(candidate)) == _ip_class(original):
                return candidate + (m.group("port") or "") + (m.group("cidr") or "")
        raise WebSurrogateError("could not derive a distinct IPv4 address of the same class")

    def ipv6(self, text: str) -> str:
        core, pct, zone = text.partition("%")
        if not self._looks_ipv6(core):
            raise WebSurrogateError("not a valid IPv6 address")
        if not any(c.isalnum() for c in core):
            raise WebSurrogateError("IPv6 address has no group to replace")
        tail_v4 = ""
        if "." in core:
            core, _, v4 = core.rpartition(":")
            core += ":"
            tail_v4 = self.ipv4(v4)
        if tail_v4 and all(g.casefold() in ("", "0", "ffff") for g in core.split(":")):
            return core + tail_v4 + pct + zone  # "::ffff:" says only that an IPv4 address follows
        upper = any(c.isupper() for c in core)
        original = ipaddress.IPv6Address(core + ("0.0.0.0" if tail_v4 else ""))
        block = _block_of(original)
        # a public address keeps the 2000::/3 it sits in: otherwise one draw in eight stays global
        keep_bits = block.prefixlen if block else (3 if original in _GLOBAL_UNICAST else 0)
        for attempt in range(_MAX_ATTEMPTS):
            stream = keyed_digest(
                self._subkey, "ipv6", text, str(attempt)
            )  # 32 bytes: one per hex digit
            pos = 0
            out: list[str] = []
            leading = True  # groups before any "::" sit where they are written
            for group, piece in enumerate(p for p in re.split(r"(:+)", core) if p):
                if piece.startswith(":"):
                    leading = leading and piece == ":"
                    out.append(piece)
                    continue
                kept = _kept_hex(piece, keep_bits - 16 * (group // 2)) if leading else 0
                digits = "".join("0123456789abcdef"[stream[pos + k] % 16] for k in range(len(piece) - kept))
                pos += len(piece)
                out.append(piece[:kept] + (digits.upper() if upper else digits))
            result = "".join(out) + tail_v4
            if tail_v4 or result.casefold() != core.casefold():
                try:
                    candidate = ipaddress.IPv6Address(result)
                except ValueError:
                    continue
                if tail_v4 or _ip_class(candidate) == _ip_class(original):
                    return result + pct + zone
        raise WebSurrogateError("could not derive a distinct IPv6 address of the same class")

    # -- parts --------------------------------------------------------------
    @staticmethod
    def _looks_ipv6(text: str) -> bool:
        try:
            ipaddress.IPv6Address(text.partition("%")[0])
        except ValueError:
            return False
        return True

    @staticmethod
    def _has_tld(host: str) -> bool:
        tld = host.rsplit(".", 1)[-1]
        return tld.isalpha() and (len(tld) == 2 or tld.casefold() in _GTLDS)

    def _shape(self, part: str, *context: str) -> str:
        return keyed_shape(
            self._subkey, part, "web", *context, error=WebSurrogateError, hex_escapes=True
        )

    def _words(self, text: str, picker: _WordPicker, allowed_punct: str) -> str:
        out: list[str] = []
        for run in _RUNS.findall(text):
            if run.isalpha():
                out.append(picker.pick(run))
            elif run.isdigit():
                out.append(keyed_shape(self._subkey, run, "web-digits", error=WebSurrogateError))
            elif all(c in allowed_punct for c in run):
                out.append(run)
            else:
                raise WebSurrogateError("web part has an unexpected character")
        if not any(c.isalnum() for c in text):
            raise WebSurrogateError("web part has nothing to replace")
        return "".join(out)

    def _local(self, local: str) -> str:
        return self._words(local, self._names, "._+-")

    def _host(self, host: str, *, may_keep: bool = False, generic_too: bool = False) -> str:
        """Keyed host labels; with ``may_keep`` (a URL with more to replace), a host of
        only generic labels and a suffix ("www.www.org") says nothing and stays; with
        ``generic_too`` (an email's host, part of one person's address) such labels are replaced."""
        labels = host.split(".")
        if any(_LABEL.fullmatch(label) is None for label in labels):
            raise WebSurrogateError("malformed host name")
        keep = 1
        if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2].casefold() in _SECOND_LEVEL:
            keep = 2
        if len(labels) == 1:
            keep = 0  # "localhost", an intranet name: no suffix to keep
        out = []
        replaced = False
        for i, label in enumerate(labels):
            if i >= len(labels) - keep or label.casefold() in _GENERIC_LABELS:
                out.append(label)
            else:
                out.append(self._words(label, self._hosts, "-"))
                replaced = True
        if not replaced and generic_too:
            out = [self._words(label, self._hosts, "-") if i < len(labels) - keep else label for i, label in enumerate(labels)]
            replaced = out != labels
        if not replaced and not may_keep:
            raise WebSurrogateError("host has no label to replace")
        return ".".join(out)

    def _tokens(self, part: str) -> str:
        """Each run of letters or digits (and each %XX escape) keyed on its own, separators kept:
        a token gets the same surrogate in a path, a query name or a value."""
        out = []
        for token in _URL_TOKENS.findall(part):
            if token[0] == "%" and len(token) == 3:
                out.append(self._shape(token, "escape"))
            elif token[0].isalnum():
                out.append(self._shape(token, "token"))
            else:
                out.append(token)
        return "".join(out)

    def _segment(self, segment: str) -> str:
        stem, dot, extension = segment.rpartition(".")
        if dot and extension.casefold() in _KNOWN_EXTENSIONS and any(c.isalnum() for c in stem):
            return self._tokens(stem) + dot + extension
        return self._tokens(segment)

    def _rest(self, rest: str) -> str:
        """Path, query and fragment of a URL."""
        if not rest:
            return ""
        path, hash_, fragment = rest.partition("#")
        path, qmark, query = path.partition("?")
        out = "/".join(self._segment(seg) for seg in path.split("/"))
        if qmark:
            out += "?" + self._query(query)
        if hash_:
            out += "#" + self._tokens(fragment)
        return out

    def _query(self, query: str) -> str:
        """Names and values alike, token by token; "=", "&" and ";" stay."""
        return "".join(
            item if item in "&;=" else self._tokens(item) for item in re.split(r"([&;=])", query)
        )


def _block_of(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """The smallest special block that holds the address; None for a public one."""
    blocks = [b for b in _IP_BLOCKS if b.version == address.version and address in b]
    return max(blocks, key=lambda b: b.prefixlen, default=None)


def _ip_class(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> tuple:
    return (
        _block_of(address),
        address.is_private,
        address.is_global,
        address.is_loopback,
        address.is_link_local,
        address.is_multicast,
        address.is_reserved,
        address.is_unspecified,
    )


def _octet(octet: str, byte: int, lo: int, hi: int) -> str:
    """A keyed octet in ``[lo, hi]`` written with as many digits as ``octet``."""
    lo, hi = max(lo, (0, 0, 10, 100)[len(octet)]), min(hi, (0, 9, 99, 255)[len(octet)])
    return octet if lo > hi else str(lo + byte % (hi - lo + 1))


def _kept_hex(group: str, bits: int) -> int:
    """How many written hex digits of a group lie inside a block's prefix of ``bits`` bits
    (a group written short, "db8", is read right-aligned)."""
    if bits <= 0:
        return 0
    if bits >= 16:
        return len(group)
    return max(0, min(len(group), -(-bits // 4) - (4 - len(group))))
