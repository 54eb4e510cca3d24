"""``deid serve``: the HTTP intake API and the review page, under uvicorn.

Without ``--inline`` submitted notes go to the Celery queues, so workers
must be running; with ``--inline`` the stages run in this process (one
machine, no broker).  Listens on 127.0.0.1 unless told otherwise: put TLS
in front of it (a reverse proxy) before exposing it, and pass
``--secure-cookies`` there.
"""

from __future__ import annotations

import argparse
import sys

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, add_pipeline_arguments, export_environment, fleet_settings_from, pipeline_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="serve the HTTP intake API and the review page")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--inline", action="store_true", help="run the stages in this process instead of on Celery workers")
    p.add_argument("--max-body-bytes", type=int, default=8 * 1024 * 1024, help="largest request body (413 above)")
    p.add_argument("--max-notes", type=int, default=1000, help="most notes per request (413 above)")
    p.add_argument("--max-note-chars", type=int, default=200_000, help="longest note text (413 above)")
    p.add_argument("--secure-cookies", action="store_true", help="mark the review cookie Secure (behind TLS)")
    add_pipeline_arguments(p)
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        if min(args.max_body_bytes, args.max_notes, args.max_note_chars) < 1:
            raise CliError("the request limits must be positive")
        settings = fleet_settings_from(args)
        export_environment(settings)
        pipeline = pipeline_from(args, settings)
    except CliError as exc:
        return fail("serve", str(exc))
    import uvicorn

    from fleet.api.app import ApiLimits
    from fleet.api.serving import serve_fleet

    try:
        served = serve_fleet(
            settings,
            pipeline,
            inline=args.inline,
            limits=ApiLimits(args.max_body_bytes, args.max_notes, args.max_note_chars),
            secure_cookies=args.secure_cookies,
        )
    except Exception as exc:
        return fail("serve", f"{type(exc).__name__}: {exc}")
    mode = "stages in this process" if args.inline else "stages on the Celery workers"
    print(f"serving on http://{args.host}:{args.port} ({mode}); review page at /review", file=sys.stderr)
    try:
        # access logs name paths and status codes only; bodies are never logged
        uvicorn.run(served.app, host=args.host, port=args.port, log_level="info")
    finally:
        served.close()
    return 0
