#!/usr/bin/env bash
# Builds rouge_lcs._native alone, with the compiler and flags given, into a copy of the package
# (without the checkout's compiled extension) under DIR; PYTHONPATH=DIR then imports it.
# Shared by scripts/sanitize.sh (gcc, ASan + UBSan) and scripts/fuzz.sh (clang, + libFuzzer's
# coverage hooks).
#
#   bash scripts/build_sanitized.sh DIR CC [FLAG...]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
build="$1" cc="$2"
shift 2
include="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
suffix="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
mkdir -p "$build/rouge_lcs"
# the package without any compiled extension of the checkout
(cd rouge_lcs && find . -name '*.so' -prune -o -name '__pycache__' -prune -o -type f -print |
    while read -r f; do mkdir -p "$build/rouge_lcs/$(dirname "$f")" && cp "$f" "$build/rouge_lcs/$f"; done)
echo "+ building the sanitized extension with $cc in $build" >&2
# the generated tables (unicode_table.h, case_table.h, nfkc_table.h) as the build writes them
"$PYTHON" -c 'import sys, setup; setup.write_generated_headers(sys.argv[1])' "$build/generated"
"$cc" -shared -fPIC -O1 -g -std=c99 -Wall -Wextra -Wno-unused-parameter -Werror \
    -fno-sanitize-recover=all -fno-omit-frame-pointer "$@" \
    -I"$include" -I"$build/generated" rouge_lcs/engine/csrc/module.c -o "$build/rouge_lcs/_native$suffix"
