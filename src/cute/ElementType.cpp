//===- ElementType.cpp ----------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/ElementType.h"

#include <mutex>
#include <shared_mutex>

namespace lk::cute {
namespace {

struct BuiltinType {
  const char *name;
  int64_t bits;
};

/// The builtin table (ElementType.h lists it for users).
constexpr BuiltinType kBuiltinTypes[] = {
    // Floating point.
    {"f64", 64},
    {"f32", 32},
    {"tf32", 32},
    {"f16", 16},
    {"bf16", 16},
    {"f8e4m3", 8},
    {"f8e5m2", 8},
    {"f6e2m3", 6},
    {"f6e3m2", 6},
    {"f4e2m1", 4},
    // Block-scaled (microscaling) formats.
    {"nvfp4", 4},
    {"mxf4", 4},
    {"mxf6", 6},
    {"mxf8", 8},
    // Scale factors.
    {"ue8m0", 8},
    {"ue4m3", 8},
    // Integers.
    {"i64", 64},
    {"i32", 32},
    {"i16", 16},
    {"i8", 8},
    {"i4", 4},
    {"u64", 64},
    {"u32", 32},
    {"u16", 16},
    {"u8", 8},
    {"u4", 4},
    // Bits.
    {"b1", 1},
};

bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isIdentBody(char c) { return isIdentStart(c) || (c >= '0' && c <= '9'); }

} // namespace

struct ElementTypeRegistry::Impl {
  mutable std::shared_mutex mutex;
  std::vector<ElementType> types; // registration order; small, scanned
};

ElementTypeRegistry::ElementTypeRegistry(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

ElementTypeRegistry::ElementTypeRegistry() : impl_(std::make_unique<Impl>()) {
  for (const BuiltinType &b : kBuiltinTypes)
    impl_->types.push_back(ElementType{b.name, b.bits});
}

ElementTypeRegistry ElementTypeRegistry::empty() {
  return ElementTypeRegistry(std::make_unique<Impl>());
}

ElementTypeRegistry::~ElementTypeRegistry() = default;
ElementTypeRegistry::ElementTypeRegistry(ElementTypeRegistry &&) noexcept =
    default;
ElementTypeRegistry &
ElementTypeRegistry::operator=(ElementTypeRegistry &&) noexcept = default;

ElementTypeRegistry &ElementTypeRegistry::global() {
  static ElementTypeRegistry registry;
  return registry;
}

Expected<ElementType> ElementTypeRegistry::lookup(std::string_view name) const {
  std::shared_lock lock(impl_->mutex);
  for (const ElementType &t : impl_->types)
    if (t.name == name)
      return t;
  std::string known;
  for (const ElementType &t : impl_->types)
    known += (known.empty() ? "" : ", ") + t.name;
  return Diagnostic::error("unknown element type '" + excerpt(name) + "'")
      .note("known element types: " + known);
}

bool ElementTypeRegistry::contains(std::string_view name) const {
  return lookup(name).hasValue();
}

Status ElementTypeRegistry::add(std::string_view name, int64_t bits) {
  std::string shown(name.substr(0, kMaxNameLength));
  if (name.empty())
    return Diagnostic::error("element type name must not be empty");
  if (name.size() > kMaxNameLength)
    return Diagnostic::error("element type name '" + shown +
                             "...' is longer than " +
                             std::to_string(kMaxNameLength) + " characters");
  bool ident = isIdentStart(name[0]);
  for (char c : name)
    ident = ident && isIdentBody(c);
  if (!ident)
    return Diagnostic::error("element type name '" + shown +
                             "' is not an identifier [A-Za-z_][A-Za-z0-9_]*");
  if (bits < 1 || bits > kMaxBits)
    return Diagnostic::error("element type '" + shown + "' must have 1 to " +
                             std::to_string(kMaxBits) + " bits, not " +
                             std::to_string(bits));
  std::unique_lock lock(impl_->mutex);
  for (const ElementType &t : impl_->types)
    if (t.name == name)
      return Diagnostic::error("element type '" + shown +
                               "' is already registered (" +
                               std::to_string(t.bits) + " bits)");
  impl_->types.push_back(ElementType{shown, bits});
  return Ok{};
}

std::vector<ElementType> ElementTypeRegistry::all() const {
  std::shared_lock lock(impl_->mutex);
  return impl_->types;
}

Expected<ElementType> lookupElementType(std::string_view name) {
  return ElementTypeRegistry::global().lookup(name);
}

Status registerElementType(std::string_view name, int64_t bits) {
  return ElementTypeRegistry::global().add(name, bits);
}

} // namespace lk::cute
