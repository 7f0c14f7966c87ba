"""Work bounds: every call that returns one value per element (and per
replica) counts it first and refuses past ``layoutkit.limits`` with a
LayoutError naming the count and the limit, in well under a second."""
import json
import time

import numpy as np
import pytest

import layoutkit as lk


def refused(fn, *words):
    t0 = time.perf_counter()
    with pytest.raises(lk.LayoutError) as e:
        fn()
    assert time.perf_counter() - t0 < 2.0
    for w in words:
        assert w in str(e.value), str(e.value)
    return e.value


def test_limits_are_published():
    L = lk.limits
    assert L["array_values"] == 2**24 and L["points"] == 2**16
    assert L["draw_cells"] == 2**16 and L["draw_inputs"] == 2**17


def test_arrays_bounded_by_elements():
    # 2^24 + 1 elements: one past the array limit, for each array call.
    n = 2**24 + 1
    refused(lambda: lk.Layout(n, 1).offsets(), "offsets", str(n), str(2**24))
    refused(lambda: lk.Layout((n, 3), (3, 1)).offsets(), "offsets")
    refused(lambda: lk.TileLayout(f"S[{n}:1]").addresses(), "addresses", str(n))
    # outputs: 2^23 inputs x 3 out-dims = 2^24.58 values.
    L = (lk.LinearLayout.identity_1d(2**8, "register", "dim0")
         * lk.LinearLayout.identity_1d(2**8, "lane", "dim1")
         * lk.LinearLayout.identity_1d(2**7, "warp", "dim2"))
    refused(L.outputs, "outputs", str(2**23), "3 values")
    # 2^62 inputs cannot even be counted as an array: refused too.
    big = lk.LinearLayout.identity_1d(2**62, "register", "dim0")
    refused(big.outputs, "outputs")
    # Just under the bound still works and is exact.
    ok = lk.Layout(2**10, 3).offsets()
    assert ok[-1] == 3 * (2**10 - 1) and ok.dtype == np.int64


def test_tile_eval_bounded_by_replicas():
    T = lk.TileLayout("S[4:1] + R[1000000:1@warpid]")
    # eval returns every point as a list: refused above limits["points"].
    refused(lambda: T.eval(2), "eval", "1000000", "limit=")
    # The records stream: the first limits["listed"] owners and the total.
    whole = T.owners(2)
    assert len(whole.owners) == lk.limits["listed"] == 2**16
    assert whole.total == 1000000
    assert whole.owners[-1] == {"owner": {"warpid": 2**16 - 1}, "at": {"m": 2}}
    assert len(T.evaluate(2).points) == 2**16
    # Its repr is cut at 400 characters of JSON and says how long the whole is.
    text = repr(whole)
    assert text.startswith('owners({"layout":"S[(4):(1)] + R[1000000:1@warpid]"')
    whole_json = json.dumps(whole.to_dict(), separators=(",", ":"))
    assert text.endswith("... (%d characters; to_dict() has the whole record))"
                         % len(whole_json))
    assert text[len("owners("):len("owners(") + 400] == whole_json[:400]
    assert len(text) < 500
    # A limit outside [1, limits["listed"]] is refused before any work.
    refused(lambda: T.owners(2, limit=2**16 + 1), "owners", "65536", "65537")
    refused(lambda: T.eval(2, limit=10**12), "eval", "65536")
    # limit= gives the first points: warps 0, 1, 2 each hold element 2 at m=2.
    assert T.eval(2, limit=3) == [{"m": 2, "warpid": w} for w in range(3)]
    o = T.owners(2, limit=2)
    assert o.owners == [{"owner": {"warpid": w}, "at": {"m": 2}} for w in range(2)]
    assert o.total == 1000000
    with pytest.raises(lk.LayoutError):
        T.eval(2, limit=0)
    # A small replica count is returned whole.
    assert len(lk.TileLayout("S[4:1] + R[8:1@warpid]").eval(0)) == 8


def test_tile_holds_bounded_by_replicas():
    # 2^30 and 2^62 replicas are refused before they are listed.
    for r in (2**30, 2**62):
        refused(lambda: lk.TileLayout(f"S[4:1] + R[{r}:1@warpid]").holds(m=1), "4194304")
    # 1000 replicas: element 1 is at m = 1 on every warp.
    assert lk.TileLayout("S[4:1] + R[1000:1@warpid]").holds(m=1) == [1]


def test_banks_bounded_before_work():
    refused(lambda: lk.TileLayout("S[(2048,1024):(1024,1)]").banks(16), "bank view")
    # Whole words: f16 puts elements 2w, 2w+1 in word w of line 0.
    w = lk.TileLayout("S[(8,64):(64,1)]").bank_words(16)
    assert w.shape == (8, 32, 2) and w[0, 5].tolist() == [10, 11]
    # 8-bit: four elements per word; 32-bit: one.
    assert lk.TileLayout("S[(8,128):(128,1)]").bank_words(8)[0, 1].tolist() == [4, 5, 6, 7]
    assert lk.TileLayout("S[(8,32):(32,1)]").bank_words(32).shape == (8, 32, 1)


def test_tma_and_plan_edges():
    refused(lambda: lk.tile_tma("f16", 16, "K", 2**62, 2**62), "mn", "4294967296")
    refused(lambda: lk.tile_tma("f16", 16, "MN", 64, 0), "k = 0")
    b = lk.blocked([1], [32], [1], [0], [32])
    refused(lambda: lk.plan(b, b, "f16", smem_budget=-1), "budget -1")
    refused(lambda: lk.plan(b, b, "f16", smem_budget=-(2**40)), "budget")
    assert lk.plan(b, b, "f16", smem_budget=0).strategy == "no-op"


def test_draw_bounded_before_work():
    cap = lk.limits["draw_cells"]
    refused(lambda: lk.draw_layout(lk.Layout(2**20, 1)), "draw_layout", str(2**20), str(cap))
    refused(lambda: lk.draw_layout(lk.Layout((512, 512), (512, 1))), "draw_layout")
    refused(lambda: lk.draw_layout(lk.TileLayout("S[(512,512):(512,1)]")), "draw_layout")
    refused(lambda: lk.draw_layout(lk.LinearLayout.identity_1d(2**17, "offset", "dim0")),
            "draw_layout")
    refused(lambda: lk.draw_tv_layout(lk.Layout((2**11, 2**10), (1, 2**11)), (2**11, 2**10)),
            "draw_tv_layout")
    refused(lambda: lk.draw_swizzle(lk.Swizzle(10, 4, 10)), "draw_swizzle")
    refused(lambda: lk.draw_banks(lk.TileLayout("S[(1024,1024):(1024,1)]"), 8), "draw_banks")
    # A layout of many replicas draws its first point per cell: bounded work.
    fig = lk.draw_layout(lk.TileLayout("S[4:1] + R[1048576:1@warpid]"))
    assert "R[1048576:1@warpid]" in fig.axes[0].get_title()
    # One row of 4 cells, each labelled with its first point (warp 0).
    assert [t.get_text() for t in fig.axes[0].texts] == [f"m{i} w0" for i in range(4)]
