"""Drive the real ROUGE-1.5.5.pl (installed by ../shared/tools/rouge155/install.sh) in one batch.

Unlike the shared ``perl_rouge.py`` harness this writes every line exactly as given (no
whitespace clean-up), passes any flag list through, and returns the script's raw stdout, so
tests compare our whole report text with the script's, byte for byte.

``ROUGE155_HOME`` names the install folder (default ``/opt/rouge155``); the script is then
``$ROUGE155_HOME/RELEASE-1.5.5/ROUGE-1.5.5.pl``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HOME = Path(os.environ.get("ROUGE155_HOME", "/opt/rouge155")) / "RELEASE-1.5.5"
SCRIPT = HOME / "ROUGE-1.5.5.pl"
DB = HOME / "data" / "WordNet-2.0.exc.db"


def available() -> bool:
    """True when the script, its exception DB, Perl and XML::DOM are all there."""
    if not (SCRIPT.exists() and DB.exists() and shutil.which("perl")):
        return False
    probe = subprocess.run(["perl", "-MXML::DOM", "-MDB_File", "-e", "1"], capture_output=True)
    return probe.returncode == 0


def _xml(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_config(
    workdir: Path, peers: Sequence[bytes], models: Sequence[Sequence[bytes]], fmt: str = "SPL"
) -> Path:
    """Peer/model files with the given bytes as content, and the ROUGE-EVAL XML config.

    Files are ``p/p00000.txt`` and ``m/m00000_0.txt``, …: zero-padded, so that pyrouge's
    sorted file matching (``p(\\d+).txt``, ``m#ID#_\\d+.txt``) finds them in the config's order.
    """
    (workdir / "p").mkdir()
    (workdir / "m").mkdir()
    parts = ['<ROUGE-EVAL version="1.5.5">']
    for i, (peer, refs) in enumerate(zip(peers, models)):
        (workdir / "p" / f"p{i:05d}.txt").write_bytes(peer)
        names = []
        for j, ref in enumerate(refs):
            name = f"m{i:05d}_{j}.txt"
            (workdir / "m" / name).write_bytes(ref)
            names.append(f'<M ID="{j}">{name}</M>')
        parts.append(
            f'<EVAL ID="{i + 1}"><PEER-ROOT>{_xml(str(workdir / "p"))}</PEER-ROOT>'
            f"<MODEL-ROOT>{_xml(str(workdir / 'm'))}</MODEL-ROOT>"
            f'<INPUT-FORMAT TYPE="{fmt}"></INPUT-FORMAT>'
            f'<PEERS><P ID="1">p{i:05d}.txt</P></PEERS><MODELS>{"".join(names)}</MODELS></EVAL>'
        )
    parts.append("</ROUGE-EVAL>")
    config = workdir / "config.xml"
    config.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return config


def run(
    peers: Sequence[bytes],
    models: Sequence[Sequence[bytes]],
    flags: Sequence[str],
    fmt: str = "SPL",
) -> tuple[str, float]:
    """The script's stdout for ``-e data -a -d <flags>`` on these files, and its run time (s)."""
    with tempfile.TemporaryDirectory(prefix="rouge155_oracle_") as tmp:
        return run_config(write_config(Path(tmp), peers, models, fmt), flags)


def run_config(config: Path, flags: Sequence[str]) -> tuple[str, float]:
    """:func:`run` on a config :func:`write_config` wrote (the files stay for other tools)."""
    cmd = ["perl", str(SCRIPT), "-e", str(HOME / "data"), "-a", "-d", *flags, str(config)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, env=dict(os.environ, LC_ALL="C"))
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"ROUGE-1.5.5 failed: {' '.join(cmd)}\n{proc.stderr.decode()[-2000:]}")
    return proc.stdout.decode("ascii"), elapsed


def file_bytes(text: str | Sequence[str]) -> bytes:
    """File content for a text (as is) or a sentence list (one a line)."""
    if not isinstance(text, str):
        text = "\n".join(text) + "\n"
    return text.encode("utf-8", "surrogateescape")
