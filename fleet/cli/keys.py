"""``deid key create|rotate|list``: the file key store of a fleet.

``rotate`` retires the study's key (kept under ``<key-dir>/retired/`` so old
releases stay auditable) and makes a new one with a new key id; batches
submitted afterwards run under it and cannot be linked to earlier releases.
Only key ids are printed, never key material.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from deid_core.cli.common import CliError, fail
from fleet.keystore import DirectoryKeyStore, KeyStoreError, env_var_for


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("key", help="create, rotate and list study keys in a key directory")
    actions = p.add_subparsers(dest="key_action", required=True, metavar="ACTION")
    for name, helptext in (
        ("create", "make the study's first key (mode 0600; never overwrites)"),
        ("rotate", "retire the study's key and make a new one with a new key id"),
        ("list", "show the study's current and retired key ids"),
    ):
        a = actions.add_parser(name, help=helptext)
        a.add_argument("--study", required=True, help="study name (letters, digits, '.', '-', '_')")
        a.add_argument("--key-dir", type=Path, default=None, help="key directory (default: the fleet's key_dir)")
        a.set_defaults(func=run)


def _key_dir(args: argparse.Namespace) -> Path:
    if args.key_dir is not None:
        return args.key_dir
    from fleet.settings import FleetConfigError, load_fleet_settings

    try:
        return load_fleet_settings().key_dir
    except FleetConfigError as exc:
        raise CliError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    try:
        store = DirectoryKeyStore(_key_dir(args))
        try:
            if args.key_action == "create":
                key = store.create(args.study)
                print(f"created key {key.key_id} in {store.path_for(args.study)}")
            elif args.key_action == "rotate":
                old = store.load(args.study)
                key = store.rotate(args.study)
                print(f"rotated study {args.study}: new key {key.key_id}; retired {old.key_id} to {store.retired_path(args.study, old.key_id)}")
            else:
                key = store.load(args.study)
                print(f"current {key.key_id}")
                for key_id in store.retired(args.study):
                    print(f"retired {key_id}")
                print(f"(environment store variable: {env_var_for(args.study)})")
        except KeyStoreError as exc:
            raise CliError(str(exc)) from None
    except CliError as exc:
        return fail(f"key {args.key_action}", str(exc))
    return 0
