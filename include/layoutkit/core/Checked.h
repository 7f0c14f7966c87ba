//===- Checked.h - Overflow-checked integer arithmetic -----------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Sizes, strides and offsets are int64. Every operation that can overflow
/// goes through these helpers. Two styles:
///
///  * `checkedMul(a, b, what)` returns Expected<int64_t> with a diagnostic
///    naming `what` on overflow;
///  * `Arith` is a sticky accumulator for algorithms that do many operations:
///    it records the first overflow and the algorithm checks `ok()` once.
///
/// Examples:
///   checkedMul(1 << 40, 1 << 40, "size")  -> error "integer overflow in size"
///   Arith ar; int64_t s = ar.mul(a, b); s = ar.add(s, c);
///   if (!ar.ok()) return ar.diagnostic("cosize");
///
/// Division helpers follow the mathematical definitions:
///   ceilDiv(7, 2) == 4, ceilDiv(-7, 2) == -3 (rounds toward +inf),
///   floorDiv(-7, 2) == -4. Division by zero is a precondition violation
///   (callers check and report it).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CORE_CHECKED_H
#define LAYOUTKIT_CORE_CHECKED_H

#include "layoutkit/core/Expected.h"

#include <cstdint>
#include <string>

namespace lk {

inline bool addOverflows(int64_t a, int64_t b, int64_t &out) {
  return __builtin_add_overflow(a, b, &out);
}
inline bool subOverflows(int64_t a, int64_t b, int64_t &out) {
  return __builtin_sub_overflow(a, b, &out);
}
inline bool mulOverflows(int64_t a, int64_t b, int64_t &out) {
  return __builtin_mul_overflow(a, b, &out);
}

Expected<int64_t> checkedAdd(int64_t a, int64_t b, const char *what);
Expected<int64_t> checkedSub(int64_t a, int64_t b, const char *what);
Expected<int64_t> checkedMul(int64_t a, int64_t b, const char *what);

/// The smallest power of two >= n, for 1 <= n <= 2^62 (2^62 is the largest
/// power of two of int64): checkedNextPow2(48, w) == 64,
/// checkedNextPow2(64, w) == 64, checkedNextPow2(1, w) == 1. Fails, naming
/// `what`, for n < 1 ("<what> must be >= 1, got 0") and for n in
/// (2^62, 2^63) ("integer overflow in <what>: the power of two >= N is
/// 2^63, beyond int64"). No loop: 1 << ceil(log2 n).
Expected<int64_t> checkedNextPow2(int64_t n, const char *what);

/// 2^k for 0 <= k <= 62; fails naming `what` otherwise ("integer overflow
/// in <what>: 2^63 is beyond int64").
Expected<int64_t> checkedPow2(int64_t k, const char *what);

/// ceil(a / b) for b > 0 (any sign of a). @pre b > 0
constexpr int64_t ceilDiv(int64_t a, int64_t b) {
  return a >= 0 ? (a / b) + (a % b != 0) : -((-a) / b);
}
/// floor(a / b) for b > 0. @pre b > 0
constexpr int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -ceilDiv(-a, b);
}
constexpr int64_t signum(int64_t a) { return (a > 0) - (a < 0); }
constexpr int64_t absValue(int64_t a) { return a < 0 ? -a : a; }
/// Greatest common divisor, gcd(0, 0) == 0, always >= 0.
int64_t gcd(int64_t a, int64_t b);

/// Sticky overflow accumulator: every operation returns the (wrapped) result
/// and remembers whether any overflowed.
class Arith {
public:
  int64_t add(int64_t a, int64_t b) {
    int64_t r;
    bad_ |= addOverflows(a, b, r);
    return r;
  }
  int64_t sub(int64_t a, int64_t b) {
    int64_t r;
    bad_ |= subOverflows(a, b, r);
    return r;
  }
  int64_t mul(int64_t a, int64_t b) {
    int64_t r;
    bad_ |= mulOverflows(a, b, r);
    return r;
  }
  bool ok() const { return !bad_; }
  /// "integer overflow in <what>".
  static Diagnostic diagnostic(const std::string &what);

private:
  bool bad_ = false;
};

} // namespace lk

#endif // LAYOUTKIT_CORE_CHECKED_H
