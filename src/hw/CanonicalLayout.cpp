//===- CanonicalLayout.cpp - Descriptor <-> shared-memory layout ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/CanonicalLayout.h"

#include "layoutkit/core/Bits.h"

#include "layoutkit/core/Checked.h"
#include "layoutkit/cute/Algebra.h"

#include <optional>
#include <string>

namespace lk::hw {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

Status checkElementBits(int64_t bits) {
  if (!isPow2(bits) || bits > 128)
    return Diagnostic::error("element width " + str(bits) +
                             " bits: canonical layouts need a power of two "
                             "from 1 to 128 bits");
  return Ok{};
}

std::string title(Major major, SwizzleMode mode) {
  return std::string(name(major)) + "-major " + std::string(name(mode));
}

/// The modes with a canonical layout for `major`.
Status checkMode(Major major, SwizzleMode mode) {
  switch (mode) {
  case SwizzleMode::None:
  case SwizzleMode::B32:
  case SwizzleMode::B64:
  case SwizzleMode::B128:
    return Ok{};
  case SwizzleMode::B128Atom32B:
    if (major == Major::MN)
      return Ok{};
    return Diagnostic::error("swizzle mode 128B_atom32B has no K-major "
                             "canonical layout (it is MN-major only)");
  default:
    return Diagnostic::error("swizzle mode " + std::string(name(mode)) +
                             " has no canonical MMA layout");
  }
}

/// Elements per 16 bytes, and the pattern width in 16-byte units.
struct Geometry {
  int64_t T = 1;
  int64_t S = 1;
};

Geometry geometry(SwizzleMode mode, int64_t bits) {
  Geometry g;
  g.T = 128 / bits;
  g.S = mode == SwizzleMode::None ? 1 : info(mode).spanBytes / 16;
  return g;
}

/// bytes -> elements for an offset that must be a multiple of 16 B.
Expected<int64_t> toElements(int64_t bytes, int64_t bits, const char *what) {
  if (bytes < 0 || bytes % 16 != 0)
    return Diagnostic::error(std::string(what) + " = " + str(bytes) +
                             " B; allowed: a non-negative multiple of 16 B");
  LK_TRY(int64_t b8, checkedMul(bytes, 8, what));
  return b8 / bits;
}

Expected<int64_t> toBytes(int64_t elements, int64_t bits, const char *what) {
  LK_TRY(int64_t eb, checkedMul(elements, bits, what));
  if (eb % 8 != 0)
    return Diagnostic::error(std::string(what) + " = " + str(elements) +
                             " elements of " + str(bits) +
                             " bits is not a whole number of bytes");
  return eb / 8;
}

Status divides(const std::string &ctx, const char *dim, int64_t extent,
               int64_t unit, const char *what) {
  if (extent <= 0 || extent % unit != 0)
    return Diagnostic::error(ctx + ": " + dim + " = " + str(extent) +
                             " is not a positive multiple of " + str(unit) +
                             " (" + what + ")");
  return Ok{};
}

} // namespace

std::string_view name(Major major) { return major == Major::K ? "K" : "MN"; }

Expected<cute::ComposedLayout> canonicalAtom(Major major, SwizzleMode mode,
                                             int64_t elementBits) {
  LK_CHECK(checkElementBits(elementBits));
  LK_CHECK(checkMode(major, mode));
  Geometry g = geometry(mode, elementBits);
  LK_TRY(cute::Swizzle sw, elementSwizzle(mode, elementBits));
  int64_t row = g.S * g.T; // elements per row of the atom
  Expected<cute::Layout> l = cute::Layout();
  if (mode == SwizzleMode::B128Atom32B)
    l = cute::Layout::make(IntTuple::tuple({8 * g.T, 4}),
                           IntTuple::tuple({1, 8 * g.T}));
  else if (major == Major::K)
    l = cute::Layout::make(IntTuple::tuple({8, row}),
                           IntTuple::tuple({row, 1}));
  else
    l = cute::Layout::make(IntTuple::tuple({row, 8}),
                           IntTuple::tuple({1, row}));
  if (!l)
    return std::move(l).error();
  return cute::ComposedLayout{sw, 0, *l};
}

