"""A real headless Chromium drives the review page: open the queue, fix a missed name, see the new output."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.api.conftest import FLAGGED_TEXT, MISSED_NAME, NORTH

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install chromium)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def live_server(api):
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(api.served.app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@contextmanager
def signed_in(live_server: str, token: str, profile: Path):
    """A Chromium page signed in to the review page with ``token``, on the queue."""
    from playwright.sync_api import sync_playwright

    profile.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=FLAGS, viewport={"width": 1400, "height": 900}
        )
        try:
            page = context.new_page()
            page.goto(f"{live_server}/review")
            page.fill("#token", token)
            page.click("#sign-in")
            page.wait_for_selector("#queue")
            yield page
        finally:
            context.close()


def test_reviewer_fixes_a_missed_name_in_chromium(api, live_server, tmp_path):
    body = api.submit("north", NORTH, [{"id": "browser-1", "patient_id": "p-b", "text": FLAGGED_TEXT}])
    note = body["notes"][0]["note"]
    shot = tmp_path / "review-after-fix.png"
    with signed_in(live_server, api.tokens["north"], tmp_path / "chromium-profile") as page:
        page.click(f'a.review-link[href="/review/notes/{note}"]')
        page.wait_for_selector("#original")
        assert MISSED_NAME in page.inner_text("#output")
        # select the name in the original, as a reviewer would with the mouse
        start = FLAGGED_TEXT.index(MISSED_NAME)
        page.evaluate(
            """([start, end]) => {
                const box = document.getElementById('original');
                const node = box.firstChild;  // the note's text before any span
                const range = document.createRange();
                range.setStart(node, start);
                range.setEnd(node, end);
                const sel = window.getSelection();
                sel.removeAllRanges();
                sel.addRange(range);
                box.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
            }""",
            [start, start + len(MISSED_NAME)],
        )
        assert page.inner_text("#sel-show") == f"{start}-{start + len(MISSED_NAME)}"
        page.select_option("#category", "PATIENT")
        with page.expect_navigation():
            page.click("#add-span")
        page.wait_for_selector("#output")
        output = page.inner_text("#output")
        assert "Zephyrine" not in output and "Moultrap" not in output
        assert "PATIENT" in output  # the new surrogate is marked as a patient name
        assert page.locator(f'#original mark[data-start="{start}"][data-category="PATIENT"]').count() == 1
        page.screenshot(path=str(shot), full_page=True)
    print(f"review page screenshot: {shot}")
    assert shot.stat().st_size > 1000
    kept = Path("out") / "review-browser.png"
    kept.parent.mkdir(exist_ok=True)
    shutil.copyfile(shot, kept)
    print(f"review page screenshot (kept): {kept.resolve()}")
    fixed = api.client.get(f"/v1/review/notes/{note}", headers=api.auth("north")).json()
    assert MISSED_NAME not in fixed["output"] and fixed["actions"][-1]["reviewer"] == "north/alice"


#: Flagged for the missed name; "Ellen Parker" is found twice, so removing one mention leaves a copy the leak report finds.
TWICE = f"{FLAGGED_TEXT} Mrs. Ellen Parker called; Ellen Parker will return Monday."


def test_a_withheld_note_highlights_the_leak_in_the_original_and_its_flags_follow_each_action(api, live_server, tmp_path):
    body = api.submit("north", NORTH, [{"id": "browser-leak", "patient_id": "p-l", "text": TWICE}])
    note = body["notes"][0]["note"]
    first = TWICE.index("Ellen Parker")
    spans = api.client.get(f"/v1/review/notes/{note}", headers=api.auth("north")).json()["spans"]
    assert any(s["start"] == first and s["category"] == "PATIENT" for s in spans), spans
    first_end = next(s["end"] for s in spans if s["start"] == first)
    with signed_in(live_server, api.tokens["north"], tmp_path / "profile") as page:
        page.goto(f"{live_server}/review/notes/{note}")
        # the reviewer removes the first mention: the second one's text is now left in the output
        with page.expect_navigation():
            page.click(f'button[data-action=remove][data-start="{first}"][data-end="{first_end}"]')
        page.wait_for_selector("#original")
        assert "Output withheld" in page.inner_text("#output")
        leak = page.locator(f'#original mark.leak[data-start="{first}"]')
        assert leak.count() == 1 and leak.inner_text().startswith("Ellen Parker")
        flagged = page.inner_text("#flagged")
        assert f"at original {first}-" in flagged and "output withheld" in flagged
        assert "at output" not in flagged
        # adding the span back clears the report, and the flag line says so at once
        page.evaluate(
            """([start, end]) => {
                document.getElementById('sel-start').value = start;
                document.getElementById('sel-end').value = end;
            }""",
            [first, first_end],
        )
        page.select_option("#category", "PATIENT")
        with page.expect_navigation():
            page.click("#add-span")
        page.wait_for_selector("#output")
        assert page.locator("#original mark.leak").count() == 0
        assert "Ellen Parker" not in page.inner_text("#output")
        flagged = page.inner_text("#flagged")
        assert "no hits" in flagged and "hit(s)" not in flagged
        page.screenshot(path=str(tmp_path / "review-leak.png"), full_page=True)
