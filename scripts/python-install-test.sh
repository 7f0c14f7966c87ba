#!/usr/bin/env bash
# Installs the layoutkit Python package as a user does and tests the installed
# package: a copy of the repository holding exactly what a clone would (git's
# tracked and not-ignored files; an ignored file a build needs makes this
# fail), a fresh venv of /usr/bin/python3, `pip install --no-index` of
# python/ through the in-tree build backend, then the pytest suite (with the
# docs/python.md doctest) run outside the source tree, with
# LK_EXPECT_INSTALLED=1 so that conftest.py fails unless `layoutkit` is the
# venv's.
#
#   scripts/python-install-test.sh [WORKDIR]    (default build/python-install)
#
# The wheel's CMake build lands in WORKDIR/src/build; with ccache it reuses
# the objects of scripts/build.sh (both set CCACHE_BASEDIR to their tree).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mkdir -p "${1:-$root/build/python-install}" && cd "${1:-$root/build/python-install}" && pwd)"
start=$SECONDS
rm -rf "$work/src" "$work/venv"
mkdir -p "$work/src"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$root" && git ls-files -z --cached --others --exclude-standard |
     tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$work/src"
else
  echo "python-install-test: $root is not a git work tree; copying it whole" >&2
  (cd "$root" && tar --exclude='./build*' --exclude=./node_modules -cf - .) | tar -xf - -C "$work/src"
fi

/usr/bin/python3 -m venv --system-site-packages "$work/venv"
cmake_args="-DCMAKE_BUILD_TYPE=RelWithDebInfo"
if command -v ccache >/dev/null 2>&1; then
  cmake_args+=" -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
fi
echo "== pip install $work/src/python =="
CMAKE_ARGS="$cmake_args ${CMAKE_ARGS:-}" LK_WHEEL_BUILD_DIR="$work/src/build" \
  CCACHE_BASEDIR="$work/src" CCACHE_NOHASHDIR=1 \
  "$work/venv/bin/pip" install --no-index --disable-pip-version-check --quiet \
  "$work/src/python"
echo "installed in $((SECONDS - start)) s"

echo "== pytest against the installed package =="
cd "$work"
env -u PYTHONPATH LK_EXPECT_INSTALLED=1 LK_REPO="$work/src" LK_PEERS="$(dirname "$root")/shared/peers" \
  MPLBACKEND=Agg "$work/venv/bin/python" -m pytest -q -p no:cacheprovider \
  "$work/src/python/tests"
