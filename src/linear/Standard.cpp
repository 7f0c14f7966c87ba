//===- Standard.cpp - Triton's standard GPU layouts -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Each constructor follows the construction of Triton's
/// LinearLayoutConversions.cpp step by step (same products in the same
/// order), so the bases agree exactly, including the order of the bases that
/// the tensor-shape handling adds or zeroes.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/Standard.h"

#include "layoutkit/core/Join.h"

#include "layoutkit/linear/EncodingFields.h"

#include "layoutkit/core/Bits.h"
#include "layoutkit/core/Checked.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace lk::linear {
namespace {

using namespace dims;

std::vector<DimId> standardNames(size_t rank) {
  std::vector<DimId> r;
  for (size_t i = 0; i < rank; ++i)
    r.push_back(dim(int(i)));
  return r;
}

std::vector<DimId> outNames(const LinearLayout &l) {
  std::vector<DimId> r;
  for (int k = 0; k < l.numOutDims(); ++k)
    r.push_back(l.outDim(k).id);
  return r;
}

Expected<LinearLayout> mul(const LinearLayout &a, Expected<LinearLayout> b) {
  if (!b)
    return std::move(b).error();
  return product(a, *b);
}

Expected<LinearLayout> transposeOutsTo(const LinearLayout &l,
                                       const std::vector<DimId> &names) {
  return l.transposeOuts(std::span<const DimId>(names));
}

/// Triton's getMatrixOrder: [rank-1, ..., 0], the first two swapped when
/// column-major.
std::vector<unsigned> matrixOrder(size_t rank, bool rowMajor) {
  std::vector<unsigned> o(rank);
  if (rank < 2)
    return std::vector<unsigned>(rank, 0);
  for (size_t i = 0; i < rank; ++i)
    o[i] = unsigned(rank - 1 - i);
  if (!rowMajor)
    std::swap(o[0], o[1]);
  return o;
}

std::vector<unsigned> dotOperandOrder(int opIdx, size_t rank, bool kContig) {
  return matrixOrder(rank, bool(opIdx) != kContig);
}

/// The field `what`, of `entries` entries (the layout's rank), against a
/// tensor of rank `rank`: the shape's fault where the layout's other
/// fields agree with the field (`layoutRank`), else the field's.
Diagnostic rankFault(size_t entries, const char *what, size_t rank,
                     bool layoutRank) {
  return Diagnostic::error("the layout has rank " + std::to_string(entries) +
                           " (" + what + " has " + std::to_string(entries) +
                           " entries) but the tensor shape has " +
                           std::to_string(rank) +
                           (rank == 1 ? " dim" : " dims"))
      .about(layoutRank ? "shape" : what);
}

/// `order` (the field `what`) is a permutation of 0..rank-1. Its length is
/// the layout's rank and `rank` the tensor's (rankFault).
Status checkOrder(std::span<const unsigned> order, size_t rank,
                  const char *what, bool layoutRank = false) {
  if (order.size() != rank)
    return rankFault(order.size(), what, rank, layoutRank);
  std::vector<bool> seen(rank, false);
  for (unsigned o : order) {
    if (o >= rank || seen[o])
      return Diagnostic::error(std::string(what) +
                               " is not a permutation of 0..rank-1")
          .about(what);
    seen[o] = true;
  }
  return Ok{};
}

Status checkPow2(std::span<const unsigned> v, const char *what) {
  for (unsigned x : v)
    if (!isPow2(x))
      return Diagnostic::error(std::string("every entry of ") + what +
                               " must be a power of two (got " +
                               std::to_string(x) + ")")
          .about(what);
  return Ok{};
}

} // namespace

Status checkTensorShape(std::span<const int64_t> shape) {
  if (shape.empty())
    return Diagnostic::error("the tensor shape must have at least one dim")
        .about("shape");
  if (shape.size() > size_t(kNumStandardOutDims))
    return Diagnostic::error("the tensor shape has too many dims")
        .about("shape");
  int bits = 0;
  for (int64_t s : shape) {
    if (!isPow2(s))
      return Diagnostic::error("every tensor dim must be a power of two (got " +
                               std::to_string(s) + ")")
          .about("shape");
    bits += std::countr_zero(uint64_t(s));
  }
  if (bits > kMaxTensorBits)
    return Diagnostic::error("the tensor's element count, the product of its "
                             "shape (" +
                             joinIntegers(shape, ",") + "), is 2^" +
                             std::to_string(bits) + "; at most 2^" +
                             std::to_string(kMaxTensorBits))
        .about("shape");
  return Ok{};
}

