"""The child process of the Reproduce tab (run as a script by :func:`space.auditing.run_audit`;
``--preload``: import everything an audit needs before reading the request):
reads ``{"predictions", "references", "reported"}`` as JSON on stdin, writes
``{"audit": Audit.to_dict()}`` as JSON on stdout; ``{"refused": message}`` for the library's own
refusal (a ValueError or TypeError naming the argument), ``{"failed": type name}`` for anything
else; nothing when stdin ends empty (the parent ended first).  Importing this module does
nothing."""

from __future__ import annotations

import json
import sys


def main() -> None:
    """Audit the request on stdin."""
    from rouge_lcs.recipes.auditor import audit

    if "--preload" in sys.argv[1:]:
        # Started before a visitor asks (space.auditing.warm_worker): everything an audit
        # imports, imported now.  py-rouge's recipes stem with NLTK's Porter, and importing
        # NLTK costs more CPU than an audit of a few hundred pairs.
        from rouge_lcs.recipes import py_rouge

        py_rouge.words("imported", stem=True)
    data = sys.stdin.buffer.read()
    if not data:  # the parent ended before it sent a request
        return
    request = json.loads(data.decode("utf-8"))
    try:
        result = audit(request["predictions"], request["references"], request["reported"])
        answer: dict[str, object] = {"audit": result.to_dict()}
    except (TypeError, ValueError) as error:
        answer = {"refused": str(error)}
    except Exception as error:  # the parent reports its type only
        answer = {"failed": type(error).__name__}
    sys.stdout.write(json.dumps(answer, ensure_ascii=True))


if __name__ == "__main__":
    main()
