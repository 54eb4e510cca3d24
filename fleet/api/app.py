"""The FastAPI application: intake endpoints, read endpoints, review endpoints and pages.

Every request is authenticated by a tenant token (bearer header, or the
review page's cookie) and every lookup is confined to the tenant's
studies, so another tenant's batch or note is a plain 404, the same answer
as an id that does not exist.  Submission goes through the fleet's
producer, so sealing and the claim-check apply exactly as for ``deid
submit``; the de-identified text of a flagged note is withheld until its
review is closed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field

from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException, Path, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker
from starlette.exceptions import HTTPException as StarletteHTTPException

import fleet
from fleet.api import pages
from fleet.api.auth import Principal, authenticate, tenant_studies
from fleet.api.review import NotFound, ReviewError, Reviewer, review_queue, tenant_item
from fleet.api.schemas import (
    BatchOut,
    ErrorOut,
    NoteOut,
    QueueOut,
    ReviewActionIn,
    ReviewNoteOut,
    SubmitRequest,
    SubmitResponse,
)
from deid_core.records import unusable_character
from fleet.keystore import KeyStoreError
from fleet.logsafe import withhold_exception_details
from fleet.models import Batch, Item, ItemStatus, Output, ReviewState, ReviewStatus, TenantStudy, VerifierScore
from fleet.pipeline import PipelineConfig
from deid_core.known import KnownFile, KnownSet, known_from_dict
from fleet.producer import FleetClient, IncomingNote, SubmitError

log = logging.getLogger(__name__)

COOKIE = "deid_session"
#: Note ids are the store's 32-bit item ids.
NoteId = Annotated[int, Path(ge=1, le=2**31 - 1, description="The note id returned by POST /v1/notes.")]
BatchId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9]+$")]
_SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


@dataclass(frozen=True)
class ApiLimits:
    max_body_bytes: int = 8 * 1024 * 1024
    max_notes: int = 1000
    max_note_chars: int = 200_000


@dataclass
class ApiServices:
    """What the app needs: the store, the producer (with its dispatcher) and the pipeline new batches run."""

    sessions: sessionmaker[Session]
    client: FleetClient
    pipeline: PipelineConfig
    limits: ApiLimits = field(default_factory=ApiLimits)
    secure_cookies: bool = False


def _error(status: int, detail: str, errors: list[dict] | None = None, headers: dict | None = None) -> JSONResponse:
    return JSONResponse(ErrorOut(detail=detail, errors=errors or []).model_dump(), status_code=status, headers=headers)


class BodyLimit:
    """Refuse a request body over ``max_bytes`` with 413, before anything parses it.

    The declared length is checked first; a chunked body is counted as it
    arrives, so a client cannot get past the limit by not declaring one.
    """

    def __init__(self, app, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] in _SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        too_big = _error(413, f"request body is larger than the limit of {self.max_bytes} bytes")
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                if int(declared) > self.max_bytes:
                    await too_big(scope, receive, send)
                    return
            except ValueError:
                await _error(400, "Content-Length is not a number")(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await too_big(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class ContainErrors:
    """Answer an unexpected error with a bare 500 and log its class only.

    Nothing is re-raised to the server, whose own handler would log the
    traceback, and the traceback may quote the request's notes.
    """

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            route = getattr(scope.get("route"), "path", None) or "(no route)"
            log.error("%s %s failed: %s", scope.get("method"), route, type(exc).__name__)
            if not started:
                await _error(500, "internal error; the server log names its class")(scope, receive, send)


_ERRORS = {
    400: {"model": ErrorOut, "description": "The body cannot be read (not UTF-8 JSON, bad Content-Length)."},
    401: {"model": ErrorOut, "description": "Missing, unknown or revoked token."},
    404: {"model": ErrorOut, "description": "No such resource for this token (including other tenants')."},
    413: {"model": ErrorOut, "description": "Request too large."},
    422: {"model": ErrorOut, "description": "Invalid request; each problem names its record."},
}


def _problems(exc: RequestValidationError) -> list[dict]:
    body = exc.body if isinstance(getattr(exc, "body", None), dict) else {}
    notes = body.get("notes") if isinstance(body.get("notes"), list) else []
    out: list[dict] = []
    for err in exc.errors():
        loc = list(err.get("loc", ()))
        if loc and loc[0] in ("body", "path", "query", "header"):
            where = loc[0]
            loc = loc[1:]
        else:
            where = "body"
        record = rid = None
        if where == "body" and len(loc) >= 2 and loc[0] == "notes" and isinstance(loc[1], int):
            record = loc[1]
            candidate = notes[record].get("id") if record < len(notes) and isinstance(notes[record], dict) else None
            if isinstance(candidate, str) and unusable_character(candidate) is None:
                rid = candidate[:500]
        name = ".".join(str(p) for p in loc) or where
        out.append({"record": record, "id": rid, "field": name, "message": str(err.get("msg", "invalid"))[:300]})
    return out


def _describe(problems: list[dict]) -> str:
    parts = []
    for p in problems[:5]:
        who = ""
        if p["record"] is not None:
            who = f"note {p['record']}" + (f" (id {p['id']!r})" if p["id"] else "") + ": "
        parts.append(f"{who}{p['field']}: {p['message']}")
    more = f"; and {len(problems) - 5} more" if len(problems) > 5 else ""
    return f"{len(problems)} problem(s) in the request: " + "; ".join(parts) + more


def create_app(services: ApiServices) -> FastAPI:
    app = FastAPI(
        title="deid-fleet intake API",
        version=fleet.__version__,
        description="Submit clinical notes for keyed de-identification, follow batches, export results, review flagged notes.",
        docs_url=None,  # the interactive pages load scripts from a CDN; the spec itself is at /openapi.json
        redoc_url=None,
    )
    app.state.services = services
    withhold_exception_details()
    reviewer = Reviewer(services.sessions, services.client.keystore)
    app.add_middleware(BodyLimit, max_bytes=services.limits.max_body_bytes)
    app.add_middleware(ContainErrors)
    bearer = HTTPBearer(auto_error=False, description="A tenant token from `deid api-token create`.")

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        problems = _problems(exc)
        return _error(422, _describe(problems), problems)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        return _error(exc.status_code, str(exc.detail), headers=getattr(exc, "headers", None))

    def principal(request: Request, creds: HTTPAuthorizationCredentials | None = Depends(bearer)) -> Principal:
        token = creds.credentials if creds is not None else None
        if token is None:
            token = request.cookies.get(COOKIE)
            # a cookie rides along on cross-site requests; a JSON body cannot be sent cross-site without CORS
            if token is not None and request.method not in _SAFE_METHODS:
                if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
                    raise HTTPException(403, "requests authenticated by the review cookie must send JSON")
        with services.sessions() as s:
            who = authenticate(s, token)
        if who is None:
            raise HTTPException(401, "missing, unknown or revoked API token", headers={"WWW-Authenticate": "Bearer"})
        return who

    def review_error(exc: ReviewError) -> HTTPException:
        return HTTPException(exc.status, str(exc))

    # -- intake ------------------------------------------------------------

    @app.post(
        "/v1/notes",
        status_code=202,
        response_model=SubmitResponse,
        responses={**_ERRORS},
        summary="Submit one or many notes for a study; returns the batch id at once.",
    )
    def submit_notes(body: SubmitRequest, who: Principal = Depends(principal)) -> SubmitResponse:
        limits = services.limits
        if len(body.notes) > limits.max_notes:
            raise HTTPException(413, f"the request has {len(body.notes)} notes; at most {limits.max_notes} per request")
        for i, n in enumerate(body.notes):
            if len(n.text) > limits.max_note_chars:
                raise HTTPException(
                    413, f"note {i} (id {n.id!r}) has {len(n.text)} characters; at most {limits.max_note_chars} per note"
                )
        seen: dict[str, int] = {}
        dupes = []
        for i, n in enumerate(body.notes):
            if n.id in seen:
                dupes.append({"record": i, "id": n.id, "field": "notes.id", "message": f"the same id as note {seen[n.id]}"})
            seen.setdefault(n.id, i)
        if dupes:
            return _error(422, _describe(dupes), dupes)  # type: ignore[return-value]
        with services.sessions() as s:
            if body.study not in tenant_studies(s, who.tenant):
                raise HTTPException(404, f"no study {body.study!r} for this token")
        known, problems = _known_of(body)
        if problems:
            return _error(422, _describe(problems), problems)  # type: ignore[return-value]
        incoming = [IncomingNote(i + 1, n.id, n.text, n.patient_id) for i, n in enumerate(body.notes)]
        try:
            result = services.client.submit(incoming, body.study, services.pipeline, source="http", known=known)
        except KeyStoreError:
            # the key store's message may name server paths; say only what the caller can act on
            raise HTTPException(422, f"study {body.study!r} has no usable key on this server") from None
        except SubmitError as exc:
            raise HTTPException(422, str(exc)) from None
        with services.sessions() as s:
            rows = s.execute(select(Item.external_id, Item.id).where(Item.batch_id == result.batch_id).order_by(Item.line)).all()
        return SubmitResponse(
            batch=result.batch_id,
            study=body.study,
            submitted=result.submitted,
            notes=[{"id": rid, "note": iid} for rid, iid in rows],
        )

    def _known_of(body: SubmitRequest) -> tuple[KnownFile | None, list[dict]]:
        """The request's known identifiers (per batch and per note), or the records that lack a patient id."""
        given = [(None, None, f"known.{i}.patient_id", k, k.patient_id) for i, k in enumerate(body.known or [])]
        given += [(i, n.id, "known.patient_id", n.known, n.known.patient_id or n.patient_id) for i, n in enumerate(body.notes) if n.known]
        if not given:
            return None, []
        problems = [
            {"record": i, "id": rid, "field": field, "message": "known identifiers need a patient id (their own or their note's)"}
            for i, rid, field, _, pid in given
            if not pid
        ]
        records = [known_from_dict({**k.model_dump(exclude={"patient_id"}), "patient_id": pid}) for *_, k, pid in given if pid]
        return KnownFile(KnownSet.of(records), ()), problems

    def tenant_batch(s: Session, who: Principal, batch_id: str) -> Batch:
        batch = s.scalar(
            select(Batch)
            .join(TenantStudy, TenantStudy.study_id == Batch.study_id)
            .where(Batch.id == batch_id, TenantStudy.tenant_id == who.tenant)
        )
        if batch is None:
            raise HTTPException(404, f"no batch {batch_id!r}")
        return batch

    @app.get("/v1/batches/{batch_id}", response_model=BatchOut, responses={**_ERRORS}, summary="Counts of a batch's notes by state.")
    def batch_status(batch_id: BatchId, who: Principal = Depends(principal)) -> BatchOut:
        with services.sessions() as s:
            batch = tenant_batch(s, who, batch_id)
            in_review = len(_records(s, batch, _items(s, batch.id, flagged_only=True), want="in_review"))
        st = services.client.status(batch.id)
        return BatchOut(
            batch=st.batch_id,
            study=st.study,
            key_id=st.key_id,
            pipeline_version=st.pipeline_version,
            submitted=st.submitted,
            pending=st.pending,
            done=st.done,
            failed=st.failed,
            flagged=st.flagged,
            in_review=in_review,
            leaked=getattr(st, "leaked", 0),
            pending_by_stage=st.pending_by_stage,
            complete=st.complete,
        )

    @app.get("/v1/notes/{note}", response_model=NoteOut, responses={**_ERRORS}, summary="One note: state, verifier score, de-identified text once done.")
    def note_status(note: NoteId, who: Principal = Depends(principal)) -> NoteOut:
        with services.sessions() as s:
            try:
                item, batch = tenant_item(s, who.tenant, note)
            except NotFound as exc:
                raise review_error(exc) from None
            return NoteOut(**_records(s, batch, [item])[0])

    @app.get(
        "/v1/batches/{batch_id}/export",
        response_class=StreamingResponse,
        responses={
            200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}, "description": "One JSON object per note, in input order."},
            **_ERRORS,
        },
        summary="Stream the batch's notes as JSON lines; text only for released notes.",
    )
    def export_batch(batch_id: BatchId, who: Principal = Depends(principal)):
        with services.sessions() as s:
            batch = tenant_batch(s, who, batch_id)

        def lines() -> Iterator[bytes]:
            with services.sessions() as s:
                last = 0
                while True:
                    chunk = list(
                        s.scalars(
                            select(Item).where(Item.batch_id == batch.id, Item.id > last).order_by(Item.id).limit(500)
                        )
                    )
                    if not chunk:
                        return
                    last = chunk[-1].id
                    for rec in _records(s, batch, chunk):
                        yield (json.dumps(rec, ensure_ascii=False) + "\n").encode("utf-8")

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    # -- review (JSON) -------------------------------------------------------

    @app.get("/v1/review/queue", response_model=QueueOut, responses={**_ERRORS}, summary="The tenant's flagged notes waiting for review.")
    def queue(who: Principal = Depends(principal)) -> QueueOut:
        with services.sessions() as s:
            return QueueOut(notes=[asdict(e) for e in review_queue(s, who.tenant)])

    @app.get("/v1/review/notes/{note}", response_model=ReviewNoteOut, responses={**_ERRORS}, summary="A flagged note: original with spans, and its output.")
    def review_note(note: NoteId, who: Principal = Depends(principal)) -> ReviewNoteOut:
        try:
            return ReviewNoteOut(**asdict(reviewer.view(who.tenant, note)))
        except ReviewError as exc:
            raise review_error(exc) from None

    @app.post(
        "/v1/review/notes/{note}/spans",
        response_model=ReviewNoteOut,
        responses={**_ERRORS, 409: {"model": ErrorOut, "description": "The review is closed."}},
        summary="Accept, remove or add a span; removal and addition re-anonymize the note.",
    )
    def review_span(note: NoteId, body: ReviewActionIn, who: Principal = Depends(principal)) -> ReviewNoteOut:
        try:
            view = reviewer.act(who, note, body.action, body.start, body.end, body.category)
        except ReviewError as exc:
            raise review_error(exc) from None
        return ReviewNoteOut(**asdict(view))

    @app.post(
        "/v1/review/notes/{note}/close",
        response_model=ReviewNoteOut,
        responses={**_ERRORS, 409: {"model": ErrorOut, "description": "Already closed, or the leak report still finds hits."}},
        summary="Close the review and release the note's output.",
    )
    def review_close(note: NoteId, who: Principal = Depends(principal)) -> ReviewNoteOut:
        try:
            view = reviewer.close(who, note)
        except ReviewError as exc:
            raise review_error(exc) from None
        return ReviewNoteOut(**asdict(view))

    pages.mount(app, services, reviewer, COOKIE)
    return app


