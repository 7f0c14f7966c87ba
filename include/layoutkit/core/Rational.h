//===- Rational.h - Exact fractions ------------------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `Rational` is an exact fraction num/den of int64s kept in lowest terms with
/// a positive denominator. Construction from a zero denominator is an error,
/// not a value, so a Rational that exists is always well defined.
///
/// Examples:
///   Rational::make(2, 4)  -> 1/2
///   Rational::make(3, -6) -> -1/2
///   Rational::make(1, 0)  -> error "zero denominator"
///   (1/2).isIntegral() == false, (4/2).asInteger() == 2
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CORE_RATIONAL_H
#define LAYOUTKIT_CORE_RATIONAL_H

#include "layoutkit/core/Expected.h"

#include <cstdint>
#include <string>

namespace lk {

class Rational {
public:
  /// The integer n (= n/1).
  constexpr Rational(int64_t n = 0) : num_(n), den_(1) {}

  /// num/den normalized. Fails on den == 0 or on overflow while normalizing
  /// (only possible for INT64_MIN).
  static Expected<Rational> make(int64_t num, int64_t den);

  int64_t num() const { return num_; }
  int64_t den() const { return den_; }
  bool isIntegral() const { return den_ == 1; }
  /// @pre isIntegral()
  int64_t asInteger() const { return num_; }

  Expected<Rational> add(const Rational &o) const;
  Expected<Rational> mul(const Rational &o) const;

  bool operator==(const Rational &o) const = default;
  /// "n" when integral, "n/d" otherwise.
  std::string str() const;

private:
  int64_t num_;
  int64_t den_;
};

} // namespace lk

#endif // LAYOUTKIT_CORE_RATIONAL_H