namespace {

Status checkShape(std::span<const int64_t> shape) {
  return checkTensorShape(shape);
}

/// Builds a layout from bases written as (value on names[0], value on
/// names[1], ...), output sizes inferred (Triton's LinearLayout(bases, names)).
Expected<LinearLayout> fromBases(
    std::vector<std::pair<DimId, std::vector<std::vector<int64_t>>>> bases,
    std::vector<DimId> names) {
  std::vector<InDimBases> ins;
  for (auto &[d, b] : bases)
    ins.push_back({d, std::move(b)});
  return LinearLayout::make(std::span<const InDimBases>(ins),
                            std::span<const DimId>(names));
}

int stdIndex(DimId id) { return int(id) - int(kDim0); }

Expected<LinearLayout> makeCgaLayout(const CTALayout &cta, size_t rank) {
  if (cta.blockBases) {
    // Sizes: the smallest powers of two above every value; the bases must
    // reach every CTA tile of them (zero bases, broadcast CTAs, reach none),
    // as Triton's LinearLayout(bases, outDimNames) requires: [[3, 0]]
    // reaches tiles 0 and 3 of 4 and is refused.
    std::vector<OutDim> outs;
    for (size_t d = 0; d < rank; ++d) {
      int64_t size = 1;
      for (const std::vector<int64_t> &b : *cta.blockBases)
        while (size <= b[d])
          size *= 2;
      outs.push_back({dim(int(d)), size});
    }
    InDimBases in{kBlock, *cta.blockBases};
    Expected<LinearLayout> l = LinearLayout::make(
        std::span<const InDimBases>(&in, 1), std::span<const OutDim>(outs),
        /*requireSurjective=*/true);
    if (!l)
      return Diagnostic::error("CGALayout must reach every CTA tile of the "
                               "smallest grid that holds its bases: " +
                               l.error().message)
          .about("CGALayout");
    return l;
  }
  LinearLayout ret;
  for (size_t i = 0; i < rank; ++i) {
    unsigned d = cta.ctaOrder[i];
    unsigned split = cta.ctaSplitNum[d], ctas = cta.ctasPerCGA[d];
    if (split == 0 || ctas % split != 0)
      return Diagnostic::error("CTAsPerCGA must be a multiple of CTASplitNum")
          .about("CTAsPerCGA");
    LK_TRY(LinearLayout a,
           LinearLayout::identity1D(split, kBlock, dim(int(d))));
    LK_TRY(LinearLayout b,
           LinearLayout::zeros1D(ctas / split, kBlock, dim(int(d))));
    LK_TRY(LinearLayout ab, product(a, b));
    LK_TRY(ret, product(ret, ab));
  }
  return transposeOutsTo(ret, standardNames(rank));
}

Status checkCta(const CTALayout &cta, size_t rank) {
  if (cta.blockBases) {
    if (cta.blockBases->size() > 16)
      return Diagnostic::error("CGALayout has more than 16 bases")
          .about("CGALayout");
    for (const std::vector<int64_t> &b : *cta.blockBases) {
      if (b.size() != rank)
        return Diagnostic::error("every CGALayout basis must have the "
                                 "tensor's rank (" +
                                 std::to_string(rank) + ")")
            .about("CGALayout");
      for (int64_t v : b)
        if (v < 0 || v > (int64_t(1) << 30))
          return Diagnostic::error("CGALayout entries must be in 0..2^30")
              .about("CGALayout");
    }
    return Ok{};
  }
  if (cta.ctasPerCGA.size() != rank || cta.ctaSplitNum.size() != rank)
    return Diagnostic::error("the CTA fields must have the tensor's rank (" +
                             std::to_string(rank) + ")")
        .about(cta.ctasPerCGA.size() != rank ? "CTAsPerCGA" : "CTASplitNum");
  LK_CHECK(checkOrder(cta.ctaOrder, rank, "CTAOrder"));
  LK_CHECK(checkPow2(cta.ctasPerCGA, "CTAsPerCGA"));
  LK_CHECK(checkPow2(cta.ctaSplitNum, "CTASplitNum"));
  return Ok{};
}

Expected<LinearLayout>
broadcastedDotOperandLayout(std::span<const unsigned> shape,
                            std::span<const unsigned> order, unsigned kDim,
                            DimId in) {
  LinearLayout l;
  for (unsigned d : order) {
    Expected<LinearLayout> f =
        d == kDim ? LinearLayout::zeros1D(shape[d], in, dim(int(d)))
                  : LinearLayout::identity1D(shape[d], in, dim(int(d)));
    LK_TRY(l, mul(l, std::move(f)));
  }
  return l;
}

/// Triton's nvidiaMmaTile.
Expected<LinearLayout> nvidiaMmaTile(std::span<const unsigned> tileShape,
                                     unsigned kWidth,
                                     std::span<const unsigned> order,
                                     std::span<const unsigned> repOrder) {
  size_t rank = repOrder.size();
  std::vector<unsigned> trivial(rank, 1);
  LK_TRY(LinearLayout l, identityStandardND(kRegister, trivial, repOrder));
  unsigned inner = order[0], outer = order[1];
  int64_t m = tileShape[outer], n = tileShape[inner];
  if (m % 8 != 0 || n % (kWidth * 4) != 0)
    return Diagnostic::error("mma tile " + std::to_string(m) + "x" +
                             std::to_string(n) + " is not a multiple of 8 x " +
                             std::to_string(kWidth * 4));
  DimId in = dim(int(inner)), out = dim(int(outer));
  LK_TRY(l, mul(l, LinearLayout::identity1D(kWidth, kRegister, in)));
  LK_TRY(l, mul(l, LinearLayout::identity1D(4, kLane, in)));
  LK_TRY(l, mul(l, LinearLayout::identity1D(8, kLane, out)));
  LK_TRY(l, mul(l, LinearLayout::identity1D(m / 8, kRegister, out)));
  LK_TRY(l, mul(l, LinearLayout::identity1D(n / (kWidth * 4), kRegister, in)));
  return l;
}

const CTALayout &ctaOf(const Encoding &e, CTALayout &storage, size_t rank) {
  if (e.cta.ctaOrder.empty() && !e.cta.blockBases) {
    storage = CTALayout::single(rank);
    return storage;
  }
  return e.cta;
}

/// The accumulator (mma) an operand encoding hangs off, or null.
const Encoding *parentOf(const Encoding &e) { return e.parent.get(); }

Expected<LinearLayout> blockedToLL(const Encoding &e,
                                   std::span<const int64_t> shape) {
  size_t rank = shape.size();
  for (auto [v, name] : {std::pair{&e.sizePerThread, "sizePerThread"},
                         {&e.threadsPerWarp, "threadsPerWarp"},
                         {&e.warpsPerCTA, "warpsPerCTA"}})
    if (v->size() != e.order.size())
      return Diagnostic::error("blocked: sizePerThread, threadsPerWarp, "
                               "warpsPerCTA and order must have one length "
                               "(the rank)")
          .about(name);
  LK_CHECK(checkOrder(e.order, rank, "order", /*layoutRank=*/true));
  LK_CHECK(checkPow2(e.sizePerThread, "sizePerThread"));
  LK_CHECK(checkPow2(e.threadsPerWarp, "threadsPerWarp"));
  LK_CHECK(checkPow2(e.warpsPerCTA, "warpsPerCTA"));
  LK_TRY(LinearLayout r,
         identityStandardND(kRegister, e.sizePerThread, e.order));
  LK_TRY(LinearLayout t, identityStandardND(kLane, e.threadsPerWarp, e.order));
  LK_TRY(LinearLayout w, identityStandardND(kWarp, e.warpsPerCTA, e.order));
  LK_TRY(LinearLayout rt, product(r, t));
  LK_TRY(LinearLayout cta, product(rt, w));
  CTALayout s;
  return combineCtaCgaWithShape(cta, ctaOf(e, s, rank), shape);
}

std::vector<unsigned> mmaWarpOrder(const Encoding &mma, size_t rank) {
  return matrixOrder(rank, /*rowMajor=*/mma.versionMajor != 3);
}

Expected<LinearLayout> nvidiaMmaToLL(const Encoding &e,
                                     std::span<const int64_t> shape) {
  size_t rank = shape.size();
  if (e.warpsPerCTA.size() != rank) // the encoding's one field of its rank
    return rankFault(e.warpsPerCTA.size(), "warpsPerCTA", rank,
                     /*layoutRank=*/true);
  LK_CHECK(checkPow2(e.warpsPerCTA, "warpsPerCTA"));
  std::vector<unsigned> tile;
  if (e.versionMajor == 2) {
    tile = e.instrShape;
    if (tile.size() != rank)
      return Diagnostic::error("nvidia_mma v2: instrShape must have the "
                               "tensor's rank")
          .about("instrShape");
  } else if (e.versionMajor == 3) {
    if (e.instrShape.size() != 3 || rank != 2)
      return Diagnostic::error("nvidia_mma v3: instrShape is [m, n, k] (got " +
                               std::to_string(e.instrShape.size()) +
                               " values) and the tensor must be 2-D (got " +
                               std::to_string(rank) + " dims)")
          .about(e.instrShape.size() != 3 ? "instrShape" : "shape");
    tile = {e.instrShape[0], e.instrShape[1]};
  } else {
    return Diagnostic::error("nvidia_mma: versionMajor must be 2 or 3 (got " +
                             std::to_string(e.versionMajor) + ")")
        .about("versionMajor");
  }
  // The tile's m and n: powers of two (a linear layout's sizes), each a
  // multiple of the 8 x 8 quad.
  for (size_t d = tile.size() - 2; d < tile.size(); ++d)
    if (!isPow2(tile[d]) || tile[d] % 8 != 0)
      return Diagnostic::error("nvidia_mma: instrShape's m and n must be "
                               "powers of two, multiples of 8 (got " +
                               std::to_string(tile[d]) + ")")
          .about("instrShape");
  std::vector<unsigned> order = matrixOrder(rank, true);
  LK_TRY(LinearLayout l, nvidiaMmaTile(tile, 2, order, order));
  LK_TRY(LinearLayout w,
         identityStandardND(kWarp, e.warpsPerCTA, mmaWarpOrder(e, rank)));
  LK_TRY(w, transposeOutsTo(w, outNames(l)));
  LK_TRY(l, product(l, w));
  CTALayout s;
  return combineCtaCgaWithShape(l, ctaOf(e, s, rank), shape);
}

Expected<LinearLayout> mfmaToLL(const Encoding &e,
                                std::span<const int64_t> shape) {
  size_t rank = shape.size();
  if (e.warpsPerCTA.size() != rank || (rank != 2 && rank != 3))
    return Diagnostic::error("amd_mfma: warpsPerCTA must have the tensor's "
                             "rank (2 or 3)")
        .about("warpsPerCTA");
  if (!((e.mDim == 32 && e.nDim == 32) || (e.mDim == 16 && e.nDim == 16)))
    return Diagnostic::error("amd_mfma: mDim x nDim must be 32x32 or 16x16")
        .about("mDim");
  std::vector<unsigned> order = matrixOrder(rank, true);
  std::vector<std::vector<int64_t>> reg, lane;
  if (e.mDim == 32) {
    reg = {{0, 1}, {0, 2}, {0, 8}, {0, 16}};
    lane = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 4}};
  } else {
    reg = {{0, 1}, {0, 2}};
    lane = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 4}, {0, 8}};
  }
  if (e.isTransposed) {
    for (auto *v : {&reg, &lane})
      for (auto &b : *v)
        std::swap(b[0], b[1]);
  }
  LK_TRY(LinearLayout tile,
         fromBases({{kRegister, reg}, {kLane, lane}},
                   {dim(int(order[0])), dim(int(order[1]))}));
  if (rank == 3) {
    LK_TRY(tile, mul(tile, LinearLayout::identity1D(1, kRegister,
                                                    dim(int(order[2])))));
    LK_TRY(tile,
           mul(tile, LinearLayout::identity1D(1, kLane, dim(int(order[2])))));
  }
  LK_TRY(LinearLayout w, identityStandardND(kWarp, e.warpsPerCTA, order));
  LK_TRY(LinearLayout cta, product(tile, w));
  CTALayout s;
  return combineCtaCgaWithShape(cta, ctaOf(e, s, rank), shape);
}

