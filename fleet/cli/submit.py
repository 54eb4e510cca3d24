"""``deid submit --in notes.jsonl --study S [--wait]``: hand notes to the fleet.

Prints the batch id on stdout (and nothing else), so scripts can capture
it, as soon as the batch is stored and before anything is sent: a broker
that refuses the messages still leaves a batch with a name.  ``--wait``
shows a progress bar on stderr and gives up after ``--timeout`` seconds.
``--resume BATCH`` re-sends a batch's pending items at their current stage;
``--from-warehouse`` reads the configured source table instead of a file,
and the known-identifier table when one is mapped.  ``--known FILE`` gives
the patients' known identifiers (``docs/known.md``), sealed with the batch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from deid_core.cli.common import CliError, fail
from deid_core.cli.known_input import add_known_argument, read_known_reported
from fleet.cli.common import add_fleet_arguments, add_pipeline_arguments, export_environment, fleet_settings_from, pipeline_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("submit", help="submit notes to the fleet; prints a batch id")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--in", dest="inp", type=Path, help="input JSONL: {id, patient_id, text}")
    src.add_argument("--from-warehouse", action="store_true", help="read the [fleet.warehouse] source table")
    src.add_argument("--resume", metavar="BATCH", help="re-send the pending items of a batch")
    p.add_argument("--study", help="study whose key the workers use (key file <key_dir>/<study>.key.json)")
    p.add_argument("--wait", action="store_true", help="wait until every note is done or failed")
    p.add_argument("--timeout", type=float, default=None, help="with --wait: give up after this many seconds (exit 3)")
    add_known_argument(p)
    add_pipeline_arguments(p)
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = fleet_settings_from(args)
        export_environment(settings)
        from fleet.producer import SubmitError, connect, resume_hint

        if args.resume is None and not args.study:
            raise CliError("--study is needed to submit notes")
        if args.timeout is not None and args.timeout <= 0:
            raise CliError("--timeout must be a positive number of seconds")
        pipeline = pipeline_from(args, settings) if args.resume is None else None
        known = read_known_reported(args.known, "submit")

        def announce(batch_id: str) -> None:
            print(batch_id, flush=True)

        with connect(settings) as client:
            try:
                if args.resume is not None:
                    batch_id = args.resume
                    sent = client.resume(batch_id)
                    print(f"re-sent {sent} messages for batch {batch_id}", file=sys.stderr)
                elif args.from_warehouse:
                    from fleet.warehouse import read_known_source, read_source

                    if known is None:
                        known = read_known_source(settings.warehouse)
                    result = client.submit(
                        read_source(settings.warehouse), args.study, pipeline, source="warehouse", on_stored=announce, known=known
                    )
                    batch_id = result.batch_id
                else:
                    result = client.submit_jsonl(args.inp, args.study, pipeline, on_stored=announce, known=known)
                    batch_id = result.batch_id
                if args.resume is None:
                    print(
                        f"submitted {result.submitted} records ({result.rejected} rejected) in {result.messages} messages",
                        file=sys.stderr,
                    )
                if not args.wait:
                    return 0
                status = wait_with_progress(client, batch_id, args.timeout)
            except SubmitError as exc:
                raise CliError(str(exc)) from None
    except CliError as exc:
        return fail("submit", str(exc))
    except Exception as exc:  # the key store, the store or the broker
        return fail("submit", f"{type(exc).__name__}: {exc}")
    print(
        f"batch {status.batch_id}: {status.done} done, {status.failed} failed, {status.pending} pending "
        f"of {status.submitted} submitted",
        file=sys.stderr,
    )
    if not status.complete:
        print(f"gave up waiting after {args.timeout:g}s; {resume_hint(status.batch_id)}", file=sys.stderr)
        return 3
    return 1 if status.failed else 0


def wait_with_progress(client, batch_id: str, timeout: float | None, poll: float = 0.5):
    """``client.wait`` with a bar on stderr: notes finished (done or failed) of those submitted."""
    from tqdm import tqdm

    deadline = None if timeout is None else time.monotonic() + timeout
    status = client.status(batch_id)
    with tqdm(total=status.submitted, unit="note", desc=f"batch {batch_id[:8]}", file=sys.stderr, dynamic_ncols=True) as bar:
        while True:
            bar.n = status.done + status.failed
            bar.set_postfix(failed=status.failed, pending=status.pending, refresh=False)
            bar.refresh()
            if status.complete or (deadline is not None and time.monotonic() >= deadline):
                return status
            time.sleep(poll)
            status = client.status(batch_id)
