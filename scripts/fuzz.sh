#!/usr/bin/env bash
# Coverage-guided fuzzing of the C core (issue 47): every target of tests/fuzz/fuzz.py under
# libFuzzer (atheris), on an extension built with clang -fsanitize=fuzzer-no-link,address,undefined,
# and a check that each target's coverage grows past its kept corpus.
#
#   bash scripts/fuzz.sh                        # every target FUZZ_SECONDS (8) s; fails if one does not grow
#   FUZZ_SECONDS=60 bash scripts/fuzz.sh --update   # longer, then merge the finds into tests/fuzz/corpus/
#   bash scripts/fuzz.sh punkt similarity       # some targets only
#
# Why clang and atheris' runtime: libFuzzer sees the edges of code compiled with its
# coverage hooks (-fsanitize=fuzzer-no-link: inline 8-bit counters, comparison tracing), and
# those hooks must resolve to the libFuzzer that runs, the one in atheris' asan_with_fuzzer.so
# (ASan + UBSan + libFuzzer in one runtime, preloaded since CPython is not instrumented).  gcc's
# libasan (scripts/sanitize.sh's test run) has no libFuzzer: under it atheris saw no edge of the
# extension ("0 NEW", corpus of one byte).  Each target starts from tests/fuzz/corpus/<target>/
# (libFuzzer's merged corpus, a few KB) and tests/fuzz/corpus/seeds/ (inputs that broke something
# once), writes its finds into a temp dir (nothing into the checkout), and must end with more
# features (libFuzzer's `ft:`, edges and their hit counts) than its INITED line: a target that
# stops seeing the C code's coverage fails here.  The coverage counted is the extension's alone
# (and the CLI readers' Python for `readers`, fuzz.py's PY_INSTRUMENTED).  A crash, sanitizer
# report or failed assertion aborts the target and fails the script, its input kept as
# crash-* in the temp dir's path printed.  ~3 minutes on 2 cores (14 targets).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
case "$PYTHON" in /*) ;; *) PYTHON="$(pwd)/$PYTHON" ;; esac
FUZZ_SECONDS="${FUZZ_SECONDS:-8}"
update=0
if [ "${1:-}" = --update ]; then update=1; shift; fi

if ! command -v clang >/dev/null && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
fi
"$PYTHON" -c 'import atheris' 2>/dev/null || "$PYTHON" -m pip install -q atheris
runtime="$("$PYTHON" -c 'import atheris; print(atheris.path())')/asan_with_fuzzer.so"
[ -e "$runtime" ] || { echo "fuzz.sh: no $runtime (atheris without its sanitizer runtime)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# -Wno-constant-conversion: clang (not gcc) warns on the SIMD byte tables of arrow.h, whose
# values above 127 are meant as the bytes they wrap to
PYTHON="$PYTHON" bash scripts/build_sanitized.sh "$work/build" clang \
    -fsanitize=fuzzer-no-link,address,undefined -Wno-constant-conversion

repo="$(pwd)"
targets=("$@")
if [ ${#targets[@]} = 0 ]; then
    mapfile -t targets < <("$PYTHON" -c 'import sys; sys.path.insert(0, "tests/fuzz"); import fuzz; print(*sorted(fuzz.TARGETS), sep="\n")')
fi
failed=()
printf '%-14s %16s %16s %6s\n' target "seeds cov/ft" "after cov/ft" "execs" >"$work/table"
for target in "${targets[@]}"; do
    mkdir -p "$work/new/$target"
    kept=()
    [ -d "tests/fuzz/corpus/$target" ] && kept=("$repo/tests/fuzz/corpus/$target")
    log="$work/$target.log"
    # from the build dir (python puts the current directory first on sys.path), crash files there
    status=0
    (cd "$work/build" &&
        PYTHONPATH="$work/build" LD_PRELOAD="$runtime" PYTHONMALLOC=malloc \
        ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1" \
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" ROUGE_LCS_IMPLEMENTATION=native \
        "$PYTHON" "$repo/tests/fuzz/fuzz.py" --target "$target" -- \
            -max_total_time="$FUZZ_SECONDS" -max_len=4096 -timeout=60 -rss_limit_mb=4096 \
            -print_final_stats=1 "$work/new/$target" "${kept[@]}" \
            "$repo/tests/fuzz/corpus/seeds") >"$log" 2>&1 || status=$?
    # "#22  INITED cov: 53 ft: 70 corp: 11/429b ..." and the last status line ("DONE", or the
    # last NEW/REDUCE/pulse when libFuzzer stops on time)
    read -r cov0 ft0 < <(awk '/\tINITED /{for(i=1;i<=NF;i++){if($i=="cov:")c=$(i+1);if($i=="ft:")f=$(i+1)}} END{print c+0, f+0}' "$log")
    read -r cov1 ft1 < <(awk '/^#[0-9]+\t/{for(i=1;i<=NF;i++){if($i=="cov:")c=$(i+1);if($i=="ft:")f=$(i+1)}} END{print c+0, f+0}' "$log")
    execs="$(awk '/stat::number_of_executed_units:/{print $2}' "$log")"
    printf '%-14s %16s %16s %6s\n' "$target" "$cov0/$ft0" "$cov1/$ft1" "${execs:-?}" >>"$work/table"
    if [ "$status" != 0 ]; then
        echo "fuzz.sh: target $target failed (exit $status):" >&2
        # the report (sanitizer, Python traceback or libFuzzer's), not the deep stack under it
        awk '/ERROR: |runtime error|Traceback|Uncaught|SUMMARY|Test unit written|Base64/' "$log" | head -n 40 >&2
        # the failing input, to reproduce with `fuzz.py --target T -- FILE` and to keep in
        # tests/fuzz/corpus/seeds/ with the fix (git ignores the directory)
        mkdir -p "$repo/fuzz-crashes"
        cp "$work/build"/crash-* "$work/build"/timeout-* "$work/build"/oom-* "$repo/fuzz-crashes/" 2>/dev/null || true
        failed+=("$target")
    elif [ "$ft1" -le "$ft0" ] || [ "$cov0" = 0 ]; then
        echo "fuzz.sh: target $target: coverage did not grow from its corpus (cov/ft $cov0/$ft0 -> $cov1/$ft1)" >&2
        failed+=("$target")
    fi
    if [ "$update" = 1 ] && [ "$status" = 0 ]; then
        # the kept corpus merged anew: the fewest inputs (a greedy set cover) that reach every
        # edge the old one and this run's finds reach; edges only (-use_counters=0), not hit
        # counts, which keeps it to a few KB per target
        rm -rf "$work/merged" && mkdir -p "$work/merged"
        (cd "$work/build" &&
            PYTHONPATH="$work/build" LD_PRELOAD="$runtime" PYTHONMALLOC=malloc \
            ASAN_OPTIONS="detect_leaks=0" ROUGE_LCS_IMPLEMENTATION=native \
            "$PYTHON" "$repo/tests/fuzz/fuzz.py" --target "$target" -- -set_cover_merge=1 -use_counters=0 \
                -max_len=4096 \
                "$work/merged" "${kept[@]}" "$work/new/$target") \
            >"$work/$target.merge.log" 2>&1
        rm -rf "tests/fuzz/corpus/$target" && mv "$work/merged" "tests/fuzz/corpus/$target"
    fi
done
cat "$work/table"
if [ ${#failed[@]} != 0 ]; then
    echo "fuzz.sh: failed: ${failed[*]}" >&2
    exit 1
fi
