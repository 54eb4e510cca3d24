"""Logs that cannot carry a note: exception text and tracebacks are withheld.

An exception's message and traceback can quote whatever the failing code
held: a request body, a note, a span's text, a known identifier, a SQL
statement with its parameters.  Once :func:`withhold_exception_details` has
run, every log record made in the process keeps only the exception's class
name and the message's template, without the values filled into it (a
library's "task raised: %r" would otherwise quote the exception).  Records
without an exception are left as written: our own log calls pass ids,
stage names and class names only.  The API server and the workers
install it at start.
"""

from __future__ import annotations

import logging

_INSTALLED = False


class WithholdExceptionDetails(logging.Filter):
    """Replace a record's exception (and any pre-rendered traceback) by its class name."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if isinstance(record.exc_info, tuple) else None
        if exc is not None or record.exc_text or record.stack_info:
            cls = type(exc).__name__ if exc is not None else "exception"
            record.msg = f"{record.msg} [{cls}; details withheld]"
            record.args = None
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
        return True


def withhold_exception_details() -> None:
    """Apply :class:`WithholdExceptionDetails` to every record this process makes, whatever its handler."""
    global _INSTALLED
    if _INSTALLED:
        return
    scrub = WithholdExceptionDetails()
    make = logging.getLogRecordFactory()

    def factory(*args, **kwargs) -> logging.LogRecord:
        record = make(*args, **kwargs)
        scrub.filter(record)
        return record

    logging.setLogRecordFactory(factory)
    _INSTALLED = True
