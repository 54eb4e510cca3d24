"""The review page: server-rendered HTML with a little JavaScript, no build step.

The reviewer signs in with their tenant token, which is kept in an
HttpOnly, SameSite=Strict cookie; the page's buttons call the JSON review
endpoints (``/v1/review/...``) with that cookie and reload.  Everything a
page shows is escaped; the original text is written as one text run per
region so the JavaScript can turn a selection into character offsets.
"""

from __future__ import annotations

import html

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from deid_core.spans import Category
from fleet.api.auth import Principal, authenticate
from fleet.api.review import ReviewError, Reviewer, ReviewView, review_queue

COLOURS = {
    "PATIENT": "#f4a6a6",
    "DOCTOR": "#a6c8f4",
    "HOSPITAL": "#b6e3b0",
    "LOCATION": "#f6d98b",
    "DATE": "#d3b4f0",
    "AGE": "#f7c3e3",
    "ID": "#9fe0dc",
    "PHONE": "#f9b97f",
    "WEB": "#c9c9c9",
    "OTHER": "#e0e0a0",
}

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}
.cols{display:flex;gap:1.5rem}.col{flex:1;min-width:0}
.text{white-space:pre-wrap;border:1px solid #bbb;padding:.8rem;line-height:1.6;font-family:ui-monospace,monospace}
mark{border-radius:3px;padding:0 1px}mark sup{font-size:.6em;margin-left:2px}
.legend span{display:inline-block;padding:0 .4rem;margin-right:.3rem;border-radius:3px}
.error{color:#a00}.muted{color:#666}
mark.leak{background:#fff;outline:2px solid #c00;color:#a00}
"""


def _page(title: str, body: str, attrs: str = "") -> HTMLResponse:
    return HTMLResponse(
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{html.escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body{attrs}>{body}</body></html>",
        headers={"Cache-Control": "no-store", "X-Frame-Options": "DENY", "Content-Security-Policy": "frame-ancestors 'none'"},
    )


def _login(message: str = "") -> HTMLResponse:
    msg = f"<p class=error id=login-error>{html.escape(message)}</p>" if message else ""
    return _page(
        "Sign in",
        "<h1>Review: sign in</h1>" + msg + "<form method=post action=/review/login>"
        "<label>API token <input type=password name=token id=token size=60 autocomplete=off></label> "
        "<button type=submit id=sign-in>Sign in</button></form>",
    )


def _mark(text: str, start: int, end: int, category: str, title: str, css: str = "") -> str:
    colour = COLOURS.get(category, "#ddd")
    style = f' class="{css}"' if css else f' style="background:{colour}"'
    tag = f"leaked {category}" if css == "leak" else category
    return (
        f'<mark data-start="{start}" data-end="{end}" data-category="{html.escape(category)}"{style} '
        f'title="{html.escape(title)}">{html.escape(text[start:end])}'
        f'<sup contenteditable=false class=tag>{html.escape(tag)}</sup></mark>'
    )


def render_text(text: str, spans: list[tuple], with_tags: bool = True) -> str:
    """``text`` with each ``(start, end, category, title[, css class])`` wrapped in a mark; overlaps show the first."""
    out: list[str] = []
    pos = 0
    for start, end, category, title, *css in sorted(spans):
        if start < pos or end > len(text):
            continue
        out.append(html.escape(text[pos:start]))
        mark = _mark(text, start, end, category, title, css[0] if css else "")
        out.append(mark if with_tags else html.escape(text[start:end]))
        pos = end
    out.append(html.escape(text[pos:]))
    return "".join(out)


_SCRIPT = """
const note = document.body.dataset.note;
function textOffset(container, node, offset) {
  // characters of the original before (node, offset), skipping the category tags
  let count = 0;
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const t = walker.currentNode;
    if (t.parentElement.classList.contains('tag')) { if (t === node) return count; continue; }
    if (t === node) return count + offset;
    count += t.data.length;
  }
  return count;
}
function selection() {
  const sel = window.getSelection();
  const box = document.getElementById('original');
  if (!sel.rangeCount) return null;
  const r = sel.getRangeAt(0);
  if (!box.contains(r.startContainer) || !box.contains(r.endContainer)) return null;
  const start = textOffset(box, r.startContainer, r.startOffset);
  const end = textOffset(box, r.endContainer, r.endOffset);
  return start < end ? [start, end] : null;
}
function remember() {
  const s = selection();
  if (s) {
    document.getElementById('sel-start').value = s[0];
    document.getElementById('sel-end').value = s[1];
    document.getElementById('sel-show').textContent = s[0] + '-' + s[1];
  }
}
document.getElementById('original').addEventListener('mouseup', remember);
document.getElementById('original').addEventListener('keyup', remember);
async function send(path, body) {
  const res = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                  credentials: 'same-origin', body: JSON.stringify(body || {})});
  if (!res.ok) {
    const err = await res.json().catch(() => ({detail: res.statusText}));
    document.getElementById('status').textContent = 'Error: ' + err.detail;
    return;
  }
  window.location.reload();
}
function act(action, start, end, category) {
  return send('/v1/review/notes/' + note + '/spans', {action, start: Number(start), end: Number(end), category});
}
document.getElementById('add-span').addEventListener('click', () => {
  const start = document.getElementById('sel-start').value, end = document.getElementById('sel-end').value;
  if (start === '' || end === '') { document.getElementById('status').textContent = 'Select text in the original first.'; return; }
  act('add', start, end, document.getElementById('category').value);
});
document.querySelectorAll('button[data-action]').forEach(b => b.addEventListener('click',
  () => act(b.dataset.action, b.dataset.start, b.dataset.end, null)));
