"""One object per distinct set of options, built once (a reward server's or an lm-eval run's
every call passes the same keywords).

The key of a set of options carries each value's *type* beside the value: ``1 == True`` and
``hash(1) == hash(True)``, so a cache keyed by values alone (``functools.lru_cache``) hands the
object built for ``use_stemmer=True`` to a later call with ``use_stemmer=1`` -- which the checks
refuse on a fresh process.  With types in the key, every call is checked as if it came first.

>>> cache = OptionsCache(lambda **options: dict(options))
>>> cache.get({"use_stemmer": True}) is cache.get({"use_stemmer": True})
True
>>> cache.get({"use_stemmer": 1}) is cache.get({"use_stemmer": True})
False
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

TYPE_CHECKING = False  # not typing's (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["OptionsCache", "options_key"]


def _typed(value: object) -> object:
    if isinstance(value, Mapping):
        return (dict, tuple(sorted((repr(k), _typed(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(map(_typed, value)))
    hash(value)  # an unhashable value (a tokenizer object without __hash__): TypeError
    return (type(value), value)


def options_key(options: Mapping[str, object]) -> object:
    """A hashable key of ``options`` that tells ``1`` from ``True`` and ``1.0`` (``TypeError``
    for an unhashable value)."""
    return tuple(sorted((name, _typed(value)) for name, value in options.items()))


class OptionsCache:
    """``build(**options)`` once per distinct ``options`` (at most ``maxsize`` kept, the
    oldest dropped first); thread-safe.  Options with an unhashable value build a new object
    each time.  A ``build`` that raises caches nothing, so a bad call fails every time."""

    def __init__(self, build: Callable[..., Any], maxsize: int = 32) -> None:
        self.build = build
        self.maxsize = maxsize
        self._objects: dict[object, Any] = {}
        self._lock = threading.Lock()

    def get(self, options: Mapping[str, Any]) -> Any:
        """The object for these options."""
        try:
            key = options_key(options)
        except TypeError:
            return self.build(**options)
        with self._lock:
            found = self._objects.get(key)
        if found is not None:
            return found
        built = self.build(**options)  # outside the lock: building may take a while
        with self._lock:
            built = self._objects.setdefault(key, built)
            while len(self._objects) > self.maxsize:
                del self._objects[next(iter(self._objects))]
        return built
