"""rouge-lcs rouge155: the ROUGE-1.5.5 report for a system folder and a model folder.

A run:

    rouge-lcs rouge155 --system-dir sys --model-dir gold \\
        --system-pattern 'summary.(\\d+).txt' --model-pattern 'summary.[A-Z].#ID#.txt' \\
        -n 2 -m -f A -d

Files are matched and read as pyrouge's convert_and_evaluate() reads them (one sentence a
line, each cut at its first "<"; the pyrouge class: rouge_lcs.rouge155.pyrouge). With --html
the files are pyrouge's HTML already, read as its evaluate() does. The script's flags follow
the folder options, spelled as the script spells them, and are used as given; with no flag at
all the run is pyrouge's own: its defaults and the -m it always appends (-c 95 -2 -1 -U -r
1000 -n 4 -w 1.2 -a -m). The report goes to stdout in the script's format (-d adds the
per-example lines); --json prints pyrouge's output_to_dict instead.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from rouge_lcs.rouge155.pyrouge import evaluate_dirs, parse_args, pyrouge_args

# Wrapped as argparse wraps a usage (the flags are the script's: argparse would misread "-2 -1").
USAGE = """\
usage: rouge-lcs rouge155 --system-dir DIR --model-dir DIR
                          --system-pattern REGEX --model-pattern REGEX [--html] [--json]
                          [ROUGE-1.5.5 flags: -n N -m -s -l N -b N -f A|B -p A -w W
                           -2 D -u -U -d -x -c C -r R]"""

_FOLDER_OPTIONS = ("--system-dir", "--model-dir", "--system-pattern", "--model-pattern")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; 0 on success, 2 with one error line on bad input."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in args):
        # usage first, as argparse prints it; the docstring is plain text for this help
        print(USAGE)
        print()
        print(__doc__.strip())
        return 0
    folders: dict[str, str] = {}
    as_json = html = False
    flags: list[str] = []
    i = 0
    # A hand-rolled split: argparse would read "-2 -1" (unlimited skip distance) as two options.
    while i < len(args):
        arg = args[i]
        name, eq, value = arg.partition("=")
        if name in _FOLDER_OPTIONS:
            if not eq:
                if i + 1 >= len(args):
                    return _fail(f"{name} needs a value")
                value = args[i + 1]
                i += 1
            folders[name] = value
        elif arg == "--json":
            as_json = True
        elif arg == "--html":
            html = True
        else:
            flags.append(arg)
        i += 1
    missing = [o for o in _FOLDER_OPTIONS if o not in folders]
    if missing:
        return _fail(f"missing {', '.join(missing)}")
    try:
        opts, details = parse_args(flags if flags else pyrouge_args())
        report = evaluate_dirs(
            folders["--system-dir"],
            folders["--system-pattern"],
            folders["--model-dir"],
            folders["--model-pattern"],
            opts,
            details=details,
            html=html,
        )
    except (ValueError, OSError, UnicodeError) as error:
        return _fail(str(error))
    if as_json:
        print(json.dumps(report.to_dict(), indent=1))
    else:
        sys.stdout.write(report.text())
    return 0


def _fail(message: str) -> int:
    print(f"rouge-lcs rouge155: error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
