//===- TileASBase.td - The tileas dialect and its attributes -*- tablegen -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The dialect of the TileAS layout and buffer passes (docs/design.md §4.1):
// tile values, their memory kinds and layout families, and the ops the
// passes rewrite. Syntax of every attribute and op: docs/mlir.md.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUTKIT_MLIR_TILEAS_BASE_TD
#define LAYOUTKIT_MLIR_TILEAS_BASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/TensorEncoding.td"

def TileAS_Dialect : Dialect {
  let name = "tileas";
  let cppNamespace = "::lk::tileas";
  let summary = "Tile values, their placements and the TileAS layout passes";
  let description = [{
    Tile values are ranked tensors. Their encoding, `#tileas.encoding<...>`,
    says where a value lives (register, smem, tmem, global) and which layout
    family places it (shared, blocked, dot_operand, linear). The concrete
    memory layout is `#tileas.layout<...>`, LayoutKit's layout attribute.
  }];
  // `#tileas.layout<...>` is parsed by LayoutKit's attribute grammar, so the
  // dialect dispatches attribute parsing and printing itself.
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;
  }];
}

/// A parsed LayoutKit layout attribute as an attribute parameter, handed
/// out by reference.
def TileAS_LayoutValueParameter
    : AttrParameter<"::lk::cute::LayoutAttribute", "a parsed layout",
                    "const ::lk::cute::LayoutAttribute &">;

/// `#tileas.layout<shape, stride[, swizzle<B,M,S>][, elem=name]>`: a
/// LayoutKit layout attribute (lk::cute::LayoutAttribute), stored parsed.
/// The stored layout is the normal form of its function (each top-level
/// mode coalesced, lk::tileas::normalLayout), so the hash and equality of
/// the attribute are those of the function: two texts of one layout
/// function are one attribute, printed in the normal form.
def TileAS_LayoutAttr : AttrDef<TileAS_Dialect, "Layout"> {
  let summary = "a LayoutKit layout attribute (shape, stride, swizzle, elem)";
  let attrName = "tileas.layout";
  let parameters = (ins TileAS_LayoutValueParameter:$value);
  let skipDefaultBuilders = 1;
  let builders = [
    AttrBuilder<(ins "const ::lk::cute::LayoutAttribute &":$value), [{
      return $_get($_ctxt, ::lk::tileas::normalLayout(value));
    }]>
  ];
  let extraClassDeclaration = [{
    /// The canonical text of the stored (normal) layout.
    std::string getText() const { return getValue().str(); }
  }];
}

/// `#tileas.encoding<memKind, family[, layout = #tileas.layout<...>]
///                    [, atom = "name"][, opIdx = n]>`.
/// As a tensor encoding it is verified against the tensor's shape
/// (VerifiableTensorEncoding): a memory layout places exactly the tensor's
/// elements (docs/mlir.md).
def TileAS_EncodingAttr : AttrDef<TileAS_Dialect, "Encoding",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let mnemonic = "encoding";
  let summary = "where a tile value lives and which layout family places it";
  let parameters = (ins
    "::lk::tileas::MemKind":$memKind,
    "::lk::tileas::LayoutFamily":$family,
    OptionalParameter<"::lk::tileas::LayoutAttr">:$layout,
    StringRefParameter<"hardware atom name", "\"\"">:$atom,
    OptionalParameter<"std::optional<int64_t>">:$opIdx);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // LAYOUTKIT_MLIR_TILEAS_BASE_TD
