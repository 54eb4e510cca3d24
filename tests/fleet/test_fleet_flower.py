"""Flower, as ``deid flower`` starts it, on a running fleet: six queues, live workers only, an API behind a password."""

from __future__ import annotations

import os
import socket
import subprocess
import time

import httpx
import pytest

from deid_core.cli.common import CliError
from fleet.cli.flower import check_api_exposure, flower_argv
from fleet.harness import REPO_ROOT

QUEUES = ("gpu.encoder", "gpu.generative", "cpu.rules", "cpu.qc", "cpu.verify", "cpu.anonymize")
AUTH = ("ops", "correct-horse")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get_until(url: str, ok, timeout: float = 60.0, **kwargs):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = httpx.get(url, timeout=5, **kwargs)
            if ok(last):
                return last
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{url}: no satisfying answer in {timeout}s (last: {last and last.status_code} {last and last.text[:600]})")


@pytest.fixture(scope="module")
def flower(fleet_env, tmp_path_factory):
    cpu = fleet_env.worker("cpu", name="flower-cpu").start()
    cpu.wait_ready(90)
    port = _free_port()
    env = dict(os.environ) | fleet_env.env | {"FLOWER_BASIC_AUTH": ":".join(AUTH)}
    env.pop("FLOWER_UNAUTHENTICATED_API", None)
    log = open(tmp_path_factory.mktemp("flower") / "flower.log", "wb")
    proc = subprocess.Popen(
        flower_argv(fleet_env.settings, port, "127.0.0.1", forget_offline=2),
        cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        yield f"http://127.0.0.1:{port}", cpu
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()
        cpu.stop()


def test_flower_api_lists_all_six_queues_with_no_gpu_worker(fleet_env, flower):
    base, _ = flower
    prefix = fleet_env.env["DEID_QUEUE_PREFIX"]
    res = _get_until(f"{base}/api/queues/length", lambda r: r.status_code == 200, auth=AUTH)
    names = {q["name"] for q in res.json()["active_queues"]}
    assert names == {prefix + q for q in QUEUES}


def test_flower_api_needs_the_password(flower):
    base, _ = flower
    assert _get_until(f"{base}/api/workers", lambda r: r.status_code != 0).status_code == 401


def test_flower_lists_live_workers_and_forgets_a_dead_one(fleet_env, flower):
    base, cpu = flower
    doomed = fleet_env.worker("cpu", name="doomed").start()
    doomed.wait_ready(90)

    def names(r) -> set[str]:
        return {w.get("hostname") for w in r.json()["data"]}

    _get_until(f"{base}/workers?json=1", lambda r: r.status_code == 200 and f"{doomed.name}@localhost" in names(r), auth=AUTH)
    doomed.kill()
    shown = _get_until(f"{base}/workers?json=1", lambda r: r.status_code == 200 and f"{doomed.name}@localhost" not in names(r), auth=AUTH)
    assert f"{cpu.name}@localhost" in names(shown)


def test_an_unauthenticated_api_is_refused_off_loopback():
    with pytest.raises(CliError, match="FLOWER_UNAUTHENTICATED_API"):
        check_api_exposure("0.0.0.0", {"FLOWER_UNAUTHENTICATED_API": "true"})
    check_api_exposure("127.0.0.1", {"FLOWER_UNAUTHENTICATED_API": "true"})
    check_api_exposure("0.0.0.0", {"FLOWER_BASIC_AUTH": "a:b"})
