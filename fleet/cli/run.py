"""``deid run --in notes.jsonl --out out.jsonl --key-file FILE``: the embedded default.

Detect, resolve, verify and anonymize in this process, over an SQLite
store, with no broker and no server: the fleet's own stages on one machine.
Bad records are reported on stderr (line, id, error class) and left out;
when no record succeeds the output file is left as it was.
With no ``--recognizers`` and none in the fleet configuration, the
recognizers are those of ``deid detect``: ``[detect] mix`` of ``--config``,
else ``DEID_DETECT_MIX``, else the rules with the trained default encoder
when one is present, else alone (and the command says so).  The detection
is the core pipeline's (:class:`deid_core.pipeline.Deidentifier`), so a note
gets the spans ``deid detect`` gives it, at any ``--chunk-size``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deid_core.cli.common import CliError, fail, key_from
from deid_core.cli.known_input import add_known_argument, read_known_reported
from deid_core.known import KnownError
from deid_core.recognizers.pipeline import DetectConfigError
from fleet.cli.common import add_pipeline_arguments, pipeline_from
from fleet.settings import DEFAULT_CHUNK_SIZE, FleetConfigError, load_fleet_settings


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="de-identify a JSONL file in one process (no broker, no server)")
    p.add_argument("--in", dest="inp", required=True, type=Path, help="input JSONL: {id, patient_id, text}")
    p.add_argument("--out", required=True, type=Path, help="output JSONL")
    p.add_argument("--key-file", required=True, type=Path, help="study key file from `deid keygen`")
    p.add_argument("--errors", type=Path, default=None, help="also write the failed records and why (JSONL)")
    p.add_argument("--state", type=Path, default=None, help="SQLite state file: a re-run skips what is done (default: in memory)")
    p.add_argument(
        "--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE, help="notes per stage call (a patient's notes are never split)"
    )
    p.add_argument(
        "--spans-out", type=Path, default=None,
        help="also write each note's detected spans, as `deid detect` writes them (offsets and labels, no text)",
    )
    p.add_argument("--fleet-config", type=Path, default=None, help="fleet TOML, for [fleet.models] and defaults")
    add_known_argument(p)
    add_pipeline_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        key = key_from(args.key_file)
        if not args.inp.exists():
            raise CliError(f"input file {args.inp} does not exist")
        if args.chunk_size < 1:
            raise CliError("--chunk-size must be at least 1")
        try:
            settings = load_fleet_settings(args.fleet_config, env={})
        except FleetConfigError as exc:
            raise CliError(str(exc)) from None
        pipeline = pipeline_from(args, settings, local=True)
        from fleet.stages import detector_for

        # every recognizer loads now: a missing model stops the run before any input is read
        detector_for(pipeline, settings.models, "cpu").load()
        known = read_known_reported(args.known, "run")
    except (CliError, DetectConfigError, KnownError) as exc:
        return fail("run", str(exc))
    from fleet.embedded import run_embedded

    result = run_embedded(
        args.inp, args.out, key, pipeline, state=args.state, errors=args.errors, chunk_size=args.chunk_size, models=settings.models,
        known=known, spans_out=args.spans_out,
    )
    for f in result.failures:
        print(f"deid run: {args.inp}: line {f.line}: record {f.record_id!r}: {f.error_class}: {f.error}", file=sys.stderr)
    st = result.status
    if not result.export.written:
        print(f"deid run: no record to write; {args.out} left as it was", file=sys.stderr)
    print(
        f"wrote {result.export.written} de-identified notes to {args.out} (key {key.key_id}); "
        f"{st.failed} failed, {st.flagged} flagged for review, in {result.seconds:.2f}s"
    )
    print(
        f"leak report: {st.leaked} of {st.done} de-identified notes still held original text "
        f"and were withheld for review (batch {result.batch_id})"
    )
    return 1 if st.failed else 0

