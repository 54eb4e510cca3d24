"""Wiring the app to a fleet: the store, the key store, and who runs the stages.

With ``inline`` the stages run in a thread of the API process
(:class:`~fleet.api.runner.BackgroundRunner`), so one machine needs no
broker; otherwise submissions go to the Celery queues like ``deid submit``.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import FastAPI

from fleet.api.app import ApiLimits, ApiServices, create_app
from fleet.api.runner import BackgroundRunner
from fleet.pipeline import PipelineConfig
from fleet.producer import Connection, connect
from fleet.settings import FleetSettings
from fleet.stages import StageContext


@dataclass
class ServedApp:
    app: FastAPI
    services: ApiServices
    connection: Connection
    runner: BackgroundRunner | None = None

    def close(self) -> None:
        if self.runner is not None:
            self.runner.close()
        self.connection.close()


def serve_fleet(
    settings: FleetSettings,
    pipeline: PipelineConfig,
    *,
    inline: bool,
    limits: ApiLimits | None = None,
    secure_cookies: bool = False,
) -> ServedApp:
    conn = connect(settings, dispatch=not inline)
    client = conn.client
    runner = None
    if inline:
        ctx = StageContext(
            client.sessions,
            client.keystore,
            models=dict(settings.models),
            device="cpu",
            worker="api-inline",
            max_deliveries=settings.max_deliveries,
        )
        runner = BackgroundRunner(ctx)
        client.dispatcher = runner
    services = ApiServices(client.sessions, client, pipeline, limits or ApiLimits(), secure_cookies)
    return ServedApp(create_app(services), services, conn, runner)
