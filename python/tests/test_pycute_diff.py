"""Differential test against pycute's algorithms on random layouts.

Runs only where pycute (CUTLASS's Python CuTe) is importable; it is not
vendored. Both sides compute the same operation on the same random
layouts; the results must be the same function (equal sizes and equal
offsets at every index), or both must refuse.
"""
import random

import pytest

import layoutkit as lk

pycute = pytest.importorskip("pycute")


def random_layout(rng):
    rank = rng.randint(1, 3)
    shape = tuple(rng.choice([1, 2, 4, 8, 3]) for _ in range(rank))
    stride = tuple(rng.choice([0, 1, 2, 4, 8, 16]) for _ in range(rank))
    return shape, stride


def as_function(layout, size):
    return [layout(i) for i in range(size)]


def both(op, *args):
    try:
        ours = getattr(lk, op)(*[lk.Layout(*a) for a in args])
    except lk.LayoutError:
        ours = None
    try:
        theirs = getattr(pycute, op)(*[pycute.Layout(*a) for a in args])
    except Exception:
        theirs = None
    return ours, theirs


@pytest.mark.parametrize("op", ["coalesce", "right_inverse", "left_inverse"])
def test_unary(op):
    rng = random.Random(op)
    for _ in range(200):
        a = random_layout(rng)
        ours, theirs = both(op, a)
        if ours is None or theirs is None:
            continue
        assert ours.size() == pycute.size(theirs)
        assert as_function(ours, ours.size()) == as_function(theirs, ours.size()), a


@pytest.mark.parametrize("op", ["composition", "logical_divide", "logical_product",
                                "blocked_product", "raked_product"])
def test_binary(op):
    rng = random.Random(op)
    compared = 0
    for _ in range(200):
        a, b = random_layout(rng), random_layout(rng)
        ours, theirs = both(op, a, b)
        if ours is None or theirs is None:
            continue
        compared += 1
        assert ours.size() == pycute.size(theirs), (a, b)
        assert as_function(ours, ours.size()) == as_function(theirs, ours.size()), (a, b)
    assert compared > 0
