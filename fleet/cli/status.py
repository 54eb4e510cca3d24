"""``deid status BATCH``: counts that reconcile (submitted = pending + done + failed).

Exits 0 once the batch is complete, 3 while items are pending, so a
script can loop on it.
"""

from __future__ import annotations

import argparse
import json

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, fleet_settings_from


#: The exit status of a batch that still has pending items (as ``deid submit --wait`` on timeout).
PENDING_EXIT = 3


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("status", help="show a batch's progress and failures")
    p.add_argument("batch", help="batch id printed by `deid submit`")
    p.add_argument("--json", action="store_true", help="one JSON object instead of text")
    p.add_argument("--failures", action="store_true", help="list every failed record with its error")
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = fleet_settings_from(args)
        from fleet.producer import SubmitError, connect, resume_hint

        with connect(settings, dispatch=False) as client:
            try:
                st = client.status(args.batch)
                failures = client.failures(args.batch) if args.failures else []
            except SubmitError as exc:
                raise CliError(str(exc)) from None
    except CliError as exc:
        return fail("status", str(exc))
    if args.json:
        doc = st.to_dict()
        if args.failures:
            doc["failures"] = [
                {"line": f.line, "id": f.record_id, "error_class": f.error_class, "error": f.error} for f in failures
            ]
        print(json.dumps(doc))
        return 0 if st.complete else PENDING_EXIT
    state = "complete" if st.complete else "running"
    print(f"batch {st.batch_id} ({st.study}, key {st.key_id}, pipeline {st.pipeline_version}): {state}")
    print(f"  submitted {st.submitted} = done {st.done} + failed {st.failed} + pending {st.pending}; flagged for review {st.flagged}")
    print(f"  leak report: {st.leaked} note(s) still held original text; withheld from export, flagged for review")
    for stage, n in sorted(st.pending_by_stage.items()):
        print(f"  pending at {stage}: {n}")
    if not st.complete:
        print(f"  {resume_hint(st.batch_id)}")
    for f in failures:
        who = f.record_id if f.record_id is not None else "(no id)"
        print(f"  failed line {f.line} {who}: {f.error_class}: {f.error}")
    return 0 if st.complete else PENDING_EXIT
