"""Re-run the paper's anonymizer verification (Table 2) on a seeded stress set.

Every value goes through the full :class:`Anonymizer` path (a one-span note),
so the table measures what a release would contain, not a helper in
isolation.  The stress set is synthetic and contains no PHI.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from typing import Callable, Iterable, Sequence

from deid_core.anonymizer.engine import Anonymizer, Note
from deid_core.config import AnonymizerConfig
from deid_core.keys import StudyKey
from deid_core.spans import Category, Span


@dataclass(frozen=True)
class VerificationRow:
    property: str
    construction: str
    n: int
    result: float  # percent
    unit: str  # what the percentage counts
    paper: str  # the paper's Table 2 figure, for side-by-side reading
    target: str

    @property
    def passed(self) -> bool:
        op, _, value = self.target.partition(" ")
        bound = float(value.rstrip("%"))
        return {"==": self.result == bound, "<=": self.result <= bound, ">=": self.result >= bound}[op]


def collision_rate(mapping: dict[str, str]) -> float:
    """Share (percent) of distinct inputs whose surrogate another distinct input shares."""
    if not mapping:
        return 0.0
    counts = Counter(mapping.values())
    return 100.0 * sum(1 for v in mapping.values() if counts[v] > 1) / len(mapping)


def _replace_one(anonymizer: Anonymizer, category: Category, value: str, patient_id: str = "P0") -> str:
    prefix = "Value: "
    note = Note(
        id="stress",
        text=f"{prefix}{value} .",
        patient_id=patient_id,
        spans=(Span(len(prefix), len(prefix) + len(value), category),),
    )
    out = anonymizer.anonymize(note)
    if out.masked_count:
        raise RuntimeError(f"{category.value} stress value was masked instead of replaced")
    span = out.spans[0]
    return out.text[span.start : span.end]


def _percent(hits: int, n: int) -> float:
    return 100.0 * hits / n if n else 0.0


DATE_FORMATS: tuple[Callable[[date], str], ...] = (
    lambda d: f"{d.month}/{d.day}/{d.year}",
    lambda d: f"{d.month:02d}/{d.day:02d}/{d.year % 100:02d}",
    lambda d: d.isoformat(),
    lambda d: d.strftime("%B %-d, %Y"),
    lambda d: d.strftime("%d-%b-%Y").upper(),
    lambda d: d.strftime("%-d %b %Y"),
    lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
)


def stress_values(seed: int, n: int) -> dict[Category, list[str]]:
    """``n`` distinct synthetic values for each keyed category."""
    rng = random.Random(seed)
    ids = rng.sample(range(10**7, 10**8), n)
    phones = rng.sample(range(2_000_000_000, 9_999_999_999), n)
    base = date(2010, 1, 1)
    days = rng.sample(range(0, 3650), n)
    from deid_core.anonymizer.names import stress_names

    return {
        Category.ID: [str(v) for v in ids],
        Category.PHONE: [f"{str(p)[:3]}-{str(p)[3:6]}-{str(p)[6:]}" for p in phones],
        Category.DATE: [DATE_FORMATS[i % len(DATE_FORMATS)](base + timedelta(days=d)) for i, d in enumerate(days)],
        Category.PATIENT: stress_names(n, seed),
        Category.WEB: [f"user{v}@mail{v % 97}.example.org" for v in ids],
        Category.OTHER: [f"ACC-{v:08d}" for v in ids],
    }


def verify(
    key: StudyKey,
    rotated: StudyKey,
    *,
    config: AnonymizerConfig | None = None,
    seed: int = 20240601,
    n: int = 2000,
    name_counts: Sequence[int] = (2000, 20000),
    short_id_lengths: Iterable[int] = (3, 4, 5),
    progress: Callable[[str], None] = lambda _msg: None,
) -> list[VerificationRow]:
    config = config or AnonymizerConfig()
    first = Anonymizer(key, config)
    again = Anonymizer(StudyKey(key.study, salt=key.salt, key=key.key), config)
    other = Anonymizer(rotated, config)
    values = stress_values(seed, n)
    rows: list[VerificationRow] = []

    progress("determinism")
    total = same = 0
    for category, vals in values.items():
        for v in vals:
            total += 1
            same += _replace_one(first, category, v) == _replace_one(again, category, v)
    rows.append(
        VerificationRow("Determinism (same key)", "keyed HMAC / FPE / selection", total,
                        _percent(same, total), "identical", "100.0% identical", "== 100")
    )

    progress("remapping")
    half = n // 2
    remap_set = [(Category.PATIENT, v) for v in values[Category.PATIENT][:half]] + [
        (Category.ID, v) for v in values[Category.ID][:half]
    ]
    remapped = sum(_replace_one(first, c, v) != _replace_one(other, c, v) for c, v in remap_set)
    rows.append(
        VerificationRow("Remapping (rotated key)", "new key remaps surrogate", len(remap_set),
                        _percent(remapped, len(remap_set)), "remapped", "100.0% remapped", "== 100")
    )

    progress("cross-note consistency")
    linked = 0
    consistency_set = remap_set
    for c, v in consistency_set:
        a = first.anonymize(Note("A", f"Seen: {v}.", "P1", (Span(6, 6 + len(v), c),)))
        b = first.anonymize(Note("B", f"Follow-up with {v} today, {v}.", "P1",
                                 (Span(15, 15 + len(v), c), Span(23 + len(v), 23 + 2 * len(v), c))))
        sa = a.text[a.spans[0].start : a.spans[0].end]
        sb = {b.text[s.start : s.end] for s in b.spans}
        linked += sb == {sa}
    rows.append(
        VerificationRow("Cross-note consistency", "same value -> same surrogate", len(consistency_set),
                        _percent(linked, len(consistency_set)), "linked", "100.0% linked", "== 100")
    )

    progress("interval preservation")
    rng = random.Random(seed + 1)
    exact = 0
    for i in range(n):
        pid = f"P{i}"
        d1 = date(2005, 1, 1) + timedelta(days=rng.randrange(5000))
        d2 = d1 + timedelta(days=rng.randrange(1, 400))
        fmt = DATE_FORMATS[i % len(DATE_FORMATS)]
        s1, s2 = fmt(d1), fmt(d2)
        text = f"Admitted {s1}; discharged {s2}."
        note = Note(f"N{i}", text, pid, (Span(9, 9 + len(s1), Category.DATE),
                                         Span(text.index(s2, 9 + len(s1)), text.index(s2, 9 + len(s1)) + len(s2), Category.DATE)))
        out = first.anonymize(note)
        parsed = [first.date_shifter.parse(out.text[s.start : s.end]).date for s in out.spans]
        original = [first.date_shifter.parse(s1).date, first.date_shifter.parse(s2).date]
        exact += (parsed[1] - parsed[0]) == (original[1] - original[0]) and parsed[0] != original[0]
    rows.append(
        VerificationRow("Interval preservation", "per-patient date shift", n, _percent(exact, n),
                        "exact day-delta", "100.0% exact day-delta", "== 100")
    )

    progress("ID collisions, 8 digits")
    eight = {v: _replace_one(first, Category.ID, v) for v in values[Category.ID]}
    rows.append(
        VerificationRow("ID collisions, 8 digits", f"{config.fpe_mode.upper()}, no padding", len(eight),
                        collision_rate(eight), "share a surrogate", "0.00% (2,000 distinct)", "== 0")
    )
    for length in short_id_lengths:
        progress(f"ID collisions, {length} digits")
        mapping = {f"{i:0{length}d}": _replace_one(first, Category.ID, f"{i:0{length}d}") for i in range(10**length)}
        rows.append(
            VerificationRow(f"ID collisions, {length} digits", "keyed permutation of the small domain",
                            len(mapping), collision_rate(mapping), "share a surrogate",
                            "34.8%-36.6% (3-5 digits, padded + truncated)", "== 0")
        )

    from deid_core.anonymizer.names import stress_names

    self_maps = 0
    checked = 0
    for count in name_counts:
        progress(f"name collisions, {count}")
        names = stress_names(count, seed)
        mapping = {v: _replace_one(first, Category.PATIENT, v) for v in names}
        checked += len(mapping)
        self_maps += sum(
            1 for v, s in mapping.items() for a, b in zip(v.split(), s.split()) if a.casefold() == b.casefold()
        )
        paper = {2000: "0.4% (1,993 distinct)", 20000: "3.3%"}.get(count, "-")
        rows.append(
            VerificationRow(f"Name collisions, {count:,} names", "keyed per-token bijection",
                            len(mapping), collision_rate(mapping), "share a surrogate", paper, "== 0")
        )
    rows.append(
        VerificationRow("Name tokens mapped to themselves", "no fixed points", checked,
                        _percent(self_maps, checked), "of names", "-", "== 0")
    )
    rows.extend(_name_token_rows(first, stress_names(max(name_counts, default=n), seed), progress))
    return rows


def _name_token_rows(
    anonymizer: Anonymizer, names: list[str], progress: Callable[[str], None]
) -> list[VerificationRow]:
    """Per-token figures: two names can share no surrogate token only if no two tokens do."""
    from deid_core.anonymizer.names import accented, name_words
    from deid_core.anonymizer.pools import HONORIFICS, fold

    progress("name token collisions")
    # A lone honorific is no name to replace, whatever the stress set invents.
    tokens = sorted({w for name in names for w in name_words(name)} - HONORIFICS)
    surrogate = {t: fold(_replace_one(anonymizer, Category.PATIENT, t)) for t in tokens}
    progress("name token variants")
    sample = [t.title() for t in tokens[:: max(1, len(tokens) // 2000)][:2000]]
    variants = sum(
        len({fold(_replace_one(anonymizer, Category.PATIENT, v)) for v in (t, t.upper(), t.lower(), accented(t))}) == 1
        for t in sample
    )
    progress("same-note name clashes")
    # Each note also holds, as a real name, the surrogate the first name's given name gets elsewhere.
    clashes = masked = 0
    for i, name in enumerate(names[:2000]):
        given = _replace_one(anonymizer, Category.PATIENT, name).split()[0]
        second = f"{given} {names[(i + 1) % len(names)].split()[-1]}"
        text = f"{name} saw {second}."
        spans = (Span(0, len(name), Category.PATIENT), Span(len(name) + 5, len(text) - 1, Category.DOCTOR))
        out = anonymizer.anonymize(Note(f"clash{i}", text, "P0", spans))
        surrogates = name_words(" ".join(out.text[r.out_start : r.out_end] for r in out.replacements
                                         if not r.masked_because))
        # the guarantee is about the note's names: a surname surrogate "Saw" beside the verb "saw" is no clash
        clashes += bool(surrogates & name_words(f"{name} {second}"))
        masked += bool(out.replacements[0].masked_because)
    notes = min(len(names), 2000)
    return [
        VerificationRow("Name token collisions", "keyed bijection on pool and invented tokens", len(surrogate),
                        collision_rate(surrogate), "share a surrogate", "-", "== 0"),
        VerificationRow("Name token variants", "accent and case folded before the map", len(sample),
                        _percent(variants, len(sample)), "one surrogate", "-", "== 100"),
        VerificationRow("Same-note name clashes", "a surrogate that is a word of its note's names masks the span",
                        notes, _percent(clashes, notes), "notes with a clash", "-", "== 0"),
        VerificationRow("Same-note clash spans masked", "rather than given a second surrogate", notes,
                        _percent(masked, notes), "masked", "-", "== 100"),
    ]


# The stress set's date styles, named as a user would name them.
DATE_STYLES: dict[str, str] = {
    "mm/dd/yyyy": "%m/%d/%Y",
    "yyyy-mm-dd": "%Y-%m-%d",
    "dd-Mon-yyyy": "%d-%b-%Y",
    "Mon dd, yyyy": "%b %d, %Y",
    "Month d, yyyy": "%B %-d, %Y",
}


@dataclass(frozen=True)
class DateStyleRow:
    """Interval and written form, per date style, on two-date notes of one patient each."""

    style: str
    example: str
    notes: int
    dates: int
    interval: float  # percent of notes whose day-delta survives exactly
    format_kept: float  # percent of dates written back in their own style
    alike: int  # dates whose note reads the same in another style of the set
    format_kept_shown: float  # percent kept, over dates whose note shows its own style
    alike_kept: float  # percent of ``alike`` dates written in a style that writes their note the same

    @property
    def form_differs(self) -> float:
        return 100.0 - self.format_kept

    @property
    def passed(self) -> bool:
        return self.interval == 100.0 and self.format_kept_shown == 100.0 and self.alike_kept == 100.0


def written_in(text: str, fmt: str) -> bool:
    """``text`` is exactly what ``fmt`` writes for the date it names (padding and case included)."""
    try:
        return datetime.strptime(text, fmt.replace("%-d", "%d")).strftime(fmt) == text
    except ValueError:
        return False


def verify_date_styles(
    key: StudyKey, *, config: AnonymizerConfig | None = None, seed: int = 20240601, n: int = 2000
) -> list[DateStyleRow]:
    """``n`` patients, two dates each, one style per patient in turn, through the full anonymizer."""
    anonymizer = Anonymizer(key, config or AnonymizerConfig())
    shifter = anonymizer.date_shifter
    rng = random.Random(seed + 2)
    tally: dict[str, Counter[str]] = {style: Counter() for style in DATE_STYLES}
    styles = list(DATE_STYLES.items())
    for i in range(n):
        style, fmt = styles[i % len(styles)]
        first = date(2005, 1, 1) + timedelta(days=rng.randrange(5000))
        days = (first, first + timedelta(days=rng.randrange(1, 400)))
        written = [d.strftime(fmt) for d in days]
        text = f"Admitted {written[0]}; discharged {written[1]}."
        starts = [9, text.index(written[1], 9 + len(written[0]))]
        spans = tuple(Span(a, a + len(w), Category.DATE) for a, w in zip(starts, written))
        out = anonymizer.anonymize(Note(f"N{i}", text, f"P{i}", spans))
        surrogates = [s.text_in(out.text) for s in out.spans]
        alike = [f for _, f in styles if f != fmt and [d.strftime(f) for d in days] == written]
        before = [shifter.parse(w).date for w in written]
        after = [shifter.parse(w).date for w in surrogates]
        counts = tally[style]
        counts["notes"] += 1
        counts["interval"] += after[1] - after[0] == before[1] - before[0] and after[0] != before[0]
        for surrogate in surrogates:
            kept = written_in(surrogate, fmt)
            counts["dates"] += 1
            counts["kept"] += kept
            if alike:
                counts["alike"] += 1
                counts["alike_kept"] += kept or any(written_in(surrogate, f) for f in alike)
            else:
                counts["shown"] += 1
                counts["shown_kept"] += kept
    return [
        DateStyleRow(
            style, date(2017, 3, 5).strftime(fmt), c["notes"], c["dates"], _percent(c["interval"], c["notes"]),
            _percent(c["kept"], c["dates"]), c["alike"], _percent(c["shown_kept"], c["shown"]),
            _percent(c["alike_kept"], c["alike"]) if c["alike"] else 100.0,
        )
        for style, fmt in styles
        for c in [tally[style]]
    ]


def date_styles_to_json(rows: list[DateStyleRow]) -> list[dict]:
    return [asdict(r) | {"form_differs": r.form_differs, "passed": r.passed} for r in rows]


def format_date_styles(rows: list[DateStyleRow]) -> str:
    header = ("Date style", "Example", "Dates", "Interval kept", "Format kept", "Form differs",
              "Read alike", "Kept where shown", "")
    body = [
        (r.style, r.example, f"{r.dates:,}", f"{r.interval:.2f}%", f"{r.format_kept:.2f}%", f"{r.form_differs:.2f}%",
         f"{r.alike:,}", f"{r.format_kept_shown:.2f}%", "ok" if r.passed else "FAIL")
        for r in rows
    ]
    return _table(header, body)


def rows_to_json(rows: list[VerificationRow]) -> list[dict]:
    return [asdict(r) | {"passed": r.passed} for r in rows]


def format_table(rows: list[VerificationRow]) -> str:
    header = ("Property", "Construction", "N", "Result", "Paper (Table 2)", "Target", "")
    body = [
        (r.property, r.construction, f"{r.n:,}", f"{r.result:.2f}% {r.unit}", r.paper,
         r.target.replace("== ", "= ") + "%", "ok" if r.passed else "FAIL")
        for r in rows
    ]
    return _table(header, body)


def _table(header: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)]
    lines = ["  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip() for row in [header, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
