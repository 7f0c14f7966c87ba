//===- Agreement.cpp - Buffer layout, TMA and MMA descriptor agree --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/Agreement.h"

#include "layoutkit/cute/Algebra.h"

namespace lk::hw {

namespace {

std::string swizzleText(const cute::Swizzle &s) {
  return "Sw<" + std::to_string(s.B) + "," + std::to_string(s.M) + "," +
         std::to_string(s.S) + ">";
}

/// Fails unless the buffer layout has shape (mn, k).
Status checkBufferShape(const OperandDescriptions &d) {
  const cute::Layout &l = d.buffer.layout;
  if (l.rank() != 2 || l.shape().isLeaf())
    return Diagnostic::error("the buffer layout " + d.buffer.str() +
                             " must have rank 2, shape (MN, K) = (" +
                             std::to_string(d.mn) + "," + std::to_string(d.k) +
                             ")");
  int64_t m0 = l.mode(0).size(), m1 = l.mode(1).size();
  if (m0 != d.mn || m1 != d.k)
    return Diagnostic::error(
        "the buffer layout " + d.buffer.str() + " covers (" +
        std::to_string(m0) + "," + std::to_string(m1) +
        "), not the tile (MN, K) = (" + std::to_string(d.mn) + "," +
        std::to_string(d.k) + ")");
  return Ok{};
}

/// Fails unless the TMA writes the tile in one rank-2 box.
Status checkBox(const OperandDescriptions &d) {
  const TmaDescription &t = *d.tma;
  int64_t inner = d.major == Major::K ? d.k : d.mn;
  int64_t outer = d.major == Major::K ? d.mn : d.k;
  if (t.boxDims.size() != 2 || t.boxDims[0] != inner || t.boxDims[1] != outer)
    return Diagnostic::error(
        std::string("the TMA box must be rank 2 and cover the ") +
        std::string(name(d.major)) + "-major tile in one box: (" +
        std::to_string(inner) + ", " + std::to_string(outer) +
        ") innermost first");
  for (int64_t s : t.elementStrides)
    if (s != 1)
      return Diagnostic::error("the TMA element strides must be 1 to write "
                               "a dense operand tile");
  return Ok{};
}

/// The most likely reason two descriptions differ, read off their
/// parameters; empty when none is visible.
std::string reason(const OperandDescriptions &d, bool atOrigin, bool bufferOdd,
                   bool tmaOdd, bool mmaOdd) {
  if (atOrigin)
    return "the descriptions start at different addresses";
  auto modeSwizzle = [&](SwizzleMode m) -> std::optional<cute::Swizzle> {
    auto s = elementSwizzle(m, d.elementBits);
    if (!s)
      return std::nullopt;
    return *s;
  };
  if (d.tma && d.mma && d.tma->swizzle != d.mma->swizzle && (tmaOdd || mmaOdd))
    return "TMA writes with swizzle " + std::string(name(d.tma->swizzle)) +
           ", the descriptor reads with swizzle " +
           std::string(name(d.mma->swizzle)) +
           " (they must match: TMA 128B <-> wgmma 1 <-> UMMA 2, 64B <-> 2 <-> "
           "4, 32B <-> 3 <-> 6, none <-> 0 <-> 0)";
  if (bufferOdd) {
    std::optional<SwizzleMode> mode;
    if (d.tma)
      mode = d.tma->swizzle;
    else if (d.mma)
      mode = d.mma->swizzle;
    if (mode) {
      std::optional<cute::Swizzle> want = modeSwizzle(*mode);
      const cute::Swizzle &have = d.buffer.swizzle;
      if (want &&
          !(want->B == have.B && want->M == have.M && want->S == have.S))
        return (have.isIdentity()
                    ? std::string("the buffer layout has no swizzle")
                    : "the buffer layout's swizzle is " + swizzleText(have)) +
               ", but swizzle " + std::string(name(*mode)) + " on " +
               std::to_string(d.elementBits) + "-bit elements is " +
               swizzleText(*want);
    }
  }
  return "";
}

} // namespace

Expected<Agreement> checkAgreement(const OperandDescriptions &d) {
  if (d.mn < 1 || d.k < 1)
    return Diagnostic::error("the tile extents MN and K must be positive");
  LK_CHECK(checkBufferShape(d));
  std::optional<cute::ComposedLayout> tmaLayout, mmaLayout;
  if (d.tma) {
    LK_CHECK(checkBox(d));
    LK_TRY(cute::ComposedLayout l, tmaBoxLayout(*d.tma, d.arch));
    tmaLayout = l;
  }
  if (d.mma) {
    const bool wgmma = d.mmaKind == SmemDescriptorKind::Wgmma;
    if (d.arch != (wgmma ? Arch::Sm90 : Arch::Sm100))
      return Diagnostic::error(
          std::string(wgmma ? "a wgmma descriptor is read on sm_90 only"
                            : "a umma descriptor is read on sm_100 only") +
          "; the arch is " + std::string(machine(d.arch).name));
    LK_TRY(cute::ComposedLayout l,
           smemLayoutOf(*d.mma, d.major, d.elementBits, d.mn, d.k));
    mmaLayout = l;
  }
  Agreement out;
  out.elements = d.mn * d.k;
  for (int64_t mn = 0; mn < d.mn; ++mn) {
    for (int64_t k = 0; k < d.k; ++k) {
      IntTuple at = IntTuple::tuple({IntTuple(mn), IntTuple(k)});
      LK_TRY(int64_t b, cute::crd2idx(at, d.buffer));
      std::optional<int64_t> t, m;
      if (tmaLayout) {
        IntTuple boxAt = d.major == Major::K
                             ? IntTuple::tuple({IntTuple(k), IntTuple(mn)})
                             : at;
        LK_TRY(int64_t v, cute::crd2idx(boxAt, *tmaLayout));
        t = v;
      }
      if (mmaLayout) {
        LK_TRY(int64_t v, cute::crd2idx(at, *mmaLayout));
        m = v;
      }
      bool bt = !t || *t == b, bm = !m || *m == b, tm = !t || !m || *t == *m;
      if (bt && bm && tm)
        continue;
      // The odd one out: the description that differs from the two others
      // (all differ when no two agree).
      bool bufferOdd = !bt && !bm && tm;
      bool tmaOdd = !bt && bm && !tm;
      bool mmaOdd = bt && !bm && !tm;
      if (!t || !m) { // two descriptions: name the non-buffer one
        tmaOdd = t.has_value();
        mmaOdd = m.has_value();
      }
      Disagreement diff{mn, k, b, t, m, ""};
      std::string who = bufferOdd ? "the buffer layout disagrees"
                        : tmaOdd  ? "the TMA disagrees"
                        : mmaOdd  ? "the MMA descriptor disagrees"
                                  : "all three descriptions differ";
      std::string values = "buffer " + std::to_string(b);
      if (t)
        values += ", TMA " + std::to_string(*t);
      if (m)
        values += ", descriptor " + std::to_string(*m);
      diff.explanation = who + " at (mn=" + std::to_string(mn) +
                         ", k=" + std::to_string(k) + "): " + values +
                         " (element offsets)";
      bool twoOnly = !t || !m;
      std::string why =
          reason(d, mn == 0 && k == 0,
                 bufferOdd || twoOnly || (!tmaOdd && !mmaOdd), tmaOdd, mmaOdd);
      if (!why.empty())
        diff.explanation += " -- " + why;
      out.difference = std::move(diff);
      return out;
    }
  }
  return out;
}

std::string Agreement::explain() const {
  if (difference)
    return difference->explanation;
  return "the descriptions agree on all " + std::to_string(elements) +
         " elements";
}

} // namespace lk::hw