Expected<cute::ComposedLayout> canonicalLayout(const CanonicalSpec &spec) {
  LK_CHECK(checkElementBits(spec.elementBits));
  LK_CHECK(checkMode(spec.major, spec.swizzle));
  std::string ctx = title(spec.major, spec.swizzle);
  Geometry g = geometry(spec.swizzle, spec.elementBits);
  const int64_t T = g.T, S = g.S;
  LK_TRY(int64_t lbo,
         toElements(spec.leadingByteOffset, spec.elementBits, "LBO"));
  LK_TRY(int64_t sbo,
         toElements(spec.strideByteOffset, spec.elementBits, "SBO"));
  LK_TRY(int64_t start,
         toElements(spec.startAddress, spec.elementBits, "start address"));
  LK_TRY(cute::Swizzle sw, elementSwizzle(spec.swizzle, spec.elementBits));
  const bool swizzled = spec.swizzle != SwizzleMode::None;

  IntTuple shape, stride;
  if (spec.major == Major::K) {
    LK_CHECK(divides(ctx, "mn", spec.mn, 8, "8-row core-matrix groups"));
    LK_CHECK(divides(ctx, "k", spec.k, T, "16-byte core-matrix rows"));
    if (swizzled && spec.k > S * T)
      return Diagnostic::error(ctx + ": k = " + str(spec.k) +
                               " exceeds the swizzle span of " + str(S * T) +
                               " elements (" + str(16 * S) + " B)");
    shape = IntTuple::tuple(
        {IntTuple::tuple({8, spec.mn / 8}), IntTuple::tuple({T, spec.k / T})});
    stride = swizzled ? IntTuple::tuple({IntTuple::tuple({S * T, sbo}),
                                         IntTuple::tuple({1, T})})
                      : IntTuple::tuple({IntTuple::tuple({T, sbo}),
                                         IntTuple::tuple({1, lbo})});
  } else if (spec.swizzle == SwizzleMode::B128Atom32B) {
    LK_CHECK(divides(ctx, "mn", spec.mn, 8 * T, "128-byte atom rows"));
    LK_CHECK(divides(ctx, "k", spec.k, 4, "4-row atoms"));
    shape = IntTuple::tuple({IntTuple::tuple({T, 8, spec.mn / (8 * T)}),
                             IntTuple::tuple({4, spec.k / 4})});
    stride = IntTuple::tuple(
        {IntTuple::tuple({1, T, lbo}), IntTuple::tuple({8 * T, sbo})});
  } else {
    LK_CHECK(
        divides(ctx, "mn", spec.mn, S * T,
                swizzled ? "swizzle-atom rows" : "16-byte core-matrix rows"));
    LK_CHECK(divides(ctx, "k", spec.k, 8, "8-row core-matrix groups"));
    shape = IntTuple::tuple({IntTuple::tuple({T, S, spec.mn / (S * T)}),
                             IntTuple::tuple({8, spec.k / 8})});
    stride = swizzled ? IntTuple::tuple({IntTuple::tuple({1, T, lbo}),
                                         IntTuple::tuple({S * T, sbo})})
                      : IntTuple::tuple({IntTuple::tuple({1, T, sbo}),
                                         IntTuple::tuple({T, lbo})});
  }
  LK_TRY(cute::Layout l, cute::Layout::make(shape, stride));
  return cute::ComposedLayout{sw, start, l};
}

