//===- EmitCuda.cpp - CUDA C++ for a conversion plan ----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/EmitCuda.h"

#include "layoutkit/core/Bits.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/plan/MatrixAccess.h"

#include <algorithm>
#include <cstdio>

namespace lk::plan {

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

namespace {

constexpr int64_t kWarpLanes = 32;

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

/// The register offset of vector element j (bit k of j selects register
/// bit bits[k]).
int64_t vecRegOffset(const std::vector<int> &bits, int64_t j) {
  int64_t r = 0;
  for (size_t k = 0; k < bits.size(); ++k)
    if (j >> k & 1)
      r |= int64_t(1) << bits[k];
  return r;
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

bool isIdentifier(const std::string &s) {
  if (s.empty() || s.size() > 200)
    return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!alpha && !(digit && i > 0))
      return false;
  }
  return true;
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
        "shared-memory plan with " + std::to_string(sp.iterations) +
        " iterations over " + std::to_string(sp.iterationBits.size()) +
        " iteration bits");
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
  if ((sp.stmatrixStore || sp.ldmatrixLoad) &&
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
  t.storeIdleLanes = sp.stmatrixStore ? 0 : dimMask(src, 1);
  t.storeIdleWarps = dimMask(src, 2);
  if (sp.stmatrixStore) {
    LK_TRY(t.store, matrixSide(src, sp.storeMatrix, sp.matrixCount, map,
                               sp.iterationBits, "stmatrix store"));
    LK_TRY(CudaSharedSide fallback,
           vectorSide(src, {}, map, sp.iterationBits, t.elementBytes,
                      "scalar store"));
    t.storeFallback = std::move(fallback);
  } else {
    LK_TRY(t.store, vectorSide(src, sp.srcVecRegBits, map, sp.iterationBits,
                               t.elementBytes, "store"));
  }
  if (sp.ldmatrixLoad) {
    LK_TRY(t.load, matrixSide(dst, sp.loadMatrix, sp.matrixCount, map,
                              sp.iterationBits, "ldmatrix load"));
  } else {
    LK_TRY(t.load, vectorSide(dst, sp.dstVecRegBits, map, sp.iterationBits,
                              t.elementBytes, "load"));
  }
  const uint64_t freeRegs = dimMask(dst, 0);
  for (int64_t r = 0; r < t.dstRegisters; ++r)
    if (uint64_t(r) & freeRegs)
      t.registerCopies.push_back({r, int64_t(uint64_t(r) & ~freeRegs)});
  return Ok{};
}

} // namespace

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

