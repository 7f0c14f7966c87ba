//===- SharedMemory.cpp - Conversions through shared memory --------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// planSharedMemory and planSharedMemoryWith (Plan.h): the memory layout
// [low | Sub | BankWord | Idx | top] with the optimal swizzle, vector or
// matrix (ldmatrix / stmatrix) sides, iterations for a smaller buffer, and
// the search over the matrix candidates.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Plan.h"

#include "F2.h"
#include "MatrixRows.h"
#include "SharedAccess.h"

#include "layoutkit/core/Bits.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/plan/MatrixAccess.h"

#include <algorithm>
#include <optional>

namespace lk::plan {

using namespace detail;

using linear::DimId;
using linear::DimSize;
using linear::LinearLayout;
namespace dims = linear::dims;

namespace {

/// The register bit of `l` whose column is `col`, or -1.
int regBitOf(const LinearLayout &l, uint64_t col) {
  Columns reg = dimColumns(l, dims::kRegister);
  for (size_t j = 0; j < reg.size(); ++j)
    if (reg[j] == col)
      return int(j);
  return -1;
}

/// Logical bits a plan may iterate over (PlanOptions::smemBudgetBytes):
/// register or warp bits of both layouts outside `excluded`, so that every
/// warp instruction of either side stays inside one iteration. Register
/// bits of both first, then register/warp mixes, then warp bits of both;
/// the highest logical bit first in each class.
std::vector<int> iterableBits(const AlignedPair &p, uint64_t excluded) {
  auto holder = [](const LinearLayout &l, int bit) {
    for (DimId d : {dims::kRegister, dims::kWarp}) {
      Columns c = dimColumns(l, d);
      if (std::find(c.begin(), c.end(), uint64_t(1) << bit) != c.end())
        return d == dims::kRegister ? 0 : 1;
    }
    return -1;
  };
  std::vector<std::pair<int, int>> ranked; // (class, -bit)
  for (int b = 0; b < p.src.totalOutBits(); ++b) {
    if (excluded >> b & 1)
      continue;
    int a = holder(p.src, b), d = holder(p.dst, b);
    if (a < 0 || d < 0)
      continue;
    ranked.push_back({a + d, -b});
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<int> bits;
  for (auto [cls, nb] : ranked)
    bits.push_back(-nb);
  return bits;
}

/// Sub: up to `subCount` bits inside one 32-bit word (lanes that differ
/// only there share the word), neither in `used` nor in `topMask`. Any
/// choice keeps the conflict-free solution (docs/plan.md); lane bits of
/// both sides first, then of one side. Marks them in `used`.
std::vector<uint64_t> subColumns(int n, uint64_t gA, uint64_t gB, int subCount,
                                 uint64_t topMask, uint64_t &used) {
  std::vector<int> subOrder;
  for (uint64_t pref : {gA & gB, (gA | gB) & ~(gA & gB), ~(gA | gB)})
    for (int b = 0; b < n; ++b)
      if ((pref >> b & 1) && !((used | topMask) >> b & 1))
        subOrder.push_back(b);
  std::vector<uint64_t> sub;
  for (int b : subOrder) {
    if (int(sub.size()) == subCount)
      break;
    sub.push_back(uint64_t(1) << b);
    used |= uint64_t(1) << b;
  }
  return sub;
}

/// The candidates for Idx among the `free` bits, in order: span(Z) (outer
/// bits first), then the pairs x_j ^ y_j (Lemma 9.5), then, where
/// conflicts are unavoidable, any remaining bit, outer bits first.
std::vector<uint64_t> idxCandidates(int n, uint64_t gA, uint64_t gB,
                                    uint64_t free) {
  uint64_t X = gA & ~gB & free, Y = gB & ~gA & free;
  uint64_t Z = free & ~(gA | gB);
  std::vector<uint64_t> idxCand;
  for (int b = n - 1; b >= 0; --b)
    if (Z >> b & 1)
      idxCand.push_back(uint64_t(1) << b);
  std::vector<int> xs, ys;
  for (int b = 0; b < n; ++b) {
    if (X >> b & 1)
      xs.push_back(b);
    if (Y >> b & 1)
      ys.push_back(b);
  }
  for (size_t j = 0; j < std::min(xs.size(), ys.size()); ++j)
    idxCand.push_back((uint64_t(1) << xs[j]) | (uint64_t(1) << ys[j]));
  for (int b = n - 1; b >= 0; --b)
    if (free >> b & 1)
      idxCand.push_back(uint64_t(1) << b);
  return idxCand;
}

/// The first `idxCount` candidates independent of `basis` and the top bits.
std::vector<uint64_t> pickIdx(const F2Basis &basis, std::span<const int> top,
                              const std::vector<uint64_t> &idxCand,
                              int idxCount) {
  std::vector<uint64_t> idx;
  F2Basis probe = basis;
  for (int b : top)
    probe.add(uint64_t(1) << b, 0);
  for (uint64_t c : idxCand) {
    if (int(idx.size()) == idxCount)
      break;
    if (probe.add(c, 0))
      idx.push_back(c);
  }
  return idx;
}

/// BankWord: completes `cols` (low + Sub, in `basis`) to `line` columns
/// independent of Idx and the top bits, lane bits of A first, then of B.
void completeBankWord(F2Basis &basis, std::vector<uint64_t> &cols,
                      std::span<const uint64_t> idx, std::span<const int> top,
                      int n, uint64_t gA, uint64_t gB, int line) {
  for (uint64_t c : idx)
    basis.add(c, 0);
  for (int b : top)
    basis.add(uint64_t(1) << b, 0);
  std::vector<uint64_t> bankCand;
  for (uint64_t pref : {gA, gB & ~gA, ~(gA | gB)})
    for (int b = 0; b < n; ++b)
      if (pref >> b & 1)
        bankCand.push_back(uint64_t(1) << b);
  for (uint64_t c : bankCand) {
    if (int(cols.size()) == line)
      break;
    if (basis.add(c, 0))
      cols.push_back(c);
  }
}

/// Builds the memory layout [low | Sub | BankWord | Idx | top] (docs/plan.md):
/// `low` the given lowest offset bits (vector or matrix row), Sub up to
/// `subCount` bits, Idx from span(Z) + span{x_j ^ y_j} of the conflict
/// groups gA, gB (Lemma 9.5), `top` the iteration then CTA bits as the
/// highest offset bits (not lane bits, so in Z: they are forced there).
Expected<LinearLayout> buildMemory(const AlignedPair &p,
                                   std::span<const int> low, int subCount,
                                   uint64_t gA, uint64_t gB,
                                   std::span<const int> top, int line) {
  const int n = p.src.totalOutBits();
  uint64_t used = 0, topMask = 0;
  for (int b : low)
    used |= uint64_t(1) << b;
  for (int b : top)
    topMask |= uint64_t(1) << b;
  F2Basis basis;
  std::vector<uint64_t> cols;
  auto take = [&](uint64_t c) {
    if (basis.add(c, uint64_t(1) << (cols.size() & 63)))
      cols.push_back(c);
  };
  for (int b : low)
    take(uint64_t(1) << b);
  for (uint64_t c : subColumns(n, gA, gB, subCount, topMask, used))
    take(c);
  const uint64_t free = lowMask(n) & ~used & ~topMask;
  const std::vector<uint64_t> idx = pickIdx(
      basis, top, idxCandidates(n, gA, gB, free), n - line - int(top.size()));
  completeBankWord(basis, cols, idx, top, n, gA, gB, line);
  cols.insert(cols.end(), idx.begin(), idx.end());
  for (int b : top)
    cols.push_back(uint64_t(1) << b);
  if (int(cols.size()) != n)
    return Diagnostic::error("internal error: swizzle basis has " +
                             std::to_string(cols.size()) + " of " +
                             std::to_string(n) + " vectors");
  std::vector<DimSize> outs;
  for (int i = 0; i < p.src.numOutDims(); ++i)
    outs.push_back(p.src.outDim(i));
  DimSize off{dims::kOffset, n};
  return LinearLayout::fromColumns(std::span(&off, 1), outs, cols);
}

/// The vector of the st.shared / ld.shared side(s): the lowest offset bits,
/// each a register bit of every vector side (none when both sides are
/// matrices); fills the vector fields of `sp`.
Status vectorFields(const AlignedPair &p, const SideAccess &store,
                    const SideAccess &load, SharedMemoryPlan &sp) {
  const SideAccess &vs = store.isMatrix() ? load : store;
  const int v = (store.isMatrix() && load.isMatrix()) ? 0 : vs.v();
  for (int j = 0; j < v; ++j) {
    uint64_t col = sp.memory.column(j);
    if (__builtin_popcountll(col) != 1)
      return Diagnostic::error("vector offset bit " + std::to_string(j) +
                               " is a swizzled column");
    sp.vecBits.push_back(__builtin_ctzll(col));
  }
  for (const SideAccess *s : {&store, &load}) {
    if (s->isMatrix())
      continue;
    if (s->v() != v)
      return Diagnostic::error("internal error: vector sides of different "
                               "widths");
    const LinearLayout &l = s == &store ? p.src : p.dst;
    for (int j = 0; j < v; ++j)
      if (l.column(s->vecRegBits[size_t(j)]) != sp.memory.column(j))
        return Diagnostic::error(
            "vector bit " + std::to_string(sp.vecBits[size_t(j)]) +
            " is not register bit " + std::to_string(s->vecRegBits[size_t(j)]) +
            " of the " + (s == &store ? "source" : "destination"));
  }
  if (!store.isMatrix())
    sp.store.vecRegBits = store.vecRegBits;
  if (!load.isMatrix())
    sp.load.vecRegBits = load.vecRegBits;
  sp.vectorElements = int64_t(1) << v;
  sp.accessBytes = sp.elementBytes << v;
  if (sp.accessBytes > 16)
    return Diagnostic::error("vector of " + std::to_string(sp.accessBytes) +
                             " bytes is wider than 16");
  return Ok{};
}

/// The offset-bit split [vector | Sub | BankWord | Idx] of `sp` and, with a
/// matrix side, its row bits, the matrix count both sides issue (the
/// smaller one) and the matrix fields; `st` and `ld` come back with that
/// count.
Status layoutFields(const AlignedPair &p, int64_t elementBits, SideAccess &st,
                    SideAccess &ld, SharedMemoryPlan &sp) {
  const int n = p.src.totalOutBits();
  const int v = int(sp.vecBits.size());
  const int line = lineBitsOf(p, sp.elementBytes);
  sp.subBits = subBitsOf(n, log2Floor(sp.elementBytes), v);
  sp.bankBits = line - v - sp.subBits;
  sp.idxBits = n - line;
  if (st.isMatrix() || ld.isMatrix()) {
    if (elementBits != 16)
      return Diagnostic::error("ldmatrix/stmatrix move 16-bit elements, not " +
                               std::to_string(elementBits) + "-bit");
    for (int j = 0; j < 3; ++j)
      sp.rowBits.push_back(__builtin_ctzll(sp.memory.column(j)));
    int64_t count = st.isMatrix() ? st.matrix.count() : 16;
    if (ld.isMatrix())
      count = std::min(count, ld.matrix.count());
    sp.matrixCount = int(count);
    sp.subBits = 0;
    sp.bankBits = line - 3;
  }
  sp.store.matrixInstruction = st.isMatrix();
  sp.store.trans = st.isMatrix() && st.matrix.trans;
  sp.load.matrixInstruction = ld.isMatrix();
  sp.load.trans = ld.isMatrix() && ld.matrix.trans;
  for (SideAccess *s : {&st, &ld})
    if (s->isMatrix())
      s->matrix.matrixRegBits.resize(size_t(log2Floor(sp.matrixCount)));
  if (st.isMatrix())
    sp.store.matrix = st.matrix;
  if (ld.isMatrix())
    sp.load.matrix = ld.matrix;
  return Ok{};
}

/// The top offset bits: the iteration bits, then the CTA bits; fills the
/// iterations, barriers and buffer bytes of `sp`.
Status topFields(int n, std::vector<int> iterationBits, SharedMemoryPlan &sp) {
  for (size_t k = 0; k < sp.ctaBits.size(); ++k)
    if (sp.memory.column(n - int(sp.ctaBits.size()) + int(k)) !=
        uint64_t(1) << sp.ctaBits[k])
      return Diagnostic::error("the highest offset bits of the memory layout "
                               "must be the CTA bits");
  const int below = n - int(sp.ctaBits.size()) - int(iterationBits.size());
  for (size_t k = 0; k < iterationBits.size(); ++k)
    if (sp.memory.column(below + int(k)) != uint64_t(1) << iterationBits[k])
      return Diagnostic::error("internal error: iteration bits are not the "
                               "top offset bits");
  sp.iterationBits = std::move(iterationBits);
  sp.iterations = int64_t(1) << sp.iterationBits.size();
  sp.barriers = 2 * sp.iterations - 1;
  sp.bytes = sp.elementBytes << below;
  return Ok{};
}

/// Assembles and costs a shared-memory plan for a given memory layout and
/// side accesses.
Expected<Plan> finishShared(const AlignedPair &p, int64_t elementBits,
                            LinearLayout mem, const SideAccess &store,
                            const SideAccess &load,
                            std::vector<int> iterationBits) {
  SharedMemoryPlan sp;
  sp.memory = std::move(mem);
  sp.elementBytes = elementBits / 8;
  sp.ctaBits = ctaLogicalBits(p);
  LK_CHECK(vectorFields(p, store, load, sp));
  SideAccess st = store, ld = load;
  LK_CHECK(layoutFields(p, elementBits, st, ld, sp));
  LK_CHECK(topFields(p.src.totalOutBits(), std::move(iterationBits), sp));
  LK_CHECK(fillSharedCosts(p, sp, st, ld));

  Plan plan;
  plan.strategy = Strategy::SharedMemory;
  plan.layouts = p;
  plan.elementBits = elementBits;
  plan.cost.instructions =
      sp.store.instructions + sp.load.instructions + sp.registerCopies;
  plan.cost.registerMoves = sp.registerCopies;
  plan.cost.barriers = sp.barriers;
  plan.cost.wavefronts = sp.store.wavefronts + sp.load.wavefronts;
  plan.cost.smemBytes = sp.bytes;
  plan.cost.cycles = estimatedCycles(plan.cost);
  plan.smem = std::move(sp);
  return plan;
}

} // namespace

Expected<Plan> planSharedMemoryWith(const LinearLayout &src,
                                    const LinearLayout &dst,
                                    int64_t elementBits,
                                    const LinearLayout &memory,
                                    std::span<const int> vecBits) {
  LK_CHECK(checkElementBits(elementBits));
  LK_TRY(AlignedPair p, alignLayouts(src, dst));
  LK_CHECK(checkShareable(p));
  int n = p.src.totalOutBits();
  if (memory.numInDims() != 1 || memory.totalInBits() != n ||
      !memory.isInvertible())
    return Diagnostic::error("memory layout must be one invertible offset "
                             "dim over the tensor: " +
                             memory.str());
  std::vector<DimId> order;
  for (int i = 0; i < p.src.numOutDims(); ++i)
    order.push_back(p.src.outDim(i).id);
  LK_TRY(LinearLayout mem, memory.transposeOuts(order));
  for (int i = 0; i < mem.numOutDims(); ++i)
    if (mem.outDim(i) != p.src.outDim(i))
      return Diagnostic::error("memory layout has other output dims: " +
                               memory.str());
  if (int64_t(elementBits / 8) << vecBits.size() > 16)
    return Diagnostic::error(
        "vector of " +
        std::to_string(int64_t(elementBits / 8) << vecBits.size()) +
        " bytes is wider than 16");
  SideAccess store, load;
  for (size_t j = 0; j < vecBits.size(); ++j) {
    uint64_t col = uint64_t(1) << vecBits[j];
    int ra = regBitOf(p.src, col), rb = regBitOf(p.dst, col);
    if (ra < 0 || rb < 0 || mem.column(int(j)) != col)
      return Diagnostic::error("vector bit " + std::to_string(vecBits[j]) +
                               " is not a register bit of both layouts and "
                               "offset bit " +
                               std::to_string(j));
    store.vecRegBits.push_back(ra);
    load.vecRegBits.push_back(rb);
  }
  return finishShared(p, elementBits, mem, store, load, {});
}

namespace {

/// The plan for one choice of sides: picks the iteration bits for the
/// budget, builds the swizzle and costs it.
Expected<Plan> planCandidate(const AlignedPair &p, int64_t elementBits,
                             const PlanOptions &options, std::vector<int> low,
                             const SideAccess &store, const SideAccess &load,
                             uint64_t excluded) {
  const int n = p.src.totalOutBits();
  const int64_t eb = elementBits / 8;
  const int logE = log2Floor(eb);
  std::vector<int> cta = ctaLogicalBits(p);
  const int nCta = n - int(cta.size());
  const int line = lineBitsOf(p, eb);
  int v = (store.isMatrix() && load.isMatrix())
              ? 0
              : (store.isMatrix() ? load.v() : store.v());
  int subCount =
      (store.isMatrix() || load.isMatrix()) ? 0 : subBitsOf(n, logE, v);
  // Iterations for the budget.
  std::vector<int> iter;
  const int64_t full = eb << nCta;
  if (options.smemBudgetBytes < 0)
    return Diagnostic::error("shared-memory budget of " +
                             std::to_string(options.smemBudgetBytes) +
                             " bytes is negative");
  if (options.smemBudgetBytes > 0 && full > options.smemBudgetBytes) {
    for (int b : low)
      excluded |= uint64_t(1) << b;
    std::vector<int> can = iterableBits(p, excluded);
    // Iteration bits are taken from Idx (above the rows, Sub and BankWord
    // bits), so the buffer keeps at least one 128-byte row.
    int maxK = std::min(int(can.size()), std::max(0, nCta - line));
    int k = 0;
    while (k < maxK && (full >> k) > options.smemBudgetBytes)
      ++k;
    if ((full >> k) > options.smemBudgetBytes)
      return Diagnostic::error(
          "shared-memory budget of " + std::to_string(options.smemBudgetBytes) +
          " bytes is below the smallest legal buffer of " +
          std::to_string(full >> maxK) + " bytes (the " + std::to_string(full) +
          "-byte CTA tile over at most " +
          counted(int64_t(1) << maxK, "iteration") + ": " +
          std::to_string(can.size()) +
          " logical bits are register or warp bits of both layouts outside "
          "the vectors and matrices, and a buffer keeps at least one "
          "128-byte row)");
    iter.assign(can.begin(), can.begin() + k);
    // Lowest iteration bit first in offset order: sort by position.
    std::sort(iter.begin(), iter.end());
  }
  std::vector<int> top = iter;
  top.insert(top.end(), cta.begin(), cta.end());
  LK_TRY(uint64_t gA, conflictGroupMask(p.src, store, eb));
  LK_TRY(uint64_t gB, conflictGroupMask(p.dst, load, eb));
  LK_TRY(LinearLayout mem, buildMemory(p, low, subCount, gA, gB, top, line));
  return finishShared(p, elementBits, mem, store, load, iter);
}

/// The vector side over the row bits `row` (offset order): the longest
/// prefix held in registers of `l`.
SideAccess vectorSideOver(const LinearLayout &l, std::span<const int> row) {
  SideAccess s;
  for (int b : row) {
    int r = regBitOf(l, uint64_t(1) << b);
    if (r < 0)
      break;
    s.vecRegBits.push_back(r);
  }
  return s;
}

bool better(const Plan &a, const Plan &b) {
  if (a.cost.instructions != b.cost.instructions)
    return a.cost.instructions < b.cost.instructions;
  return a.cost.wavefronts < b.cost.wavefronts;
}

} // namespace

Expected<Plan> planSharedMemory(const LinearLayout &src,
                                const LinearLayout &dst, int64_t elementBits) {
  return planSharedMemory(src, dst, elementBits, PlanOptions{});
}

namespace {

/// Step 1 (docs/plan.md): Vec, the logical bits both layouts hold in registers,
/// at most 16 bytes of elements; fills both sides' vector register bits.
std::vector<int> sharedVectorBits(const AlignedPair &p, int64_t elementBytes,
                                  SideAccess &store, SideAccess &load) {
  const int maxV = log2Floor(16 / elementBytes);
  Columns aReg = dimColumns(p.src, dims::kRegister);
  Columns bReg = dimColumns(p.dst, dims::kRegister);
  std::vector<int> vec;
  for (size_t j = 0; j < aReg.size(); ++j) {
    uint64_t c = aReg[j];
    if (int(vec.size()) == maxV)
      break;
    auto it = c ? std::find(bReg.begin(), bReg.end(), c) : bReg.end();
    if (it != bReg.end()) {
      vec.push_back(__builtin_ctzll(c));
      store.vecRegBits.push_back(int(j));
      load.vecRegBits.push_back(int(it - bReg.begin()));
    }
  }
  return vec;
}

/// The logical bits of one matrix row set (docs/plan.md, "ldmatrix /
/// stmatrix").
struct MatrixRowSet {
  std::vector<int> bits;
};

/// Each row set one side's matrix instruction can take (plain: the half
/// register and lane bits 0, 1; .trans: lane bits 2-4); the same row set
/// from both layouts once (the first kept).
std::vector<MatrixRowSet> matrixRowSets(const AlignedPair &p) {
  std::vector<MatrixRowSet> rows;
  for (const LinearLayout *l : {&p.src, &p.dst}) {
    Columns lane = dimColumns(*l, dims::kLane);
    Columns reg = dimColumns(*l, dims::kRegister);
    if (lane[0] && lane[1])
      for (uint64_t r : reg)
        if (r)
          rows.push_back({{__builtin_ctzll(r), __builtin_ctzll(lane[0]),
                           __builtin_ctzll(lane[1])}});
    if (lane[2] && lane[3] && lane[4])
      rows.push_back({{__builtin_ctzll(lane[2]), __builtin_ctzll(lane[3]),
                       __builtin_ctzll(lane[4])}});
  }
  for (size_t i = rows.size(); i-- > 0;)
    for (size_t j = 0; j < i; ++j)
      if (rows[j].bits == rows[i].bits) {
        rows.erase(rows.begin() + std::ptrdiff_t(i));
        break;
      }
  return rows;
}

/// One side's choices over a row set: its matrix instruction (when the
/// machine has it and it fits the rows) and vectors (the longest prefix of
/// the rows in its registers). The matrix comes first when it moves more
/// elements per lane (2 * count against 2^v), so that ties keep it.
std::vector<SideAccess> sideChoices(const LinearLayout &l,
                                    const MatrixRowSet &row, bool hasMatrix) {
  SideAccess vecSide = vectorSideOver(l, row.bits);
  SideAccess matSide;
  for (bool trans : {false, true}) {
    if (!hasMatrix)
      break;
    MatrixAccess m;
    if (!matSide.isMatrix() &&
        fitMatrixRows(l, row.bits, trans, 2, m).why == RowMismatch::None)
      matSide.matrix = std::move(m);
  }
  bool matrixFirst = matSide.isMatrix() &&
                     2 * matSide.matrix.count() > (int64_t(1) << vecSide.v());
  std::vector<SideAccess> choices;
  if (matrixFirst)
    choices.push_back(matSide);
  choices.push_back(vecSide);
  if (matSide.isMatrix() && !matrixFirst)
    choices.push_back(matSide);
  return choices;
}

/// A matrix candidate: its rows, both sides, the bits that must stay inside
/// one instruction, its instruction count and its wavefront lower bound
/// (sideBound).
struct MatrixCandidate {
  const MatrixRowSet *row;
  SideAccess sides[2];
  uint64_t excluded = 0;
  int64_t instructions = 0;
  int64_t bound = 0;
};

/// The candidate of a store and a load side over `row`, when it can beat
/// the vector plan `baseline`: fewer instructions, and a bound not above
/// its wavefronts (unless the search is exhaustive).
Expected<std::optional<MatrixCandidate>>
matrixCandidate(const AlignedPair &p, const MatrixRowSet &row,
                const SideAccess &store, const SideAccess &load,
                const Plan &baseline, int line, int64_t elementBytes,
                bool exhaustive) {
  const LinearLayout *ls[2] = {&p.src, &p.dst};
  MatrixCandidate c{&row, {store, load}, 0, 0, 0};
  for (int s = 0; s < 2; ++s)
    if (c.sides[s].isMatrix()) {
      c.excluded |= ls[s]->column(c.sides[s].matrix.halfRegBit);
      for (int b : c.sides[s].matrix.matrixRegBits)
        c.excluded |= ls[s]->column(b);
    }
  // Two matrix sides issue the smaller matrix count (finishShared).
  SideAccess st = store, ld = load;
  if (st.isMatrix() && ld.isMatrix()) {
    size_t k = std::min(st.matrix.matrixRegBits.size(),
                        ld.matrix.matrixRegBits.size());
    st.matrix.matrixRegBits.resize(k);
    ld.matrix.matrixRegBits.resize(k);
  }
  c.instructions =
      sideInstructions(p.src, true, st) + sideInstructions(p.dst, false, ld);
  if (c.instructions >=
      baseline.smem->store.instructions + baseline.smem->load.instructions)
    return std::optional<MatrixCandidate>();
  // A plan never beats its bound, so one whose bound is above the vector
  // plan's wavefronts cannot be taken.
  LK_TRY(int64_t sb, sideBound(p.src, true, st, line, elementBytes));
  LK_TRY(int64_t lb, sideBound(p.dst, false, ld, line, elementBytes));
  c.bound = sb + lb;
  if (c.bound <= baseline.cost.wavefronts || exhaustive)
    return std::optional<MatrixCandidate>(std::move(c));
  return std::optional<MatrixCandidate>();
}

/// Every matrix candidate over every row set: each side's choices, at least
/// one side a matrix instruction (two vector sides are the vector plan).
Expected<std::vector<MatrixCandidate>>
matrixCandidates(const AlignedPair &p, const std::vector<MatrixRowSet> &rows,
                 const Plan &baseline, int64_t elementBytes,
                 const PlanOptions &options) {
  const LinearLayout *ls[2] = {&p.src, &p.dst};
  const hw::Machine &target = hw::machine(options.arch);
  const int line = lineBitsOf(p, elementBytes);
  // Side 0 stores (stmatrix), side 1 loads (ldmatrix).
  const bool hasMatrix[2] = {target.hasStmatrix, target.hasLdmatrix};
  std::vector<MatrixCandidate> cands;
  for (const MatrixRowSet &row : rows) {
    std::vector<SideAccess> choices[2];
    for (int s = 0; s < 2; ++s)
      choices[s] = sideChoices(*ls[s], row, hasMatrix[s]);
    for (const SideAccess &store : choices[0])
      for (const SideAccess &load : choices[1]) {
        if (!store.isMatrix() && !load.isMatrix())
          continue; // the vector plan's territory
        LK_TRY(std::optional<MatrixCandidate> c,
               matrixCandidate(p, row, store, load, baseline, line,
                               elementBytes, options.exhaustiveMatrixSearch));
        if (c)
          cands.push_back(std::move(*c));
      }
  }
  return cands;
}

} // namespace

Expected<Plan> planSharedMemory(const LinearLayout &src,
                                const LinearLayout &dst, int64_t elementBits,
                                const PlanOptions &options) {
  LK_CHECK(checkElementBits(elementBits));
  LK_TRY(AlignedPair p, alignLayouts(src, dst));
  LK_CHECK(checkShareable(p));
  const int64_t elementBytes = elementBits / 8;

  // 1. Vec: logical bits held in registers by both layouts.
  SideAccess store, load;
  std::vector<int> vec = sharedVectorBits(p, elementBytes, store, load);
  LK_TRY(Plan best,
         planCandidate(p, elementBits, options, vec, store, load, 0));
  if (!options.matrixInstructions || elementBits != 16 ||
      p.src.inDimSize(dims::kLane) != 32)
    return best;

  // 2. Matrix candidates: each row set one side's matrix instruction can
  // take, with the other side on the same rows when it fits, else vectors.
  // Each candidate's instruction count is known before its swizzle is
  // built (sideInstructions), and a plan is only taken with fewer
  // instructions than the vector plan and, among those, by fewest
  // instructions first: so swizzles are built in that order and the search
  // stops at the first count above the best plan's. The result is the same
  // as building every candidate (ties keep the row order).
  const Plan baseline = best;
  const std::vector<MatrixRowSet> rows = matrixRowSets(p);
  LK_TRY(std::vector<MatrixCandidate> cands,
         matrixCandidates(p, rows, baseline, elementBytes, options));
  std::stable_sort(cands.begin(), cands.end(),
                   [](const MatrixCandidate &a, const MatrixCandidate &b) {
                     return a.instructions < b.instructions;
                   });
  bool found = false;
  for (const MatrixCandidate &c : cands) {
    if (found && !options.exhaustiveMatrixSearch) {
      if (c.instructions + baseline.smem->registerCopies >
          best.cost.instructions)
        break;
      // Same count: only strictly fewer wavefronts would win.
      if (c.bound >= best.cost.wavefronts)
        continue;
    }
    Expected<Plan> cand = planCandidate(p, elementBits, options, c.row->bits,
                                        c.sides[0], c.sides[1], c.excluded);
    if (!cand)
      continue;
    if (cand->cost.instructions < baseline.cost.instructions &&
        cand->cost.wavefronts <= baseline.cost.wavefronts &&
        better(*cand, best)) {
      best = std::move(*cand);
      found = true;
    }
  }
  return best;
}

} // namespace lk::plan
