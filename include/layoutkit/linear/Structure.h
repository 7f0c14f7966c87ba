//===- Structure.h - Constructors, structural queries, dim surgery -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The operations of Triton's LinearLayout that LinearLayout.h does not
/// have as members: strided and sized-zero constructors, building from an
/// F2 matrix, the consecutive-run query, triviality over dims and the
/// quotient by them, removing zero bases or unit dims, and equality up to
/// the out-dim sizes. Each is a function of the public LinearLayout API.
///
/// Example: strided1D(4, 2, register, dim0) has bases [2, 4] and out size 8
/// (L(x) = 2x); numConsecutiveInOut({register: [1, 2, 8]} -> {dim0: 16}) is
/// 4: registers 0..3 map to elements 0..3 and no other basis touches their
/// low two bits.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_STRUCTURE_H
#define LAYOUTKIT_LINEAR_STRUCTURE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <span>

namespace lk::linear {

/// A dim of `size` elements: `size` must be a power of two in [1, 2^63)
/// (checked before any loop, so 2^62 + 1 is refused at once).
Expected<DimSize> dimSizeOf(DimId id, int64_t size);

/// L(x) = stride * x for x in [0, size): bases stride * 2^i, out size
/// size * stride. size and stride are powers of two with size * stride <=
/// 2^63 / 2 (the out dim fits 62 bits). strided1D(4, 2, r, d): [2, 4] -> 8.
Expected<LinearLayout> strided1D(int64_t size, int64_t stride, DimId in,
                                 DimId out);

/// L(x) = 0 for x in [0, size), with out dim `out` of size `outSize` (a
/// power of two; > 1 gives a non-surjective layout).
Expected<LinearLayout> zeros1D(int64_t size, DimId in, DimId out,
                               int64_t outSize);

/// The layout whose F2 matrix is `bits` (row-major, `rows` x `cols`, every
/// entry 0 or 1): M[i][j] = bit i of L(2^j). `rows` must be the total out
/// bits of `outs` and `cols` the total in bits of `ins` (a matrix of 65
/// rows, or of 7 rows for 8 out bits, is refused with both counts).
Expected<LinearLayout> fromF2Matrix(std::span<const DimSize> ins,
                                    std::span<const DimSize> outs,
                                    std::span<const int64_t> bits, int64_t rows,
                                    int64_t cols);

/// The largest V = 2^k with L(a*V + v, b, ...) = L(a*V, b, ...) + (v, 0, ...)
/// for all v < V (first in-dim, first out-dim): k = min(c, t) where the
/// first c bases of the first in-dim are (2^i, 0, ...) and t is the lowest
/// set bit, on the first out-dim, of every other basis (64 when none).
/// 1 without in- or out-dims.
int64_t numConsecutiveInOut(const LinearLayout &l);

/// True when L is the identity on each dim d of `dims` (d is an in- and an
/// out-dim of the same size, a dim absent on one side counting as size 1,
/// d's bases are 2^i on d and 0 elsewhere) and no other in-dim reaches the
/// out-dims of `dims`. False when a name is on neither side.
bool isTrivialOver(const LinearLayout &l, std::span<const DimId> dims);

/// The sublayout of the remaining in- and out-dims when isTrivialOver(l,
/// dims); std::nullopt otherwise.
std::optional<LinearLayout> quotient(const LinearLayout &l,
                                     std::span<const DimId> dims);

/// `l` without the zero bases of in-dim `in` (its size shrinks to 2^(non-zero
/// bases)); out-dim sizes are kept. Fails when `in` is absent.
Expected<LinearLayout> removeZeroBases(const LinearLayout &l, DimId in);

/// `l` without in-dim (out-dim) `d`, which must be present and of size 1.
Expected<LinearLayout> removeUnitInDim(const LinearLayout &l, DimId d);
Expected<LinearLayout> removeUnitOutDim(const LinearLayout &l, DimId d);

/// Same in-dims (names, order, sizes), same out-dim names in order, and the
/// same basis values; the out-dim sizes may differ.
bool equalIgnoringOutDimSizes(const LinearLayout &a, const LinearLayout &b);

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_STRUCTURE_H
