//===- Bits.h - Powers of two and bit widths -------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one family of power-of-two helpers. Each name says how it rounds:
///
///   isPow2(v)     v > 0 and a power of two        isPow2(8), !isPow2(0)
///   log2Exact(v)  log2 v of a power of two, else -1  log2Exact(8) == 3,
///                                                     log2Exact(12) == -1
///   log2Floor(v)  floor(log2 v); 0 for v <= 1      log2Floor(12) == 3
///   log2Ceil(v)   ceil(log2 v); 0 for v <= 1       log2Ceil(12) == 4
///   bitWidth(v)   bits needed to write v; 0 for 0  bitWidth(8) == 4
///   lowMask(n)    the n low bits set, 0 <= n <= 64 lowMask(3) == 0b111
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CORE_BITS_H
#define LAYOUTKIT_CORE_BITS_H

#include <bit>
#include <cstdint>
#include <limits>

namespace lk {

/// True iff v > 0 is a power of two.
constexpr bool isPow2(int64_t v) noexcept {
  return v > 0 && (v & (v - 1)) == 0;
}

/// log2 v when v is a power of two; -1 otherwise (v <= 0 included).
constexpr int log2Exact(int64_t v) noexcept {
  return isPow2(v) ? std::countr_zero(uint64_t(v)) : -1;
}

/// floor(log2 v) for v >= 1; 0 for v <= 1.
constexpr int log2Floor(int64_t v) noexcept {
  return v <= 1 ? 0 : 63 - std::countl_zero(uint64_t(v));
}

/// ceil(log2 v) for v >= 1; 0 for v <= 1.
constexpr int log2Ceil(int64_t v) noexcept {
  return v <= 1 ? 0 : 64 - std::countl_zero(uint64_t(v - 1));
}

/// The number of bits needed to write v: floor(log2 v) + 1, and 0 for 0.
constexpr int bitWidth(uint64_t v) noexcept { return 64 - std::countl_zero(v); }

/// 2^n for 0 <= n <= 62, and INT64_MAX for n >= 63, where 2^n does not
/// fit an int64_t: the count saturates at a value no enumeration,
/// allocation or checked product can reach, so every bound a caller checks
/// refuses it. A caller that needs the exact size of 2^63 or 2^64 (to print
/// it, or to compare two sizes) uses n itself. Example: pow2Saturated(10)
/// == 1024, pow2Saturated(63) == pow2Saturated(64) == INT64_MAX.
/// @pre n >= 0
constexpr int64_t pow2Saturated(int n) noexcept {
  return n >= 63 ? std::numeric_limits<int64_t>::max() : int64_t(1) << n;
}

/// The mask of the n low bits, 0 <= n <= 64.
constexpr uint64_t lowMask(int n) noexcept {
  return n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
}

} // namespace lk

#endif // LAYOUTKIT_CORE_BITS_H
