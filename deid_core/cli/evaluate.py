"""``deid eval``: score predicted spans against gold.

Prints per-category precision, recall and F1 with bootstrap intervals, the
micro and macro averages, the zero-leak rate at each IoU threshold, the
character-level recall, and the false positives per 1,000 words and by the
source that produced them (``docs/detection.md``); ``--json`` writes every
number for later tables.

Several systems in one run: ``--pred`` repeated (one table per file), or
``--mix rules,encoder`` to run each recognizer of the mix on the gold notes'
text (or ``--notes``) and score each one alone and their union, as
``deid detect`` would output it.  A summary of every system closes the run.
With ``--known FILE`` the union is scored again with the patients' known
identifiers, and a last table gives the recall, without and with them, on
the gold spans that hold a known value (``docs/known.md``).
"""

from __future__ import annotations

from dataclasses import asdict
from deid_core.notes import ClinicalNote
import argparse
import json
import sys
from pathlib import Path

from deid_core.cli.common import fail
from deid_core.evaluation.crosswalk import Crosswalk
from deid_core.evaluation.documents import EvalDocument, EvalInputError
from deid_core.evaluation.metrics import PRIMARY_TAU, SENSITIVITY_TAU, EvalConfig, EvalResult, evaluate
from deid_core.evaluation.readers import FORMATS, detect_format, load_gold, load_predictions
from deid_core.evaluation.known import format_known_recall, known_recall
from deid_core.evaluation.label_blind import LabelBlind, format_label_blind, label_blind
from deid_core.evaluation.report import false_positives_json, format_false_positives, format_table, to_json
from deid_core.evaluation.sources import FalsePositives, false_positives
from deid_core.known import KnownError, read_known
from deid_core.recognizers.known import KnownIdentifierRecognizer
from deid_core.records import atomic_writer

_CROSSWALKS = ("auto", "i2b2", "identity")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="score predicted spans against gold (P, R, F1, zero-leak, bootstrap CIs)")
    p.add_argument("--gold", required=True, type=Path, help="gold JSONL, i2b2 XML file/directory, or BRAT directory")
    p.add_argument("--pred", type=Path, action="append", default=None, help="predictions (e.g. `deid detect` output); repeatable")
    p.add_argument("--mix", default=None, help="run these recognizers (comma-separated: rules,encoder,generative) and score each and their union")
    p.add_argument("--notes", type=Path, default=None, help="with --mix: the notes to detect on (default: the gold file's text)")
    p.add_argument("--config", type=Path, default=None, help="with --mix: TOML whose [detect] table configures the recognizers")
    p.add_argument("--known", type=Path, default=None, help="with --mix: known identifiers per patient; also score the union with them")
    p.add_argument("--gold-format", choices=FORMATS, default=None, help="default: guessed from the path")
    p.add_argument("--pred-format", choices=FORMATS, default=None, help="default: guessed from the path")
    p.add_argument(
        "--tau",
        type=float,
        action="append",
        default=None,
        help=f"IoU threshold, repeatable (default: {PRIMARY_TAU} and {SENSITIVITY_TAU})",
    )
    p.add_argument("--pool-names", action="store_true", help="score DOCTOR and PATIENT as one NAME category")
    p.add_argument("--bootstrap", type=int, default=2000, help="document resamples for the intervals (0: none)")
    p.add_argument("--seed", type=int, default=42, help="bootstrap seed")
    p.add_argument(
        "--crosswalk",
        choices=_CROSSWALKS,
        default="auto",
        help="gold label crosswalk: i2b2 (Table S6) or identity; auto picks i2b2 for i2b2/BRAT input",
    )
    p.add_argument("--json", dest="json_out", type=Path, default=None, help="write all numbers as JSON here")
    p.set_defaults(func=run)


def _crosswalk(choice: str) -> Crosswalk | None:
    if choice == "i2b2":
        return Crosswalk.i2b2()
    if choice == "identity":
        return Crosswalk.identity()
    return None  # the format's default


def _mix_predictions(args: argparse.Namespace, gold) -> tuple[list[tuple[str, list[EvalDocument]]], dict[str, str | None]]:
    """Each recognizer of ``--mix`` alone, then their union (and with ``--known``, the union with them), on the notes.

    Also returns each note's patient id.
    """
    from deid_core.cli.common import CliError, settings_from
    from deid_core.recognizers.base import RecognizerError
    from deid_core.pipeline import Deidentifier
    from deid_core.recognizers.mix import build_mix
    from deid_core.recognizers.pipeline import DetectConfig, DetectConfigError

    from deid_core.records import Record, optional_str, read_jsonl

    names = [n.strip() for n in args.mix.split(",") if n.strip()]
    try:
        raw = settings_from(args).detect.raw() if args.config is not None else {}
        raw["mix"] = names
        config = DetectConfig.from_mapping(raw, base_dir=args.config.resolve().parent if args.config else None)
        detector = build_mix(config)
        if args.known is not None:
            known = read_known(args.known)
            if known.errors:
                raise EvalInputError(f"{args.known}: " + "; ".join(str(e) for e in known.errors))
            detector.known = KnownIdentifierRecognizer(known.known)
    except (CliError, DetectConfigError, RecognizerError, KnownError) as exc:
        raise EvalInputError(str(exc)) from None
    if args.notes is not None:
        notes = []
        for item in read_jsonl(args.notes):
            if not isinstance(item, Record):
                raise EvalInputError(f"{args.notes}: line {item.line}: {item.message}")
            notes.append(ClinicalNote(item.id, item.data["text"], optional_str(item, "patient_id")))
    else:
        if any(g.text is None for g in gold):
            raise EvalInputError("the gold file carries no note text; give the notes with --notes")
        patients = _gold_patients(args.gold)
        notes = [ClinicalNote(g.id, g.text, patients.get(g.id)) for g in gold]
    pipeline = Deidentifier(detector)
    raw_spans = {k: pipeline.recognize(k, notes) for k in detector.names}
    systems = [[n] for n in names] + ([names] if len(names) > 1 else [])
    runs = [(s, False) for s in systems] + ([(names, True)] if detector.known is not None else [])
    out = []
    for system, with_known in runs:
        docs = []
        for note, spans in zip(notes, pipeline.finish(notes, raw_spans, known=with_known, kinds=system)):
            if isinstance(spans, BaseException):
                raise EvalInputError(f"note {note.id!r}: detection failed: {spans}")
            docs.append(EvalDocument(note.id, None, tuple(spans)))
        out.append(("+".join(system) + ("+known" if with_known else ""), docs))
    return out, {n.id: n.patient_id for n in notes}