Expected<LinearLayout> wmmaToLL(const Encoding &e,
                                std::span<const int64_t> shape) {
  size_t rank = shape.size();
  if (e.warpsPerCTA.size() != rank || (rank != 2 && rank != 3))
    return Diagnostic::error("amd_wmma: warpsPerCTA must have the tensor's "
                             "rank (2 or 3)")
        .about("warpsPerCTA");
  if (e.version != 1 && e.version != 2)
    return Diagnostic::error("amd_wmma: version must be 1 or 2")
        .about("version");
  std::vector<unsigned> order = matrixOrder(rank, true);
  std::vector<std::vector<int64_t>> reg, lane;
  if (e.version == 1) {
    reg = {{0, 2}, {0, 4}, {0, 8}};
    lane = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}};
  } else {
    reg = {{0, 1}, {0, 2}, {0, 4}};
    lane = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}};
  }
  // The tile's bases name (N, M) in row-major thread order and (M, N) when
  // transposed: Triton's threadOrder = matrix order, row-major unless
  // isTransposed (both versions).
  std::vector<unsigned> threadOrder = matrixOrder(rank, !e.isTransposed);
  LK_TRY(LinearLayout tile,
         fromBases({{kRegister, reg}, {kLane, lane}},
                   {dim(int(threadOrder[0])), dim(int(threadOrder[1]))}));
  if (rank == 3) {
    LK_TRY(tile, mul(tile, LinearLayout::identity1D(1, kRegister, dim(0))));
    LK_TRY(tile, mul(tile, LinearLayout::identity1D(1, kLane, dim(0))));
  }
  LK_TRY(LinearLayout w, identityStandardND(kWarp, e.warpsPerCTA, order));
  std::vector<DimId> rep;
  for (unsigned d : order)
    rep.push_back(dim(int(d)));
  LK_TRY(tile, transposeOutsTo(tile, rep));
  LK_TRY(w, transposeOutsTo(w, rep));
  LK_TRY(LinearLayout cta, product(tile, w));
  CTALayout s;
  return combineCtaCgaWithShape(cta, ctaOf(e, s, rank), shape);
}

/// A dot operand of a blocked parent: the parent with the whole K dim in
/// each thread, broadcast over the lanes and warps along K.
Expected<LinearLayout> dotOfBlocked(const Encoding &e, const Encoding &p,
                                    std::span<const int64_t> shape,
                                    unsigned kDim, const CTALayout &cta) {
  const size_t rank = shape.size();
  LK_CHECK(checkOrder(p.order, rank, "order"));
  if (p.sizePerThread.size() != rank || p.threadsPerWarp.size() != rank ||
      p.warpsPerCTA.size() != rank)
    return Diagnostic::error("dot_operand: the blocked parent must have the "
                             "tensor's rank")
        .about("parent");
  std::vector<unsigned> threadSize = p.sizePerThread;
  threadSize[kDim] = unsigned(shape[kDim]);
  std::vector<DimId> rep;
  for (unsigned d : p.order)
    rep.push_back(dim(int(d)));
  LK_TRY(LinearLayout r, identityStandardND(kRegister, threadSize, p.order));
  LK_TRY(LinearLayout t,
         broadcastedDotOperandLayout(p.threadsPerWarp, p.order, kDim, kLane));
  LK_TRY(LinearLayout w,
         broadcastedDotOperandLayout(p.warpsPerCTA, p.order, kDim, kWarp));
  LK_TRY(r, transposeOutsTo(r, rep));
  LK_TRY(t, transposeOutsTo(t, rep));
  LK_TRY(w, transposeOutsTo(w, rep));
  LK_TRY(LinearLayout rt, product(r, t));
  LK_TRY(LinearLayout l, product(rt, w));
  return combineCtaCgaWithShape(l, cta, shape);
}

/// A dot operand of an mma parent: the mma tile of the operand with
/// kWidth elements per register group, warps broadcast along K.
Expected<LinearLayout> dotOfNvidiaMma(const Encoding &e, const Encoding &p,
                                      std::span<const int64_t> shape,
                                      unsigned kDim, const CTALayout &cta) {
  const size_t rank = shape.size();
  const bool isA = e.opIdx == 0;
  if (p.warpsPerCTA.size() != rank)
    return Diagnostic::error("dot_operand: the mma parent must have the "
                             "tensor's rank")
        .about("parent");
  if (!isA && p.versionMajor != 2)
    return Diagnostic::error("dot_operand: operand B of a wgmma (v3) comes "
                             "from shared memory, not registers")
        .about("opIdx");
  if (e.kWidth <= 0 || !isPow2(e.kWidth))
    return Diagnostic::error(e.kWidth == 0
                                 ? "dot_operand: an mma parent needs kWidth "
                                   "(a power of two)"
                                 : "dot_operand: kWidth must be a power of two")
        .about("kWidth");
  std::vector<unsigned> tile(rank, 1);
  if (isA) {
    tile[rank - 2] = 16;
    tile[rank - 1] = unsigned(e.kWidth * 8);
  } else {
    tile[rank - 2] = unsigned(e.kWidth * 8);
    tile[rank - 1] = 8;
  }
  std::vector<unsigned> order = dotOperandOrder(e.opIdx, rank, true);
  LK_TRY(LinearLayout l, nvidiaMmaTile(tile, unsigned(e.kWidth), order, order));
  LK_TRY(LinearLayout w,
         broadcastedDotOperandLayout(p.warpsPerCTA, mmaWarpOrder(p, rank), kDim,
                                     kWarp));
  LK_TRY(w, transposeOutsTo(w, outNames(l)));
  LK_TRY(l, product(l, w));
  return combineCtaCgaWithShape(l, cta, shape);
}

