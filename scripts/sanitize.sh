#!/usr/bin/env bash
# The C core under AddressSanitizer + UndefinedBehaviorSanitizer (issue 24), so that a memory
# error or undefined behaviour fails CI instead of waiting for a tester; then the coverage-guided
# fuzz run (scripts/fuzz.sh, issue 47).
#
#   bash scripts/sanitize.sh              # build into a temp dir, run the test subset, fuzz
#   FUZZ_SECONDS=0 bash scripts/sanitize.sh  # tests only
#   bash scripts/sanitize.sh -k punkt     # extra arguments go to pytest
#
# The extension is built alone with gcc (-O1 -g -fsanitize=address,undefined, every UB report
# fatal; scripts/build_sanitized.sh) into a temp copy of the package, which PYTHONPATH puts
# before the checkout.  CPython itself is not instrumented, so libasan is preloaded;
# PYTHONMALLOC=malloc lets ASan see Python objects' memory too.  Leaks are not checked (the
# interpreter keeps its own at exit).  The subset (native, hostile, property, parity, per-token,
# kinds, NFKC, Arrow and per-call tests, not slow) takes ~3 minutes on 2 cores.  The fuzz targets do not
# run on this build: gcc's libasan has no libFuzzer, so atheris saw none of the extension's
# coverage; scripts/fuzz.sh builds with clang and libFuzzer's hooks instead (FUZZ_SECONDS s a
# target, 8 by default; ~2.5 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
CC="${CC:-gcc}"
FUZZ_SECONDS="${FUZZ_SECONDS:-8}"

asan="$("$CC" -print-file-name=libasan.so)"
if [ ! -e "$asan" ] && command -v apt-get >/dev/null; then  # gcc without its sanitizer runtime
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libasan8 libubsan1 >/dev/null
    asan="$("$CC" -print-file-name=libasan.so)"
fi
[ -e "$asan" ] || { echo "sanitize.sh: no libasan for $CC" >&2; exit 1; }

build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
PYTHON="$PYTHON" bash scripts/build_sanitized.sh "$build" "$CC" -fsanitize=address,undefined

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
    "$repo/tests/engine/native" "$repo/tests/test_hostile.py" "$repo/tests/test_properties.py" \
    "$repo/tests/test_parity_rouge_score.py" "$repo/tests/integrations/test_token_rewards.py" \
    "$repo/tests/engine/test_kinds.py" "$repo/tests/text/test_nfkc.py" \
    "$repo/tests/base/test_arrow.py" "$repo/tests/engine/test_pair_plan.py" \
    "$repo/tests/scores/test_per_call.py" "$repo/tests/scores/test_token_ids.py" "$@"

# The fuzz targets, coverage-guided, on their own clang + libFuzzer build (scripts/fuzz.sh).
if [ "$FUZZ_SECONDS" != 0 ]; then
    cd "$repo"
    unset PYTHONPATH LD_PRELOAD
    FUZZ_SECONDS="$FUZZ_SECONDS" PYTHON="$PYTHON" bash scripts/fuzz.sh
fi
