"""The import graph keeps its layers: deid_core <- fleet <- {tasks, workers}, detection apart from the anonymizer."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _imports(package: str) -> list[tuple[str, str]]:
    """(module file, imported module) for every import statement under ``package``, lazy ones included."""
    out = []
    for path in sorted((REPO / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out += [(str(path.relative_to(REPO)), a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                out.append((str(path.relative_to(REPO)), node.module))
    return out


def _offending(package: str, forbidden: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(f, m) for f, m in _imports(package) if m.split(".")[0] in forbidden or m.startswith(forbidden)]


def test_core_imports_nothing_of_the_fleet_the_tasks_or_the_workers():
    assert _offending("deid_core", ("fleet", "tasks", "workers", "celery", "sqlalchemy")) == []


def test_fleet_reaches_tasks_and_workers_only_through_entry_points():
    assert _offending("fleet", ("tasks", "workers")) == []


def test_detection_does_not_import_the_anonymizer():
    found = [(f, m) for f, m in _imports("deid_core") if f.startswith("deid_core/recognizers/") and m.startswith("deid_core.anonymizer")]
    assert found == []


def test_fleet_commands_reach_deid_through_the_entry_point_group():
    from deid_core.cli.main import build_parser, command_modules

    assert not any(m.startswith("fleet.") for m in __import__("deid_core.cli.main", fromlist=["COMMANDS"]).COMMANDS)
    assert "fleet.cli.run" in command_modules()
    assert "run" in build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
