"""The evaluation report: a text table for people, a JSON document for tools.

The JSON carries every number in the table plus the counts behind them, so
a figure in a paper can be traced back to TP/FP/FN without re-running.
"""

from __future__ import annotations

from deid_core.evaluation.metrics import CategoryResult, Estimate, EvalResult, Scores
from deid_core.evaluation.sources import FalsePositives

_METRICS = ("precision", "recall", "f1", "f2")


# ----------------------------------------------------------------------------
# JSON


def _estimate(e: Estimate) -> dict:
    return {"value": e.value, "low": e.low, "high": e.high}


def _scores(s: Scores) -> dict:
    return {name: _estimate(getattr(s, name)) for name in _METRICS}


def _category(c: CategoryResult) -> dict:
    return {"gold": c.gold, "predicted": c.predicted, "tp": c.tp, "fp": c.fp, "fn": c.fn, **_scores(c.scores)}


def to_json(result: EvalResult) -> dict:
    cfg = result.config
    return {
        "config": {
            "taus": list(cfg.taus),
            "pool_names": cfg.pool_names,
            "bootstrap": cfg.n_bootstrap,
            "seed": cfg.seed,
            "confidence": cfg.confidence,
        },
        "documents": result.n_documents,
        "labels": list(result.labels),
        "results": [
            {
                "tau": r.tau,
                "categories": {c.category: _category(c) for c in r.categories},
                "micro": _category(r.micro),
                "macro": _scores(r.macro),
                "zero_leak": {
                    **_estimate(r.zero_leak),
                    "leak_free_documents": r.leak_free_documents,
                    "documents": result.n_documents,
                },
            }
            for r in result.by_tau
        ],
        "char_recall": {
            **_estimate(result.char_recall.estimate),
            "covered": result.char_recall.covered,
            "gold": result.char_recall.gold,
        },
        "issues": [{"id": i.record_id, "where": i.where, "message": i.message} for i in result.issues],
    }


# ----------------------------------------------------------------------------
# Text

_CELL = 19  # "0.912 [0.890-0.931]"


def _cell(e: Estimate, defined: bool = True) -> str:
    if not defined:
        return "-".ljust(_CELL)
    if e.low is None or e.high is None:
        return f"{e.value:.3f}".ljust(_CELL)
    return f"{e.value:.3f} [{e.low:.3f}-{e.high:.3f}]".ljust(_CELL)


def _row(name: str, counts: tuple[str, ...], s: Scores, p_ok: bool = True, r_ok: bool = True) -> str:
    cells = [_cell(s.precision, p_ok), _cell(s.recall, r_ok), _cell(s.f1, p_ok or r_ok)]
    f2 = f"{s.f2.value:.3f}" if (p_ok or r_ok) else "-"
    return f"{name:<10}" + "".join(f"{c:>7}" for c in counts) + "  " + "  ".join(cells) + f"  {f2}"


def format_table(result: EvalResult) -> str:
    cfg = result.config
    lines: list[str] = []
    boot = (
        f"{cfg.n_bootstrap} document resamples, seed {cfg.seed}, {cfg.confidence:.0%} intervals"
        if cfg.n_bootstrap
        else "no bootstrap"
    )
    pooled = "; DOCTOR and PATIENT pooled as NAME" if cfg.pool_names else ""
    lines.append(f"{result.n_documents} documents; {boot}{pooled}")
    header = (
        f"{'category':<10}"
        + "".join(f"{h:>7}" for h in ("gold", "pred", "TP", "FP", "FN"))
        + "  "
        + "  ".join(h.ljust(_CELL) for h in ("precision", "recall", "F1"))
        + "  F2"
    )
    for r in result.by_tau:
        lines += ["", f"IoU >= {r.tau:g}", header, "-" * len(header)]
        for c in r.categories:
            counts = tuple(str(v) for v in (c.gold, c.predicted, c.tp, c.fp, c.fn))
            lines.append(_row(c.category, counts, c.scores, c.predicted > 0, c.gold > 0))
        m = r.micro
        lines.append("-" * len(header))
        lines.append(_row("micro", tuple(str(v) for v in (m.gold, m.predicted, m.tp, m.fp, m.fn)), m.scores))
        lines.append(_row("macro", ("",) * 5, r.macro))
        lines.append(
            f"zero-leak rate: {_cell(r.zero_leak).strip()}  "
            f"({r.leak_free_documents} of {result.n_documents} documents with every gold span found)"
        )
    ch = result.char_recall
    lines += [
        "",
        f"character-level recall: {_cell(ch.estimate).strip()}  "
        f"({ch.covered} of {ch.gold} gold PHI characters covered by any prediction)",
    ]
    if any(c.gold == 0 or c.predicted == 0 for r in result.by_tau for c in r.categories):
        lines.append("'-': undefined (no gold or no predicted spans); macro averages count it as 0")
    if result.issues:
        lines += ["", f"prediction issues ({len(result.issues)}):"]
        lines += [f"  {issue}" for issue in result.issues]
    return "\n".join(lines)


#: sources listed by name in the false-positive table; the rest are summed
TOP_SOURCES = 12


def format_false_positives(fp: FalsePositives) -> str:
    """False positives per 1,000 words and the sources that produced the most of them."""
    lines = [
        f"false positives at IoU >= {fp.tau:g}: {fp.count} in {fp.words} words "
        f"({fp.per_1000_words:.2f} per 1,000 words)"
    ]
    if fp.by_source:
        lines.append(f"  {'FP':>5}  source")
        lines += [f"  {n:>5}  {source}" for source, n in fp.by_source[:TOP_SOURCES]]
        rest = sum(n for _, n in fp.by_source[TOP_SOURCES:])
        if rest:
            lines.append(f"  {rest:>5}  ({len(fp.by_source) - TOP_SOURCES} other sources)")
    return "\n".join(lines)


def false_positives_json(fp: FalsePositives) -> dict:
    return {"tau": fp.tau, "count": fp.count, "words": fp.words, "per_1000_words": fp.per_1000_words, "by_source": dict(fp.by_source)}
