"""Real worker processes for tests, benchmarks and crash trials.

Each worker is ``python -m celery -A tasks.app worker`` in its own process
group, so a SIGKILL takes the main process and its pool children at once,
as a lost machine would.  Its log goes to a file, which callers can read to
check that no note text was logged.
"""

from __future__ import annotations

import deid_core.environment as _env
import os
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from fleet.worker_plan import worker_plan

REPO_ROOT = Path(__file__).resolve().parents[1]


class WorkerStartError(RuntimeError):
    pass


@dataclass
class WorkerProcess:
    queues: str
    env: dict[str, str]
    log_path: Path
    concurrency: int = 1
    prefix: str = ""
    name: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    proc: subprocess.Popen | None = None

    def start(self) -> "WorkerProcess":
        plan = worker_plan(
            self.queues,
            prefix=self.prefix,
            concurrency=self.concurrency,
            hostname=f"{self.name}@localhost",
            python=sys.executable,
        )
        env = dict(self.env)
        env[_env.WORKER_ROLE.name] = plan.role
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        try:
            self.proc = subprocess.Popen(
                list(plan.argv), cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        finally:
            log.close()
        return self

    def wait_ready(self, timeout: float = 60.0) -> "WorkerProcess":
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise WorkerStartError(f"worker exited with {self.proc.returncode}; see {self.log_path}")
            if self.log_path.exists() and b" ready." in self.log_path.read_bytes():
                return self
            time.sleep(0.2)
        raise WorkerStartError(f"worker not ready after {timeout}s; see {self.log_path}")

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL to the whole process group: no warm shutdown, nothing acked."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=30)

    def stop(self, timeout: float = 20.0) -> None:
        """Warm shutdown (SIGTERM: finish running tasks), then SIGKILL if it hangs."""
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        except ProcessLookupError:
            pass
        # children left by a pool that was killed under it
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""


def redis_values(url: str) -> list[bytes]:
    """Every value in the broker's Redis database, with Celery message bodies decoded."""
    import base64
    import json

    import redis

    client = redis.Redis.from_url(url)
    out: list[bytes] = []
    for key in client.scan_iter(count=500):
        kind = client.type(key).decode()
        raw: list[bytes] = [key]
        if kind == "string":
            raw.append(client.get(key) or b"")
        elif kind == "list":
            raw.extend(client.lrange(key, 0, -1))
        elif kind == "hash":
            for k, v in client.hgetall(key).items():
                raw.extend((k, v))
        elif kind == "set":
            raw.extend(client.smembers(key))
        elif kind == "zset":
            raw.extend(m for m, _ in client.zrange(key, 0, -1, withscores=True))
        elif kind == "stream":
            for _id, fields in client.xrange(key):
                for k, v in fields.items():
                    raw.extend((k, v))
        for value in raw:
            out.append(value)
            out.extend(_decoded_bodies(value, json, base64))
    return out


def _decoded_bodies(value: bytes, json, base64) -> list[bytes]:
    """Kombu stores a message as JSON with a base64 body; unwrap it (and nested lists)."""
    try:
        doc = json.loads(value)
    except (ValueError, UnicodeDecodeError):
        return []
    found: list[bytes] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            body = node.get("body")
            if isinstance(body, str):
                try:
                    found.append(base64.b64decode(body, validate=True))
                except ValueError:
                    found.append(body.encode())
            stack.extend(v for v in node.values() if isinstance(v, (list, dict)))
    return found


class ScratchFleet:
    """A throw-away fleet on real services: its own schema, queue prefix and study key.

    For benchmarks and crash trials against the configured Redis and Postgres
    without touching the fleet that normally runs there.  Everything it
    made is removed on exit.
    """

    STUDY = "scratch"

    def __init__(self, base, workdir: Path, label: str = "scratch") -> None:
        self.run_id = f"{label}{uuid.uuid4().hex[:8]}"
        self.workdir = Path(workdir)
        self.workers: list[WorkerProcess] = []
        keys = self.workdir / "keys"
        schema = base.database_schema
        if not base.database_url.startswith("sqlite"):
            schema = f"{label}_{self.run_id}"
        self.settings = base.with_overrides(
            database_schema=schema, queue_prefix=f"{self.run_id}.", key_dir=str(keys), pipeline_config=None
        )
        # Tasks here take seconds: a short time limit, and every timeout derived from it as in production.
        self.env = {
            **self.settings.worker_environment(),
            _env.FLEET_CONFIG.name: "",
            _env.TASK_TIME_LIMIT.name: _env.TASK_TIME_LIMIT.get() or "10",
        }
        if _env.VISIBILITY_TIMEOUT.get():
            self.env[_env.VISIBILITY_TIMEOUT.name] = _env.VISIBILITY_TIMEOUT.get()

    def __enter__(self) -> "ScratchFleet":
        from fleet.db import migrate
        from fleet.keystore import DirectoryKeyStore

        self.workdir.mkdir(parents=True, exist_ok=True)
        DirectoryKeyStore(self.settings.key_dir).create(self.STUDY)
        migrate(self.settings.database_url, self.settings.database_schema)
        return self

    def worker(
        self, queues: str = "cpu", concurrency: int = 1, name: str | None = None, extra_env: dict[str, str] | None = None
    ) -> WorkerProcess:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DEID_")} | self.env | (extra_env or {})
        w = WorkerProcess(
            queues,
            env,
            self.workdir / "logs" / f"{name or uuid.uuid4().hex[:6]}.log",
            concurrency=concurrency,
            prefix=self.settings.queue_prefix,
        )
        self.workers.append(w)
        return w

    def __exit__(self, *exc: object) -> None:
        for w in self.workers:
            w.stop(timeout=10)
        try:
            if self.settings.database_schema and not self.settings.database_url.startswith("sqlite"):
                from fleet.db import drop_schema

                drop_schema(self.settings.database_url, self.settings.database_schema)
        finally:
            import redis

            client = redis.Redis.from_url(self.settings.broker_url)
            for key in client.scan_iter(match=f"*{self.run_id}*"):
                client.delete(key)
