"""pycute's remaining IntTuple and swizzle helpers, on plain Python values.

These work on Python ints and tuples (no layout algebra); the algebra,
crd2idx/idx2crd, slices, products and prefix products are the C++ core's
(``layoutkit._layoutkit``). Names and call forms are pycute's, so pycute
scripts run unchanged.
"""
import abc

from ._layoutkit import ComposedLayout, Layout, crd2idx, idx2crd, make_layout

__all__ = [
    "LayoutBase", "is_int", "is_tuple", "is_layout", "signum", "inner_product", "tuple_max",
    "elem_scale", "crd2crd", "shiftl", "shiftr", "hier_unzip",
]


def is_int(x):
    """True for an int (numpy integers too), False for bool and float."""
    return hasattr(x, "__index__") and not isinstance(x, (bool, tuple, list))


def is_tuple(x):
    return isinstance(x, tuple)


class LayoutBase(abc.ABC):
    """pycute's base class of Layout and ComposedLayout (isinstance)."""


LayoutBase.register(Layout)
LayoutBase.register(ComposedLayout)


def is_layout(x):
    return isinstance(x, LayoutBase)


def signum(a):
    """-1, 0 or 1 by the sign of a."""
    return (a > 0) - (a < 0)


def _int64(v, name):
    """v, an int64 as the C++ core's results are; else OverflowError."""
    if not -2**63 <= v < 2**63:
        raise OverflowError(f"{name}: {v} does not fit in int64 (the core's integers)")
    return v


def _congruent(a, b, name):
    if len(a) != len(b):
        raise ValueError(f"{name}: {a!r} and {b!r} have different ranks")


def inner_product(a, b):
    """sum of a_i * b_i over the leaves of two congruent tuples."""
    if is_tuple(a):
        if not is_tuple(b):
            raise ValueError(f"inner_product: {a!r} is a tuple, {b!r} is not")
        _congruent(a, b, "inner_product")
        return _int64(sum(inner_product(x, y) for x, y in zip(a, b)), "inner_product")
    if is_tuple(b):
        raise ValueError(f"inner_product: {b!r} is a tuple, {a!r} is not")
    return _int64(a * b, "inner_product")


def tuple_max(a):
    """The largest leaf."""
    return max(tuple_max(x) for x in a) if is_tuple(a) else a


def elem_scale(a, b):
    """a scaled leaf by leaf by b; an int a is scaled by product(b)."""
    if is_tuple(a):
        if not is_tuple(b):
            raise ValueError(f"elem_scale: tuple {a!r} by the int {b!r}")
        _congruent(a, b, "elem_scale")
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    if is_tuple(b):
        from ._layoutkit import product
        return _int64(a * product(b), "elem_scale")
    return _int64(a * b, "elem_scale")


def crd2crd(crd, dst_shape, src_shape=None):
    """A coordinate of src_shape re-expressed in dst_shape (an index when
    dst_shape is an int, a coordinate when crd is an int)."""
    if is_tuple(crd):
        if is_tuple(dst_shape):
            _congruent(crd, dst_shape, "crd2crd")
            return tuple(crd2crd(x, y) for x, y in zip(crd, dst_shape))
        if src_shape is None:
            raise ValueError("crd2crd: a tuple coordinate into an int shape needs src_shape")
        return crd2idx(crd, src_shape)
    if is_tuple(dst_shape):
        return idx2crd(crd, dst_shape)
    if not crd < dst_shape:
        raise ValueError(f"crd2crd: {crd} is outside the shape {dst_shape}")
    return crd


def shiftr(a, s):
    """a >> s, or a << -s for a negative s."""
    return _int64(a >> s if s > 0 else a << -s, "shiftr")


def shiftl(a, s):
    """a << s, or a >> -s for a negative s."""
    return _int64(a << s if s > 0 else a >> -s, "shiftl")


def hier_unzip(splitter, layoutA, layoutB):
    """((A_0', A_1', ...), (a_0', a_1', ..., A's other modes)) where
    (A_i', a_i') = splitter(A_i, B_i): zipped_divide and zipped_product with
    splitter = logical_divide or logical_product. B may be a layout, a tuple
    of per-mode tilers or None."""
    if layoutB is None:
        return make_layout(Layout(1, 0), layoutA)
    if is_tuple(layoutB):
        if len(layoutA) < len(layoutB):
            raise ValueError(f"hier_unzip: tiler {layoutB!r} has more modes than {layoutA!r}")
        split = [hier_unzip(splitter, layoutA[i], layoutB[i]) for i in range(len(layoutB))]
        rest = [layoutA[i] for i in range(len(layoutB), len(layoutA))]
        return make_layout(make_layout([p[0] for p in split]),
                           make_layout([p[1] for p in split] + rest))
    return splitter(layoutA, layoutB)
