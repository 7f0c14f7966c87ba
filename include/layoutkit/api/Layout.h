//===- Layout.h - A layout in any model, read from text ----------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The front-end entry point: one text, any of the library's layout
/// grammars, the model told from the text. Front ends (the CLI, MLIR
/// passes, the WebAssembly demo, Python bindings) read a user's layout with
/// parseLayout() and get an `AnyLayout`, a value tagged with its model:
///
///   Model   value held                 grammars (Syntax)
///   cute    cute::ComposedLayout       CuteText (`S:D`, `Sw<B,M,S> o S:D`),
///                                      Attribute
///                                      (`<S,D[,swizzle<..>][,elem=T]>`),
///                                      BasisDescriptor (strides `(1@0,..)`
///                                      over ParseOptions::shape)
///   tile    tile::SwizzledTileLayout        TileText (`S[..] + R[..] + O`,
///                                      `Swizzle(..) o S[..]`)
///   linear  linear::LinearLayout       LinearText (`{register: ..} -> {..}`),
///                                      StandardParams (Triton's parameters
///                                      as a JSON object, read by
///                                      linear::parseEncodingJson, over
///                                      ParseOptions::shape),
///                                      TtgirText (Triton's attribute text
///                                      `#ttg.blocked<{..}>`, alias lines,
///                                      `tensor<128x64xf16, #..>`)
///
/// ## Detection (the documented order)
///
/// The grammars are tried in this order; a grammar is a candidate when the
/// text's first non-blank characters fit it:
///
///   1. StandardParams   `{"`
///   2. LinearText       `{` not followed by `"`
///   3. TileText         `S[`, `R[` or `Swizzle`
///   4. Attribute        `<`
///   5. TtgirText        `#`, `tensor<` or `!ttg.memdesc<`
///   6. CuteText         anything that fits none of 1-5
///   7. BasisDescriptor  `(`
///
/// The first candidate that reads the text wins. When every candidate
/// fails, the diagnostic is the first candidate's own (its column points
/// into the text) with the note "read as <grammar> (the model is told by
/// the first characters: ...)" and, per further candidate, "also tried as
/// <grammar>: <its first error>". ParseOptions::syntax skips detection.
///
/// Bound: a text longer than kMaxLayoutTextBytes (1 MiB) is refused before
/// any reading ("layout text of N bytes; at most 1048576 (1 MiB) are
/// read"), so every front end reads a pasted TTGIR dump of at most ~50000
/// alias lines in time linear in its length.
///
/// Edge cases: a basis descriptor is only strides: without a shape it is
/// refused ("a basis descriptor needs a shape"); standard-layout parameters
/// need a shape.
/// TTGIR text takes its shape from its tensor type, else from
/// ParseOptions::shape (both given: they must agree); a `#ttg.linear`
/// attribute alone is its own layout, sizes inferred.
///
/// Example:
///   parseLayout("Sw<3,3,3> o (8,64):(64,1)")  -> cute, CuteText
///   parseLayout("S[(8,4,2):(4@laneid,1@laneid,1)]")  -> tile, TileText
///   parseLayout("tensor<16x16xf32, #ttg.blocked<{sizePerThread = [1, 1],
///       threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>>")
///       -> linear {register: [(0,8), (4,0), (8,0)], lane: [(0,1), (0,2),
///          (0,4), (1,0), (2,0)], ...}, TtgirText
///   parseLayout("(1@0,1@1)") with options.shape (4,8)
///       -> cute (4,8):(1@0,1@1), BasisDescriptor
///   parseLayout("{register: [(0,1)") -> error "expected ..." with notes
///       "read as a linear layout (...)"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_LAYOUT_H
#define LAYOUTKIT_API_LAYOUT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/tile/SwizzleLayout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lk::api {

/// The three layout models (docs/design.md §2).
enum class Model { Cute, Tile, Linear };

/// The grammars parseLayout() reads, in detection order.
enum class Syntax {
  StandardParams,
  LinearText,
  TileText,
  Attribute,
  TtgirText,
  CuteText,
  BasisDescriptor,
};

/// "cute", "tile", "linear".
std::string_view modelName(Model m);
/// What the grammar reads, e.g. "a linear layout", "a tile layout",
/// "standard-layout parameters (JSON)", "a cute layout", "a layout
/// attribute", "Triton's TTGIR layout text", "a basis descriptor".
std::string_view syntaxName(Syntax s);
/// The model a grammar's layouts belong to.
Model modelOf(Syntax s);

/// The longest text parseLayout() reads: 1 MiB.
inline constexpr size_t kMaxLayoutTextBytes = size_t(1) << 20;

