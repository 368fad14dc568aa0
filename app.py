"""The Space: ROUGE with an explanation of every score (Gradio).

Run locally with ``python app.py`` (http://127.0.0.1:7860).  The code is the ``space``
package beside this file: plain-Python parsing, scoring and rendering, and ``space.ui``, the
one module that imports gradio.
"""

from __future__ import annotations

from space.auditing import warm_worker
from space.ui import build_demo, launch_options

demo = build_demo()

if __name__ == "__main__":
    warm_worker()  # the Reproduce tab's first request finds its imports done
    demo.launch(**launch_options())
