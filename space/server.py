"""The web server's side of uploads: an ASGI middleware in front of Gradio's routes.

Gradio's own upload route stores a file under a folder named by its content hash, owned by
nobody: two visitors sending the same bytes share one stored copy, and a file whose visitor
leaves before scoring stays until the hourly sweep.  This middleware gives each upload one
owner from the moment it lands (:mod:`space.sessions`):

- ``POST …/gradio_api/upload``: handled here with Gradio's own parser and size limit, each
  request's files stored in a folder of their own; owned by the page's session when the page
  names it (``x-rouge-session``, set by ``static/page.js``) and that session is live, else
  unclaimed (deleted unless claimed within ``limits.UNCLAIMED_UPLOAD_S``);
- ``POST …/gradio_api/queue/join`` (and ``/call/``, ``/run/``): every file the request names
  must be an upload that its session owns or is first to claim; otherwise the request is
  answered 422 with one message naming the field, in Gradio's validation format (shown by
  gradio_client as a ``ValidationError``), before the framework sees — or logs — the path
  (``/call/v2/``, whose keyword body has no session: every file must be a live upload, the
  handler then claims it);
- ``GET …/gradio_api/heartbeat/<session>``: the open connection says the session is live.
"""

from __future__ import annotations

import json
import secrets
import shutil
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

from gradio import processing_utils
from gradio.route_utils import MultiPartException, upload_fn
from gradio.routes import file_upload_statuses
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from space import limits
from space.sessions import SessionFiles
from space.uploads import refused

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The header through which the page names its session when it uploads.
SESSION_HEADER = "x-rouge-session"
#: The file parameters of the API endpoints, as their messages name them.
FILE_WORDS = {
    "file": "Upload",
    "file_a": "System A file",
    "file_b": "System B file",
    "predictions_file": "Predictions file",
    "references_file": "References file",
}
#: Routes whose JSON body names the files an event reads.
EVENT_ROUTES = ("/gradio_api/queue/join", "/gradio_api/call/", "/gradio_api/run/")


def file_paths(value: Any) -> Iterator[str]:
    """Every file path a request's data names (Gradio's file objects, at any depth)."""
    if isinstance(value, dict):
        if "path" in value and (value.get("meta") or {}).get("_type") == "gradio.FileData":
            yield str(value.get("path"))
            return
        for item in value.values():
            yield from file_paths(item)
    elif isinstance(value, list):
        for item in value:
            yield from file_paths(item)


class UploadGate:
    """The ASGI middleware (see the module's docstring).

    ``sessions``: the owners' registry; ``fields(fn_index, api_name)``: per input of the
    event, its API parameter and the field as messages name it (``("file_a", "System A
    file")``), ``None`` for an input that is not a file; ``on_upload(paths)``: what else the
    server must know of an upload (Gradio's set of received files)."""

    def __init__(
        self,
        app: ASGIApp,
        sessions: SessionFiles,
        fields: Callable[[int | None, str], list[tuple[str, str] | None]],
        on_upload: Callable[[list[str]], None],
    ) -> None:
        self.app = app
        self.sessions = sessions
        self.fields = fields
        self.on_upload = on_upload
        self.live: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path, method = str(scope.get("path", "")), scope.get("method")
        if method == "POST" and path.rstrip("/").endswith("/gradio_api/upload"):
            response = await self.upload(Request(scope, receive))
            await response(scope, receive, send)
        elif method == "POST" and any(route in path for route in EVENT_ROUTES):
            await self.event(scope, receive, send)
        elif method == "GET" and "/gradio_api/heartbeat/" in path:
            session = path.rstrip("/").rsplit("/", 1)[-1]
            self.live[session] += 1
            try:
                await self.app(scope, receive, send)
            finally:
                self.live[session] -= 1
                if self.live[session] <= 0:
                    del self.live[session]
        else:
            await self.app(scope, receive, send)

    async def upload(self, request: Request) -> Response:
        """Store the request's files in a folder of their own, each with its owner."""
        self.sessions.sweep()
        session = request.headers.get(SESSION_HEADER, "")
        owner = session if session in self.live else ""
        landing = Path(processing_utils.get_upload_folder()) / secrets.token_hex(16)
        upload_id = request.query_params.get("upload_id")
        try:
            stored, _, _ = await upload_fn(
                request,
                landing,
                limits.MAX_UPLOAD_BYTES,
                upload_id,
                force_move=True,
                upload_progress=file_upload_statuses if upload_id else None,
            )
        except MultiPartException as error:
            shutil.rmtree(landing, ignore_errors=True)
            code = 413 if "maximum allowed size" in error.message else 400
            return PlainTextResponse(error.message, status_code=code)
        except HTTPException as error:
            shutil.rmtree(landing, ignore_errors=True)
            return PlainTextResponse(str(error.detail), status_code=error.status_code)
        paths = [str(p) for p in stored]
        for path in paths:
            self.sessions.landed(path, landing, owner)
        if not paths:
            shutil.rmtree(landing, ignore_errors=True)
        self.on_upload(paths)
        return JSONResponse(paths)

    async def event(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the files an event names before the framework reads its body."""
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        try:
            payload = json.loads(body)
        except ValueError:
            payload = None
        if isinstance(payload, dict) and isinstance(payload.get("data"), (list, dict)):
            if not payload.get("session_hash"):
                # /call/ and /run/ take no session from the caller: give the request one, so
                # the handler knows whose files it reads.
                payload["session_hash"] = secrets.token_hex(16)
                body = json.dumps(payload).encode("utf-8")
            problems = self.refusals(payload, str(scope.get("path", "")))
            if problems:
                await JSONResponse({"detail": problems}, status_code=422)(scope, receive, send)
                return
        elif isinstance(payload, dict) and "/gradio_api/call/v2/" in str(scope.get("path", "")):
            # Keyword arguments (no session of the caller's: the queue gives the call one, and
            # the handler claims its files): at least no path that is not a live upload.
            problems = [
                {
                    "__type__": "validate",
                    "is_valid": False,
                    "parameter_name": str(key),
                    "message": str(refused(FILE_WORDS.get(str(key), "File"))),
                }  # fmt: skip
                for key, value in payload.items()
                for file in file_paths(value)
                if not self.sessions.is_upload(file)
            ]
            if problems:
                await JSONResponse({"detail": problems}, status_code=422)(scope, receive, send)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def refusals(self, payload: dict[str, Any], path: str) -> list[dict[str, Any]]:
        """Gradio's validation entries for what this request may not send: too few values
        (the framework would log every value it got), files it may not read."""
        session = str(payload["session_hash"])
        data = payload["data"]
        items = list(data.items()) if isinstance(data, dict) else list(enumerate(data))
        fn_index = payload.get("fn_index")
        api_name = path.rstrip("/").rsplit("/", 1)[-1] if "/gradio_api/queue/" not in path else ""
        fields = self.fields(fn_index if isinstance(fn_index, int) else None, api_name)
        if isinstance(data, list) and len(data) < len(fields):
            message = f"expected {len(fields)} values (one per parameter), got {len(data)}"
            return [{"__type__": "validate", "is_valid": False, "parameter_name": "data",
                     "message": message}]  # fmt: skip
        problems = []
        for position, (key, value) in enumerate(items):
            for file in file_paths(value):
                if self.sessions.claim(file, session):
                    continue
                field = fields[position] if position < len(fields) else None
                parameter, what = field or (str(key), "File")
                problems.append(
                    {
                        "__type__": "validate",
                        "is_valid": False,
                        "parameter_name": parameter,
                        "message": str(refused(what)),
                    }
                )
        return problems
