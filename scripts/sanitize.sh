#!/usr/bin/env bash
# Builds LayoutKit with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-asan/ and runs the test suite there. Any sanitizer report fails the
# test that triggered it (UBSan does not recover; ASan aborts, LeakSanitizer
# is on). -O1 keeps the build and the run within CI's time budget.
# Tests labelled `no_sanitizer` are skipped: they check packaging, the
# documents or the repository, not the library's memory use (see their
# CMakeLists.txt).
# Extra arguments are passed to ctest (e.g. -R cute).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${LK_JOBS:-$(nproc)}"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# Debug with -O1: the layers' -O3 applies to Release and RelWithDebInfo only.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DCMAKE_CXX_FLAGS="$san" \
  -DCMAKE_EXE_LINKER_FLAGS="$san" \
  -DLK_BUILD_BENCH=OFF -DLK_BUILD_EXAMPLES=OFF -DLK_BUILD_FUZZ=OFF \
  -DLK_WERROR="${LK_WERROR:-OFF}" \
  "${launcher[@]}" >/dev/null
start=$SECONDS
cmake --build build-asan -j "$jobs"
echo "sanitizer build: $((SECONDS - start)) s"
# allow_user_poisoning=0: the MLIR tools link an uninstrumented libMLIR that
# shares LLVM's BumpPtrAllocator with our instrumented code; the instrumented
# copy poisons each new slab and the library's inlined copy hands out pieces
# without unpoisoning them, a false "use-after-poison". Nothing else here
# poisons memory by hand (the core has no LLVM code).
# use_sigaltstack=0: layoutkit-opt runs MLIR on a thread of its own, where
# LLVM's signal handling installs a malloc'd alternate signal stack; ASan,
# which would otherwise own that stack, unmaps it when the thread ends and
# aborts ("unable to unmap"). Stack overflows are still caught, without
# ASan's report of them.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:allow_user_poisoning=0:use_sigaltstack=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cd build-asan
start=$SECONDS
status=0
ctest --output-on-failure -j "$jobs" -LE no_sanitizer "$@" || status=$?
echo "sanitizer tests: $((SECONDS - start)) s"
exit "$status"
