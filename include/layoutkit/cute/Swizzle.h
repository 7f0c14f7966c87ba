//===- Swizzle.h - XOR swizzles and composed layouts -------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `Swizzle<B,M,S>` permutes the bits of an offset:
///
///   Sw(x) = x ^ ((x & (((1<<B)-1) << (M+S))) >> S)
///
/// i.e. bits [M+S, M+S+B) are XORed into bits [M, M+B). With S >= B the two
/// fields do not overlap and Sw is self-inverse: Sw(Sw(x)) == x. A negative
/// S (|S| >= B) goes the other way: bits [M, M+B) into [M-S, M-S+B).
/// (docs/design.md §4: the variant that reads bits [S, S+B) is not used.)
///
/// Examples:
///   Sw<3,4,3>(128) == 144   bit 7 is XORed into bit 4
///   Sw<3,4,3>(0x18) == 0x18 bits 3,4 are below the source field [7,10)
///   Sw<0,M,S> is the identity.
///
/// A `ComposedLayout` is Sw o (offset + L): c -> Sw(offset + L(c)). The
/// swizzle is part of the layout's identity: two composed layouts with the
/// same inner layout and different swizzles are different layouts.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CUTE_SWIZZLE_H
#define LAYOUTKIT_CUTE_SWIZZLE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/Layout.h"

#include <cstdint>
#include <string>

namespace lk::cute {

/// Evaluates the swizzle formula for any B, M >= 0 and any sign of S (a
/// negative S shifts left): Y = ((1<<B)-1) << (M + max(0,S)),
/// result = x ^ shiftr(x & Y, S) with shiftr(v, S) = v >> S for S >= 0 and
/// v << -S for S < 0. For S >= 0 bits [M+S, M+S+B) of x are XORed into bits
/// [M, M+B); for S < 0 bits [M, M+B) into bits [M-S, M-S+B).
/// Example: swizzleApply(3, 5, -3, 3622) == 3878 (bit 5 of 3622 flips bit 8).
/// @pre swizzleParamsValid(B, M, S)
int64_t swizzleApply(int B, int M, int S, int64_t x);

/// The range swizzleApply takes: 0 <= B, 0 <= M, -62 <= S <= 62 and
/// B + M + |S| <= 62, checked without forming |S| (S may be INT64_MIN).
/// The error names the three values ("swizzle parameters out of range:
/// need 0 <= B, 0 <= M and B + M + |S| <= 62, got B=3 M=4
/// S=-9223372036854775808").
Status swizzleParamsValid(int64_t B, int64_t M, int64_t S);

struct Swizzle {
  int B = 0;
  int M = 0;
  int S = 0;

  /// Validates 0 <= B, 0 <= M, |S| >= B (self-inverse), B + M + |S| <= 62.
  /// A negative S (CuTe allows it) XORs bits [M, M+B) into [M-S, M-S+B).
  static Expected<Swizzle> make(int64_t B, int64_t M, int64_t S);
  int64_t operator()(int64_t x) const { return swizzleApply(B, M, S, x); }
  bool isIdentity() const { return B == 0; }
  /// 2^(B + M + |S|): the offsets [0, size) the swizzle permutes among
  /// themselves (it changes only bits below B + M + |S|). At most 2^62 for
  /// a Swizzle from make(). Example: Sw<3,4,3>.size() == 1024; Sw<0,0,0>: 1.
  int64_t size() const { return int64_t(1) << (B + M + (S < 0 ? -S : S)); }
  /// "Sw<B,M,S>".
  std::string str() const;
  bool operator==(const Swizzle &) const = default;
};

/// c -> swizzle(offset + layout(c)).
struct ComposedLayout {
  Swizzle swizzle;
  int64_t offset = 0;
  Layout layout;

  /// The composed layout, checked: a swizzle other than the identity and a
  /// non-zero offset act on integer offsets, so with either the layout
  /// must have no basis strides. Example: make(Sw<3,4,3>, 0,
  /// (8,64):(1@0,1@1)) fails; make(Sw<0,0,0>, 0, (8,64):(1@0,1@1)) is the
  /// basis-stride layout itself.
  static Expected<ComposedLayout> make(Swizzle swizzle, int64_t offset,
                                       Layout layout);

  /// "Sw<3,4,3> o (8,64):(64,1)", with " o <offset>" before the layout when
  /// the offset is non-zero: "Sw<3,4,3> o 32 o (8,64):(64,1)".
  std::string str() const;
  bool operator==(const ComposedLayout &) const = default;
};

} // namespace lk::cute

#endif // LAYOUTKIT_CUTE_SWIZZLE_H