namespace {

std::string hex(uint64_t v, bool wide) {
  char buf[32];
  std::snprintf(buf, sizeof buf, wide ? "0x%llxull" : "0x%llxu",
                static_cast<unsigned long long>(v));
  return buf;
}

const char *elementType(int64_t bytes) {
  switch (bytes) {
  case 1:
    return "uint8_t";
  case 2:
    return "uint16_t";
  case 4:
    return "uint32_t";
  default:
    return "uint64_t";
  }
}

/// Emits `VAR ^= ...` for every non-zero column of a thread term.
void emitThreadTerm(std::string &o, const std::string &indent,
                    const std::string &var, const CudaThreadTerm &t,
                    bool wide) {
  o += indent + (wide ? "uint64_t " : "uint32_t ") + var + " = 0" +
       (wide ? "ull" : "u") + ";\n";
  auto part = [&](const char *id, const std::vector<uint64_t> &cols) {
    for (size_t j = 0; j < cols.size(); ++j)
      if (cols[j])
        o += indent + var + " ^= (" + id + " & " +
             hex(uint64_t(1) << j, false) + ") ? " + hex(cols[j], wide) +
             " : 0" + (wide ? "ull" : "u") + ";\n";
  };
  part("lane", t.lane);
  part("warp", t.warp);
  part("block", t.block);
}

/// The shared-memory vector type of an access width.
const char *accessType(int64_t accessBytes) {
  switch (accessBytes) {
  case 1:
    return "uint8_t";
  case 2:
    return "uint16_t";
  case 4:
    return "uint32_t";
  case 8:
    return "uint2";
  default:
    return "uint4";
  }
}

/// The value of an access-wide vector built from registers `regs` of
/// `array` (element j at byte j * eb, little-endian).
std::string packVector(const std::string &array,
                       const std::vector<int64_t> &regs, int64_t eb,
                       int64_t accessBytes) {
  auto reg = [&](size_t j) {
    return array + "[" + std::to_string(regs[j]) + "]";
  };
  if (regs.size() == 1)
    return reg(0);
  auto word = [&](size_t first, size_t count) {
    std::string w;
    for (size_t j = 0; j < count; ++j) {
      if (j)
        w += " | ";
      w += "uint32_t(" + reg(first + j) + ")";
      if (j)
        w += " << " + std::to_string(8 * eb * int64_t(j));
    }
    return w;
  };
  if (accessBytes <= 4)
    return std::string(accessType(accessBytes)) + "(" + word(0, regs.size()) +
           ")";
  std::vector<std::string> words;
  if (eb == 8) {
    for (size_t j = 0; j < regs.size(); ++j) {
      words.push_back("uint32_t(" + reg(j) + ")");
      words.push_back("uint32_t(" + reg(j) + " >> 32)");
    }
  } else {
    size_t per = size_t(4 / eb);
    for (size_t k = 0; k < regs.size(); k += per)
      words.push_back(word(k, per));
  }
  std::string r = words.size() == 2 ? "make_uint2(" : "make_uint4(";
  for (size_t k = 0; k < words.size(); ++k)
    r += (k ? ", " : "") + words[k];
  return r + ")";
}

/// Statements `array[regs[j]] = element j of vector VAR`.
std::string unpackVector(const std::string &indent, const std::string &array,
                         const std::string &var,
                         const std::vector<int64_t> &regs, int64_t eb,
                         int64_t accessBytes) {
  const char *t = elementType(eb);
  std::string o;
  auto assign = [&](size_t j, const std::string &value) {
    o +=
        indent + array + "[" + std::to_string(regs[j]) + "] = " + value + ";\n";
  };
  if (regs.size() == 1) {
    assign(0, var);
    return o;
  }
  static const char *kField[] = {".x", ".y", ".z", ".w"};
  for (size_t j = 0; j < regs.size(); ++j) {
    if (accessBytes <= 4) {
      assign(j, std::string(t) + "(" + var + " >> " +
                    std::to_string(8 * eb * int64_t(j)) + ")");
    } else if (eb == 8) {
      assign(j, "uint64_t(" + var + kField[2 * j] + ") | uint64_t(" + var +
                    kField[2 * j + 1] + ") << 32");
    } else {
      size_t per = size_t(4 / eb);
      std::string w = var + kField[j / per];
      size_t shift = 8 * size_t(eb) * (j % per);
      assign(j, eb == 4 ? w
                        : std::string(t) + "(" + w + " >> " +
                              std::to_string(shift) + ")");
    }
  }
  return o;
}

/// `if (lanes in mask) ...` as a condition on the lane id.
std::string laneCondition(uint32_t mask) {
  return "(" + hex(mask, false) + " >> lane & 1u)";
}

/// The statements of one shared-memory side for the accesses of iteration
/// `iteration` (guarded per warp when the iteration depends on the warp).
void emitSide(std::string &o, const std::string &in, const CudaSharedSide &side,
              const CudaEmitTables &t, bool store, int64_t iteration,
              const std::string &var) {
  const bool warpDependent =
      std::any_of(side.warpIteration.begin(), side.warpIteration.end(),
                  [](uint64_t v) { return v != 0; });
  const char *T = elementType(t.elementBytes);
  // One element per access: the element type itself (uint64_t for f64).
  const char *V = side.accessBytes == t.elementBytes
                      ? elementType(t.elementBytes)
                      : accessType(side.accessBytes);
  // Accesses grouped by their warp-0 iteration value.
  std::vector<int64_t> values;
  for (const CudaSharedAccess &a : side.accesses)
    if (std::find(values.begin(), values.end(), a.iteration) == values.end())
      values.push_back(a.iteration);
  for (int64_t v : values) {
    std::string ind = in;
    if (warpDependent) {
      o += in + "if ((wit_" + var + " ^ " + hex(uint64_t(v), false) +
           ") == " + hex(uint64_t(iteration), false) + ") {\n";
      ind += "  ";
    } else if (v != iteration) {
      continue;
    }
    for (const CudaSharedAccess &a : side.accesses) {
      if (a.iteration != v)
        continue;
      const std::string addr =
          "(" + var + " ^ " + hex(a.registerBytes, false) + ")";
      if (side.matrixCount) {
        const int64_t n = side.matrixCount;
        std::string op = std::string(store ? "stmatrix" : "ldmatrix") +
                         ".sync.aligned.m8n8.x" + std::to_string(n) +
                         (side.trans ? ".trans" : "") + ".shared.b16";
        std::string regs;
        for (int64_t j = 0; j < n; ++j)
          regs += (j ? ", %" : "%") + std::to_string(store ? j + 1 : j);
        if (store) {
          o += ind + "asm volatile(\"" + op + " [%0], {" + regs +
               "};\" :: \"r\"(sbase + " + addr + ")";
          for (int64_t j = 0; j < n; ++j)
            o += ", \"r\"(uint32_t(src[" +
                 std::to_string(a.registers[size_t(2 * j)]) +
                 "]) | uint32_t(src[" +
                 std::to_string(a.registers[size_t(2 * j + 1)]) + "]) << 16)";
          o += " : \"memory\");\n";
        } else {
          o += ind + "{\n";
          o += ind + "  uint32_t m[" + std::to_string(n) + "];\n";
          o += ind + "  asm volatile(\"" + op + " {" + regs + "}, [%" +
               std::to_string(n) + "];\" : ";
          for (int64_t j = 0; j < n; ++j)
            o += std::string(j ? ", " : "") + "\"=r\"(m[" + std::to_string(j) +
                 "])";
          o += " : \"r\"(sbase + " + addr + ") : \"memory\");\n";
          for (int64_t j = 0; j < n; ++j) {
            o += ind + "  dst[" + std::to_string(a.registers[size_t(2 * j)]) +
                 "] = " + T + "(m[" + std::to_string(j) + "]);\n";
            o += ind + "  dst[" +
                 std::to_string(a.registers[size_t(2 * j + 1)]) + "] = " + T +
                 "(m[" + std::to_string(j) + "] >> 16);\n";
          }
          o += ind + "}\n";
        }
      } else if (store) {
        o += ind + "*reinterpret_cast<" + V +
             " *>(static_cast<unsigned char *>(smem) + " + addr + ") = " +
             packVector("src", a.registers, t.elementBytes, side.accessBytes) +
             ";\n";
      } else {
        o += ind + "{\n";
        o += ind + "  const " + V + " v = *reinterpret_cast<const " + V +
             " *>(static_cast<const unsigned char *>(smem) + " + addr + ");\n";
        o += unpackVector(ind + "  ", "dst", "v", a.registers, t.elementBytes,
                          side.accessBytes);
        o += ind + "}\n";
      }
    }
    if (warpDependent)
      o += in + "}\n";
  }
}

/// The thread term and iteration term of a side.
void emitSideSetup(std::string &o, const std::string &in,
                   const CudaSharedSide &side, const std::string &var) {
  emitThreadTerm(o, in, var, side.thread, false);
  bool warpDependent = false;
  for (uint64_t v : side.warpIteration)
    warpDependent |= v != 0;
  if (!warpDependent)
    return;
  o += in + "uint32_t wit_" + var + " = 0u;\n";
  for (size_t k = 0; k < side.warpIteration.size(); ++k)
    if (side.warpIteration[k])
      o += in + "wit_" + var + " ^= (warp & " + hex(uint64_t(1) << k, false) +
           ") ? " + hex(side.warpIteration[k], false) + " : 0u;\n";
}

std::string describeSide(const CudaSharedSide &side, bool store) {
  if (side.matrixCount)
    return std::string(store ? "stmatrix" : "ldmatrix") + ".x" +
           std::to_string(side.matrixCount) + (side.trans ? ".trans" : "") +
           " (row address = register constant ^ thread offset)";
  return std::to_string(side.accessBytes) +
         "-byte vectors at (register constant ^ thread offset)";
}

/// The per-lane source-lane tables of the rounds whose source lane is not
/// affine in the lane id (read from global memory, one 32-byte request per
/// warp); nothing when every round is affine.
void emitLaneTables(std::string &o, const std::string &in,
                    const CudaEmitTables &t) {
  bool anyTable = false;
  for (const CudaShuffle &s : t.shuffles)
    anyTable |= !s.srcLaneAffine;
  if (!anyTable)
    return;
  o += in + "static __device__ const unsigned char lanes[][32] = {\n";
  for (const CudaShuffle &s : t.shuffles) {
    if (s.srcLaneAffine)
      continue;
    o += in + "    {";
    for (size_t l = 0; l < s.srcLane.size(); ++l)
      o += (l ? ", " : "") + std::to_string(s.srcLane[l]);
    o += "},\n";
  }
  o += in + "};\n";
}

/// `from`, the lane a round reads: affine in the lane id, or from the
/// round's entry `table` of the lane tables (advanced); nothing for a
/// lane-local round.
void emitSourceLane(std::string &o, const std::string &in,
                    const CudaShuffle &s, size_t &table) {
  if (s.laneLocal)
    return; // every lane reads itself
  if (s.srcLaneAffine) {
    o += in + "  uint32_t from = " + hex(uint64_t(s.srcLane[0]), false) + ";\n";
    for (size_t j = 0; j < s.srcLaneXor.size(); ++j)
      if (s.srcLaneXor[j])
        o += in + "  from ^= (lane & " + hex(uint64_t(1) << j, false) +
             ") ? " + hex(s.srcLaneXor[j], false) + " : 0u;\n";
    return;
  }
  o += in + "  const uint32_t from = lanes[" + std::to_string(table++) +
       "][lane];\n";
}

/// One round: send (element e from the register of this lane's choice),
/// pack, shuffle, unpack (a lane-local round keeps its elements), receive.
void emitRound(std::string &o, const std::string &in, const CudaShuffle &s,
               const CudaEmitTables &t) {
  const char *T = elementType(t.elementBytes);
  const int64_t eb = t.elementBytes, vecN = t.vectorElements;
  const std::string E = eb == 8 ? "uint64_t" : "uint32_t";
  for (int64_t e = 0; e < vecN; ++e) {
    const auto &cs = s.send[size_t(e)];
    o += in + "  " + E + " s" + std::to_string(e) + " = " + E + "(src[" +
         std::to_string(cs[0].reg) + "]);\n";
    for (size_t c = 1; c < cs.size(); ++c)
      o += in + "  s" + std::to_string(e) + " = " +
           laneCondition(cs[c].lanes) + " ? " + E + "(src[" +
           std::to_string(cs[c].reg) + "]) : s" + std::to_string(e) + ";\n";
  }
  if (s.laneLocal) {
    for (int64_t e = 0; e < vecN; ++e)
      o += in + "  const " + T + " r" + std::to_string(e) + " = " + T + "(s" +
           std::to_string(e) + ");\n";
  } else if (eb == 8) {
    o += in + "  const uint32_t lo = __shfl_sync(0xffffffffu, "
              "uint32_t(s0), int(from));\n";
    o += in + "  const uint32_t hi = __shfl_sync(0xffffffffu, "
              "uint32_t(s0 >> 32), int(from));\n";
    o += in + "  const uint64_t r0 = uint64_t(lo) | uint64_t(hi) << 32;\n";
  } else {
    std::string word = "s0";
    for (int64_t e = 1; e < vecN; ++e)
      word += " | s" + std::to_string(e) + " << " + std::to_string(8 * eb * e);
    o += in + "  const uint32_t w = __shfl_sync(0xffffffffu, " + word +
         ", int(from));\n";
    for (int64_t e = 0; e < vecN; ++e)
      o += in + "  const " + T + " r" + std::to_string(e) + " = " + T + "(w" +
           (e ? " >> " + std::to_string(8 * eb * e) : std::string()) + ");\n";
  }
  for (int64_t e = 0; e < vecN; ++e)
    for (const CudaLaneChoice &c : s.receive[size_t(e)]) {
      std::string d = "dst[" + std::to_string(c.reg) + "]";
      std::string r = "r" + std::to_string(e);
      if (c.lanes == 0xffffffffu)
        o += in + "  " + d + " = " + T + "(" + r + ");\n";
      else
        o += in + "  " + d + " = " + laneCondition(c.lanes) + " ? " + T + "(" +
             r + ") : " + d + ";\n";
    }
}

void emitRegisterCopies(std::string &o, const std::string &in,
                        const CudaEmitTables &t) {
  for (const auto &[to, from] : t.registerCopies)
    o += in + "dst[" + std::to_string(to) + "] = dst[" + std::to_string(from) +
         "];\n";
}

void emitShuffleBody(std::string &o, const std::string &in,
                     const CudaEmitTables &t) {
  o += in + "(void)smem;\n";
  o += in + "const uint32_t lane = threadIdx.x % 32u;\n";
  // (Unused when every round is lane-local and selects nothing.)
  o += in + "(void)lane;\n";
  emitLaneTables(o, in, t);
  size_t table = 0;
  for (size_t i = 0; i < t.shuffles.size(); ++i) {
    const CudaShuffle &s = t.shuffles[i];
    o += in + "{ // round " + std::to_string(i) +
         (s.laneLocal ? " (lane-local: no shuffle)" : "") + "\n";
    emitSourceLane(o, in, s, table);
    emitRound(o, in, s, t);
    o += in + "}\n";
  }
  emitRegisterCopies(o, in, t);
}

/// The thread's ids and the address setup of both sides (and of the
/// pre-sm_90 store fallback).
void emitSharedSetup(std::string &o, const std::string &in,
                     const CudaEmitTables &t) {
  const bool matrices = t.store.matrixCount || t.load.matrixCount;
  if (matrices)
    o += in + "const uint32_t sbase = static_cast<uint32_t>("
              "__cvta_generic_to_shared(smem));\n";
  o += in + "const uint32_t lane = threadIdx.x % 32u;\n";
  o += in + "const uint32_t warp = threadIdx.x / 32u;\n";
  o += in + "const uint32_t block = blockIdx.x;\n";
  o += in + "(void)lane;\n" + in + "(void)warp;\n" + in + "(void)block;\n";
  o += in + "// Store: " + describeSide(t.store, true) + ".\n";
  emitSideSetup(o, in, t.store, "st");
  if (t.storeFallback) {
    o += in + "// Below sm_90 (no stmatrix): the same elements as " +
         std::to_string(t.elementBytes) + "-byte stores.\n";
    emitSideSetup(o, in, *t.storeFallback, "sf");
  }
  o += in + "// Load: " + describeSide(t.load, false) + ".\n";
  emitSideSetup(o, in, t.load, "ld");
}

/// Iteration `it`: the store (lanes and warps holding only duplicates skip
/// it), a barrier, the load.
void emitSharedIteration(std::string &o, const std::string &in,
                         const CudaEmitTables &t, int64_t it) {
  const bool idle = t.storeIdleLanes || t.storeIdleWarps;
  if (t.iterations > 1)
    o += in + "// Iteration " + std::to_string(it) + " of " +
         std::to_string(t.iterations) + ".\n";
  if (it > 0)
    o += in + "__syncthreads();\n";
  std::string sin = in;
  if (idle) {
    o += in + "if ((lane & " + hex(t.storeIdleLanes, false) +
         ") == 0u && (warp & " + hex(t.storeIdleWarps, false) +
         ") == 0u) { // lanes / warps holding only duplicates skip\n";
    sin += "  ";
  }
  if (t.storeFallback) {
    o += "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900\n";
    emitSide(o, sin, *t.storeFallback, t, true, it, "sf");
    o += "#else\n";
    emitSide(o, sin, t.store, t, true, it, "st");
    o += "#endif\n";
  } else {
    emitSide(o, sin, t.store, t, true, it, "st");
  }
  if (idle)
    o += in + "}\n";
  o += in + "__syncthreads();\n";
  emitSide(o, in, t.load, t, false, it, "ld");
}

void emitBody(std::string &o, const Plan &plan, const CudaEmitTables &t) {
  const std::string in = "  ";
  switch (plan.strategy) {
  case Strategy::NoOp:
  case Strategy::RegisterPermutation:
    o += in + "(void)smem;\n";
    for (size_t r = 0; r < t.registerSource.size(); ++r)
      o += in + "dst[" + std::to_string(r) + "] = src[" +
           std::to_string(t.registerSource[r]) + "];\n";
    return;
  case Strategy::WarpShuffle:
    emitShuffleBody(o, in, t);
    return;
  case Strategy::SharedMemory:
    emitSharedSetup(o, in, t);
    for (int64_t it = 0; it < t.iterations; ++it)
      emitSharedIteration(o, in, t, it);
    emitRegisterCopies(o, in, t);
    return;
  }
}

void emitTestKernel(std::string &o, const CudaEmitTables &t,
                    const std::string &name) {
  const char *T = elementType(t.elementBytes);
  const int bits = int(t.elementBytes * 8);
  const int passes = (t.logicalBits + 1 + bits - 1) / bits;
  o += "\n// Self-check: src register r of (lane, warp, block) holds bits\n"
       "// [pass * " +
       std::to_string(bits) +
       ", ...) of (logical index + 1) under the source layout; every dst\n"
       "// register must hold the same bits of its index under the "
       "destination\n// layout. Launch " +
       name + "_blocks CTAs of 32 * " + name + "_warps threads with " + name +
       "_smem_bytes of\n// dynamic shared memory; *mismatches must stay 0.\n";
  o += "__global__ void " + name +
       "_test_kernel(unsigned long long *mismatches) {\n";
  o += "  extern __shared__ __align__(16) unsigned char " + name + "_smem[];\n";
  o += "  const uint32_t lane = threadIdx.x % 32u;\n";
  o += "  const uint32_t warp = threadIdx.x / 32u;\n";
  o += "  const uint32_t block = blockIdx.x;\n";
  emitThreadTerm(o, "  ", "si", t.srcIndexThread, true);
  emitThreadTerm(o, "  ", "di", t.dstIndexThread, true);
  o += "  unsigned long long bad = 0;\n";
  o +=
      "  for (int pass = 0; pass < " + std::to_string(passes) + "; ++pass) {\n";
  o += "    const int shift = pass * " + std::to_string(bits) + ";\n";
  o += "    " + std::string(T) + " src[" + name + "_src_regs];\n";
  o += "    " + std::string(T) + " dst[" + name + "_dst_regs];\n";
  for (size_t r = 0; r < t.srcIndex.size(); ++r)
    o += "    src[" + std::to_string(r) + "] = " + T + "(((si ^ " +
         hex(t.srcIndex[r], true) + ") + 1ull) >> shift);\n";
  o += "    " + name + "(src, dst, " + name + "_smem);\n";
  for (size_t r = 0; r < t.dstIndex.size(); ++r)
    o += "    bad += dst[" + std::to_string(r) + "] != " + T + "(((di ^ " +
         hex(t.dstIndex[r], true) + ") + 1ull) >> shift);\n";
  o += "    __syncthreads();\n";
  o += "  }\n";
  o += "  (void)lane;\n  (void)warp;\n  (void)block;\n";
  o += "  if (bad)\n    atomicAdd(mismatches, bad);\n";
  o += "}\n";

  // The timing kernel: the conversion in a loop, each result folded back
  // into the source so that no iteration can be dropped.
  o += "\n__global__ void " + name +
       "_bench_kernel(int iterations, unsigned long long *sink) {\n";
  o += "  extern __shared__ __align__(16) unsigned char " + name + "_smem[];\n";
  o += "  " + std::string(T) + " src[" + name + "_src_regs];\n";
  o += "  " + std::string(T) + " dst[" + name + "_dst_regs];\n";
  o += "  for (int r = 0; r < " + name + "_src_regs; ++r)\n";
  o += "    src[r] = " + std::string(T) + "(threadIdx.x * 131u + r);\n";
  o += "  for (int i = 0; i < iterations; ++i) {\n";
  o += "    " + name + "(src, dst, " + name + "_smem);\n";
  o += "    __syncthreads();\n";
  o += "    for (int r = 0; r < " + name + "_src_regs; ++r)\n";
  o += "      src[r] ^= dst[r % " + name + "_dst_regs];\n";
  o += "  }\n";
  o += "  unsigned long long acc = 0;\n";
  o += "  for (int r = 0; r < " + name + "_src_regs; ++r)\n";
  o += "    acc = acc * 31ull + src[r];\n";
  o += "  if (acc == 0x5eedull)\n    *sink = acc;\n";
  o += "}\n";
}

void emitHostMain(std::string &o, const CudaEmitTables &t,
                  const std::string &name) {
  const int64_t tensorBytes = t.elementBytes << t.logicalBits;
  o += "\n// Checks the conversion, then times it (tensor bytes converted per\n"
       "// second over many CTAs).\n";
  o += "int main() {\n";
  o += "  const int threads = 32 * " + name + "_warps;\n";
  o += "  const size_t smem = size_t(" + name + "_smem_bytes);\n";
  o += "  if (smem > 48 * 1024) {\n";
  o += "    cudaFuncSetAttribute(" + name +
       "_test_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, "
       "int(smem));\n";
  o += "    cudaFuncSetAttribute(" + name +
       "_bench_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, "
       "int(smem));\n";
  o += "  }\n";
  o += "  unsigned long long *counter = nullptr;\n";
  o += "  if (cudaMalloc(&counter, 2 * sizeof(unsigned long long)) != "
       "cudaSuccess) {\n";
  o += "    std::printf(\"FAIL: cudaMalloc\\n\");\n    return 1;\n  }\n";
  o += "  cudaMemset(counter, 0, 2 * sizeof(unsigned long long));\n";
  o += "  " + name + "_test_kernel<<<" + name +
       "_blocks, threads, smem>>>(counter);\n";
  o += "  cudaError_t err = cudaDeviceSynchronize();\n";
  o += "  unsigned long long bad = 0;\n";
  o += "  if (err == cudaSuccess)\n";
  o += "    err = cudaMemcpy(&bad, counter, sizeof bad, "
       "cudaMemcpyDeviceToHost);\n";
  o += "  if (err != cudaSuccess || bad != 0) {\n";
  o += "    std::printf(\"FAIL: " + name +
       ": %llu mismatched registers (%s)\\n\", bad, "
       "cudaGetErrorString(err));\n";
  o += "    return 1;\n  }\n";
  o += "  const int replicas = 1024, iterations = 1000;\n";
  o += "  cudaEvent_t start, stop;\n";
  o += "  cudaEventCreate(&start);\n  cudaEventCreate(&stop);\n";
  o += "  " + name + "_bench_kernel<<<" + name +
       "_blocks * replicas, threads, smem>>>(1, counter + 1);\n";
  o += "  cudaEventRecord(start);\n";
  o += "  " + name + "_bench_kernel<<<" + name +
       "_blocks * replicas, threads, smem>>>(iterations, counter + 1);\n";
  o += "  cudaEventRecord(stop);\n";
  o += "  err = cudaEventSynchronize(stop);\n";
  o += "  float ms = 0.0f;\n  cudaEventElapsedTime(&ms, start, stop);\n";
  o += "  if (err != cudaSuccess) {\n";
  o += "    std::printf(\"FAIL: " + name +
       " timing: %s\\n\", cudaGetErrorString(err));\n";
  o += "    return 1;\n  }\n";
  o += "  const double bytes = " + std::to_string(tensorBytes) +
       ".0 * replicas * iterations;\n";
  o += "  std::printf(\"PASS: " + name +
       ": %.1f GB/s (%d x %d conversions of " + std::to_string(tensorBytes) +
       " B in %.3f ms)\\n\", bytes / (ms * 1e6), replicas, iterations, "
       "ms);\n";
  o += "  return 0;\n";
  o += "}\n";
}

} // namespace

