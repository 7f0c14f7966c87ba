//===- SwizzleLayout.h - XOR swizzles of tile memory addresses --*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A swizzle permutes the linear memory address a tile layout produces. It
/// is not affine, so it is not a TileLayout; it is a separate
/// `SwizzleLayout`, and `SwizzledTileLayout(swizzle, tile)` applies it to the
/// tile's address on the memory axis `m` (docs/design.md §2.2).
///
/// A SwizzleLayout has three parameters, per_element M, swizzle_len B and
/// atom_len S, and maps an element address m to
///
///   addr(m) = f(m >> M) * 2^M + (m mod 2^M)
///   f(x)    = x ^ ((x & ((2^B - 1) << S)) >> S)
///
/// The low M bits (one 16-byte vector of elements) stay in place; bits
/// [S, S+B) of m >> M are XOR-ed into its bits [0, B). Well-formed when
/// S >= B: the two bit groups are disjoint, so addr is its own inverse.
///
/// Relation to cute: addr(m) = m ^ ((m & ((2^B-1) << (M+S))) >> S), which
/// is cute's `Swizzle<B,M,S>` (cute/Swizzle.h) -- the same function with the
/// parameters listed in the order B, M, S. bridge/TileCute.h converts
/// (swizzleToCute / swizzleFromCute).
///
/// Parameters from an element type and a shared-memory swizzle mode:
///
///   M = bitWidth(128 / dtype_bits) - 1    (16 bytes of elements unswizzled)
///   B = 0 / 1 / 2 / 3 for none / 32B / 64B / 128B,   S = 3
///
/// Examples:
///   forDtype(16, SwizzleMode::B128)     -> Swizzle(M=3,B=3,S=3)
///   forDtype(8,  SwizzleMode::B64)      -> Swizzle(M=4,B=2,S=3)
///   forDtype(32, SwizzleMode::B32)      -> Swizzle(M=2,B=1,S=3)
///   Swizzle(M=3,B=3,S=3) on m = 64i + j -> 64i + 8((j/8) xor i) + j mod 8
///                                          (i < 8; design.md §6.3)
///
/// Text forms (round-trip exact; printing gives the keyword form):
///   Swizzle(M=3,B=3,S=3)          keyword form, any order, blanks allowed
///   Swizzle(3,3,3)                positional: per_element, swizzle_len,
///                                 atom_len (docs/design.md §6.4)
///   Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]      a SwizzledTileLayout
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TILE_SWIZZLELAYOUT_H
#define LAYOUTKIT_TILE_SWIZZLELAYOUT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/tile/TileLayout.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace lk::tile {

/// The shared-memory swizzle widths.
enum class SwizzleMode : uint8_t { None, B32, B64, B128 };

/// "none", "32B", "64B", "128B".
std::string_view swizzleModeName(SwizzleMode mode);
/// The mode named `name` (one of the names above), or a diagnostic.
Expected<SwizzleMode> swizzleModeByName(std::string_view name);
/// Width of a mode's swizzle atom row in bytes: 16 (none), 32, 64, 128.
int64_t swizzleModeBytes(SwizzleMode mode);

class SwizzleLayout {
public:
  /// Largest M + S + B: the swizzle reads bits below M + S + B of an
  /// address, which must fit a non-negative int64.
  static constexpr int kMaxBits = 62;

  /// The identity (B = 0).
  SwizzleLayout() = default;

  /// Validates 0 <= M, 0 <= B, S >= B and M + S + B <= kMaxBits; errors
  /// name the offending parameter.
  static Expected<SwizzleLayout> make(int64_t perElement, int64_t swizzleLen,
                                      int64_t atomLen);
  /// The swizzle of `mode` for elements of `dtypeBits` bits: M =
  /// bitWidth(128 / dtypeBits) - 1, B = 0/1/2/3, S = 3. `dtypeBits` must be a
  /// power of two in [1, 128].
  static Expected<SwizzleLayout> forDtype(int64_t dtypeBits, SwizzleMode mode);

  int perElement() const { return m_; }
  int swizzleLen() const { return b_; }
  int atomLen() const { return s_; }
  bool isIdentity() const { return b_ == 0; }

  /// addr(m) of the file comment. Self-inverse. @pre m >= 0
  int64_t operator()(int64_t m) const {
    int64_t mask = ((int64_t(1) << b_) - 1) << (m_ + s_);
    return m ^ ((m & mask) >> s_);
  }
  bool operator==(const SwizzleLayout &) const = default;

  /// "Swizzle(M=3,B=3,S=3)".
  std::string str() const;

private:
  int m_ = 0;
  int b_ = 0;
  int s_ = 0;
};

/// A tile layout whose memory address (axis m) goes through a swizzle:
/// L'(x) = { c with c[m] replaced by swizzle(c[m]) | c in L(x) }.
/// Axes other than m pass through unchanged.
class SwizzledTileLayout {
public:
  SwizzledTileLayout() = default;
  SwizzledTileLayout(SwizzleLayout swizzle, TileLayout tile)
      : swizzle_(swizzle), tile_(std::move(tile)) {}

  const SwizzleLayout &swizzle() const { return swizzle_; }
  const TileLayout &tile() const { return tile_; }
  int64_t size() const { return tile_.size(); }

  /// swizzle(address of `flat` on m). No allocation. @pre 0 <= flat < size()
  int64_t addressAt(int64_t flat) const {
    return swizzle_(tile_.addressAt(flat, Axis::m()));
  }
  /// L'(flat), one value per axis of tile().axes(). @pre 0 <= flat < size()
  CoordSet eval(int64_t flat) const;
  /// The first min(limit, replica count) points of L'(flat).
  /// @pre 0 <= flat < size(), limit >= 1
  CoordSet eval(int64_t flat, int64_t limit) const;

  bool operator==(const SwizzledTileLayout &o) const {
    return swizzle_ == o.swizzle_ && tile_ == o.tile_;
  }

  /// "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]".
  std::string str() const;

private:
  SwizzleLayout swizzle_;
  TileLayout tile_;
};

/// Parses either text form of a SwizzleLayout (the whole text).
Expected<SwizzleLayout> parseSwizzleLayout(std::string_view text);
/// Parses `<swizzle> o <tile layout>` (the whole text). Diagnostics of the
/// tile part point into the whole text.
Expected<SwizzledTileLayout> parseSwizzledTileLayout(std::string_view text);

} // namespace lk::tile

#endif // LAYOUTKIT_TILE_SWIZZLELAYOUT_H