/// A dot operand of an AMD mfma / wmma parent.
Expected<LinearLayout> dotOfAmd(const Encoding &e, const Encoding &p,
                                std::span<const int64_t> shape, unsigned kDim,
                                const CTALayout &cta) {
  const size_t rank = shape.size();
  if (p.warpsPerCTA.size() != rank || (rank != 2 && rank != 3))
    return Diagnostic::error("dot_operand: the AMD parent must have the "
                             "tensor's rank (2 or 3)")
        .about("parent");
  if (e.kWidth <= 0 || !isPow2(e.kWidth))
    return Diagnostic::error(e.kWidth == 0
                                 ? "dot_operand: an AMD parent needs kWidth "
                                   "(a power of two)"
                                 : "dot_operand: kWidth must be a power of two")
        .about("kWidth");
  int64_t kWidth = e.kWidth;
  int64_t kSize = shape[kDim];
  std::vector<unsigned> order = dotOperandOrder(e.opIdx, rank, true);
  std::vector<std::vector<int64_t>> reg, lane;
  for (int64_t x = 1; x < kWidth; x *= 2)
    reg.push_back({x, 0});
  if (p.kind == EncodingKind::AmdMfma) {
    int64_t kTile;
    if (p.mDim == 32) {
      lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {kWidth, 0}};
      kTile = kWidth * 2;
    } else if (p.mDim == 16) {
      lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {kWidth, 0}, {kWidth * 2, 0}};
      kTile = kWidth * 4;
    } else {
      return Diagnostic::error("amd_mfma: mDim must be 16 or 32").about("mDim");
    }
    for (int64_t x = kTile; x < kSize; x *= 2)
      reg.push_back({x, 0});
  } else {
    lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}};
    if (p.version == 1)
      lane.push_back({0, 0});
    else if (p.version == 2)
      lane.push_back({kWidth, 0});
    else
      return Diagnostic::error("amd_wmma: version must be 1 or 2")
          .about("version");
  }
  LK_TRY(LinearLayout tile,
         fromBases({{kRegister, reg}, {kLane, lane}},
                   {dim(int(order[0])), dim(int(order[1]))}));
  if (rank == 3) {
    LK_TRY(tile, mul(tile, LinearLayout::identity1D(1, kRegister,
                                                    dim(int(order[2])))));
    LK_TRY(tile,
           mul(tile, LinearLayout::identity1D(1, kLane, dim(int(order[2])))));
  }
  std::vector<unsigned> warpOrder = matrixOrder(rank, true);
  LK_TRY(LinearLayout w,
         broadcastedDotOperandLayout(p.warpsPerCTA, warpOrder, kDim, kWarp));
  std::vector<DimId> rep;
  for (unsigned d : order)
    rep.push_back(dim(int(d)));
  LK_TRY(tile, transposeOutsTo(tile, rep));
  LK_TRY(w, transposeOutsTo(w, rep));
  LK_TRY(LinearLayout l, product(tile, w));
  return combineCtaCgaWithShape(l, cta, shape);
}

/// A dot operand of an Intel DPAS parent: kWidth, where given, must be what
/// Intel's dot verifier asks: opsPerChannel / 2 (at least 1) for A,
/// opsPerChannel for B.
Expected<LinearLayout> dotOfDpas(const Encoding &e, const Encoding &p,
                                 std::span<const int64_t> shape) {
  int want = e.opIdx == 0 ? std::max(1, p.opsPerChannel / 2) : p.opsPerChannel;
  if (e.kWidth != 0 && e.kWidth != want)
    return Diagnostic::error(
               "dot_operand: operand " + std::string(e.opIdx == 0 ? "A" : "B") +
               " of a DPAS layout with opsPerChannel " +
               std::to_string(p.opsPerChannel) + " has kWidth " +
               std::to_string(want) + " (got " + std::to_string(e.kWidth) + ")")
        .about("opsPerChannel");
  return intelDpasLayout(p, e.opIdx, shape);
}

/// A failure of an encoding's parent as a failure of the encoding: its
/// parameter under "parent." (placeAtField and Python's paths follow it)
/// and a note naming the shape the parent was built for.
Diagnostic inParent(Diagnostic d, std::span<const int64_t> shape) {
  if (!d.parameter.empty())
    d.parameter = "parent." + d.parameter;
  std::string dims;
  for (int64_t s : shape)
    dims += (dims.empty() ? "" : ",") + std::to_string(s);
  return std::move(d).note("in the parent layout, over the shape (" + dims +
                           ")");
}

/// The CTA layout of a dot operand: its parent's, never split along K
/// (Triton's rule): CTASplitNum_k = 1, or in the CGA form each block
/// basis's K component 0, so CTAs that split the parent along K hold the
/// same operand tile. Example: B (K = dim0) of a parent with CTAsPerCGA =
/// CTASplitNum = [2, 1]: block 1 -> (0, 0), a copy of block 0.
CTALayout dotOperandCta(CTALayout cta, unsigned kDim) {
  if (cta.blockBases) {
    for (std::vector<int64_t> &b : *cta.blockBases)
      if (kDim < b.size())
        b[kDim] = 0;
  } else if (kDim < cta.ctaSplitNum.size()) {
    cta.ctaSplitNum[kDim] = 1;
  }
  return cta;
}

Expected<LinearLayout> dotToLL(const Encoding &e,
                               std::span<const int64_t> shape) {
  const Encoding *p = parentOf(e);
  if (!p)
    return Diagnostic::error("dot_operand: missing parent").about("parent");
  size_t rank = shape.size();
  if (e.opIdx != 0 && e.opIdx != 1)
    return Diagnostic::error("dot_operand: opIdx must be 0 or 1")
        .about("opIdx");
  if (rank < 2)
    return Diagnostic::error("dot_operand: the tensor must have rank >= 2");
  // The operand layouts of a blocked or nvidia_mma parent read its
  // parameters: they must be ones the parent itself accepts. (A DPAS
  // parent is checked by its operand builder: its C layout may refuse a
  // shape its operands take.)
  if (p->kind == EncodingKind::Blocked || p->kind == EncodingKind::NvidiaMma)
    if (Expected<LinearLayout> parent = toLinearLayout(*p, shape); !parent)
      return inParent(std::move(parent).error(), shape);
  unsigned kDim = e.opIdx == 0 ? unsigned(rank - 1) : unsigned(rank - 2);
  CTALayout s;
  const CTALayout cta = dotOperandCta(ctaOf(*p, s, rank), kDim);
  switch (p->kind) {
  case EncodingKind::Blocked:
    return dotOfBlocked(e, *p, shape, kDim, cta);
  case EncodingKind::NvidiaMma:
    return dotOfNvidiaMma(e, *p, shape, kDim, cta);
  case EncodingKind::AmdMfma:
  case EncodingKind::AmdWmma:
    return dotOfAmd(e, *p, shape, kDim, cta);
  case EncodingKind::IntelDpas:
    return dotOfDpas(e, *p, shape);
  default:
    return Diagnostic::error("dot_operand: unsupported parent layout")
        .about("parent");
  }
}

/// Registers per thread that Triton's blocked layout counts for a tensor
/// of `shape` (its elements-per-thread, kept by slices): the product over
/// the dims d != skip of ceil(perCta_d / (spt_d * tpw_d * wpc_d)) * spt_d,
/// with perCta_d = shape_d / min(shape_d, CTASplitNum_d). A blocked layout
/// wider than the tensor thus counts sizePerThread registers on a dim of
/// extent 1. Every factor is a power of two (the parameters are).
Expected<int64_t> blockedRegisterCount(const Encoding &b,
                                       std::span<const int64_t> shape,
                                       size_t skip) {
  CTALayout s;
  const CTALayout &cta = ctaOf(b, s, shape.size());
  Arith ar;
  int64_t count = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d == skip)
      continue;
    int64_t perCta = shape[d] / std::min<int64_t>(shape[d], cta.ctaSplitNum[d]);
    int64_t tile = ar.mul(ar.mul(b.sizePerThread[d], b.threadsPerWarp[d]),
                          b.warpsPerCTA[d]);
    if (!ar.ok())
      break;
    count = ar.mul(count, ar.mul(ceilDiv(perCta, tile), b.sizePerThread[d]));
  }
  if (!ar.ok())
    return Arith::diagnostic("the blocked parent's registers per thread");
  return count;
}

