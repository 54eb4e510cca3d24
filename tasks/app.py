"""The Celery application; settings come from ``celeryconfig.py``.

Workers use :data:`app`, configured from their environment.  A producer
that talks to a fleet named at run time (another broker or queue prefix)
builds its own sending app with :func:`producer_app`.
"""

from __future__ import annotations

from celery import Celery

import celeryconfig

app = Celery("deid", include=["tasks.pipeline"])
app.config_from_object("celeryconfig")


def producer_app(broker_url: str, prefix: str) -> Celery:
    """An app that only sends and inspects, for the fleet at ``broker_url`` / ``prefix``."""
    sender = Celery("deid-producer")
    sender.config_from_object("celeryconfig")
    sender.conf.update(broker_url=broker_url, **celeryconfig.prefixed(prefix))
    return sender


import workers.signals  # noqa: E402,F401  (load models once per worker process)
