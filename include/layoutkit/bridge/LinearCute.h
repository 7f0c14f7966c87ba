//===- LinearCute.h - Bridge between linear and cute layouts -----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A cute layout whose extents are powers of two and whose strides never
/// carry into each other is a linear map over F2; this header converts it
/// to a LinearLayout and back (docs/design.md §2.4). Conversions are exact or
/// refused with a diagnostic naming the leaf or the basis at fault.
///
/// ## Conventions
///
/// Direction. A cute layout maps logical -> physical, and the bridge keeps
/// that direction: the linear layout's *input* is the cute layout's logical
/// index, its *output* the offset. (Triton's memory layouts go the other
/// way, offset -> logical; take `.invert()` of the result when the layout is
/// a bijection.)
///
///   cute  L : [0, size(L)) -> offsets
///   linear  {index: [...]} -> {offset: 2^k}           (default dims)
///
/// Bits. Cute is leftmost-fastest (colexicographic) and a linear layout's
/// flattened input puts its first in-dim lowest, so with power-of-two
/// extents the cute index i and the flattened linear input are the same
/// number: leaf 0 owns the lowest log2(e_0) bits of i, leaf 1 the next, ...
/// A leaf e:d (e = 2^k) gives k columns d, 2d, 4d, ..., 2^(k-1) d.
///
/// Linearity. The offset is the integer sum  L(i) = sum_j i_j * col_j  over
/// the set bits j of i, and the linear layout computes the XOR of the same
/// columns. The two agree for every i exactly when the non-zero columns are
/// pairwise disjoint as bit sets (a + b == a ^ b iff a & b == 0). So:
///
///   * every extent must be a power of two;
///   * strides must be >= 0, plain integers (no basis strides), and the
///     columns they produce must not share a bit (no carry):
///     (4,2):(1,4) is linear (columns 1, 2, 4); (4,2):(1,2) is not (columns
///     1, 2, 2: 2 + 2 carries); (2,2):(3,4) is linear (columns 3, 4).
///
/// Dims. The in-dim is one dim `index` of size size(L) by default, or one
/// in-dim per top-level mode (`inDims`, e.g. dim0, dim1 for an (M,N) layout:
/// mode i is logical dim i). The out-dim is `offset` of the smallest power of
/// two above every offset, or the dims given in `outDims` (the flattened
/// offset re-split over them, first dim lowest, as reshapeOuts does).
///
/// Swizzles. Sw<B,M,S>(x) = x ^ ((x & (((1<<B)-1) << (M+S))) >> S) is itself
/// linear over F2, so a ComposedLayout Sw o L is linear with columns
/// Sw(col_j). A non-zero composed offset (Sw o 32 o L) is affine, not
/// linear, and refused.
///
/// Back to cute. linearToCute reads the flattened output as the integer
/// offset (first out-dim lowest) and needs pairwise disjoint non-zero
/// columns ("a permutation of strided bits"; zero columns become stride-0
/// leaves). Each in-dim becomes one top-level mode (a single in-dim: the
/// layout is that mode); inside a mode, consecutive bits whose columns
/// double (c, 2c, 4c) or stay zero merge into one leaf. Given a `shape`,
/// the leaves follow it instead, so that for every representable L
///
///   linearToCute(cuteToLinear(L), &L.shape()) == L
///
/// (a leaf of extent 1 has no bit: it comes back with stride 0, CuTe's own
/// convention in compact layouts). Without a shape, layouts already in the
/// merged form above come back equal, and for every representable linear
/// layout ll, cuteToLinear(linearToCute(ll), {in names, out dims}) == ll.
///
/// Examples:
///   cuteToLinear((4,2):(2,1))            -> {index: [(2), (4), (1)]} ->
///   {offset: 8} cuteToLinear((8,8):(8,1), {dim0,dim1})
///       -> {dim0: [(8),(16),(32)], dim1: [(1),(2),(4)]} -> {offset: 64}
///   cuteToLinear(Sw<1,1,2> o 16:1)       -> columns 1, 2, 4, 8^2=10
///       -> {index: [(1), (2), (4), (10)]} -> {offset: 16}
///   cuteToLinear((4,3):(1,4))  -> error "leaf 1 (3:4) of (4,3):(1,4) has
///                                 extent 3, not a power of two"
///                                 (bridge/PaddedBridge.h pads it instead)
///   linearToCute({register: [(1), (2)], lane: [(8), (4)]} -> {offset: 16})
///       -> (4,(2,2)):(1,(8,4))
///   linearToCute({register: [(1), (5)]} -> {offset: 8}) -> error "basis 1 of
///       in-dim register maps to 0b101, which shares bits with basis 0 of
///       in-dim register (0b1): the map is not a permutation of strided bits
///       (the offsets would carry)"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_BRIDGE_LINEARCUTE_H
#define LAYOUTKIT_BRIDGE_LINEARCUTE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/linear/LinearLayout.h"

#include <vector>

namespace lk::bridge {

/// The in-dim name of a model's 1-D logical index ("index").
linear::DimId indexDim();

/// Dims of cuteToLinear's result (see the file comment).
struct CuteToLinearDims {
  /// Empty: one in-dim `index`. Otherwise one name per top-level mode of
  /// the cute layout (in mode order; mode 0 is the lowest bits).
  std::vector<linear::DimId> inDims;
  /// Empty: one out-dim `offset` of the smallest power-of-two size above
  /// every offset. Otherwise the dims the flattened offset is split over
  /// (first lowest); their total size must hold every offset.
  std::vector<linear::OutDim> outDims;
};

/// The linear layout of a cute layout: index bits -> offset bits, with
/// L(i) == result.applyFlat(i) for every i in [0, size(L)). Refused (naming
/// the leaf): a non-power-of-two extent, a negative or basis stride, two
/// columns sharing a bit, more than 64 bits on either side.
Expected<linear::LinearLayout> cuteToLinear(const cute::Layout &layout,
                                            const CuteToLinearDims &dims = {});
/// The same for Sw o L: columns Sw(col_j). A non-zero offset is refused.
Expected<linear::LinearLayout> cuteToLinear(const cute::ComposedLayout &layout,
                                            const CuteToLinearDims &dims = {});

/// The cute layout of a linear layout (flattened input -> flattened output
/// as an integer): evaluate(result, x) == ll.applyFlat(x) for every x.
/// `shape`, when given, fixes the modes: its leaves must be powers of two
/// with product 2^totalInBits, and the columns of each leaf must be a
/// strided walk (c, 2c, 4c, ...). Refused (naming the basis): two non-zero
/// columns sharing a bit.
Expected<cute::Layout> linearToCute(const linear::LinearLayout &ll,
                                    const IntTuple *shape = nullptr);
/// The composed layout Sw o L' with ll == cuteToLinear(Sw o L') on every
/// point: L' is linearToCute of the un-swizzled columns Sw(col_j) (Sw is
/// its own inverse). Use it to recover a swizzled shared-memory layout.
Expected<cute::ComposedLayout> linearToCute(const linear::LinearLayout &ll,
                                            const cute::Swizzle &swizzle,
                                            const IntTuple *shape = nullptr);

} // namespace lk::bridge

#endif // LAYOUTKIT_BRIDGE_LINEARCUTE_H