def _items(s: Session, batch_id: str, flagged_only: bool = False) -> list[Item]:
    q = select(Item).where(Item.batch_id == batch_id)
    if flagged_only:
        q = q.where(Item.flagged.is_(True), Item.status == ItemStatus.DONE)
    return list(s.scalars(q.order_by(Item.id)))


def _records(s: Session, batch: Batch, items: list[Item], want: str | None = None) -> list[dict]:
    """What a caller may see of each item; text only once done and released (never while in review)."""
    note_ids = sorted({i.note_id for i in items if i.note_id is not None})
    outputs: dict[int, Output] = {}
    states: dict[int, str] = {}
    scores: dict[int, float] = {}
    if note_ids:
        for o in s.scalars(
            select(Output).where(
                Output.note_id.in_(note_ids), Output.key_id == batch.key_id, Output.pipeline_version == batch.pipeline_version
            )
        ):
            outputs[o.note_id] = o
        for r in s.scalars(
            select(ReviewState).where(
                ReviewState.note_id.in_(note_ids),
                ReviewState.key_id == batch.key_id,
                ReviewState.pipeline_version == batch.pipeline_version,
            )
        ):
            states[r.note_id] = r.status
        latest = (
            select(VerifierScore.note_id, func.max(VerifierScore.id).label("id"))
            .where(
                VerifierScore.note_id.in_(note_ids),
                VerifierScore.key_id == batch.key_id,
                VerifierScore.pipeline_version == batch.pipeline_version,
            )
            .group_by(VerifierScore.note_id)
            .subquery()
        )
        for note_id, score in s.execute(
            select(VerifierScore.note_id, VerifierScore.score).join(latest, latest.c.id == VerifierScore.id)
        ):
            scores[note_id] = score
    out: list[dict] = []
    for it in items:
        review = "none"
        if it.flagged:
            review = states.get(it.note_id, ReviewStatus.OPEN)
        state = it.status
        if state == ItemStatus.DONE and review == ReviewStatus.OPEN:
            state = "in_review"
        if want is not None and state != want:
            continue
        output = outputs.get(it.note_id)
        released = state == ItemStatus.DONE and output is not None and not output.leaks and output.text != ""
        out.append(
            {
                "note": it.id,
                "batch": batch.id,
                "id": it.external_id,
                "study": batch.study_id,
                "state": state,
                "stage": it.stage,
                "flagged": bool(it.flagged),
                "review": review,
                "verifier_score": scores.get(it.note_id),
                "text": output.text if released else None,
                "spans": json.loads(output.spans_json) if released else None,
                "error_class": it.error_class if it.status == ItemStatus.FAILED else None,
                "error": it.error if it.status == ItemStatus.FAILED else None,
            }
        )
    return out