struct ParseOptions {
  /// Read with this grammar only (no detection).
  std::optional<Syntax> syntax;
  /// The shape StandardParams and BasisDescriptor need (their leaves are
  /// the tensor's extents for StandardParams).
  std::optional<IntTuple> shape;
  /// How diagnostics name the shape, e.g. "--shape" in the CLI; empty
  /// where the caller takes no shape (a TTGIR attribute's diagnostic then
  /// asks for its tensor type only).
  std::string shapeName = "a shape";
  /// The width of the elements of the value carrying the layout (a tensor
  /// type's), for a layout attribute without `elem=`, whose swizzle acts
  /// on byte addresses (cute::LayoutAttribute::elementLayout); absent:
  /// its offsets are bytes.
  std::optional<int64_t> elementBits;
};

/// A layout of one of the three models, with the grammar it was read from.
struct AnyLayout {
  Syntax syntax = Syntax::CuteText;
  std::variant<cute::ComposedLayout, tile::SwizzledTileLayout,
               linear::LinearLayout>
      value;
  /// The element type a layout attribute names (`elem=...`).
  std::optional<cute::ElementType> elem;

  Model model() const { return Model(value.index()); }
  /// The value when the model matches, else nullptr.
  const cute::ComposedLayout *cute() const {
    return std::get_if<cute::ComposedLayout>(&value);
  }
  const tile::SwizzledTileLayout *tile() const {
    return std::get_if<tile::SwizzledTileLayout>(&value);
  }
  const linear::LinearLayout *linear() const {
    return std::get_if<linear::LinearLayout>(&value);
  }
  /// The model's print form: a composed cute layout without its identity
  /// swizzle (`(4,8):(8,1)`), a tile layout without its identity swizzle,
  /// the linear text.
  std::string str() const;
};

/// The grammar the first characters point at, first (see the file comment);
/// always at least CuteText.
std::vector<Syntax> candidateSyntaxes(std::string_view text);

/// The note "read as <grammar> (the model is told by the first characters:
/// ...)" that diagnostics about a detected layout carry.
std::string readAsNote(Syntax s);

/// Reads a layout (see the file comment).
Expected<AnyLayout> parseLayout(std::string_view text,
                                const ParseOptions &options = {});

/// The element type a layout's text names, without reading the layout: a
/// Triton TTGIR type's (f16, bf16, f32, f64, tf32, i8..i64 as themselves;
/// f8E4M3FN, f8E4M3FNUZ, f8E4M3B11FNUZ -> f8e4m3, f8E5M2(FNUZ) -> f8e5m2;
/// f4E2M1FN, f6E2M3FN, f6E3M2FN -> f4e2m1, f6e2m3, f6e3m2; f8E8M0FNU ->
/// ue8m0;
/// i1 -> i8, the byte Triton stores a boolean in; !tt.ptr<T> or
/// !tt.ptr<T, space>, T one of these, -> i64, a 64-bit address), or a layout
/// attribute's `elem=`. nullopt for text that names none (a bare attribute,
/// cute or tile text) or does not parse (parseLayout reports that). Fails, at
/// the name, on an element type outside the list, and on text past
/// kMaxLayoutTextBytes, as parseLayout. Example: "tensor<64x64xbf16, #blocked>"
/// -> bf16.
Expected<std::optional<cute::ElementType>> elementTypeOf(std::string_view text);

/// The element type called `name` where a front end takes one (--dtype,
/// Python's dtype=): a registry name (f16, f8e4m3, ...) or the TTGIR
/// spelling of one that elementTypeOf reads (f8E4M3FN -> f8e4m3,
/// f4E2M1FN -> f4e2m1, i1 -> i8, ...). Fails as the registry's lookup, with
/// a note listing every TTGIR spelling read.
Expected<cute::ElementType> elementTypeNamed(std::string_view name);

/// The leaves of a shape written as an IntTuple, e.g. "(8,(2,4))" ->
/// {8, 2, 4}; the column of the first error otherwise.
Expected<std::vector<int64_t>> parseShapeLeaves(std::string_view text);

/// A tensor shape written as an IntTuple, checked as linear::
/// checkTensorShape checks it (powers of two, at most 2^62 elements): a
/// dim that is no power of two gets a caret under it in `text`. Example:
/// "(64,96)" -> "every tensor dim must be a power of two (got 96)", the
/// caret at column 5.
Expected<IntTuple> parseTensorShape(std::string_view text);

/// The text of a tile layout: the tile alone when its swizzle is the
/// identity, `Swizzle(..) o S[..]` otherwise.
std::string tileText(const tile::SwizzledTileLayout &c);
/// The text of a composed cute layout: `L` when Sw is the identity and the
/// offset 0, `Sw<B,M,S> o L` or `Sw<..> o off o L` otherwise.
std::string cuteText(const cute::ComposedLayout &c);

} // namespace lk::api

#endif // LAYOUTKIT_API_LAYOUT_H
