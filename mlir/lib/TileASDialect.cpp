//===- TileASDialect.cpp - The tileas dialect and its attributes ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// `#tileas.layout<...>` is read by LayoutKit's attribute parser
// (lk::cute::parseLayoutAttribute): the same grammar, swizzle whitelist,
// element registry and messages as everywhere else in LayoutKit. Its
// diagnostic offset is mapped onto the MLIR source location of the text.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/TileAS.h"

#include "layoutkit/core/Checked.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/hw/Atom.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace lk::tileas;

#include "layoutkit-mlir/TileASDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "layoutkit-mlir/TileASAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

StringRef lk::tileas::stringifyMemKind(MemKind k) {
  switch (k) {
  case MemKind::Register:
    return "register";
  case MemKind::Smem:
    return "smem";
  case MemKind::Tmem:
    return "tmem";
  case MemKind::Global:
    return "global";
  }
  return "";
}

std::optional<MemKind> lk::tileas::symbolizeMemKind(StringRef s) {
  return llvm::StringSwitch<std::optional<MemKind>>(s)
      .Case("register", MemKind::Register)
      .Case("smem", MemKind::Smem)
      .Case("tmem", MemKind::Tmem)
      .Case("global", MemKind::Global)
      .Default(std::nullopt);
}

StringRef lk::tileas::stringifyLayoutFamily(LayoutFamily f) {
  switch (f) {
  case LayoutFamily::Shared:
    return "shared";
  case LayoutFamily::Blocked:
    return "blocked";
  case LayoutFamily::DotOperand:
    return "dot_operand";
  case LayoutFamily::Linear:
    return "linear";
  }
  return "";
}

std::optional<LayoutFamily> lk::tileas::symbolizeLayoutFamily(StringRef s) {
  return llvm::StringSwitch<std::optional<LayoutFamily>>(s)
      .Case("shared", LayoutFamily::Shared)
      .Case("blocked", LayoutFamily::Blocked)
      .Case("dot_operand", LayoutFamily::DotOperand)
      .Case("linear", LayoutFamily::Linear)
      .Default(std::nullopt);
}

EncodingAttr lk::tileas::encodingOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? dyn_cast_or_null<EncodingAttr>(tensor.getEncoding())
                : EncodingAttr();
}

MemKind lk::tileas::memKindOf(Type type) {
  EncodingAttr enc = encodingOf(type);
  return enc ? enc.getMemKind() : MemKind::Register;
}

std::optional<int64_t> lk::tileas::storageBits(Type element) {
  if (!element) // a type the parser could not read
    return std::nullopt;
  if (isa<FloatTF32Type>(element))
    return 32;
  if (!element.isIntOrFloat())
    return std::nullopt;
  return element.getIntOrFloatBitWidth();
}

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

void TileASDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "layoutkit-mlir/TileASAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "layoutkit-mlir/TileASOps.cpp.inc"
      >();
}

/// Reports a LayoutKit diagnostic at its position inside `text`, a piece of
/// the MLIR source buffer, with its notes attached.
static void emitLayoutKitError(AsmParser &parser, StringRef text,
                               const lk::Diagnostic &diag) {
  size_t offset = diag.range ? diag.range->begin.offset : 0;
  SMLoc loc =
      SMLoc::getFromPointer(text.data() + std::min(offset, text.size()));
  InFlightDiagnostic err = parser.emitError(loc, diag.message);
  for (const std::string &note : diag.notes)
    err.attachNote() << note;
}

/// `layout<...>`: everything after the mnemonic is LayoutKit's text.
static Attribute parseLayoutAttr(DialectAsmParser &parser, StringRef spec) {
  StringRef text = spec.drop_front(StringRef("layout").size());
  lk::Expected<lk::cute::LayoutAttribute> parsed =
      lk::cute::parseLayoutAttribute(
          std::string_view(text.data(), text.size()));
  if (!parsed) {
    emitLayoutKitError(parser, text, parsed.error());
    return {};
  }
  return LayoutAttr::get(parser.getContext(), *parsed);
}

Attribute TileASDialect::parseAttribute(DialectAsmParser &parser,
                                        Type type) const {
  StringRef spec = parser.getFullSymbolSpec();
  if (spec.starts_with("layout<"))
    return parseLayoutAttr(parser, spec);
  StringRef mnemonic;
  Attribute attr;
  OptionalParseResult result =
      generatedAttributeParser(parser, &mnemonic, type, attr);
  if (result.has_value())
    return attr;
  parser.emitError(parser.getNameLoc(), "unknown tileas attribute '")
      << mnemonic << "'";
  return {};
}

void TileASDialect::printAttribute(Attribute attr,
                                   DialectAsmPrinter &printer) const {
  if (auto layout = dyn_cast<LayoutAttr>(attr)) {
    printer << "layout" << layout.getText();
    return;
  }
  (void)generatedAttributePrinter(attr, printer);
}

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

llvm::hash_code lk::cute::hash_value(const LayoutAttribute &a) {
  return llvm::hash_value(a.str());
}

