//===- ElementType.h - Named element types and their widths ------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An `ElementType` is a named scalar type with a storage width in bits, as
/// named by the `elem=` clause of layout attributes (Attribute.h). Names are
/// looked up in an `ElementTypeRegistry`; the global registry starts with the
/// builtin table below and users may register more.
///
/// Builtin types (name: bits):
///   floating point  f64 64, f32 32, tf32 32 (storage width), f16 16,
///                   bf16 16, f8e4m3 8, f8e5m2 8, f6e2m3 6, f6e3m2 6,
///                   f4e2m1 4
///   block-scaled    nvfp4 4, mxf4 4, mxf6 6, mxf8 8
///   scale factors   ue8m0 8, ue4m3 8
///   integers        i64 64, i32 32, i16 16, i8 8, i4 4,
///                   u64 64, u32 32, u16 16, u8 8, u4 4
///   bits            b1 1
///
/// A name is an identifier `[A-Za-z_][A-Za-z0-9_]*` of at most
/// kMaxNameLength characters; a width is 1 .. kMaxBits bits. Names are case
/// sensitive (`F16` is not `f16`).
///
/// Examples:
///   lookupElementType("nvfp4")        -> {nvfp4, 4}
///   lookupElementType("fp4")          -> error "unknown element type 'fp4'"
///   registerElementType("e3m4", 8)    -> ok; lookup("e3m4") -> {e3m4, 8}
///   registerElementType("f16", 16)    -> error "element type 'f16' is
///                                        already registered"
///   registerElementType("x", 0)       -> error "... must have 1 to 1024 bits"
///
/// Registries are thread-safe: lookups and registrations may run
/// concurrently.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CUTE_ELEMENTTYPE_H
#define LAYOUTKIT_CUTE_ELEMENTTYPE_H

#include "layoutkit/core/Expected.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lk::cute {

/// A named element type and its storage width.
struct ElementType {
  std::string name;
  int64_t bits = 0;

  bool operator==(const ElementType &) const = default;
};

/// A set of element types, keyed by name.
class ElementTypeRegistry {
public:
  static constexpr size_t kMaxNameLength = 64;
  static constexpr int64_t kMaxBits = 1024;

  /// A registry holding the builtin types.
  ElementTypeRegistry();
  /// An empty registry (no builtins).
  static ElementTypeRegistry empty();
  ~ElementTypeRegistry();
  ElementTypeRegistry(ElementTypeRegistry &&) noexcept;
  ElementTypeRegistry &operator=(ElementTypeRegistry &&) noexcept;

  /// The process-wide registry used by default by the attribute parser.
  static ElementTypeRegistry &global();

  /// The type called `name`, or "unknown element type 'name'" with a note
  /// listing the registered names.
  Expected<ElementType> lookup(std::string_view name) const;
  bool contains(std::string_view name) const;
  /// Adds `name` with `bits`. Fails (registry unchanged) on a name that is
  /// not an identifier or is too long, on a name already registered, and on
  /// a width outside [1, kMaxBits].
  Status add(std::string_view name, int64_t bits);
  /// Every registered type, in registration order (builtins first).
  std::vector<ElementType> all() const;

private:
  struct Impl;
  explicit ElementTypeRegistry(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// ElementTypeRegistry::global().lookup(name).
Expected<ElementType> lookupElementType(std::string_view name);
/// ElementTypeRegistry::global().add(name, bits).
Status registerElementType(std::string_view name, int64_t bits);

} // namespace lk::cute

#endif // LAYOUTKIT_CUTE_ELEMENTTYPE_H
