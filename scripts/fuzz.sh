#!/usr/bin/env bash
# Builds the libFuzzer targets (text grammars, layout algebra) with clang and
# runs each one for a while, starting from the seed corpus in fuzz/corpus/<target>/.
#
#   scripts/fuzz.sh [seconds-per-target] [target...]
#
#   seconds-per-target   default 30
#   target               a fuzz/fuzz_<name>.cpp target, e.g. fuzz_cute_text
#                        (default: every one)
#
# Environment: LK_FUZZ_BUILD_DIR (default build-fuzz), LK_FUZZ_JOBS (ninja
# -j, default 2), CC / CXX (default clang / clang++), LK_FUZZ_SHORT_SECONDS
# (when set: the seconds of fuzz_bindings and fuzz_mlir_passes, whose
# inputs each run many calls; scripts/test.sh's smoke run sets it).
# New corpus entries go to <build>/corpus/<target>/ (the committed seeds are
# never modified); crashing inputs to <build>/artifacts/<target>/. The
# script exits non-zero when any target finds a crash, leak or timeout.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$root"/fuzz/fuzz_*.cpp; do
    targets+=("$(basename "$f" .cpp)")
  done
fi
build="${LK_FUZZ_BUILD_DIR:-$root/build-fuzz}"
jobs="${LK_FUZZ_JOBS:-2}"

export CC="${CC:-clang}"
export CXX="${CXX:-clang++}"

generator=()
if command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi

# Debug keeps assertions on; -O1 keeps the fuzzers fast enough.
cmake -S "$root" -B "$build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="-O1" \
  -DLK_BUILD_FUZZ=ON -DLK_BUILD_TESTS=OFF -DLK_BUILD_BENCH=OFF \
  -DLK_BUILD_TOOLS=OFF -DLK_BUILD_EXAMPLES=OFF >/dev/null
# The MLIR targets exist when the configuration found MLIR.
if [ $# -eq 0 ] && cmake --build "$build" --target help 2>/dev/null |
    grep -q '^fuzz_mlir_parser:'; then
  targets+=(fuzz_mlir_parser fuzz_mlir_passes)
fi
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  artifacts="$build/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  t_seconds="$seconds"
  case "$t" in
    fuzz_bindings|fuzz_mlir_passes) t_seconds="${LK_FUZZ_SHORT_SECONDS:-$seconds}" ;;
  esac
  args=(-max_total_time="$t_seconds" -timeout=10 -rss_limit_mb=2048
        -max_len=4096 -print_final_stats=1 -artifact_prefix="$artifacts/")
  if [ -f "$root/fuzz/$t.dict" ]; then
    args+=(-dict="$root/fuzz/$t.dict")
  fi
  echo "=== $t: ${t_seconds}s ==="
  if ! "$build/fuzz/$t" "${args[@]}" "$corpus" "$root/fuzz/corpus/$t"; then
    echo "=== $t FOUND A PROBLEM; see $artifacts ==="
    status=1
  fi
done
exit $status
