"""The child process of the Reproduce tab (run as a script by :func:`space.auditing.run_audit`):
reads ``{"predictions", "references", "reported"}`` as JSON on stdin, writes
``{"audit": Audit.to_dict()}`` as JSON on stdout; ``{"refused": message}`` for the library's own
refusal (a ValueError or TypeError naming the argument), ``{"failed": type name}`` for anything
else.  Importing this module does nothing."""

from __future__ import annotations

import json
import sys


def main() -> None:
    """Audit the request on stdin."""
    from rouge_lcs.recipes.auditor import audit

    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
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
