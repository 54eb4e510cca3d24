"""``deid detect``: find identifier spans with the configured recognizer mix.

Input lines: ``{id, patient_id?, text}``.  Output: one line per input line,
in order, ``{id, spans: [{start, end, label, score, source}]}``; a line that
cannot be used (malformed JSON, no id, missing or non-string text, a
non-string patient id, a text over ``limits.max_note_chars``, an id seen on
an earlier line) becomes ``{id, error, line}`` (``id`` null when it is
unknown) and is reported on stderr, and the other lines go on.  The exit
code is 1 when any line failed, else 0; when every line failed the output
file is left as it was.

The whole input is read first so that a name found in one note of a patient
is also found in that patient's other notes.

``--config FILE`` reads the ``[detect]`` table of a TOML configuration::

    [detect]
    mix = ["rules", "encoder"]     # rules, encoder, generative: any combination
    gazetteer_dir = "site-lists"   # extra lists, relative to the config file
    recognizers = ["date", "age", "phone", "id", "web", "address",
                   "gazetteer", "facility", "place_cue", "organization",
                   "names", "table"]
    propagate = true
    [detect.encoder]
    path = "models/encoder"        # relative to the config file
    threshold = 0.5

``--known FILE`` adds the patients' known identifiers (``docs/known.md``):
every form of them is found and wins over the mix's spans.  A bad record
there is reported with its line and fails that patient's notes.

Without ``mix`` (and without ``--config``) the mix is the rules plus the
trained default encoder when one is present, else the rules alone, which is
said in one line on stderr.  See ``docs/detection.md``.
"""

from __future__ import annotations

from deid_core.notes import ClinicalNote
import argparse
import sys
from pathlib import Path

from deid_core.cli.common import CliError, add_config_argument, fail, settings_from
from deid_core.cli.known_input import KNOWN_RECORD_FAILED, add_known_argument, attach_known
from deid_core.known import KnownError
from deid_core.records import KeepPrevious, Record, RecordError, atomic_writer, dump, optional_str, read_jsonl
from deid_core.pipeline import Deidentifier
from deid_core.recognizers.base import RecognizerError
from deid_core.recognizers.mix import MixedDetector, build_mix
from deid_core.recognizers.pipeline import DetectConfig, DetectConfigError

from deid_core.spans import Span, span_to_dict


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("detect", help="detect identifier spans with the configured recognizer mix")
    p.add_argument("--in", dest="inp", required=True, type=Path, help="input JSONL: {id, patient_id?, text}")
    p.add_argument("--out", required=True, type=Path, help="output JSONL: {id, spans}")
    add_known_argument(p)
    add_config_argument(p)
    p.set_defaults(func=run)


def _config(args: argparse.Namespace) -> DetectConfig:
    if args.config is None:
        return DetectConfig()
    settings = settings_from(args)
    try:
        return DetectConfig.from_mapping(settings.detect, base_dir=Path(args.config).resolve().parent)
    except DetectConfigError as exc:
        raise CliError(f"configuration file {args.config}: {exc}") from None


def _note(record: Record) -> ClinicalNote:
    return ClinicalNote(record.id, record.data["text"], optional_str(record, "patient_id"))


def _detect_all(detector: MixedDetector, notes: list[ClinicalNote]) -> list[list[Span] | BaseException]:
    """The core pipeline's detection (names travel across a patient's notes); a failing note fails alone."""
    return Deidentifier(detector).detect(notes)


def run(args: argparse.Namespace) -> int:
    try:
        if not args.inp.exists():
            raise CliError(f"input file {args.inp} does not exist")
        detector = build_mix(_config(args))
        limit = settings_from(args).limits.max_note_chars
        known_failed = attach_known(detector, args.known, "detect")
    except (CliError, DetectConfigError, RecognizerError, KnownError) as exc:
        return fail("detect", str(exc))
    if detector.notice:
        print(f"deid detect: {detector.notice}", file=sys.stderr)

    items: list[Record | RecordError] = []
    for item in read_jsonl(args.inp, max_note_chars=limit, unique_ids=True):
        if isinstance(item, Record):
            try:
                if optional_str(item, "patient_id") in known_failed:
                    raise ValueError(KNOWN_RECORD_FAILED)
            except ValueError as exc:
                item = RecordError(item.line, item.id, str(exc))
        items.append(item)

    good = [i for i in items if isinstance(i, Record)]
    results: dict[int, dict] = {}
    for record, spans in zip(good, _detect_all(detector, [_note(r) for r in good])):
        if isinstance(spans, BaseException):
            results[record.line] = RecordError(record.line, record.id, f"detection failed: {spans}").to_dict()
        else:
            results[record.line] = {"id": record.id, "spans": [span_to_dict(s) for s in spans]}

    failed = 0
    with atomic_writer(args.out) as out:
        for item in items:
            row = item.to_dict() if isinstance(item, RecordError) else results[item.line]
            if "error" in row:
                failed += 1
                who = f"record {row['id']!r}: " if row.get("id") is not None else ""
                print(f"deid detect: {args.inp}: line {row['line']}: {who}{row['error']}", file=sys.stderr)
            out.write(dump(row) + "\n")
        if failed == len(items):
            print(f"deid detect: no record succeeded; {args.out} left as it was", file=sys.stderr)
            raise KeepPrevious
    print(f"wrote spans for {len(items) - failed} notes to {args.out}; {failed} failed", file=sys.stderr)
    return 1 if failed else 0
