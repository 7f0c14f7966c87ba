"""Test setup: find the module and the repository's data.

CTest's python.installed (scripts/python-install-test.sh) runs the suite
against the package pip installed into a fresh venv, with
LK_EXPECT_INSTALLED=1: the session then fails unless `layoutkit` is imported
from that venv. A manual run (`PYTHONPATH=build/python /usr/bin/python3 -m
pytest python/tests`) uses the build tree; without PYTHONPATH it falls back
to build/python of the repository, or to an installed layoutkit.
"""
import os
import pathlib
import sys

import pytest

REPO = pathlib.Path(os.environ.get("LK_REPO", pathlib.Path(__file__).resolve().parents[2]))
os.environ.setdefault("MPLBACKEND", "Agg")

if os.environ.get("LK_EXPECT_INSTALLED") == "1":
    import layoutkit

    _where = pathlib.Path(layoutkit.__file__).resolve()
    if pathlib.Path(sys.prefix).resolve() not in _where.parents:
        raise pytest.UsageError(
            f"LK_EXPECT_INSTALLED=1 but layoutkit was imported from {_where}, "
            f"not from the environment at {sys.prefix}")
else:
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
