"""Deferred imports of heavy dependencies, so that ``import rouge_lcs`` stays cheap.

numpy alone costs ~100 ms to import, more than the rest of ``import rouge_lcs`` together, and
is first needed by the first scoring call.  Modules that use it write::

    if TYPE_CHECKING:
        import numpy as np
    else:
        np = lazy_import("numpy")

so that type checkers see the real module, and at run time ``np`` is the module object that
numpy's import fills in: the import runs at the first attribute access (``np.zeros``), from
whichever module comes first.  So nothing at module level may read an attribute of it (no
``np.int64`` constants): that would import it with the package.  tests/test_architecture.py
checks that ``import rouge_lcs`` executes none of numpy, regex, rapidfuzz and NLTK.
"""

from __future__ import annotations

import _thread
import gc
import os
import sys

# The import system's own module (what importlib._bootstrap is), always loaded: importing the
# importlib package (which imports warnings) or importlib.util cost a fresh process ~1 ms.
from _frozen_importlib import module_from_spec

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any
else:
    ModuleType = type(sys)  # types.ModuleType, without importing types


class _Deferred(ModuleType):
    """A module whose code runs at its first attribute access (then it is a plain module).

    What :class:`importlib.util.LazyLoader` does, with the lock CPython added to it in 3.11.9 and
    3.12.3 (gh-114763): without it, a thread reading an attribute while another thread runs the
    deferred import could see the half-filled module and get an ``AttributeError`` — and the
    first scoring call may well come from several threads at once (a web server's workers).
    """

    def __getattribute__(self, attr: str) -> Any:
        spec = object.__getattribute__(self, "__spec__")
        state = spec.loader_state
        with state["lock"]:  # other threads wait here while the first one imports
            if object.__getattribute__(self, "__class__") is _Deferred:
                if state["loading"]:  # the module's own code reading itself, mid-import
                    return object.__getattribute__(self, attr)
                state["loading"] = True
                try:
                    spec.loader.exec_module(self)
                finally:
                    state["loading"] = False  # after an error, the next access tries again
                object.__setattr__(self, "__class__", ModuleType)
        return getattr(self, attr)


# The collector's pause, shared by imports and scoring.  _thread, not threading: importing
# threading (and contextlib, for a context manager) cost a fresh process ~1.5 ms.
_gc_lock = _thread.allocate_lock()
_gc_users = 0
_gc_was_enabled = False


def _reset_after_fork() -> None:
    # A worker forked while another thread held the lock would wait on it forever.
    global _gc_lock, _gc_users
    _gc_lock = _thread.allocate_lock()
    _gc_users = 0


os.register_at_fork(after_in_child=_reset_after_fork)


class _NoGc:
    """Pause the cyclic garbage collector while importing or scoring, when this is the only thread.

    Both allocate many small acyclic objects, and the collector's repeated scans of them
    cost ~20% of the run time while finding nothing.  The switch is process-wide, so it is only
    thrown when no other thread runs (it would pause their collection too); a counter makes
    nested or overlapping calls restore the collector exactly once.
    """

    __slots__ = ("pause",)

    def __enter__(self) -> None:
        global _gc_users, _gc_was_enabled
        with _gc_lock:
            # _thread._count(): the threads started besides the main one (threading's too)
            self.pause = _gc_users > 0 or _thread._count() == 0
            if self.pause:
                if _gc_users == 0:
                    _gc_was_enabled = gc.isenabled()
                    gc.disable()
                _gc_users += 1

    def __exit__(self, *exc: object) -> None:
        global _gc_users
        if self.pause:
            with _gc_lock:
                _gc_users -= 1
                if _gc_users == 0 and _gc_was_enabled:
                    gc.enable()


def no_gc() -> _NoGc:
    """A context that pauses the collector (see :class:`_NoGc`)."""
    return _NoGc()


def import_module(name: str) -> ModuleType:
    """``importlib.import_module(name)`` for an absolute ``name``, without importing importlib.

    The collector is paused meanwhile (:func:`no_gc`): an import builds thousands of objects
    (functions, classes, their dicts), and the collector's passes over them find nothing;
    they were ~1.5 ms of the package's ~15 ms first import."""
    with no_gc():
        __import__(name)
    return sys.modules[name]


def find_spec(name: str) -> ModuleSpec | None:
    """``importlib.util.find_spec(name)`` for a top-level ``name`` not yet imported: the first
    finder of ``sys.meta_path`` that knows it."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = find(name, None) if find is not None else None
        if spec is not None:
            return spec
    return None


def lazy_import(name: str) -> ModuleType:
    """The top-level module ``name``, imported at the first access to one of its attributes.

    Returns the module in ``sys.modules`` if there is one (imported, or deferred by an earlier
    call).  Otherwise it finds the module now (:class:`ModuleNotFoundError` at once if it is not
    installed), creates its module object and registers it in ``sys.modules``, as an import does
    (so a later ``import name`` anywhere gets the same object, and its first use runs the
    import), but leaves running its code to the first attribute access.
    """
    if "." in name:  # finding a submodule would import its parent packages now
        raise ValueError(f"lazy_import takes a top-level module, not {name!r}")
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    if spec.loader_state is not None:  # the loader keeps its own state there: import now
        return import_module(name)
    # _thread's RLock is threading's, without importing threading (~1 ms of a fresh process)
    spec.loader_state = {"lock": _thread.RLock(), "loading": False}
    module = module_from_spec(spec)
    module.__class__ = _Deferred
    return sys.modules.setdefault(name, module)


def version_of(name: str, source: str) -> str:
    """``name.__version__`` without importing ``name`` if it is still deferred: read from the
    ``__version__ = "..."`` line of ``source`` (a file of its package, e.g. ``_main.py``).

    The native engine compares regex's version with the one its tables were generated from at
    the first call; importing regex for that alone cost ~20 ms of a fresh process's first call.
    Falls back to the import when the module already ran, or the line is not where expected.
    """
    module = sys.modules.get(name)
    if module is None or type(module) is not _Deferred:
        return str(lazy_import(name).__version__)
    spec = object.__getattribute__(module, "__spec__")
    for folder in spec.submodule_search_locations or ():
        try:
            with open(f"{folder}/{source}", encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith("__version__ = "):
                        return line.split("=", 1)[1].strip().strip("\"'")
        except OSError:
            pass
    return str(module.__version__)