Expected<LinearLayout> sliceToLL(const Encoding &e,
                                 std::span<const int64_t> shape) {
  const Encoding *p = parentOf(e);
  if (!p)
    return Diagnostic::error("slice: missing parent").about("parent");
  if (p->kind == EncodingKind::SwizzledShared ||
      p->kind == EncodingKind::NvmmaShared ||
      p->kind == EncodingKind::ShmemForRegToReg)
    return Diagnostic::error("slice: the parent must be a distributed "
                             "(register) layout, not " +
                             std::string(encodingKindName(p->kind)))
        .about("parent");
  if (e.dim < 0 || size_t(e.dim) > shape.size())
    return Diagnostic::error("slice: dim " + std::to_string(e.dim) +
                             " is out of range")
        .about("dim");
  std::vector<int64_t> parentShape(shape.begin(), shape.end());
  parentShape.insert(parentShape.begin() + e.dim, 1);
  Expected<LinearLayout> built = toLinearLayout(*p, parentShape);
  if (!built)
    return inParent(std::move(built).error(), parentShape);
  const LinearLayout &parent = *built;
  LinearLayout transform;
  for (int idx = 0; idx < parent.numOutDims(); ++idx) {
    DimSize od = parent.outDim(idx);
    Expected<LinearLayout> f =
        idx == e.dim ? LinearLayout::zeros1D(od.size(), od.id, dim(0))
                     : LinearLayout::identity1D(
                           od.size(), od.id, dim(idx - (idx < e.dim ? 0 : 1)));
    LK_TRY(transform, mul(transform, std::move(f)));
  }
  LK_TRY(LinearLayout sliced, parent.compose(transform));
  // Drop the register bases that became zero.
  std::vector<InDimBases> ins = sliced.allBases();
  for (InDimBases &in : ins) {
    if (in.dim != kRegister)
      continue;
    std::vector<std::vector<int64_t>> kept;
    for (auto &b : in.bases)
      if (std::any_of(b.begin(), b.end(), [](int64_t v) { return v != 0; }))
        kept.push_back(std::move(b));
    in.bases = std::move(kept);
    // Triton keeps a blocked parent's register count (its elements per
    // thread): the registers of a parent wider than the tensor come back as
    // zero bases, appended after the kept ones. E.g. the slice along dim 0
    // of sizePerThread [1,4] for shape [1] has registers [[0], [0]].
    if (p->kind == EncodingKind::Blocked) {
      LK_TRY(int64_t count,
             blockedRegisterCount(*p, parentShape, size_t(e.dim)));
      int want = log2Floor(count);
      while (int(in.bases.size()) < want)
        in.bases.push_back(
            std::vector<int64_t>(size_t(sliced.numOutDims()), 0));
    }
  }
  std::vector<OutDim> outs = sliced.outDims();
  return LinearLayout::make(std::span<const InDimBases>(ins),
                            std::span<const OutDim>(outs));
}

Expected<LinearLayout> swizzledSharedToLL(const Encoding &e,
                                          std::span<const int64_t> shape) {
  size_t rank = shape.size();
  CTALayout s;
  const CTALayout &cta = ctaOf(e, s, rank);
  if (rank == 1) {
    LK_TRY(LinearLayout l, LinearLayout::identity1D(shape[0], kOffset, dim(0)));
    return combineCtaCgaWithShape(l, cta, shape);
  }
  // The order is a swizzled layout's only field of its rank.
  LK_CHECK(checkOrder(e.order, rank, "order", /*layoutRank=*/true));
  for (auto [value, field] : {std::pair{e.vec, "vec"},
                              {e.perPhase, "perPhase"},
                              {e.maxPhase, "maxPhase"}})
    if (value <= 0)
      return Diagnostic::error("swizzled_shared: " + std::string(field) +
                               " must be positive (got " +
                               std::to_string(value) + ")")
          .about(field);
  unsigned colDim = e.order[0], rowDim = e.order[1];
  int64_t numCols = shape[colDim], numRows = shape[rowDim];
  std::vector<std::vector<int64_t>> b;
  for (int c = 0; c < log2Floor(numCols); ++c)
    b.push_back({0, int64_t(1) << c});
  for (int r = 0; r < log2Floor(numRows); ++r) {
    int64_t row = int64_t(1) << r;
    b.push_back({row, (e.vec * ((row / e.perPhase) % e.maxPhase)) % numCols});
  }
  LK_TRY(LinearLayout l,
         fromBases({{kOffset, b}}, {dim(int(rowDim)), dim(int(colDim))}));
  for (size_t i = 2; i < rank; ++i) {
    unsigned d = e.order[i];
    LK_TRY(l, mul(l, LinearLayout::identity1D(shape[d], kOffset, dim(int(d)))));
  }
  return combineCtaCgaWithShape(l, cta, shape);
}

Expected<LinearLayout> nvmmaSharedToLL(const Encoding &e,
                                       std::span<const int64_t> shape) {
  size_t rank = shape.size();
  CTALayout s;
  const CTALayout &cta = ctaOf(e, s, rank);
  if (rank == 1) {
    LK_TRY(LinearLayout l, LinearLayout::identity1D(shape[0], kOffset, dim(0)));
    return combineCtaCgaWithShape(l, cta, shape);
  }
  int elemBits = e.elementBitWidth;
  if (elemBits <= 0 || !isPow2(elemBits) || elemBits > 128)
    return Diagnostic::error("nvmma_shared: elementBitWidth must be a power "
                             "of two up to 128")
        .about("elementBitWidth");
  int tileBytes = e.swizzleSizeInBytes;
  bool noSwizzle = tileBytes == 0;
  int perPhase = 0, maxPhase = 0;
  if (tileBytes == 32) {
    perPhase = 4;
    maxPhase = 2;
  } else if (tileBytes == 64) {
    perPhase = 2;
    maxPhase = 4;
  } else if (tileBytes == 128) {
    perPhase = 1;
    maxPhase = 8;
  } else if (!noSwizzle) {
    return Diagnostic::error("nvmma_shared: swizzleSizeInBytes must be 0, 32, "
                             "64 or 128 (got " +
                             std::to_string(tileBytes) + ")")
        .about("swizzleSizeInBytes");
  }
  if (noSwizzle)
    tileBytes = 128; // an unswizzled 128-byte-wide tile
  int vec = 128 / elemBits;
  unsigned colDim = e.transposed ? unsigned(rank - 2) : unsigned(rank - 1);
  unsigned rowDim = e.transposed ? unsigned(rank - 1) : unsigned(rank - 2);
  int64_t tileRows = 8, tileCols = 8 * tileBytes / elemBits;
  int packing = e.fp4Padded ? 2 : 1;
  if (shape[colDim] * packing < tileCols || shape[rowDim] < tileRows) {
    if (noSwizzle)
      tileCols = std::min<int64_t>(tileCols, shape[colDim] * packing);
    else
      return Diagnostic::error(
          "nvmma_shared: the shape must be at least [" +
          std::to_string(tileRows) + ", " + std::to_string(tileCols) +
          "] (rows, cols); got [" + std::to_string(shape[rowDim]) + ", " +
          std::to_string(shape[colDim]) + "]");
    if (shape[rowDim] < tileRows)
      tileRows = shape[rowDim];
  }
  auto packed = [](int64_t c) { return c / 16 * 8 + c % 8; };
  std::vector<std::vector<int64_t>> b;
  for (int c = 0; c < log2Floor(tileCols); ++c) {
    int64_t col = int64_t(1) << c;
    b.push_back({0, e.fp4Padded ? packed(col) : col});
  }
  for (int r = 0; r < log2Floor(tileRows); ++r) {
    int64_t row = int64_t(1) << r;
    if (noSwizzle) {
      b.push_back({row, 0});
      continue;
    }
    int64_t col = vec * ((row / perPhase) % maxPhase);
    b.push_back({row, e.fp4Padded ? packed(col) : col});
  }
  LK_TRY(LinearLayout l,
         fromBases({{kOffset, b}}, {dim(int(rowDim)), dim(int(colDim))}));
  for (size_t i = 2; i < rank; ++i) {
    unsigned d = unsigned(rank - 1 - i);
    LK_TRY(l, mul(l, LinearLayout::identity1D(shape[d], kOffset, dim(int(d)))));
  }
  return combineCtaCgaWithShape(l, cta, shape);
}

