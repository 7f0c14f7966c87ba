"""Test setup: find the built module and the repository's data.

CTest sets PYTHONPATH to <build>/python; a manual run
(`/usr/bin/python3 -m pytest python/tests`) falls back to build/python of
the repository, or to an installed layoutkit.
"""
import os
import pathlib
import sys

import pytest

REPO = pathlib.Path(os.environ.get("LK_REPO", pathlib.Path(__file__).resolve().parents[2]))
os.environ.setdefault("MPLBACKEND", "Agg")

try:
    import layoutkit  # noqa: F401
except ImportError:
    sys.path.insert(0, str(REPO / "build" / "python"))


@pytest.fixture
def data_dir():
    return REPO / "tests" / "data"


@pytest.fixture
def repo():
    return REPO
