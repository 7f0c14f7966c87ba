//===- F2Basis.h - Incremental Gaussian elimination over F2 ----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one F2 eliminator of the library: the linear layouts' rank, free
/// variables and inverses, and the planners' span tests and solves.
///
/// Vectors are packed in a uint64_t (a layout column). The basis keeps at
/// most one row per leading bit: row[b] has highest set bit b. Each row
/// carries the XOR of the tags of the added vectors it combines, so a solve
/// says which added vectors sum to its target. Vectors added earlier are
/// preferred: a vector in the span of earlier ones is not added.
///
/// Reduction clears the leading bits of the rows from the top down:
/// remainder(v) = v + (a combination of rows) with a 0 at every leading bit;
/// it is 0 iff v is in the span. Since the added vectors that were kept are
/// independent, the combination of tags a solve returns is unique.
///
/// Example: add(0b011, tag 1) and add(0b110, tag 2) keep both (rank 2);
/// add(0b101, tag 4) returns false (0b101 = 0b011 ^ 0b110); and for
/// v = 0b101, reduce(v) returns 1 ^ 2 = 3 and leaves v = 0.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_F2BASIS_H
#define LAYOUTKIT_LINEAR_F2BASIS_H

#include <bit>
#include <cstdint>
#include <span>

namespace lk::linear {

class F2Basis {
public:
  /// Reduces v by the rows: returns the XOR of the tags used and leaves the
  /// remainder in v (0 iff v was in the span).
  uint64_t reduce(uint64_t &v) const noexcept {
    uint64_t tags = 0;
    for (uint64_t hit = v & leads_; hit; hit = v & leads_) {
      int b = 63 - std::countl_zero(hit);
      v ^= row_[b];
      tags ^= tags_[b];
    }
    return tags;
  }

  /// Adds v with its tag; returns false (and adds nothing) when v is in the
  /// span of the rows (0 included).
  bool add(uint64_t v, uint64_t tag) noexcept {
    uint64_t tags = reduce(v) ^ tag;
    if (!v)
      return false;
    int b = 63 - std::countl_zero(v);
    row_[b] = v;
    tags_[b] = tags;
    leads_ |= uint64_t(1) << b;
    return true;
  }

  /// The XOR of the tags of added vectors that sum to v, when v is in the
  /// span (false otherwise; `tags` is then unspecified).
  bool solve(uint64_t v, uint64_t &tags) const noexcept {
    tags = reduce(v);
    return v == 0;
  }

  /// True iff v is in the span of the rows.
  bool contains(uint64_t v) const noexcept {
    reduce(v);
    return v == 0;
  }

  /// The dimension of the span.
  int rank() const noexcept { return std::popcount(leads_); }

private:
  uint64_t leads_ = 0;    // bit b set iff row_[b] is a row
  uint64_t row_[64] = {}; // row_[b] has leading bit b (where leads_ has b)
  uint64_t tags_[64] = {};
};

/// The rank over F2 of a set of bit-vectors: rankF2({0b011, 0b110, 0b101})
/// == 2.
inline int rankF2(std::span<const uint64_t> vs) noexcept {
  F2Basis b;
  for (uint64_t v : vs)
    b.add(v, 0);
  return b.rank();
}

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_F2BASIS_H
