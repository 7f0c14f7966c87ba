//===- Expected.h - A value or a Diagnostic ----------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `lk::Expected<T>` holds either a `T` or a `Diagnostic`. It is the return
/// type of every fallible LayoutKit API: no exception crosses a public API.
///
/// Examples:
///   Expected<int64_t> r = checkedMul(a, b, "size");
///   if (!r) return r.error();          // propagate
///   int64_t v = *r;
///
///   LK_TRY(Layout c, composition(a, b)); // declare-and-propagate helper
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CORE_EXPECTED_H
#define LAYOUTKIT_CORE_EXPECTED_H

#include "layoutkit/core/Diagnostic.h"

#include <cassert>
#include <type_traits>
#include <utility>
#include <variant>

namespace lk {

/// Wraps a Diagnostic so that `return Unexpected(d);` converts to any
/// Expected<T>. Plain `return diag;` also works.
template <class T> class [[nodiscard]] Expected {
public:
  Expected(T value) : storage_(std::in_place_index<0>, std::move(value)) {}
  /// Constructs the value in place from `args` (no temporary T).
  template <class... Args>
  explicit Expected(std::in_place_t, Args &&...args)
      : storage_(std::in_place_index<0>, std::forward<Args>(args)...) {}
  Expected(Diagnostic diag)
      : storage_(std::in_place_index<1>, std::move(diag)) {}

  /// True when a value is held.
  bool hasValue() const { return storage_.index() == 0; }
  explicit operator bool() const { return hasValue(); }

  T &value() & {
    assert(hasValue());
    return std::get<0>(storage_);
  }
  const T &value() const & {
    assert(hasValue());
    return std::get<0>(storage_);
  }
  T &&value() && {
    assert(hasValue());
    return std::get<0>(std::move(storage_));
  }

  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T &&operator*() && { return std::move(*this).value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  const Diagnostic &error() const & {
    assert(!hasValue());
    return std::get<1>(storage_);
  }
  Diagnostic &&error() && {
    assert(!hasValue());
    return std::get<1>(std::move(storage_));
  }

  /// The value, or `fallback` when an error is held.
  T valueOr(T fallback) const & { return hasValue() ? value() : fallback; }

private:
  std::variant<T, Diagnostic> storage_;
};

/// Success without a value.
struct Ok {};
using Status = Expected<Ok>;

} // namespace lk

#define LK_CONCAT_IMPL(a, b) a##b
#define LK_CONCAT(a, b) LK_CONCAT_IMPL(a, b)

/// `LK_TRY(decl, expr)`: evaluates `expr` (an Expected), returns its error
/// from the enclosing function on failure, otherwise declares `decl` bound to
/// the value. Example: `LK_TRY(int64_t n, checkedMul(a, b, "size"));`
#define LK_TRY(decl, expr)                                                     \
  auto LK_CONCAT(lk_try_, __LINE__) = (expr);                                  \
  if (!LK_CONCAT(lk_try_, __LINE__))                                           \
    return std::move(LK_CONCAT(lk_try_, __LINE__)).error();                    \
  decl = std::move(*LK_CONCAT(lk_try_, __LINE__))

/// `LK_CHECK(expr)`: returns the error of a Status/Expected on failure.
#define LK_CHECK(expr)                                                         \
  do {                                                                         \
    auto lk_check_tmp = (expr);                                                \
    if (!lk_check_tmp)                                                         \
      return std::move(lk_check_tmp).error();                                  \
  } while (0)

#endif // LAYOUTKIT_CORE_EXPECTED_H
