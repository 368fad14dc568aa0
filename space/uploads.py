"""Which server paths a request may have read as its uploaded file (no gradio).

An API caller names its file by a server path (``{"path": …, "meta": {"_type":
"gradio.FileData"}}``); the web server only checks that the path lies somewhere under its
upload folder, which also holds every other visitor's uploads and the copies of their
downloads.  So the Space reads a path only if it is a file its upload route stored, for the
request's own session:

- exactly ``<upload folder>/<landing>/<hash>/<name>`` (each upload request lands in a folder
  of its own), with no ``..`` and no symbolic link at any level (resolved, it is the same
  path);
- a live upload that this session owns or is the first to claim (``is_uploaded``; the
  server's own copies of results, and another visitor's uploads, are not);
- and its folder's name is the content hash the upload route gave it (the file is unchanged
  since it landed).

Anything else is refused with one message that names no path.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from space.parsing import UserError


def refused(what: str) -> UserError:
    """The one message for a path that is not this request's upload."""
    return UserError(
        f"{what}: not a file uploaded with this request; send the file itself (this demo reads "
        "no other file of the server)."
    )


def check_upload(
    path: object,
    what: str,
    *,
    folder: str | Path,
    is_uploaded: Callable[[Path], bool],
    content_hash: Callable[[Path], str],
) -> Path:
    """``path`` if it is a file the upload route stored under ``folder`` (see the module's
    docstring); otherwise a :class:`UserError`.  ``is_uploaded`` says whether the upload route
    received a path; ``content_hash`` is the hash it names a file's folder by."""
    if not isinstance(path, str) or not path or "\x00" in path:
        raise refused(what)
    given = Path(path)
    if not given.is_absolute() or ".." in given.parts:
        raise refused(what)
    roots = {Path(os.path.abspath(folder)), Path(folder).resolve()}
    if given.parent.parent.parent not in roots:
        raise refused(what)
    try:
        links = (given, given.parent, given.parent.parent)
        if any(p.is_symlink() for p in links) or not given.is_file():
            raise refused(what)
        resolved = given.resolve(strict=True)
    except OSError:
        raise refused(what) from None
    landing = given.parent.parent.name
    if resolved != Path(folder).resolve() / landing / given.parent.name / given.name:
        raise refused(what)
    if not (is_uploaded(given) or is_uploaded(resolved)):
        raise refused(what)
    try:
        if content_hash(resolved) != given.parent.name:
            raise refused(what)
    except OSError:
        raise refused(what) from None
    return resolved