document.getElementById('close-review').addEventListener('click', () => send('/v1/review/notes/' + note + '/close'));
"""


def _united(hits: list[dict]) -> list[tuple[int, int, str]]:
    """Overlapping hits ("Ellen Parker", "Ellen", "Parker") as one region each."""
    out: list[list] = []
    for h in sorted(hits, key=lambda h: (h["start"], -h["end"])):
        if out and h["start"] < out[-1][1]:
            out[-1][1] = max(out[-1][1], h["end"])
        else:
            out.append([h["start"], h["end"], h["category"]])
    return [tuple(x) for x in out]


def _note_page(v: ReviewView) -> HTMLResponse:
    legend = "".join(f'<span style="background:{c}">{k}</span>' for k, c in COLOURS.items())
    leaked = [(a, b, cat, "leaked: the leak report found this text in the output", "leak") for a, b, cat in _united(v.leaked)]
    original = render_text(v.original, [(r.start, r.end, r.category, f"{r.category} ({r.state})") for r in v.spans] + leaked)
    if v.output is None:
        output = (
            f'<div class="text error" id=output>Output withheld: the leak report finds {v.leaks} hit(s), '
            "outlined in red in the original. Add or fix spans until it finds none.</div>"
        )
    else:
        out_spans = [(sp["start"], sp["end"], sp["label"], sp["label"]) for sp in v.output_spans]
        output = f'<div class=text id=output>{render_text(v.output, out_spans)}</div>'
    rows = []
    for r in v.spans:
        buttons = (
            f'<button data-action=accept data-start={r.start} data-end={r.end}>accept</button> '
            f'<button data-action=remove data-start={r.start} data-end={r.end}>remove</button>'
            if v.review != "closed"
            else ""
        )
        rows.append(
            f'<tr data-start={r.start} data-end={r.end}><td>{r.start}-{r.end}</td>'
            f'<td><span style="background:{COLOURS.get(r.category, "#ddd")}">{html.escape(r.category)}</span></td>'
            f"<td>{html.escape(v.original[r.start:r.end])}</td><td>{r.state}</td><td>{buttons}</td></tr>"
        )
    options = "".join(f"<option value={c.value}>{c.value}</option>" for c in Category)
    history = "".join(
        f"<li>{html.escape(a['reviewer'])}: {html.escape(a['action'])} {html.escape(a['category'])} {a['start']}-{a['end']}</li>"
        for a in v.actions
    )
    body = (
        f'<p><a href="/review">&larr; queue</a></p><h1>Note {html.escape(v.id or "")} '
        f'<span class=muted>(study {html.escape(v.study)}, review {v.review}, revision {v.revision})</span></h1>'
        f"<p class=muted id=flagged>Flagged: {html.escape(v.reason)}</p><p class=legend>{legend}</p>"
        '<div class=cols><div class=col><h2>Original</h2>'
        f'<div class=text id=original>{original}</div>'
        '<p>Selected: <span id=sel-show>nothing</span><input type=hidden id=sel-start><input type=hidden id=sel-end> '
        f'<select id=category>{options}</select> <button id=add-span>Add span</button></p></div>'
        f'<div class=col><h2>De-identified</h2>{output}</div></div>'
        f'<h2>Spans</h2><table id=spans><tr><th>offsets</th><th>category</th><th>text</th><th>state</th><th></th></tr>{"".join(rows)}</table>'
        f'<p><button id=close-review>Close review and release</button> <span id=status class=error></span></p>'
        f"<h2>Actions</h2><ul id=actions>{history}</ul>"
        f"<script>{_SCRIPT}</script>"
    )
    return _page(f"Review note {v.id}", body, f' data-note="{v.note}"')


def mount(app: FastAPI, services, reviewer: Reviewer, cookie: str) -> None:
    def who(request: Request) -> Principal | None:
        with services.sessions() as s:
            return authenticate(s, request.cookies.get(cookie))

    @app.get("/review", include_in_schema=False)
    def queue_page(request: Request):
        me = who(request)
        if me is None:
            return _login()
        with services.sessions() as s:
            entries = review_queue(s, me.tenant)
        rows = "".join(
            f'<tr><td><a class=review-link href="/review/notes/{e.note}">{html.escape(e.id or str(e.note))}</a></td>'
            f"<td>{html.escape(e.study)}</td><td>{html.escape(e.batch)}</td><td>{html.escape(e.reason)}</td>"
            f"<td>{'' if e.verifier_score is None else f'{e.verifier_score:.2f}'}</td></tr>"
            for e in entries
        )
        empty = "" if entries else "<p id=empty>Nothing is waiting for review.</p>"
        body = (
            f"<h1>Review queue <span class=muted>({html.escape(me.tenant)})</span></h1>"
            '<form method=post action=/review/logout><button type=submit>Sign out</button></form>'
            f'{empty}<table id=queue><tr><th>note</th><th>study</th><th>batch</th><th>why</th><th>verifier</th></tr>{rows}</table>'
        )
        return _page("Review queue", body)

    @app.post("/review/login", include_in_schema=False)
    def login(token: str = Form(default="")):
        with services.sessions() as s:
            me = authenticate(s, token.strip())
        if me is None:
            page = _login("That token is not valid.")
            page.status_code = 401
            return page
        res = RedirectResponse("/review", status_code=303)
        res.set_cookie(cookie, token.strip(), httponly=True, samesite="strict", secure=services.secure_cookies, path="/")
        return res

    @app.post("/review/logout", include_in_schema=False)
    def logout():
        res = RedirectResponse("/review", status_code=303)
        res.delete_cookie(cookie, path="/")
        return res

    @app.get("/review/notes/{note}", include_in_schema=False)
    def note_page(note: int, request: Request):
        me = who(request)
        if me is None:
            return RedirectResponse("/review", status_code=303)
        try:
            view = reviewer.view(me.tenant, note)
        except ReviewError as exc:
            page = _page("Not found", f"<p class=error>{html.escape(str(exc))}</p><p><a href=/review>queue</a></p>")
            page.status_code = exc.status
            return page
        return _note_page(view)
