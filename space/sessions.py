"""Each visitor's files, kept apart and removed when the visitor leaves (no gradio).

A session's files live in a folder of their own whose name is derived from the session's id
with a key only this process knows, so one visitor's folder can be neither named nor guessed
from another's.  Other files a session uses (its uploads, the server's copies of its downloads)
are registered with it; when the session ends each is deleted unless another live session
registered the same path (the server stores identical uploads once).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import shutil
import tempfile
import threading
from pathlib import Path


class SessionFiles:
    """The files of every live session, under one root folder."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or Path(tempfile.mkdtemp(prefix="rouge_space_"))
        self._key = secrets.token_bytes(32)
        self._lock = threading.Lock()
        self._owners: dict[Path, set[str]] = {}
        self._paths: dict[str, set[Path]] = {}

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
                if path.is_file():
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
        shutil.rmtree(self.root, ignore_errors=True)
