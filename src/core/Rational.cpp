//===- Rational.cpp -------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/core/Rational.h"
#include "layoutkit/core/Checked.h"

#include <cstdint>
#include <limits>

namespace lk {

Expected<Rational> Rational::make(int64_t num, int64_t den) {
  if (den == 0)
    return Diagnostic::error("zero denominator in fraction " +
                             std::to_string(num) + "/0");
  if (num == std::numeric_limits<int64_t>::min() ||
      den == std::numeric_limits<int64_t>::min())
    return Arith::diagnostic("fraction normalization");
  if (den < 0) {
    num = -num;
    den = -den;
  }
  int64_t g = gcd(num, den);
  Rational r;
  r.num_ = g ? num / g : 0;
  r.den_ = g ? den / g : 1;
  return r;
}

Expected<Rational> Rational::add(const Rational &o) const {
  Arith ar;
  int64_t n = ar.add(ar.mul(num_, o.den_), ar.mul(o.num_, den_));
  int64_t d = ar.mul(den_, o.den_);
  if (!ar.ok())
    return Arith::diagnostic("fraction addition");
  return make(n, d);
}

Expected<Rational> Rational::mul(const Rational &o) const {
  Arith ar;
  int64_t n = ar.mul(num_, o.num_);
  int64_t d = ar.mul(den_, o.den_);
  if (!ar.ok())
    return Arith::diagnostic("fraction multiplication");
  return make(n, d);
}

std::string Rational::str() const {
  return den_ == 1 ? std::to_string(num_)
                   : std::to_string(num_) + "/" + std::to_string(den_);
}

} // namespace lk