Expected<std::string> emitCuda(const Plan &plan,
                               const CudaEmitOptions &options) {
  const std::string &name = options.functionName;
  if (!isIdentifier(name))
    return Diagnostic::error("CUDA function name '" + name +
                             "' is not a C identifier");
  if (options.hostMain && !options.testKernel)
    return Diagnostic::error("the host main() launches the test kernel: "
                             "hostMain needs testKernel");
  LK_TRY(CudaEmitTables t, cudaEmitTables(plan));
  const char *T = elementType(t.elementBytes);
  std::string o;
  o += "// Generated by LayoutKit (plan::emitCuda): " + plan.describe() + ".\n";
  o += "// From " + plan.layouts.src.str() + "\n//   to " +
       plan.layouts.dst.str() + "\n";
  o += "//\n// Contract:\n"
       "//   __device__ void " +
       name + "(const " + T + " (&src)[" + name + "_src_regs],\n//     " + T +
       " (&dst)[" + name +
       "_dst_regs], void *smem);\n"
       "// called by all 32 * " +
       name +
       "_warps threads of a one-dimensional CTA (lane = threadIdx.x % 32,\n"
       "// warp = threadIdx.x / 32), " +
       name +
       "_blocks CTAs; elements are moved as raw bits.\n"
       "// smem: " +
       name +
       "_smem_bytes bytes of 16-byte aligned shared memory (unused when 0);\n"
       "// put a __syncthreads() between two calls sharing the buffer.\n";
  o += "#include <cstdint>\n#include <cstdio>\n#include <cuda_runtime.h>\n\n";
  o += "inline constexpr int " + name +
       "_src_regs = " + std::to_string(t.srcRegisters) + ";\n";
  o += "inline constexpr int " + name +
       "_dst_regs = " + std::to_string(t.dstRegisters) + ";\n";
  o += "inline constexpr int " + name + "_warps = " + std::to_string(t.warps) +
       ";\n";
  o += "inline constexpr int " + name +
       "_blocks = " + std::to_string(t.blocks) + ";\n";
  o += "inline constexpr int " + name +
       "_smem_bytes = " + std::to_string(t.smemBytes) + ";\n\n";
  o += "__device__ __forceinline__ void " + name + "(const " + T + " (&src)[" +
       std::to_string(t.srcRegisters) + "], " + T + " (&dst)[" +
       std::to_string(t.dstRegisters) + "], void *smem) {\n";
  emitBody(o, plan, t);
  o += "}\n";
  if (options.testKernel)
    emitTestKernel(o, t, name);
  if (options.hostMain)
    emitHostMain(o, t, name);
  return o;
}

} // namespace lk::plan