lk::cute::LayoutAttribute
lk::tileas::normalLayout(const lk::cute::LayoutAttribute &a) {
  const lk::IntTuple &shape = a.layout.shape();
  lk::IntTuple profile = lk::IntTuple::leaf(1);
  if (shape.isTuple())
    profile = lk::IntTuple::tuple(
        std::vector<lk::IntTuple>(shape.rank(), lk::IntTuple::leaf(1)));
  lk::Expected<lk::cute::Layout> c = lk::cute::coalesce(a.layout, profile);
  if (!c) // the profile has the layout's rank: not reached
    return a;
  lk::cute::LayoutAttribute out = a;
  out.layout = std::move(*c);
  return out;
}

//===----------------------------------------------------------------------===//
// EncodingAttr
//===----------------------------------------------------------------------===//

/// Parses one `key = value` entry of an encoding into the matching field.
/// `seen` holds a bit per field read so far: a field given twice is refused
/// at its key, and an atom name that names no atom at the name.
static ParseResult parseEncodingEntry(AsmParser &p, LayoutAttr &layout,
                                      std::string &atom,
                                      std::optional<int64_t> &opIdx,
                                      unsigned &seen) {
  SMLoc keyLoc = p.getCurrentLocation();
  StringRef key;
  if (p.parseKeyword(&key) || p.parseEqual())
    return failure();
  static constexpr StringLiteral kFields[] = {"layout", "atom", "opIdx"};
  const auto *field = llvm::find(kFields, key);
  if (field == std::end(kFields))
    return p.emitError(keyLoc, "unknown encoding field '")
           << key << "' (expected layout, atom or opIdx)";
  const unsigned bit = 1u << (field - std::begin(kFields));
  if (seen & bit)
    return p.emitError(keyLoc, "encoding field '") << key << "' is given twice";
  seen |= bit;
  SMLoc valueLoc = p.getCurrentLocation();
  if (key == "layout") {
    Attribute attr;
    if (p.parseAttribute(attr))
      return failure();
    layout = dyn_cast<LayoutAttr>(attr);
    if (!layout)
      return p.emitError(valueLoc, "expected a #tileas.layout<...> attribute");
    return success();
  }
  if (key == "atom") {
    if (p.parseString(&atom))
      return failure();
    lk::Expected<const lk::hw::Atom *> found = lk::hw::findAtom(atom);
    if (!found) { // at the name, with findAtom's note of the name families
      InFlightDiagnostic err = p.emitError(valueLoc, found.error().message);
      for (const std::string &note : found.error().notes)
        err.attachNote() << note;
      return err;
    }
    return success();
  }
  int64_t v = 0;
  if (p.parseInteger(v))
    return failure();
  opIdx = v;
  return success();
}

Attribute EncodingAttr::parse(AsmParser &p, Type) {
  SMLoc loc = p.getCurrentLocation();
  StringRef kindName, familyName;
  if (p.parseLess())
    return {};
  SMLoc kindLoc = p.getCurrentLocation();
  if (p.parseKeyword(&kindName))
    return {};
  std::optional<MemKind> kind = symbolizeMemKind(kindName);
  if (!kind) {
    p.emitError(kindLoc, "unknown memory kind '")
        << kindName << "' (expected register, smem, tmem or global)";
    return {};
  }
  SMLoc familyLoc;
  if (p.parseComma() || (familyLoc = p.getCurrentLocation(), false) ||
      p.parseKeyword(&familyName))
    return {};
  std::optional<LayoutFamily> family = symbolizeLayoutFamily(familyName);
  if (!family) {
    p.emitError(familyLoc, "unknown layout family '")
        << familyName << "' (expected shared, blocked, dot_operand or linear)";
    return {};
  }
  LayoutAttr layout;
  std::string atom;
  std::optional<int64_t> opIdx;
  unsigned seen = 0;
  while (succeeded(p.parseOptionalComma()))
    if (parseEncodingEntry(p, layout, atom, opIdx, seen))
      return {};
  if (p.parseGreater())
    return {};
  return getChecked([&] { return p.emitError(loc); }, p.getContext(), *kind,
                    *family, layout, atom, opIdx);
}

void EncodingAttr::print(AsmPrinter &p) const {
  p << "<" << stringifyMemKind(getMemKind()) << ", "
    << stringifyLayoutFamily(getFamily());
  if (getLayout()) {
    p << ", layout = ";
    p.printAttribute(getLayout());
  }
  if (!getAtom().empty())
    p << ", atom = \"" << getAtom() << "\"";
  if (getOpIdx())
    p << ", opIdx = " << *getOpIdx();
  p << ">";
}