Expected<cute::ComposedLayout> smemLayoutOf(const SmemDescriptor &d,
                                            Major major, int64_t elementBits,
                                            int64_t mn, int64_t k) {
  if (d.baseOffset != 0)
    return Diagnostic::error("base offset " + str(d.baseOffset) +
                             " is not modelled by the layout derivation")
        .note("align the swizzle pattern to its repeat so that the base "
              "offset is 0 (docs/hardware.md §4.3, open item 6)");
  if (d.lboAbsolute)
    return Diagnostic::error(
        "the absolute LBO mode (UMMA bit 52) is not modelled by the layout "
        "derivation");
  CanonicalSpec spec;
  spec.major = major;
  spec.swizzle = d.swizzle;
  spec.elementBits = elementBits;
  spec.mn = mn;
  spec.k = k;
  spec.leadingByteOffset = d.leadingByteOffset;
  spec.strideByteOffset = d.strideByteOffset;
  spec.startAddress = d.startAddress;
  return canonicalLayout(spec);
}

Expected<SmemDescriptor> descriptorFor(const cute::ComposedLayout &layout,
                                       Major major, int64_t elementBits) {
  LK_CHECK(checkElementBits(elementBits));
  // 1. The swizzle mode.
  std::optional<SwizzleMode> mode;
  std::string known;
  for (SwizzleMode m : {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64,
                        SwizzleMode::B128, SwizzleMode::B128Atom32B}) {
    if (m == SwizzleMode::B128Atom32B && major != Major::MN)
      continue;
    Expected<cute::Swizzle> sw = elementSwizzle(m, elementBits);
    if (!sw)
      continue;
    known +=
        (known.empty() ? "" : ", ") + sw->str() + " " + std::string(name(m));
    bool same = m == SwizzleMode::None ? layout.swizzle.isIdentity()
                                       : layout.swizzle == *sw;
    if (same && !mode)
      mode = m;
  }
  if (!mode)
    return Diagnostic::error("the layout's swizzle " + layout.swizzle.str() +
                             " is not a hardware swizzle of a " +
                             std::string(name(major)) + "-major operand of " +
                             str(elementBits) +
                             "-bit elements (hardware: " + known + ")");
  // 2. Shape (MN, K).
  const cute::Layout &L = layout.layout;
  if (L.hasBasisStrides())
    return Diagnostic::error("the layout " + L.str() +
                             " has basis strides; a shared-memory layout maps "
                             "to an integer offset");
  if (L.rank() != 2)
    return Diagnostic::error("the layout " + L.str() + " has rank " +
                             str(int64_t(L.rank())) +
                             "; a matrix operand has rank 2 (MN, K)");
  const int64_t mn = L.mode(0).size(), k = L.mode(1).size();
  Geometry g = geometry(*mode, elementBits);
  const int64_t T = g.T, S = g.S;
  auto at = [&](int64_t i, int64_t j) -> Expected<int64_t> {
    return cute::crd2idx(IntTuple::tuple({i, j}), L);
  };
  // 3. LBO / SBO at the first coordinate of the next group; 16 B if unused.
  int64_t lboEl = -1, sboEl = -1; // -1: unused by this tile
  const bool swizzled = *mode != SwizzleMode::None;
  if (major == Major::K) {
    if (mn > 8) {
      LK_TRY(int64_t v, at(8, 0));
      sboEl = v;
    }
    if (!swizzled && k > T) {
      LK_TRY(int64_t v, at(0, T));
      lboEl = v;
    }
  } else {
    int64_t mnStep = *mode == SwizzleMode::B128Atom32B ? 8 * T : S * T;
    int64_t kStep = *mode == SwizzleMode::B128Atom32B ? 4 : 8;
    int64_t x = -1, y = -1;
    if (mn > mnStep) {
      LK_TRY(int64_t v, at(mnStep, 0));
      x = v;
    }
    if (k > kStep) {
      LK_TRY(int64_t v, at(0, kStep));
      y = v;
    }
    if (swizzled) {
      lboEl = x;
      sboEl = y;
    } else {
      sboEl = x;
      lboEl = y;
    }
  }
  LK_TRY(int64_t at0, at(0, 0));
  SmemDescriptor d;
  d.swizzle = *mode;
  LK_TRY(int64_t startEl, checkedAdd(layout.offset, at0, "start address"));
  LK_TRY(int64_t start, toBytes(startEl, elementBits, "start address"));
  d.startAddress = start;
  if (lboEl >= 0) {
    LK_TRY(int64_t v, toBytes(lboEl - at0, elementBits, "LBO"));
    d.leadingByteOffset = v;
  } else {
    d.leadingByteOffset = 16;
  }
  if (sboEl >= 0) {
    LK_TRY(int64_t v, toBytes(sboEl - at0, elementBits, "SBO"));
    d.strideByteOffset = v;
  } else {
    d.strideByteOffset = 16;
  }
  // 4. Compare with the canonical layout of those fields, point by point.
  CanonicalSpec spec{major,
                     *mode,
                     elementBits,
                     mn,
                     k,
                     d.leadingByteOffset,
                     d.strideByteOffset,
                     d.startAddress};
  Expected<cute::ComposedLayout> canon = canonicalLayout(spec);
  if (!canon)
    return Diagnostic::error("the layout " + layout.str() +
                             " is not a canonical " + title(major, *mode) +
                             " layout: " + canon.error().message);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < mn; ++i) {
      IntTuple c = IntTuple::tuple({i, j});
      LK_TRY(int64_t got, cute::crd2idx(c, layout));
      LK_TRY(int64_t want, cute::crd2idx(c, *canon));
      if (got != want)
        return Diagnostic::error(
            "the layout is not the canonical " + title(major, *mode) +
            " layout: at (mn=" + str(i) + ", k=" + str(j) +
            ") it gives element " + str(got) +
            ", the canonical layout with LBO=" + str(d.leadingByteOffset) +
            " B, SBO=" + str(d.strideByteOffset) + " B gives " + str(want));
    }
  return d;
}

