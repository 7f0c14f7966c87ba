//===- Attribute.h - The layout attribute grammar ----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The layout attribute literal of the tile compiler (docs/design.md §2.1,
/// examples in §6.6): a shape, a parallel stride, an optional hardware
/// swizzle and an optional named element type.
///
///   layout-attr := "<" tuple "," tuple [ "," swizzle ] [ "," elem ] ">"
///   tuple       := uint | "(" tuple { "," tuple } ")"
///   swizzle     := "swizzle" "<" uint "," uint "," uint ">"
///   elem        := "elem" "=" ident
///   ident       := [A-Za-z_] { [A-Za-z0-9_] }
///   uint        := digit { digit }            -- fits in 64 bits
///
/// Blanks (space, tab, CR, newline) may appear between tokens. Shape and
/// stride are congruent trees of non-negative integers (no `()`, no negative
/// strides, no basis strides); shape leaves are positive. The swizzle is one
/// of the hardware triples <0,4,3>, <1,4,3>, <2,4,3>, <3,4,3>, <2,5,2>
/// (docs/design.md §2.1). `elem` names a type of an ElementTypeRegistry.
///
/// Validation order. First the whole text must be syntactically complete;
/// then the element type is looked up -- an unknown name is reported before
/// any other check, even when shape and stride are not congruent or the
/// swizzle is illegal; then the layout (congruence, positive
/// shape, size and every offset fit in 64 bits); then the swizzle, which
/// acts on byte addresses and so needs an element of 2^k bytes (k may be
/// negative) no wider than its 2^M-byte unit (elementSwizzle).
///
/// Printing gives the canonical form, without blanks:
/// `<(128,64),(64,1),swizzle<3,4,3>,elem=nvfp4>`;
/// parseLayoutAttribute(x.str()) == x for every x that make() accepts.
///
/// Examples:
///   <(128,64),(64,1),swizzle<3,4,3>,elem=nvfp4>
///   <((4,32),64),((1,512),16),elem=mxf4>
///   <(1,1),(0,0)>
///   <(16,16),(1,16),swizzle<2,5,2>>
///   <(16,(8,2)),(1,(16,8))>
///   <(16,16),(1,16),swizzle<1,2,3>>
///       -> error "swizzle<1,2,3> is not a hardware swizzle" at column 17,
///          note "supported: swizzle<0,4,3>, swizzle<1,4,3>, ..."
///   <(2,4),(1),elem=fp4>
///       -> error "unknown element type 'fp4'" at column 17 (reported
///          before the congruence error)
///   <(2,4),(1,2)
///       -> error "expected ',' or '>' ... but found end of input"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CUTE_ATTRIBUTE_H
#define LAYOUTKIT_CUTE_ATTRIBUTE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace lk::cute {

/// The swizzles a layout attribute may carry, in the order diagnostics list
/// them: <0,4,3>, <1,4,3>, <2,4,3>, <3,4,3>, <2,5,2>.
std::span<const Swizzle> hardwareSwizzles();
/// True when `s` is one of hardwareSwizzles().
bool isHardwareSwizzle(const Swizzle &s);

/// The swizzle over offsets of `bits`-bit elements that moves them as
/// `bytes` moves byte addresses: element offset e is byte e * bits / 8, so
/// for bits = 8 * 2^k it is Sw<B, M - k, S> (k < 0 below a byte).
/// Fails where bits is not a power of two or M - k < 0 (an element wider
/// than the swizzle's 2^M-byte unit), but for the identity, which then
/// stays as it is.
/// Example: Sw<3,4,3> over f16 (k = 1) is Sw<3,3,3>; over f32 Sw<3,2,3>;
/// over a 4-bit type Sw<3,5,3>.
Expected<Swizzle> elementSwizzle(const Swizzle &bytes, int64_t bits);

/// A parsed layout attribute.
struct LayoutAttribute {
  Layout layout;
  /// Absent when the text has no swizzle clause (distinct from <0,4,3>).
  std::optional<Swizzle> swizzle;
  /// Absent when the text has no elem clause (the element type is then
  /// inherited from the value carrying the layout).
  std::optional<ElementType> elem;

  /// The attribute as a layout of element offsets. Its swizzle, the
  /// hardware's, acts on byte addresses, so it becomes
  /// elementSwizzle(swizzle, bits) for the element's width: elem's, else
  /// `contextBits` (the element type of the value carrying the layout,
  /// e.g. a tensor's), else 8 (offsets are bytes). Fails where that
  /// swizzle does not exist (parse and make() check it for elem).
  /// Example: <(8,64),(64,1),swizzle<3,4,3>,elem=f16> is
  /// Sw<3,3,3> o (8,64):(64,1), as is <(8,64),(64,1),swizzle<3,4,3>> with
  /// contextBits 16; without either, Sw<3,4,3> o (8,64):(64,1).
  Expected<ComposedLayout>
  elementLayout(std::optional<int64_t> contextBits = std::nullopt) const;

  /// Checks what the grammar requires of a parsed attribute: non-empty
  /// tuples, non-negative plain-integer strides, a hardware swizzle, and an
  /// element type registered in `registry` with the same width.
  static Expected<LayoutAttribute>
  make(Layout layout, std::optional<Swizzle> swizzle = std::nullopt,
       std::optional<ElementType> elem = std::nullopt,
       const ElementTypeRegistry &registry = ElementTypeRegistry::global());

  /// The canonical text, e.g. "<(128,64),(64,1),swizzle<3,4,3>,elem=nvfp4>".
  std::string str() const;
  bool operator==(const LayoutAttribute &) const = default;
};

/// Parses a layout attribute; element names are looked up in `registry`.
Expected<LayoutAttribute> parseLayoutAttribute(
    std::string_view text,
    const ElementTypeRegistry &registry = ElementTypeRegistry::global());

/// attr.str().
std::string printLayoutAttribute(const LayoutAttribute &attr);

} // namespace lk::cute

#endif // LAYOUTKIT_CUTE_ATTRIBUTE_H
