"""Arguments shared by the fleet subcommands: where the fleet is, which pipeline."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from deid_core.cli.common import CliError
from deid_core.config import ConfigError
from deid_core.recognizers.kinds import KIND_NAMES
from deid_core.recognizers.mix import resolve_kinds
from deid_core.recognizers.pipeline import DetectConfig, DetectConfigError
from fleet.pipeline import PipelineConfig
from fleet.settings import FleetConfigError, FleetSettings, load_fleet_settings


def add_fleet_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("fleet")
    g.add_argument("--fleet-config", type=Path, default=None, help="fleet TOML with a [fleet] table (default: $DEID_FLEET_CONFIG)")
    g.add_argument("--database-url", default=None, help="state store URL (default: $DEID_DATABASE_URL)")
    g.add_argument("--schema", default=None, help="Postgres schema of the store (default: $DEID_DATABASE_SCHEMA)")
    g.add_argument("--broker-url", default=None, help="Redis broker URL (default: $DEID_BROKER_URL)")
    g.add_argument("--queue-prefix", default=None, help="prefix of every queue name (default: $DEID_QUEUE_PREFIX)")


def add_pipeline_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", type=Path, default=None, help="pipeline TOML ([anonymizer], [detect]); default: the fleet's")
    p.add_argument(
        "--recognizers",
        default=None,
        help=f"comma-separated recognizer kinds, run in this order (from: {', '.join(KIND_NAMES)})",
    )


def fleet_settings_from(args: argparse.Namespace) -> FleetSettings:
    try:
        settings = load_fleet_settings(getattr(args, "fleet_config", None))
        return settings.with_overrides(
            database_url=getattr(args, "database_url", None),
            database_schema=getattr(args, "schema", None),
            broker_url=getattr(args, "broker_url", None),
            queue_prefix=getattr(args, "queue_prefix", None),
        )
    except (FleetConfigError, ValueError) as exc:
        raise CliError(str(exc)) from None


def pipeline_from(args: argparse.Namespace, settings: FleetSettings, *, local: bool = False) -> PipelineConfig:
    """The batch's pipeline; its recognizer kinds, first found: ``--recognizers``, ``[fleet] recognizers``,
    ``[detect] mix`` of the pipeline TOML, then (``local``: this machine runs them, as ``deid run`` does)
    ``DEID_DETECT_MIX`` or the rules plus the trained default encoder, as in ``deid detect``; else the rules.

    The ``[detect]`` table is validated here, before any input is read.
    """
    explicit = bool(getattr(args, "recognizers", None)) or "recognizers" in settings.model_fields_set
    if getattr(args, "recognizers", None):
        kinds = tuple(k.strip() for k in args.recognizers.split(",") if k.strip())
        try:
            settings = settings.with_overrides(recognizers=kinds)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    path = getattr(args, "config", None) or settings.pipeline_config
    try:
        pipeline = PipelineConfig.load(path, settings.recognizers, settings.verifier_threshold)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    if explicit:
        return pipeline
    try:
        detect = DetectConfig.from_mapping(pipeline.settings.detect)
    except DetectConfigError as exc:
        raise CliError(str(exc)) from None
    if detect.mix is None and not local:
        return pipeline
    kinds, notice = resolve_kinds(detect)
    if notice:
        print(f"deid {getattr(args, 'command', '') or 'run'}: {notice}", file=sys.stderr)
    return replace(pipeline, recognizers=tuple(kinds))


def export_environment(settings: FleetSettings) -> None:
    """Make the broker settings visible to ``celeryconfig`` before Celery is imported."""
    import os

    os.environ.update(settings.worker_environment())