Expected<LinearLayout> shmemForRegToReg(const Encoding &e) {
  size_t rank = e.tensorShape.size();
  if (e.repShape.size() != rank)
    return Diagnostic::error("shmem_for_reg_to_reg: repShape must have the "
                             "rank of tensorShape")
        .about("repShape");
  LK_CHECK(checkOrder(e.order, rank, "order"));
  LK_CHECK(checkPow2(e.tensorShape, "tensorShape"));
  LK_CHECK(checkPow2(e.repShape, "repShape"));
  LinearLayout l;
  std::vector<DimId> offsets, iters;
  int64_t totalIters = 1, totalOffsets = 1;
  for (size_t i = 0; i < rank; ++i) {
    unsigned d = e.order[i];
    DimId it = internDim("iteration" + std::to_string(d));
    DimId off = internDim("offset" + std::to_string(d));
    iters.push_back(it);
    offsets.push_back(off);
    if (e.repShape[d] > e.tensorShape[d])
      return Diagnostic::error("shmem_for_reg_to_reg: repShape exceeds "
                               "tensorShape")
          .about("repShape");
    int64_t numIters = e.tensorShape[d] / e.repShape[d];
    LK_TRY(l,
           mul(l, LinearLayout::identity1D(e.repShape[d], off, dim(int(d)))));
    LK_TRY(l, mul(l, LinearLayout::identity1D(numIters, it, dim(int(d)))));
    totalIters *= numIters;
    totalOffsets *= e.repShape[d];
  }
  std::vector<DimId> ins = offsets;
  ins.insert(ins.end(), iters.begin(), iters.end());
  LK_TRY(l, l.transposeIns(std::span<const DimId>(ins)));
  OutDim newIns[] = {
      {kOffset, totalOffsets}, {kIteration, totalIters}, {kBlock, 1}};
  return l.reshapeIns(std::span<const OutDim>(newIns));
}

} // namespace

CTALayout CTALayout::single(size_t rank) {
  CTALayout c;
  c.ctasPerCGA.assign(rank, 1);
  c.ctaSplitNum.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i)
    c.ctaOrder.push_back(unsigned(rank - 1 - i));
  return c;
}

Expected<LinearLayout> identityStandardND(DimId in,
                                          std::span<const unsigned> shape,
                                          std::span<const unsigned> order) {
  if (shape.size() != order.size())
    return Diagnostic::error(
               "identityStandardND: shape and order differ in rank")
        .about("order");
  LinearLayout l;
  for (unsigned d : order) {
    if (d >= shape.size())
      return Diagnostic::error("identityStandardND: order entry out of range")
          .about("order");
    LK_TRY(l, mul(l, LinearLayout::identity1D(shape[d], in, dim(int(d)))));
  }
  return l;
}

Expected<LinearLayout>
ensureLayoutNotSmallerThan(const LinearLayout &l,
                           std::span<const int64_t> shape) {
  if (l.numOutDims() == 0)
    return l;
  if (l.numInDims() == 0)
    return Diagnostic::error("ensureLayoutNotSmallerThan: no input dim");
  DimId k = l.inDim(0).id;
  LinearLayout r = l;
  for (int i = 0; i < l.numOutDims(); ++i) {
    DimSize o = l.outDim(i);
    int s = stdIndex(o.id);
    if (s < 0 || size_t(s) >= shape.size())
      return Diagnostic::error("ensureLayoutNotSmallerThan: no size for '" +
                               std::string(dimName(o.id)) + "'");
    int64_t want = shape[size_t(s)];
    if (want <= o.size())
      continue;
    if (want % o.size() != 0)
      return Diagnostic::error("ensureLayoutNotSmallerThan: size mismatch");
    LK_TRY(r, mul(r, LinearLayout::identity1D(want / o.size(), k, o.id)));
  }
  return r;
}

Expected<LinearLayout> ensureLayoutNotLargerThan(const LinearLayout &l,
                                                 std::span<const int64_t> shape,
                                                 bool broadcastRegisters) {
  if (l.numOutDims() == 0)
    return l;
  std::vector<InDimBases> ins = l.allBases();
  std::vector<std::vector<bool>> drop(ins.size());
  for (size_t i = 0; i < ins.size(); ++i)
    drop[i].assign(ins[i].bases.size(), false);
  for (int k = 0; k < l.numOutDims(); ++k) {
    DimSize o = l.outDim(k);
    int s = stdIndex(o.id);
    if (s < 0 || size_t(s) >= shape.size())
      return Diagnostic::error("ensureLayoutNotLargerThan: no size for '" +
                               std::string(dimName(o.id)) + "'");
    // Exact: a layout's dim has at most LinearLayout::kMaxDimBits bits.
    int64_t actual = o.size(), want = shape[size_t(s)];
    if (actual <= want)
      continue;
    struct Entry {
      size_t in, idx;
      int64_t value;
    };
    std::vector<Entry> sorted;
    for (size_t i = 0; i < ins.size(); ++i)
      for (size_t b = 0; b < ins[i].bases.size(); ++b)
        if (ins[i].bases[b][size_t(k)] != 0)
          sorted.push_back({i, b, ins[i].bases[b][size_t(k)]});
    std::stable_sort(
        sorted.begin(), sorted.end(),
        [](const Entry &a, const Entry &b) { return a.value > b.value; });
    for (const Entry &en : sorted) {
      if (actual <= want)
        break;
      if (!broadcastRegisters && ins[en.in].dim == dims::kRegister)
        drop[en.in][en.idx] = true;
      else
        ins[en.in].bases[en.idx][size_t(k)] = 0;
      actual >>= 1;
    }
  }
  for (size_t i = 0; i < ins.size(); ++i) {
    std::vector<std::vector<int64_t>> kept;
    for (size_t b = 0; b < ins[i].bases.size(); ++b)
      if (!drop[i][b])
        kept.push_back(std::move(ins[i].bases[b]));
    ins[i].bases = std::move(kept);
  }
  // Sizes inferred from the bases (Triton rebuilds with LinearLayout(bases,
  // outDimNames)).
  std::vector<OutDim> outs;
  for (int k = 0; k < l.numOutDims(); ++k) {
    // The smallest power of two above every basis value: 2^(max bit width).
    int bits = 0;
    for (const InDimBases &in : ins)
      for (const auto &b : in.bases)
        bits = std::max(bits, bitWidth(uint64_t(b[size_t(k)])));
    LK_TRY(int64_t size, checkedPow2(bits, "the out-dim size"));
    outs.push_back({l.outDim(k).id, size});
  }
  return LinearLayout::make(std::span<const InDimBases>(ins),
                            std::span<const OutDim>(outs));
}

