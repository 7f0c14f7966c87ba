//===- FuzzSupport.h - Shared checks of the fuzz targets ---------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `LK_FUZZ_CHECK(cond, ...)` prints the failing input's story and aborts, so
/// libFuzzer records the input as a crash. `checkDiagnostic` enforces the
/// contract of every parser error: a message and a range inside the text.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_FUZZ_FUZZSUPPORT_H
#define LAYOUTKIT_FUZZ_FUZZSUPPORT_H

#include "layoutkit/core/Diagnostic.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

#define LK_FUZZ_CHECK(cond, ...)                                               \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "fuzz check failed: %s\n  ", #cond);                \
      std::fprintf(stderr, __VA_ARGS__);                                       \
      std::fprintf(stderr, "\n");                                              \
      std::abort();                                                            \
    }                                                                          \
  } while (0)

namespace lk::fuzz {

inline void checkDiagnostic(const Diagnostic &d, std::string_view text) {
  LK_FUZZ_CHECK(!d.message.empty(), "empty diagnostic");
  LK_FUZZ_CHECK(d.range.has_value(), "diagnostic without range: %s",
                d.message.c_str());
  LK_FUZZ_CHECK(d.range->begin.offset <= d.range->end.offset &&
                    d.range->end.offset <= text.size(),
                "range [%zu, %zu) outside a text of %zu bytes: %s",
                d.range->begin.offset, d.range->end.offset, text.size(),
                d.message.c_str());
  (void)d.render();
}

} // namespace lk::fuzz

#endif // LAYOUTKIT_FUZZ_FUZZSUPPORT_H
