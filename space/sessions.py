"""Each visitor's files, kept apart and removed when the visitor leaves (no gradio).

A session's files live in a folder of their own whose name is derived from the session's id
with a key only this process knows, so one visitor's folder can be neither named nor guessed
from another's.  Other files a session uses (the server's copies of its downloads) are
registered with it; when the session ends each is deleted unless another live session
registered the same path (the server stores identical output files once).

Uploads have one owner each, from the moment they land: every upload request stores its files
in a folder of its own (identical content sent twice is two files), owned by the page's session
when the request names it, else unclaimed until the first request that names the file claims
it (an API call: its queue entry) — or deleted when nobody has within ``unclaimed_s``.  Only the
owner may read the file; it is deleted when the owner's session ends or, for an API call, when
the call ends.  Nobody else's request can delete it or make it vanish.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Upload:
    """One uploaded file: its owner (a session id; ``""`` while unclaimed), the time by which
    an unclaimed file must be claimed, and the folder its upload request stored it in."""

    owner: str
    deadline: float
    landing: Path


class SessionFiles:
    """The files of every live session, under one root folder."""

    def __init__(self, root: Path | None = None, unclaimed_s: float = 120.0) -> None:
        self.root = root or Path(tempfile.mkdtemp(prefix="rouge_space_"))
        self.unclaimed_s = unclaimed_s
        self._key = secrets.token_bytes(32)
        self._lock = threading.Lock()
        self._owners: dict[Path, set[str]] = {}
        self._paths: dict[str, set[Path]] = {}
        self._uploads: dict[Path, Upload] = {}
        self._stopped = threading.Event()

    def folder(self, session: str) -> Path:
        """This session's own folder (created on first use)."""
        path = self._folder_path(session)
        path.mkdir(parents=True, exist_ok=True)
        return path

    def _folder_path(self, session: str) -> Path:
        if not session:
            # Every page load and API client has a session id; without one there is no owner
            # to delete the file for, so refuse rather than share a folder.
            raise ValueError("session: expected the id of a live session")
        digest = hmac.new(self._key, session.encode("utf-8"), hashlib.sha256).hexdigest()
        return self.root / digest[:32]

    def register(self, session: str, path: str | Path) -> None:
        """Delete ``path`` too when ``session`` ends (unless another live session uses it)."""
        resolved = Path(path).resolve()
        with self._lock:
            self._owners.setdefault(resolved, set()).add(session)
            self._paths.setdefault(session, set()).add(resolved)

    # --- uploads -------------------------------------------------------------------------

    def landed(self, path: str | Path, landing: str | Path, session: str = "") -> None:
        """An upload request stored ``path`` in its own folder ``landing``: owned by
        ``session`` (the page's), or unclaimed for :attr:`unclaimed_s` seconds."""
        resolved = Path(path).resolve()
        with self._lock:
            deadline = time.monotonic() + self.unclaimed_s
            self._uploads[resolved] = Upload(session, deadline, Path(landing).resolve())
            if session:
                self._owners.setdefault(resolved, set()).add(session)
                self._paths.setdefault(session, set()).add(resolved)
        self.sweep()

    def is_upload(self, path: str | Path) -> bool:
        """Whether ``path`` is a live upload (whoever owns it)."""
        with self._lock:
            return Path(path).resolve() in self._uploads

    def claim(self, path: str | Path, session: str) -> bool:
        """Whether ``session`` may read the upload ``path``: it owns it, or the file was
        unclaimed and is now its own.  False for any other path."""
        if not session:
            return False
        resolved = Path(path).resolve()
        with self._lock:
            upload = self._uploads.get(resolved)
            if upload is None:
                return False
            if not upload.owner:
                upload.owner = session
                self._owners.setdefault(resolved, set()).add(session)
                self._paths.setdefault(session, set()).add(resolved)
            return upload.owner == session

    def release(self, session: str, path: str | Path) -> None:
        """``session``'s API call that read its upload ``path`` has ended: delete the file
        (nobody else owns it)."""
        resolved = Path(path).resolve()
        with self._lock:
            upload = self._uploads.get(resolved)
            if upload is None or upload.owner != session:
                return
            self._paths.get(session, set()).discard(resolved)
            self._owners.pop(resolved, None)
            self._remove_upload(resolved)

    def sweep(self) -> list[Path]:
        """Delete the uploads nobody claimed in time; returns them."""
        now = time.monotonic()
        with self._lock:
            stale = [p for p, u in self._uploads.items() if not u.owner and u.deadline < now]
            for path in stale:
                self._remove_upload(path)
        return stale

    def sweep_every(self, seconds: float) -> threading.Thread:
        """Sweep unclaimed uploads every ``seconds`` in a daemon thread (an upload nobody
        reads must not wait for the next upload to be swept)."""

        def run() -> None:
            while not self._stopped.wait(seconds):
                self.sweep()

        thread = threading.Thread(target=run, name="upload-sweeper", daemon=True)
        thread.start()
        return thread

    def _remove_upload(self, path: Path) -> None:
        """Delete an upload and the folders its request made (the lock is held)."""
        upload = self._uploads.pop(path, None)
        path.unlink(missing_ok=True)
        if upload is not None:
            # <landing>/<content hash>/<name>: the request's own folders, empty now.
            with contextlib.suppress(OSError):
                path.parent.rmdir()
            with contextlib.suppress(OSError):
                upload.landing.rmdir()

    def forget(self, session: str) -> list[Path]:
        """The session ended: remove its folder and every file only it used; returns what was
        removed."""
        removed = []
        with self._lock:
            for path in self._paths.pop(session, set()):
                owners = self._owners.get(path, set())
                owners.discard(session)
                if owners:
                    continue
                self._owners.pop(path, None)
                if path in self._uploads:
                    self._remove_upload(path)
                    removed.append(path)
                elif path.is_file():
                    path.unlink(missing_ok=True)
                    removed.append(path)
                    # The server keeps each file in a folder of its own (left if not empty).
                    with contextlib.suppress(OSError):
                        path.parent.rmdir()
        folder = self._folder_path(session)
        if folder.is_dir():
            removed.extend(folder.iterdir())
            shutil.rmtree(folder, ignore_errors=True)
        return removed

    def close(self) -> None:
        """Remove every session's files (the server stops)."""
        self._stopped.set()
        shutil.rmtree(self.root, ignore_errors=True)