Expected<LinearLayout> combineCtaCgaWithShape(const LinearLayout &ctaLayout,
                                              const CTALayout &cta,
                                              std::span<const int64_t> shape) {
  size_t rank = shape.size();
  LK_CHECK(checkShape(shape));
  LK_CHECK(checkCta(cta, rank));
  if (size_t(ctaLayout.numOutDims()) != rank)
    return Diagnostic::error(
        "the layout has " + std::to_string(ctaLayout.numOutDims()) +
        " output dims; the tensor has rank " + std::to_string(rank));
  LK_TRY(LinearLayout cga0, makeCgaLayout(cta, rank));
  LK_TRY(LinearLayout cga1, ensureLayoutNotLargerThan(cga0, shape));
  LK_TRY(LinearLayout cga, transposeOutsTo(cga1, outNames(ctaLayout)));
  std::vector<int64_t> ctaShape(rank);
  for (size_t d = 0; d < rank; ++d)
    ctaShape[d] = std::max<int64_t>(1, shape[d] / cga.outDimSize(dim(int(d))));
  LK_TRY(LinearLayout a, ensureLayoutNotSmallerThan(ctaLayout, ctaShape));
  LK_TRY(LinearLayout b, ensureLayoutNotLargerThan(a, ctaShape));
  LK_TRY(LinearLayout r, product(b, cga));
  return transposeOutsTo(r, standardNames(rank));
}

namespace {

/// A `#ttg.linear` layout on `shape`: registers repeat to cover a larger
/// tensor, register bases of a smaller one are dropped (Triton's
/// LinearEncodingAttr::toLinearLayout, with the output dims in order).
/// The out-dim indices in the order a linear encoding's registers move them
/// (Triton's orderPerDim("register") with default order [rank-1, ..., 0]):
/// the dim of each non-zero register basis' first non-zero entry, first
/// appearance first, then the dims no register moves, highest first.
/// Example: register [(0,1), (8,0)] -> [1, 0]; register [] -> [1, 0].
std::vector<unsigned> linearRegisterOrder(const LinearLayout &l) {
  std::vector<unsigned> order;
  auto add = [&order](unsigned k) {
    if (std::find(order.begin(), order.end(), k) == order.end())
      order.push_back(k);
  };
  if (int r = l.inDimIndex(kRegister); r >= 0)
    for (const std::vector<int64_t> &b : l.bases(r)) {
      auto nz = std::find_if(b.begin(), b.end(), [](int64_t v) { return v; });
      if (nz != b.end())
        add(unsigned(nz - b.begin()));
    }
  for (size_t k = size_t(l.numOutDims()); k-- > 0;)
    add(unsigned(k));
  return order;
}

Expected<LinearLayout> explicitLinear(const Encoding &e,
                                      std::span<const int64_t> shape) {
  if (!e.linear)
    return Diagnostic::error("linear: missing layout");
  const LinearLayout &l = *e.linear;
  if (size_t(l.numOutDims()) != shape.size())
    return Diagnostic::error(
        "linear: the layout has " + std::to_string(l.numOutDims()) +
        " output dims; the tensor has rank " + std::to_string(shape.size()));
  // Triton repeats and trims the out dims in the register order
  // (LinearEncodingAttr::getRepOrder), then restores their order.
  std::vector<DimId> canonical = outNames(l), byRegisters;
  for (unsigned k : linearRegisterOrder(l))
    byRegisters.push_back(canonical[k]);
  LK_TRY(LinearLayout a, transposeOutsTo(l, byRegisters));
  LK_TRY(a, ensureLayoutNotSmallerThan(a, shape));
  LK_TRY(a, ensureLayoutNotLargerThan(a, shape, /*broadcastRegisters=*/false));
  return transposeOutsTo(a, canonical);
}

} // namespace

Expected<LinearLayout> toLinearLayout(const Encoding &enc,
                                      std::span<const int64_t> shape) {
  LK_CHECK(checkEncoding(enc));
  if (enc.kind != EncodingKind::ShmemForRegToReg)
    LK_CHECK(checkShape(shape));
  switch (enc.kind) {
  case EncodingKind::Blocked:
    return blockedToLL(enc, shape);
  case EncodingKind::NvidiaMma:
    return nvidiaMmaToLL(enc, shape);
  case EncodingKind::AmdMfma:
    return mfmaToLL(enc, shape);
  case EncodingKind::AmdWmma:
    return wmmaToLL(enc, shape);
  case EncodingKind::IntelDpas:
    return intelDpasLayout(enc, 2, shape);
  case EncodingKind::DotOperand:
    return dotToLL(enc, shape);
  case EncodingKind::Slice:
    return sliceToLL(enc, shape);
  case EncodingKind::SwizzledShared:
    return swizzledSharedToLL(enc, shape);
  case EncodingKind::NvmmaShared:
    return nvmmaSharedToLL(enc, shape);
  case EncodingKind::ShmemForRegToReg:
    return shmemForRegToReg(enc);
  case EncodingKind::Linear:
    return explicitLinear(enc, shape);
  }
  return Diagnostic::error("unknown encoding kind");
}

Expected<LinearLayout> blockedLayout(std::span<const unsigned> sizePerThread,
                                     std::span<const unsigned> threadsPerWarp,
                                     std::span<const unsigned> warpsPerCTA,
                                     std::span<const unsigned> order,
                                     std::span<const int64_t> shape,
                                     const CTALayout *cta) {
  Encoding e;
  e.kind = EncodingKind::Blocked;
  e.sizePerThread.assign(sizePerThread.begin(), sizePerThread.end());
  e.threadsPerWarp.assign(threadsPerWarp.begin(), threadsPerWarp.end());
  e.warpsPerCTA.assign(warpsPerCTA.begin(), warpsPerCTA.end());
  e.order.assign(order.begin(), order.end());
  if (cta)
    e.cta = *cta;
  return toLinearLayout(e, shape);
}

Expected<LinearLayout> nvidiaMmaLayout(int versionMajor,
                                       std::span<const unsigned> instrShape,
                                       std::span<const unsigned> warpsPerCTA,
                                       std::span<const int64_t> shape,
                                       const CTALayout *cta) {
  Encoding e;
  e.kind = EncodingKind::NvidiaMma;
  e.versionMajor = versionMajor;
  e.instrShape.assign(instrShape.begin(), instrShape.end());
  e.warpsPerCTA.assign(warpsPerCTA.begin(), warpsPerCTA.end());
  if (cta)
    e.cta = *cta;
  return toLinearLayout(e, shape);
}

//===----------------------------------------------------------------------===//
// ldmatrix / stmatrix
//===----------------------------------------------------------------------===//