def _gold_patients(path: Path) -> dict[str, str]:
    """Patient ids from a JSONL gold file, so names propagate as in ``deid detect``."""
    if path.is_dir() or path.suffix.lower() not in (".jsonl", ".json", ".ndjson"):
        return {}
    out: dict[str, str] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and isinstance(row.get("patient_id"), str):
                out[str(row.get("id"))] = row["patient_id"]
    return out


def _summary(results: list[tuple[str, EvalResult]]) -> str:
    taus = [r.tau for r in results[0][1].by_tau]
    head = f"{'system':<24}" + "".join(f"{f'P@{t:g}':>8}{f'R@{t:g}':>8}{f'F1@{t:g}':>8}{f'ZL@{t:g}':>8}" for t in taus) + f"{'charR':>8}"
    lines = ["summary (micro; ZL: zero-leak rate)", head, "-" * len(head)]
    for name, res in results:
        row = f"{name:<24}"
        for r in res.by_tau:
            s = r.micro.scores
            row += f"{s.precision.value:8.3f}{s.recall.value:8.3f}{s.f1.value:8.3f}{r.zero_leak.value:8.3f}"
        lines.append(row + f"{res.char_recall.estimate.value:8.3f}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if (args.pred is None) == (args.mix is None):
        return fail("eval", "give predictions with --pred, or recognizers to run with --mix (one of the two)")
    try:
        config = EvalConfig(
            taus=tuple(args.tau) if args.tau else (PRIMARY_TAU, SENSITIVITY_TAU),
            pool_names=args.pool_names,
            n_bootstrap=args.bootstrap,
            seed=args.seed,
        )
    except ValueError as exc:
        return fail("eval", str(exc))
    results: list[tuple[str, EvalResult]] = []
    noise: dict[str, FalsePositives] = {}

    blind: dict[str, LabelBlind] = {}

    def fp(name: str, docs: list[EvalDocument]) -> None:
        noise[name] = false_positives(gold, docs, config.taus[0], pool_names=config.pool_names)
        blind[name] = label_blind(gold, docs)

    try:
        gold_fmt = args.gold_format or detect_format(args.gold)
        gold = load_gold(args.gold, gold_fmt, _crosswalk(args.crosswalk))
        if args.mix is not None:
            systems, patients = _mix_predictions(args, gold)
            for name, docs in systems:
                results.append((name, evaluate(gold, docs, config)))
                fp(name, docs)
        elif args.known is not None:
            raise EvalInputError("--known needs --mix: it scores the recognizers with and without the known identifiers")
        else:
            for path in args.pred:
                pred_fmt = args.pred_format or detect_format(path)
                preds = load_predictions(path, pred_fmt, _crosswalk(args.crosswalk))
                results.append((str(path), evaluate(gold, preds.documents, config, issues=preds.issues)))
                fp(str(path), preds.documents)
    except EvalInputError as exc:
        return fail("eval", str(exc))
    several = len(results) > 1
    for name, result in results:
        if several:
            print(f"=== {name} ===")
        print(format_table(result))
        print()
        print(format_false_positives(noise[name]))
        print(format_label_blind(blind[name]))
        if several:
            print()
        for issue in result.issues:
            print(f"deid eval: {name}: {issue}" if several else f"deid eval: {issue}", file=sys.stderr)
    if several or args.mix is not None:
        print(_summary(results))
    if args.known is not None:
        known = read_known(args.known).known
        tau = config.taus[0]
        rows = [(name, known_recall(gold, docs, patients, known, tau)) for name, docs in systems[-2:]]
        print()
        print(format_known_recall(rows, tau))
    if args.json_out is not None:
        body = {
            name: {**to_json(r), "false_positives": false_positives_json(noise[name]), "label_blind": asdict(blind[name])}
            for name, r in results
        }
        if not several and args.mix is None:
            body = next(iter(body.values()))
        with atomic_writer(args.json_out) as fh:
            json.dump(body, fh, indent=2)
            fh.write("\n")
        print(f"wrote {args.json_out}")
    return 0