LogicalResult EncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   MemKind memKind, LayoutFamily family,
                                   LayoutAttr layout, StringRef atom,
                                   std::optional<int64_t> opIdx) {
  bool memory = isMemory(memKind);
  if (family == LayoutFamily::Shared && !memory)
    return emitError() << "the shared layout family places smem, tmem or "
                          "global values, not register values";
  if ((family == LayoutFamily::Blocked || family == LayoutFamily::DotOperand) &&
      memory)
    return emitError() << "the " << stringifyLayoutFamily(family)
                       << " layout family places register values, not "
                       << stringifyMemKind(memKind) << " values";
  // A register value's layout is its (thread, value) placement; a swizzle
  // permutes a buffer's addresses, so it belongs to smem, tmem or global.
  if (layout && !memory && layout.getValue().swizzle)
    return emitError() << "a swizzled layout belongs to a smem, tmem or "
                          "global value, not to a register value";
  if (layout && !memory && layout.getValue().layout.rank() != 2)
    return emitError() << "a register value's layout is a (thread, value) "
                          "layout of 2 top-level modes, not "
                       << layout.getValue().layout.rank();
  if (!atom.empty()) {
    lk::Expected<const lk::hw::Atom *> found =
        lk::hw::findAtom(std::string_view(atom.data(), atom.size()));
    if (!found)
      return emitError() << found.error().message;
  }
  if (opIdx && family != LayoutFamily::DotOperand)
    return emitError() << "opIdx is only meaningful for dot_operand";
  if (opIdx && *opIdx != 0 && *opIdx != 1)
    return emitError() << "opIdx must be 0 (operand A) or 1 (operand B), got "
                       << *opIdx;
  return success();
}

/// The element count of a static `shape`, or nullopt when a dimension is
/// dynamic. `overflow` is set when the product passes 2^63-1.
static std::optional<int64_t> staticElementCount(ArrayRef<int64_t> shape,
                                                 bool &overflow) {
  overflow = false;
  int64_t n = 1;
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d) || d < 0)
      return std::nullopt;
    if (!overflow && lk::mulOverflows(n, d, n))
      overflow = true;
  }
  return n;
}

/// A memory value's layout maps each of the tensor's elements (index in
/// [0, N), N = product of the static shape) to an offset, so its domain
/// has exactly N points: layout.size() == N. Skipped without a layout, for
/// a dynamic shape, and for register values (a (thread, value) layout may
/// hold an element in several threads: ((4,8),2):((2,0),1) places 8
/// elements from 64 slots). Example: tensor<16x16xf16> with smem layout
/// (8,8):(8,1) -> "smem layout <(8,8),(8,1)> places 64 elements, the
/// tensor of shape 16x16 holds 256" (a tensor<f16>: "the rank-0 tensor
/// holds 1"; a tensor<0xf16>: "the tensor of shape 0 holds 0").
/// Two elements may share an offset: (16,16):(0,1) is a broadcast view of
/// 256 elements over 16 offsets. A layout that names `elem=` (any memory
/// kind) must name the tensor's element width (storageBits): elem=f32 on
/// f16 elements, or on complex ones, is refused. Without `elem=` a swizzle
/// is read over the tensor's elements, and refused where their width does
/// not convert it (swizzle<3,4,3> on f6E2M3FN elements of 6 bits).
LogicalResult EncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type element,
    function_ref<InFlightDiagnostic()> emitError) const {
  LayoutAttr layout = getLayout();
  if (layout && layout.getValue().elem && element) { // null: a parse error
    const lk::cute::ElementType &elem = *layout.getValue().elem;
    std::optional<int64_t> bits = storageBits(element);
    if (!bits || *bits != elem.bits) {
      auto width = [](int64_t n) {
        return " (" + std::to_string(n) + (n == 1 ? " bit)" : " bits)");
      };
      InFlightDiagnostic d = emitError();
      d << "layout " << layout.getText() << " names elem=" << elem.name
        << width(elem.bits) << ", but the tensor's elements are " << element;
      if (bits)
        return d << width(*bits);
      return d << ", which have no int or float width";
    }
  }
  // Without elem= the tensor's elements convert the byte swizzle, as
  // elem= of their width would: a width no swizzle converts is refused.
  if (layout && !layout.getValue().elem)
    if (std::optional<int64_t> bits = storageBits(element))
      if (lk::Expected<lk::cute::ComposedLayout> e =
              layout.getValue().elementLayout(*bits);
          !e)
        return emitError() << "layout " << layout.getText() << " over the "
                           << "tensor's elements, " << element << ": "
                           << e.error().message;
  if (!layout || !isMemory(getMemKind()))
    return success();
  bool overflow = false;
  std::optional<int64_t> count = staticElementCount(shape, overflow);
  int64_t places = layout.getValue().layout.size();
  if (!count || (!overflow && *count == places))
    return success();
  InFlightDiagnostic d = emitError();
  d << stringifyMemKind(getMemKind()) << " layout " << layout.getText()
    << " places " << places << (places == 1 ? " element" : " elements")
    << ", the ";
  if (shape.empty())
    d << "rank-0 tensor";
  else
    d << "tensor of shape ";
  llvm::interleave(shape, d, "x");
  d << " holds ";
  if (overflow)
    return d << "more than 2^63-1";
  return d << *count;
}

void lk::tileas::registerProgramDialects(DialectRegistry &registry) {
  registry.insert<TileASDialect, func::FuncDialect, arith::ArithDialect,
                  scf::SCFDialect, affine::AffineDialect>();
}
