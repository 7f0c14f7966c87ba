//===- EmitTables.cpp - What the CUDA emitter emits, as tables ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// cudaEmitTables: a plan checked and flattened into the per-register,
// per-lane and per-access tables the CUDA emitter (EmitCuda.cpp) prints.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/EmitCuda.h"

#include "F2.h"

#include "layoutkit/core/Bits.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/hw/LaneWarp.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Padded.h"
#include "layoutkit/plan/MatrixAccess.h"

#include <algorithm>
#include <cstdio>
#include <span>

namespace lk::plan {

using detail::vecRegOffset;
using linear::LinearLayout;
namespace dims = linear::dims;

uint64_t CudaThreadTerm::at(int64_t l, int64_t w, int64_t b) const {
  uint64_t v = 0;
  auto add = [&v](const std::vector<uint64_t> &cols, int64_t x) {
    for (size_t j = 0; j < cols.size(); ++j)
      if (uint64_t(x) >> j & 1)
        v ^= cols[j];
  };
  add(lane, l);
  add(warp, w);
  add(block, b);
  return v;
}

bool CudaEmitTables::valid(uint64_t y) const {
  for (const CudaDimBound &b : bounds)
    if (int64_t((y >> b.shift) & ((uint64_t(1) << b.log2) - 1)) >= b.extent)
      return false;
  return true;
}

namespace {

using hw::kWarpLanes;

/// The columns of input dim `index` (0 register, 1 lane, 2 warp, 3 block)
/// of an aligned layout, each mapped through `map` and shifted left.
std::vector<uint64_t> dimTerm(const LinearLayout &l, int index,
                              const LinearLayout *map, int shift) {
  std::vector<uint64_t> c;
  for (int b = 0; b < l.inDim(index).log2; ++b) {
    uint64_t col = l.column(l.inShift(index) + b);
    c.push_back((map ? map->applyFlat(col) : col) << shift);
  }
  return c;
}

CudaThreadTerm threadTerm(const LinearLayout &l, const LinearLayout *map,
                          int shift) {
  return {dimTerm(l, 1, map, shift), dimTerm(l, 2, map, shift),
          dimTerm(l, 3, map, shift)};
}

uint64_t dimMask(const LinearLayout &l, int index) {
  return l.freeVariableMasks()[size_t(index)];
}

/// Offset -> buffer byte address of the shared-memory step: the plan's
/// memory layout inverted, reduced modulo the buffer (the iteration and CTA
/// bits are the highest offset bits), times the element size.
struct BufferMap {
  LinearLayout inv;
  uint64_t elementMask = 0;
  int byteShift = 0;
  uint64_t operator()(uint64_t logical) const {
    return (inv.applyFlat(logical) & elementMask) << byteShift;
  }
};

/// The iteration of logical element x: bit k is bit iterationBits[k] of x.
uint64_t iterationOf(const std::vector<int> &bits, uint64_t x) {
  uint64_t it = 0;
  for (size_t k = 0; k < bits.size(); ++k)
    it |= (x >> bits[size_t(k)] & 1) << k;
  return it;
}

/// Checks that address(r, l, w) of every access equals registerBytes ^
/// thread term (the decomposition the emitted code relies on).
Status checkDecomposition(const CudaSharedSide &side,
                          const std::vector<std::vector<uint64_t>> &direct,
                          int64_t lanes, int64_t warps, const char *what) {
  for (size_t a = 0; a < side.accesses.size(); ++a)
    for (int64_t w = 0; w < warps; ++w)
      for (int64_t l = 0; l < lanes; ++l)
        if ((side.accesses[a].registerBytes ^ side.thread.at(l, w)) !=
            direct[a][size_t(w * lanes + l)])
          return Diagnostic::error(
              std::string(what) + ": the address of lane " + std::to_string(l) +
              " is not linear in "
              "the lane and warp");
  return Ok{};
}

/// The vector (st.shared / ld.shared) side over layout `l`, checking that
/// every vector is contiguous and aligned whatever the thread.
Expected<CudaSharedSide> vectorSide(const LinearLayout &l,
                                    const std::vector<int> &vecRegBits,
                                    const BufferMap &map,
                                    const std::vector<int> &iterationBits,
                                    int64_t eb, const char *what) {
  const int64_t regs = l.inDimSize(dims::kRegister);
  const int64_t vecN = int64_t(1) << vecRegBits.size();
  int64_t vecMask = 0;
  for (int b : vecRegBits) {
    if (b < 0 || (int64_t(1) << b) >= regs)
      return Diagnostic::error(std::string(what) + ": vector register bit " +
                               std::to_string(b) + " out of range");
    vecMask |= int64_t(1) << b;
  }
  CudaSharedSide side;
  side.accessBytes = vecN * eb;
  if (side.accessBytes > 16)
    return Diagnostic::error(std::string(what) + ": vector of " +
                             std::to_string(side.accessBytes) +
                             " bytes is wider than 16");
  for (int b = 0; b < l.inDim(1).log2; ++b)
    side.thread.lane.push_back(map(l.column(l.inShift(1) + b)));
  for (int b = 0; b < l.inDim(2).log2; ++b) {
    uint64_t col = l.column(l.inShift(2) + b);
    side.thread.warp.push_back(map(col));
    side.warpIteration.push_back(iterationOf(iterationBits, col));
  }
  for (int b = 0; b < l.inDim(3).log2; ++b)
    side.thread.block.push_back(map(l.column(l.inShift(3) + b)));
  const uint64_t alignMask = uint64_t(side.accessBytes - 1);
  for (const std::vector<uint64_t> *cols :
       {&side.thread.lane, &side.thread.warp})
    for (uint64_t c : *cols)
      if (c & alignMask)
        return Diagnostic::error(std::string(what) +
                                 ": a thread's vector is not aligned to " +
                                 std::to_string(side.accessBytes) + " bytes");
  auto regBytes = [&](int64_t r) { return map(l.applyFlat(uint64_t(r))); };
  for (int64_t j = 0; j < vecN; ++j)
    if (regBytes(vecRegOffset(vecRegBits, j)) != uint64_t(j * eb))
      return Diagnostic::error(std::string(what) +
                               ": vector is not contiguous in memory");
  const uint64_t freeRegs = dimMask(l, 0);
  for (int64_t r = 0; r < regs; ++r) {
    if ((uint64_t(r) & freeRegs) || (r & vecMask))
      continue;
    CudaSharedAccess a;
    a.registerBytes = regBytes(r);
    a.iteration = int64_t(iterationOf(iterationBits, l.applyFlat(uint64_t(r))));
    if (a.registerBytes & alignMask)
      return Diagnostic::error(std::string(what) + ": register " +
                               std::to_string(r) + "'s vector is not aligned");
    for (int64_t j = 0; j < vecN; ++j)
      a.registers.push_back(r | vecRegOffset(vecRegBits, j));
    side.accesses.push_back(std::move(a));
  }
  return side;
}

/// The matrix (stmatrix / ldmatrix) side over layout `l`: per instruction
/// base register, lane l's row address (MatrixAccess.h: matrixRowStart).
Expected<CudaSharedSide> matrixSide(const LinearLayout &l,
                                    const MatrixAccess &m, int64_t count,
                                    const BufferMap &map,
                                    const std::vector<int> &iterationBits,
                                    const char *what) {
  if (int64_t(m.matrixRegBits.size()) > 2 || m.count() != count ||
      m.halfRegBit < 0)
    return Diagnostic::error(std::string(what) + ": matrix access with " +
                             std::to_string(m.count()) +
                             " matrices, plan says " + std::to_string(count));
  const int64_t regs = l.inDimSize(dims::kRegister);
  const int64_t lanes = l.inDimSize(dims::kLane);
  const int64_t warps = l.inDimSize(dims::kWarp);
  if (m.registerMask() >= regs)
    return Diagnostic::error(std::string(what) +
                             ": matrix register bits out of range");
  CudaSharedSide side;
  side.matrixCount = count;
  side.trans = m.trans;
  side.accessBytes = 16;
  auto rowAddress = [&](int64_t base, int64_t lane, int64_t w) {
    MatrixRowStart s = matrixRowStart(m, base, lane);
    return map(l.applyFlat(uint64_t(s.reg) | uint64_t(s.lane) << l.inShift(1) |
                           uint64_t(w) << l.inShift(2)));
  };
  const uint64_t origin = rowAddress(0, 0, 0);
  for (int b = 0; b < l.inDim(1).log2; ++b)
    side.thread.lane.push_back((int64_t(1) << b) < 8 * count
                                   ? rowAddress(0, int64_t(1) << b, 0) ^ origin
                                   : 0);
  for (int b = 0; b < l.inDim(2).log2; ++b) {
    uint64_t col = l.column(l.inShift(2) + b);
    side.thread.warp.push_back(map(col));
    side.warpIteration.push_back(iterationOf(iterationBits, col));
  }
  for (int b = 0; b < l.inDim(3).log2; ++b)
    side.thread.block.push_back(map(l.column(l.inShift(3) + b)));
  const uint64_t freeRegs = dimMask(l, 0);
  std::vector<std::vector<uint64_t>> direct;
  for (int64_t r = 0; r < regs; ++r) {
    if ((uint64_t(r) & freeRegs) || (r & m.registerMask()))
      continue;
    CudaSharedAccess a;
    a.registerBytes = rowAddress(r, 0, 0);
    a.iteration = int64_t(iterationOf(iterationBits, l.applyFlat(uint64_t(r))));
    for (int64_t j = 0; j < count; ++j)
      for (int64_t h = 0; h < 2; ++h)
        a.registers.push_back(matrixElementRegister(m, r, j, h));
    side.accesses.push_back(std::move(a));
    direct.emplace_back();
    for (int64_t w = 0; w < warps; ++w)
      for (int64_t ln = 0; ln < lanes; ++ln)
        direct.back().push_back(ln < 8 * count
                                    ? rowAddress(r, ln, w)
                                    : side.accesses.back().registerBytes ^
                                          side.thread.at(ln, w));
  }
  for (const CudaSharedAccess &a : side.accesses)
    for (int64_t ln = 0; ln < lanes; ++ln)
      if ((a.registerBytes ^ side.thread.at(ln, 0)) & 15)
        return Diagnostic::error(std::string(what) +
                                 ": a matrix row is not 16-byte aligned");
  LK_CHECK(checkDecomposition(side, direct, lanes, warps, what));
  return side;
}

/// The tables every strategy shares: sizes and the logical index of each
/// register and thread; fails unless the plan's layouts are aligned, of 32
/// lanes, at most 32 warps and the same tensor.
Expected<CudaEmitTables> commonTables(const Plan &plan) {
  const LinearLayout &src = plan.layouts.src, &dst = plan.layouts.dst;
  if (plan.elementBits != 8 && plan.elementBits != 16 &&
      plan.elementBits != 32 && plan.elementBits != 64)
    return Diagnostic::error(
        "element width " + std::to_string(plan.elementBits) +
        " bits cannot be emitted (allowed: 8, 16, 32, 64)");
  for (const LinearLayout *l : {&src, &dst})
    if (l->numInDims() != 4 || l->inDim(0).id != dims::kRegister ||
        l->inDim(1).id != dims::kLane || l->inDim(2).id != dims::kWarp ||
        l->inDim(3).id != dims::kBlock)
      return Diagnostic::error("plan layouts are not aligned (input dims must "
                               "be register, lane, warp, block): " +
                               l->str());
  if (src.totalOutBits() != dst.totalOutBits() || src.totalOutBits() > 62)
    return Diagnostic::error("plan layouts cover different or too large "
                             "tensors: " +
                             src.str() + " vs " + dst.str());
  CudaEmitTables t;
  t.lanes = src.inDimSize(dims::kLane);
  t.warps = src.inDimSize(dims::kWarp);
  t.blocks = src.inDimSize(dims::kBlock);
  if (t.lanes != kWarpLanes || dst.inDimSize(dims::kLane) != kWarpLanes)
    return Diagnostic::error(
        "CUDA emission needs layouts of 32 lanes per warp; the plan has " +
        std::to_string(t.lanes));
  if (dst.inDimSize(dims::kWarp) != t.warps ||
      dst.inDimSize(dims::kBlock) != t.blocks)
    return Diagnostic::error("source and destination use different warps or "
                             "blocks");
  if (t.warps > 32)
    return Diagnostic::error("CUDA emission: " + std::to_string(t.warps) +
                             " warps exceed a 1024-thread CTA");
  t.srcRegisters = src.inDimSize(dims::kRegister);
  t.dstRegisters = dst.inDimSize(dims::kRegister);
  t.elementBytes = plan.elementBits / 8;
  t.logicalBits = src.totalOutBits();
  for (int64_t r = 0; r < t.srcRegisters; ++r)
    t.srcIndex.push_back(src.applyFlat(uint64_t(r)));
  for (int64_t r = 0; r < t.dstRegisters; ++r)
    t.dstIndex.push_back(dst.applyFlat(uint64_t(r)));
  t.srcIndexThread = threadTerm(src, nullptr, 0);
  t.dstIndexThread = threadTerm(dst, nullptr, 0);
  return t;
}

/// The no-op and register-permutation plans: registerSource.
Status registerTables(const Plan &plan, CudaEmitTables &t) {
  if (plan.strategy == Strategy::NoOp) {
    if (t.srcRegisters != t.dstRegisters)
      return Diagnostic::error("no-op plan with different register counts (" +
                               std::to_string(t.srcRegisters) + " vs " +
                               std::to_string(t.dstRegisters) + ")");
    for (int64_t r = 0; r < t.dstRegisters; ++r)
      t.registerSource.push_back(r);
    return Ok{};
  }
  if (int64_t(plan.registerSource.size()) != t.dstRegisters)
    return Diagnostic::error("register permutation has " +
                             std::to_string(plan.registerSource.size()) +
                             " entries for " + std::to_string(t.dstRegisters) +
                             " registers");
  for (int64_t s : plan.registerSource)
    if (s < 0 || s >= t.srcRegisters)
      return Diagnostic::error("register source " + std::to_string(s) +
                               " out of range");
  t.registerSource = plan.registerSource;
  return Ok{};
}

/// Adds lane l to the choice of register `reg` (in first-use order).
void chooseRegister(std::vector<CudaLaneChoice> &cs, int64_t reg, int64_t l) {
  for (CudaLaneChoice &c : cs)
    if (c.reg == reg) {
      c.lanes |= uint32_t(1) << l;
      return;
    }
  cs.push_back({reg, uint32_t(1) << l});
}

/// Whether srcLane(l) = srcLane(0) ^ XOR of srcLaneXor[j] over the set bits
/// j of l, with srcLaneXor[j] = srcLane(2^j) ^ srcLane(0).
void findLaneXor(CudaShuffle &s, int64_t lanes) {
  s.srcLaneAffine = true;
  for (int j = 0; (int64_t(1) << j) < lanes; ++j)
    s.srcLaneXor.push_back(uint64_t(s.srcLane[size_t(1) << j] ^ s.srcLane[0]));
  for (int64_t l = 0; l < lanes && s.srcLaneAffine; ++l) {
    uint64_t v = uint64_t(s.srcLane[0]);
    for (size_t j = 0; j < s.srcLaneXor.size(); ++j)
      if (uint64_t(l) >> j & 1)
        v ^= s.srcLaneXor[j];
    s.srcLaneAffine = v == uint64_t(s.srcLane[size_t(l)]);
  }
}

/// One shuffle round as the emitter's tables, checked: one entry per lane,
/// lanes and registers in range, no register receiving two elements.
Expected<CudaShuffle> shuffleTable(const ShuffleRound &round, size_t i,
                                   const CudaEmitTables &t) {
  const int64_t vecN = t.vectorElements;
  const std::string at = "shuffle round " + std::to_string(i) + ": ";
  if (int64_t(round.srcLane.size()) != t.lanes ||
      int64_t(round.sendRegisters.size()) != t.lanes ||
      int64_t(round.dstRegisters.size()) != t.lanes)
    return Diagnostic::error(at + "srcLane, sendRegisters and "
                                  "dstRegisters need one entry per lane");
  CudaShuffle s;
  s.send.resize(size_t(vecN));
  s.receive.resize(size_t(vecN));
  for (int64_t l = 0; l < t.lanes; ++l) {
    int64_t from = round.srcLane[size_t(l)];
    if (from < 0 || from >= t.lanes)
      return Diagnostic::error(at + "source lane " + std::to_string(from) +
                               " out of range");
    s.srcLane.push_back(from);
    const auto &sr = round.sendRegisters[size_t(l)];
    const auto &dr = round.dstRegisters[size_t(l)];
    if (int64_t(sr.size()) != vecN || int64_t(dr.size()) != vecN)
      return Diagnostic::error(at + "lane " + std::to_string(l) +
                               ": a vector has " + std::to_string(vecN) +
                               " elements");
    for (int64_t e = 0; e < vecN; ++e) {
      if (sr[size_t(e)] < 0 || sr[size_t(e)] >= t.srcRegisters ||
          dr[size_t(e)] < 0 || dr[size_t(e)] >= t.dstRegisters)
        return Diagnostic::error(at + "lane " + std::to_string(l) +
                                 ": register out of range");
      for (int64_t f = 0; f < e; ++f)
        if (dr[size_t(f)] == dr[size_t(e)])
          return Diagnostic::error(
              at + "lane " + std::to_string(l) + ": destination register " +
              std::to_string(dr[size_t(e)]) + " receives two elements");
      chooseRegister(s.send[size_t(e)], sr[size_t(e)], l);
      chooseRegister(s.receive[size_t(e)], dr[size_t(e)], l);
    }
  }
  findLaneXor(s, t.lanes);
  s.laneLocal = round.laneLocal();
  return s;
}

/// The warp-shuffle plan: vector shape, one table per round, the register
/// copies.
Status shuffleTables(const Plan &plan, CudaEmitTables &t) {
  if (!plan.shuffle)
    return Diagnostic::error("warp-shuffle plan without its WarpShufflePlan");
  const WarpShufflePlan &wp = *plan.shuffle;
  const int64_t vecN = wp.vectorElements;
  if (!isPow2(vecN) || (vecN > 1 && plan.elementBits * vecN > 32) ||
      wp.wordsPerVector != (plan.elementBits * vecN + 31) / 32)
    return Diagnostic::error("warp-shuffle plan with vectors of " +
                             std::to_string(vecN) + " x " +
                             std::to_string(plan.elementBits) + " bits in " +
                             std::to_string(wp.wordsPerVector) + " words");
  t.vectorElements = vecN;
  t.wordsPerVector = wp.wordsPerVector;
  for (size_t i = 0; i < plan.rounds.size(); ++i) {
    LK_TRY(CudaShuffle s, shuffleTable(plan.rounds[i], i, t));
    t.shuffles.push_back(std::move(s));
  }
  for (const WarpShufflePlan::RegisterCopy &c : wp.registerCopies) {
    if (c.to < 0 || c.to >= t.dstRegisters || c.from < 0 ||
        c.from >= t.dstRegisters)
      return Diagnostic::error("register copy " + std::to_string(c.from) +
                               " -> " + std::to_string(c.to) + " out of range");
    t.registerCopies.push_back({c.to, c.from});
  }
  return Ok{};
}

/// Fails unless the shared-memory step fits the plan and can be emitted:
/// its element width, a memory layout over the tensor, iteration bits in
/// range, a power-of-two buffer of at most 1 GiB, matrix instructions of
/// 16-bit elements and 1, 2 or 4 matrices.
Status checkSharedStep(const Plan &plan, const SharedMemoryPlan &sp,
                       const CudaEmitTables &t) {
  if (sp.elementBytes != t.elementBytes)
    return Diagnostic::error("shared-memory plan of " +
                             std::to_string(sp.elementBytes) +
                             "-byte elements in a plan of " +
                             std::to_string(plan.elementBits) + "-bit ones");
  if (sp.memory.totalInBits() != t.logicalBits ||
      sp.memory.totalOutBits() != t.logicalBits)
    return Diagnostic::error("memory layout does not cover the tensor: " +
                             sp.memory.str());
  if (sp.iterations != (int64_t(1) << sp.iterationBits.size()))
    return Diagnostic::error(
        "shared-memory plan with " + counted(sp.iterations, "iteration") +
        " over " + std::to_string(sp.iterationBits.size()) + " iteration bits");
  for (int b : sp.iterationBits)
    if (b < 0 || b >= t.logicalBits)
      return Diagnostic::error("iteration bit " + std::to_string(b) +
                               " out of range");
  if (!isPow2(sp.bytes) || sp.bytes % t.elementBytes ||
      sp.bytes > (int64_t(1) << 30) ||
      (sp.bytes / t.elementBytes) > (int64_t(1) << t.logicalBits))
    return Diagnostic::error("shared-memory buffer of " +
                             std::to_string(sp.bytes) +
                             " bytes cannot be emitted");
  if ((sp.store.matrixInstruction || sp.load.matrixInstruction) &&
      (t.elementBytes != 2 ||
       (sp.matrixCount != 1 && sp.matrixCount != 2 && sp.matrixCount != 4)))
    return Diagnostic::error(
        "ldmatrix/stmatrix plan with " + std::to_string(sp.matrixCount) +
        " matrices of " + std::to_string(plan.elementBits) + "-bit elements");
  return Ok{};
}

/// The shared-memory plan: the buffer, the store and load sides (vector or
/// matrix instructions) and the copies of duplicated registers.
Status sharedTables(const Plan &plan, CudaEmitTables &t) {
  const LinearLayout &src = plan.layouts.src, &dst = plan.layouts.dst;
  if (!plan.smem)
    return Diagnostic::error("shared-memory plan without its step");
  const SharedMemoryPlan &sp = *plan.smem;
  LK_CHECK(checkSharedStep(plan, sp, t));
  LK_TRY(LinearLayout inv, sp.memory.invert());
  BufferMap map{inv, uint64_t(sp.bytes / t.elementBytes) - 1,
                log2Exact(t.elementBytes)};
  t.smemBytes = sp.bytes;
  t.iterations = sp.iterations;
  // stmatrix is a warp-wide .aligned instruction: every lane takes part
  // (lanes holding duplicates write the same values again).
  t.storeIdleLanes = sp.store.matrixInstruction ? 0 : dimMask(src, 1);
  t.storeIdleWarps = dimMask(src, 2);
  if (sp.store.matrixInstruction) {
    LK_TRY(t.store, matrixSide(src, sp.store.matrix, sp.matrixCount, map,
                               sp.iterationBits, "stmatrix store"));
    LK_TRY(CudaSharedSide fallback, vectorSide(src, {}, map, sp.iterationBits,
                                               t.elementBytes, "scalar store"));
    t.storeFallback = std::move(fallback);
  } else {
    LK_TRY(t.store, vectorSide(src, sp.store.vecRegBits, map, sp.iterationBits,
                               t.elementBytes, "store"));
  }
  if (sp.load.matrixInstruction) {
    LK_TRY(t.load, matrixSide(dst, sp.load.matrix, sp.matrixCount, map,
                              sp.iterationBits, "ldmatrix load"));
  } else {
    LK_TRY(t.load, vectorSide(dst, sp.load.vecRegBits, map, sp.iterationBits,
                              t.elementBytes, "load"));
  }
  const uint64_t freeRegs = dimMask(dst, 0);
  for (int64_t r = 0; r < t.dstRegisters; ++r)
    if (uint64_t(r) & freeRegs)
      t.registerCopies.push_back({r, int64_t(uint64_t(r) & ~freeRegs)});
  return Ok{};
}

/// The bounds of a masked emission: one per out-dim of the plan's layouts
/// whose logical extent is below its padded size. The logical shape must
/// fit both layouts as linear::PaddedLayout::make requires.
Status maskBounds(const Plan &plan, std::span<const int64_t> logical,
                  CudaEmitTables &t) {
  const LinearLayout &src = plan.layouts.src;
  for (const LinearLayout *l : {&src, &plan.layouts.dst})
    LK_CHECK(linear::PaddedLayout::make(*l, logical));
  for (int d = 0; d < src.numOutDims(); ++d) {
    const int log2 = src.outDim(d).log2;
    if (logical[size_t(d)] < (int64_t(1) << log2))
      t.bounds.push_back({src.outShift(d), log2, logical[size_t(d)]});
  }
  if (t.masked() && (t.store.matrixCount || t.load.matrixCount))
    return Diagnostic::error(
        "a masked plan cannot use ldmatrix / stmatrix, which move whole rows "
        "with their padding; plan the padded pair without matrix "
        "instructions");
  return Ok{};
}

} // namespace

Expected<CudaEmitTables> cudaEmitTables(const Plan &plan,
                                        std::span<const int64_t> logical) {
  LK_TRY(CudaEmitTables t, cudaEmitTables(plan));
  LK_CHECK(maskBounds(plan, logical, t));
  return t;
}

Expected<CudaEmitTables> cudaEmitTables(const Plan &plan) {
  LK_TRY(CudaEmitTables t, commonTables(plan));
  switch (plan.strategy) {
  case Strategy::NoOp:
  case Strategy::RegisterPermutation:
    LK_CHECK(registerTables(plan, t));
    break;
  case Strategy::WarpShuffle:
    LK_CHECK(shuffleTables(plan, t));
    break;
  case Strategy::SharedMemory:
    LK_CHECK(sharedTables(plan, t));
    break;
  }
  return t;
}

} // namespace lk::plan
