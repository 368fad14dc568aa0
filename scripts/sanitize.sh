#!/usr/bin/env bash
# The C core under AddressSanitizer + UndefinedBehaviorSanitizer (issue 24), so that a memory
# error or undefined behaviour fails CI instead of waiting for a tester.
#
#   bash scripts/sanitize.sh              # build into a temp dir, run the test subset, fuzz 30 s
#   FUZZ_SECONDS=0 bash scripts/sanitize.sh  # tests only
#   bash scripts/sanitize.sh -k punkt     # extra arguments go to pytest
#
# The extension is built alone with gcc (-O1 -g -fsanitize=address,undefined, every UB report
# fatal) into a temp copy of the package, which PYTHONPATH puts before the checkout.  CPython
# itself is not instrumented, so libasan is preloaded; PYTHONMALLOC=malloc lets ASan see
# Python objects' memory too.  Leaks are not checked (the interpreter keeps its own at exit).
# The subset (native, hostile, property, parity, per-token, kinds, NFKC and Arrow tests, not slow) takes ~3 minutes
# on 2 cores; then the fuzz targets (tests/fuzz/fuzz.py) run for FUZZ_SECONDS on the same build.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
CC="${CC:-gcc}"
FUZZ_SECONDS="${FUZZ_SECONDS:-30}"

asan="$("$CC" -print-file-name=libasan.so)"
if [ ! -e "$asan" ] && command -v apt-get >/dev/null; then  # gcc without its sanitizer runtime
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libasan8 libubsan1 >/dev/null
    asan="$("$CC" -print-file-name=libasan.so)"
fi
[ -e "$asan" ] || { echo "sanitize.sh: no libasan for $CC" >&2; exit 1; }

build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
include="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
suffix="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
mkdir -p "$build/rouge_lcs"
# the package without any compiled extension of the checkout
(cd rouge_lcs && find . -name '*.so' -prune -o -name '__pycache__' -prune -o -type f -print |
    while read -r f; do mkdir -p "$build/rouge_lcs/$(dirname "$f")" && cp "$f" "$build/rouge_lcs/$f"; done)
echo "+ building the sanitized extension in $build" >&2
# the generated tables (unicode_table.h, case_table.h, nfkc_table.h) as the build writes them
"$PYTHON" -c 'import sys, setup; setup.write_generated_headers(sys.argv[1])' "$build/generated"
"$CC" -shared -fPIC -O1 -g -std=c99 -Wall -Wextra -Wno-unused-parameter -Werror \
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
    -I"$include" -I"$build/generated" rouge_lcs/engine/csrc/module.c -o "$build/rouge_lcs/_native$suffix"

export PYTHONPATH="$build${PYTHONPATH:+:$PYTHONPATH}"
export LD_PRELOAD="$asan"
export PYTHONMALLOC=malloc
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export ROUGE_LCS_IMPLEMENTATION=native
repo="$(pwd)"
case "$PYTHON" in /*) ;; *) PYTHON="$repo/$PYTHON" ;; esac
# From the temp dir: `python -m` puts the current directory first on sys.path.
cd "$build"
"$PYTHON" -c 'import rouge_lcs._native as n, sys; assert sys.argv[1] in n.__file__, n.__file__' "$build"

# -p no:cacheprovider: nothing written into the checkout; not slow: the budget is minutes.
# ROUGE_LCS_SANITIZED skips the peak-RSS test (ASan's shadow memory counts as RSS).
export ROUGE_LCS_SANITIZED=1
# --capture=sys: a sanitizer report (written to fd 2 before the abort) reaches the log.
"$PYTHON" -m pytest -q -x -p no:cacheprovider --capture=sys -m "not slow" --rootdir "$repo" \
    "$repo/tests/engine/test_native.py" "$repo/tests/test_hostile.py" "$repo/tests/test_properties.py" \
    "$repo/tests/test_parity_rouge_score.py" "$repo/tests/integrations/test_token_rewards.py" \
    "$repo/tests/engine/test_kinds.py" "$repo/tests/text/test_nfkc.py" \
    "$repo/tests/base/test_arrow.py" "$@"

if [ "$FUZZ_SECONDS" != 0 ]; then
    # coverage-guided when atheris installs (it needs a wheel for this Python); else the
    # harness mutates its corpus at random
    "$PYTHON" -c 'import atheris' 2>/dev/null || "$PYTHON" -m pip install -q atheris || true
    "$PYTHON" "$repo/tests/fuzz/fuzz.py" --seconds "$FUZZ_SECONDS"
fi