Expected<LinearLayout> ldmatrixLayout(const Encoding &dot,
                                      std::span<const int64_t> shape,
                                      bool trans, int elemBitWidth) {
  const Encoding *mma = dot.parent.get();
  if (dot.kind != EncodingKind::DotOperand || !mma ||
      mma->kind != EncodingKind::NvidiaMma)
    return Diagnostic::error(
        "ldmatrix: expected a dot operand of an nvidia mma");
  LK_CHECK(checkShape(shape));
  size_t rank = shape.size();
  if (rank != 2 || mma->warpsPerCTA.size() != 2)
    return Diagnostic::error("ldmatrix: the tensor must be 2-D");
  if (elemBitWidth <= 0 || elemBitWidth > 16 || !isPow2(elemBitWidth))
    return Diagnostic::error("ldmatrix: elements of 1..16 bits (power of two)");
  int opIdx = dot.opIdx;
  unsigned kDim = opIdx == 0 ? 1 : 0, nonK = opIdx == 0 ? 0 : 1;
  DimId inner =
      opIdx == 0 ? (trans ? dim(0) : dim(1)) : (trans ? dim(1) : dim(0));
  DimId outer =
      opIdx == 0 ? (trans ? dim(1) : dim(0)) : (trans ? dim(0) : dim(1));
  int64_t rowElems = 8 * 16 / elemBitWidth; // elements in 16 bytes
  std::vector<std::vector<int64_t>> reg;
  for (int r = 0; r < log2Floor(rowElems); ++r)
    reg.push_back({0, int64_t(1) << r});
  std::vector<std::vector<int64_t>> lane = {
      {1, 0}, {2, 0}, {4, 0}, {0, 0}, {0, 0}};
  bool kX2 = shape[kDim] > rowElems, kX4 = shape[kDim] > 2 * rowElems;
  bool nonKX2 = shape[nonK] > 8;
  if (opIdx == 0) {
    if (trans) {
      if (nonKX2)
        lane[3] = {0, 8};
      if (kX2)
        lane[4] = {rowElems, 0};
    } else {
      if (nonKX2)
        lane[3] = {8, 0};
      if (kX2)
        lane[4] = {0, rowElems};
    }
  } else {
    if (trans) {
      if (kX2)
        lane[3] = {8, 0};
      if (kX4)
        lane[4] = {16, 0};
    } else {
      if (kX2)
        lane[3] = {0, rowElems};
      if (kX4)
        lane[4] = {0, 2 * rowElems};
    }
  }
  int64_t tileCols = rowElems << (int(kX2) + int(kX4 && opIdx == 1));
  std::vector<InDimBases> ins = {{kRegister, reg}, {kLane, lane}, {kWarp, {}}};
  std::vector<DimId> names = {outer, inner};
  LK_TRY(LinearLayout l, LinearLayout::make(std::span<const InDimBases>(ins),
                                            std::span<const DimId>(names)));
  int64_t reps = std::max<int64_t>(1, shape[kDim] / tileCols);
  LK_TRY(l, mul(l, LinearLayout::identity1D(reps, kRegister, dim(int(kDim)))));
  LK_TRY(LinearLayout w,
         broadcastedDotOperandLayout(mma->warpsPerCTA, mmaWarpOrder(*mma, 2),
                                     kDim, kWarp));
  LK_TRY(w, transposeOutsTo(w, outNames(l)));
  LK_TRY(l, product(l, w));
  CTALayout s;
  return combineCtaCgaWithShape(l, ctaOf(*mma, s, rank), shape);
}

Expected<LinearLayout> stmatrixLayout(const Encoding &mma,
                                      std::span<const int64_t> shape,
                                      int swizzleByteSize) {
  if (mma.kind != EncodingKind::NvidiaMma || mma.instrShape.size() < 2 ||
      mma.warpsPerCTA.size() != 2)
    return Diagnostic::error("stmatrix: expected a 2-D nvidia mma accumulator");
  LK_CHECK(checkShape(shape));
  if (shape.size() != 2)
    return Diagnostic::error("stmatrix: the tensor must be 2-D");
  DimId kCol = dim(1), kRow = dim(0);
  CTALayout s;
  const CTALayout &cta = ctaOf(mma, s, 2);
  if (swizzleByteSize == 0) {
    std::vector<InDimBases> ins = {
        {kRegister, {{1, 0}, {2, 0}, {4, 0}}},
        {kLane, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}}};
    std::vector<DimId> names = {kCol, kRow};
    LK_TRY(LinearLayout l, LinearLayout::make(std::span<const InDimBases>(ins),
                                              std::span<const DimId>(names)));
    int64_t n = mma.instrShape[1];
    LK_TRY(l, mul(l, LinearLayout::identity1D(
                         std::max<int64_t>(1, n / l.outDimSize(kCol)),
                         kRegister, kCol)));
    unsigned order01[] = {0, 1};
    LK_TRY(LinearLayout w, identityStandardND(kWarp, mma.warpsPerCTA, order01));
    LK_TRY(w, transposeOutsTo(w, outNames(l)));
    LK_TRY(l, product(l, w));
    LK_TRY(LinearLayout r, combineCtaCgaWithShape(l, cta, shape));
    std::vector<int64_t> perCta(2);
    for (size_t d = 0; d < 2; ++d)
      perCta[d] = shape[d] / std::min<int64_t>(shape[d], cta.ctaSplitNum[d]);
    LK_TRY(r, ensureLayoutNotSmallerThan(r, perCta));
    LK_TRY(r, ensureLayoutNotLargerThan(r, perCta));
    LK_TRY(r, transposeOutsTo(r, {kCol, kRow}));
    OutDim o[] = {{kOffset, r.totalOutSize()}, {kIteration, 1}};
    return r.reshapeOuts(std::span<const OutDim>(o));
  }
  int perPhase, maxPhase;
  if (swizzleByteSize == 32) {
    perPhase = 4;
    maxPhase = 2;
  } else if (swizzleByteSize == 64) {
    perPhase = 2;
    maxPhase = 4;
  } else if (swizzleByteSize == 128) {
    perPhase = 1;
    maxPhase = 8;
  } else {
    return Diagnostic::error(
        "stmatrix: swizzleByteSize must be 0, 32, 64 or 128");
  }
  if (mma.versionMajor < 3)
    return Diagnostic::error(
        "stmatrix: a swizzled layout needs an MMAv3 accumulator");
  const int vecSize = 8, rowsPerTile = 16;
  int64_t colsPerChunk = 8 * swizzleByteSize / 16;
  std::vector<std::vector<int64_t>> reg = {{1, 0}, {2, 0}, {4, 0}}, lane, warp;
  for (int r = 0; r < log2Floor(rowsPerTile); ++r) {
    int64_t row = int64_t(1) << r;
    lane.push_back({vecSize * ((row / perPhase) % maxPhase), row});
  }
  lane.push_back({8, 0});
  int64_t instrM = mma.instrShape[0], instrN = mma.instrShape[1];
  if (instrN < colsPerChunk)
    return Diagnostic::error(
        "stmatrix: each swizzle chunk must be filled by one warp");
  for (int c = 0; c < log2Floor(colsPerChunk / 16); ++c)
    reg.push_back({16 * (int64_t(1) << c), 0});
  unsigned w0 = mma.warpsPerCTA[0], w1 = mma.warpsPerCTA[1];
  for (int i = 0; i < log2Floor(w0); ++i)
    warp.push_back({0, (int64_t(1) << i) * instrM});
  int64_t colsPerWarp = std::max<int64_t>(instrN, shape[1] / w1);
  if (int64_t(w1) * instrN < shape[1] || int64_t(w0) * instrM > shape[0])
    return Diagnostic::error(
        "stmatrix: the tensor does not match the MMAv3 tiling");
  for (int c = 0; c < log2Floor(colsPerWarp / colsPerChunk); ++c)
    reg.push_back({0, (int64_t(1) << c) * shape[0]});
  for (int r = 0; r < log2Floor(shape[0] / (w0 * instrM)); ++r)
    reg.push_back({0, (int64_t(1) << r) * w0 * instrM});
  for (int i = 0; i < log2Floor(w1); ++i) {
    int64_t wv = int64_t(1) << i;
    if (wv * colsPerWarp >= shape[1])
      warp.push_back({0, 0});
    else
      warp.push_back({0, wv * colsPerWarp / colsPerChunk * shape[0]});
  }
  DimId off1 = internDim("offset1"), off0 = internDim("offset0");
  std::vector<InDimBases> ins = {
      {kRegister, reg}, {kLane, lane}, {kWarp, warp}, {kBlock, {}}};
  std::vector<DimId> names = {off1, off0};
  LK_TRY(LinearLayout l, LinearLayout::make(std::span<const InDimBases>(ins),
                                            std::span<const DimId>(names)));
  OutDim o[] = {{kOffset, l.totalOutSize()}, {kIteration, 1}};
  return l.reshapeOuts(std::span<const OutDim>(o));
}

} // namespace lk::linear
