//===- Checked.cpp --------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/core/Checked.h"

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