Status checkWgmmaOperand(Major major, int64_t elementBits, SwizzleMode mode) {
  if (info(mode).wgmmaCode < 0)
    return Diagnostic::error("wgmma: swizzle " + std::string(name(mode)) +
                             " cannot be read (allowed: none, 32B, 64B, 128B)");
  if (major == Major::MN && elementBits != 16)
    return Diagnostic::error("wgmma: an MN-major (transposed) operand must be "
                             "16-bit (f16 / bf16), got " +
                             str(elementBits) + "-bit");
  return Ok{};
}

Status checkUmmaOperand(Major major, int64_t elementBits, SwizzleMode mode) {
  if (info(mode).ummaCode < 0)
    return Diagnostic::error("tcgen05: swizzle " + std::string(name(mode)) +
                             " cannot be read (allowed: none, 32B, 64B, 128B, "
                             "128B_atom32B)");
  if (major == Major::K) {
    if (mode == SwizzleMode::B128Atom32B)
      return Diagnostic::error(
          "tcgen05: a K-major operand cannot use "
          "128B_atom32B (it defines only an MN-major atom)");
    return Ok{};
  }
  if (elementBits == 8 || elementBits == 16) {
    if (mode == SwizzleMode::B128Atom32B)
      return Diagnostic::error("tcgen05: an MN-major " + str(elementBits) +
                               "-bit operand cannot use 128B_atom32B");
    return Ok{};
  }
  if (elementBits == 32) {
    if (mode != SwizzleMode::B128Atom32B)
      return Diagnostic::error("tcgen05: an MN-major 32-bit operand needs "
                               "swizzle 128B_atom32B, got " +
                               std::string(name(mode)));
    return Ok{};
  }
  return Diagnostic::error("tcgen05: an MN-major (transposed) operand must be "
                           "8-, 16- or 32-bit, got " +
                           str(elementBits) + "-bit");
}

} // namespace lk::hw
