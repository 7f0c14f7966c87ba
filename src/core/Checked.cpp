//===- Checked.cpp --------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/core/Checked.h"

#include "layoutkit/core/Bits.h"

namespace lk {

static Expected<int64_t> result(bool overflow, int64_t r, const char *what) {
  if (overflow)
    return Arith::diagnostic(what);
  return r;
}

Expected<int64_t> checkedAdd(int64_t a, int64_t b, const char *what) {
  int64_t r;
  bool o = addOverflows(a, b, r);
  return result(o, r, what);
}

Expected<int64_t> checkedSub(int64_t a, int64_t b, const char *what) {
  int64_t r;
  bool o = subOverflows(a, b, r);
  return result(o, r, what);
}

Expected<int64_t> checkedMul(int64_t a, int64_t b, const char *what) {
  int64_t r;
  bool o = mulOverflows(a, b, r);
  return result(o, r, what);
}

Expected<int64_t> checkedPow2(int64_t k, const char *what) {
  if (k < 0 || k > 62)
    return Diagnostic::error(
        "integer overflow in " + std::string(what) + ": 2^" +
        std::to_string(k) +
        (k < 0 ? " is not an integer" : " is beyond int64"));
  return int64_t(1) << k;
}

Expected<int64_t> checkedNextPow2(int64_t n, const char *what) {
  if (n < 1)
    return Diagnostic::error(std::string(what) + " must be >= 1, got " +
                             std::to_string(n));
  int k = log2Ceil(n);
  if (k > 62)
    return Diagnostic::error("integer overflow in " + std::string(what) +
                             ": the power of two >= " + std::to_string(n) +
                             " is 2^" + std::to_string(k) + ", beyond int64");
  return int64_t(1) << k;
}

int64_t gcd(int64_t a, int64_t b) {
  a = absValue(a);
  b = absValue(b);
  while (b != 0) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

Diagnostic Arith::diagnostic(const std::string &what) {
  return Diagnostic::error("integer overflow in " + what);
}

} // namespace lk
