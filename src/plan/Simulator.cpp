//===- Simulator.cpp - Executes a conversion plan on a simulated CTA -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Simulator.h"

#include "layoutkit/core/Bits.h"

#include "F2.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lk::plan {

using namespace detail;

using linear::LinearLayout;
namespace dims = linear::dims;

namespace {

/// Per warp, per lane, per register values.
struct RegisterFile {
  int64_t warps = 0, lanes = 0, regs = 0;
  std::vector<uint64_t> v;
  RegisterFile(int64_t w, int64_t l, int64_t r)
      : warps(w), lanes(l), regs(r), v(size_t(w * l * r), 0) {}
  uint64_t &at(int64_t w, int64_t l, int64_t r) {
    return v[size_t((w * lanes + l) * regs + r)];
  }
  uint64_t at(int64_t w, int64_t l, int64_t r) const {
    return v[size_t((w * lanes + l) * regs + r)];
  }
};

/// A source register holding padding in a masked run: reading it is a
/// violation.
constexpr uint64_t kPoison = ~uint64_t(0);

/// valid(y) of a masked run (SimulationMask): y_d < extent_d on every
/// out-dim of the aligned layouts (which the memory layout shares).
struct Validity {
  std::vector<int> shift, log2;
  std::vector<int64_t> extent;
  bool operator()(uint64_t y) const {
    for (size_t d = 0; d < extent.size(); ++d)
      if (int64_t((y >> shift[d]) & ((uint64_t(1) << log2[d]) - 1)) >=
          extent[d])
        return false;
    return true;
  }
};

/// Records one access that touched padding (SimulationResult).
void violation(SimulationResult &res, std::string what) {
  if (!res.maskViolations)
    res.firstViolation = std::move(what);
  ++res.maskViolations;
}

/// Flattened input of an aligned layout (register, lane, warp, block=0).
uint64_t hwIndex(const LinearLayout &l, int64_t r, int64_t lane, int64_t w) {
  return uint64_t(r) | uint64_t(lane) << l.inShift(1) |
         uint64_t(w) << l.inShift(2);
}

uint64_t dimFreeMask(const LinearLayout &l, int dimIndex) {
  return l.freeVariableMasks()[size_t(dimIndex)];
}

/// Selects to route one word per round to / from lane-dependent registers,
/// from the rounds' per-lane base registers `base[t][l]` (Cost in Plan.h):
/// when lane l's offset base[t][l] ^ base[t][0] is the same in every round,
/// a network of d = rank{offsets} conditional-swap stages, d selects per
/// word; otherwise a multiplexer per round (c - 1 selects for c distinct
/// registers on the send side, c on the receive side, none when c = 1).
int64_t selectCount(const std::vector<std::vector<int64_t>> &base,
                    int64_t words, bool receive) {
  bool sameOffsets = true;
  std::vector<uint64_t> offsets;
  for (const auto &b : base)
    for (size_t l = 0; l < b.size(); ++l) {
      uint64_t off = uint64_t(b[l] ^ b[0]);
      if (off != uint64_t(base[0][l] ^ base[0][0]))
        sameOffsets = false;
      offsets.push_back(off);
    }
  if (sameOffsets)
    return int64_t(rankF2(offsets)) * int64_t(base.size()) * words;
  int64_t s = 0;
  for (const auto &b : base) {
    std::vector<int64_t> d = b;
    std::sort(d.begin(), d.end());
    int64_t c = int64_t(std::unique(d.begin(), d.end()) - d.begin());
    s += (receive ? (c > 1 ? c : 0) : c - 1) * words;
  }
  return s;
}

/// The 32-bit words of a plan's shuffled vector: fails unless the vector is
/// one element or a power-of-two number of elements in one 32-bit word, and
/// wordsPerVector says so.
Expected<int64_t> shuffleWords(const Plan &plan, const WarpShufflePlan &sp) {
  const int64_t vecN = sp.vectorElements, eb = plan.elementBits;
  if (!isPow2(vecN) || (vecN > 1 && eb * vecN > 32))
    return Diagnostic::error("a shuffled vector of " + std::to_string(vecN) +
                             " x " + std::to_string(eb) +
                             "-bit elements is not 32 bits or one element");
  const int64_t words = (eb * vecN + 31) / 32;
  if (sp.wordsPerVector != words)
    return Diagnostic::error(
        "wordsPerVector is " + std::to_string(sp.wordsPerVector) + ", but " +
        std::to_string(vecN) + " x " + std::to_string(eb) + " bits take " +
        std::to_string(words) + " 32-bit words");
  return words;
}

/// Checks round t (one entry per lane, lanes and registers in range, no
/// register receiving two elements) and appends its per-lane base send and
/// destination registers to sendBase / dstBase.
Status checkRound(const ShuffleRound &r, size_t t, int64_t vecN,
                  const RegisterFile &in, const RegisterFile &out,
                  std::vector<std::vector<int64_t>> &sendBase,
                  std::vector<std::vector<int64_t>> &dstBase) {
  const int64_t lanes = in.lanes;
  const std::string at = "shuffle round " + std::to_string(t) + ": ";
  if (int64_t(r.srcLane.size()) != lanes ||
      int64_t(r.sendRegisters.size()) != lanes ||
      int64_t(r.dstRegisters.size()) != lanes)
    return Diagnostic::error(at +
                             "srcLane, sendRegisters and "
                             "dstRegisters must have one entry per "
                             "lane (" +
                             std::to_string(lanes) + ")");
  sendBase.emplace_back();
  dstBase.emplace_back();
  for (int64_t l = 0; l < lanes; ++l) {
    const std::string lane = at + "lane " + std::to_string(l) + ": ";
    int64_t from = r.srcLane[size_t(l)];
    if (from < 0 || from >= lanes)
      return Diagnostic::error(lane + "source lane " + std::to_string(from) +
                               " out of range");
    const auto &s = r.sendRegisters[size_t(l)];
    const auto &d = r.dstRegisters[size_t(l)];
    if (int64_t(s.size()) != vecN || int64_t(d.size()) != vecN)
      return Diagnostic::error(lane + "a vector has " + std::to_string(vecN) +
                               " elements");
    for (int64_t e = 0; e < vecN; ++e) {
      if (s[size_t(e)] < 0 || s[size_t(e)] >= in.regs)
        return Diagnostic::error(lane + "send register " +
                                 std::to_string(s[size_t(e)]) +
                                 " out of range");
      if (d[size_t(e)] < 0 || d[size_t(e)] >= out.regs)
        return Diagnostic::error(lane + "destination register " +
                                 std::to_string(d[size_t(e)]) +
                                 " out of range");
      for (int64_t f = 0; f < e; ++f)
        if (d[size_t(f)] == d[size_t(e)])
          return Diagnostic::error(lane + "destination register " +
                                   std::to_string(d[size_t(e)]) +
                                   " receives two elements");
    }
    sendBase.back().push_back(s[0]);
    dstBase.back().push_back(d[0]);
  }
  return Ok{};
}

/// One round in warp w: every lane offers its packed vector, then every
/// lane reads its source lane's (each word moves its own elements, or for
/// f64 its half of the element, from the same source lane).
/// In a masked run (`srcValid` / `dstValid` non-null: per (warp, lane,
/// register) whether it holds a valid element), a lane offers 0 instead of
/// reading a register holding padding and writes only registers holding
/// valid elements.
void runRound(const ShuffleRound &r, int64_t vecN, int64_t w,
              const RegisterFile &in, RegisterFile &out,
              std::vector<uint64_t> &offered, const RegisterFile *srcValid,
              const RegisterFile *dstValid, SimulationResult &res) {
  const int64_t lanes = in.lanes;
  for (int64_t l = 0; l < lanes; ++l)
    for (int64_t e = 0; e < vecN; ++e) {
      int64_t reg = r.sendRegisters[size_t(l)][size_t(e)];
      if (srcValid && !srcValid->at(w, l, reg)) {
        ++res.maskedAccesses;
        offered[size_t(l * vecN + e)] = 0;
        continue;
      }
      offered[size_t(l * vecN + e)] = in.at(w, l, reg);
      if (offered[size_t(l * vecN + e)] == kPoison)
        violation(res, "warp " + std::to_string(w) + " lane " +
                           std::to_string(l) + " sends register " +
                           std::to_string(reg) + ", which holds padding");
    }
  for (int64_t l = 0; l < lanes; ++l) {
    int64_t from = r.srcLane[size_t(l)];
    for (int64_t e = 0; e < vecN; ++e) {
      int64_t reg = r.dstRegisters[size_t(l)][size_t(e)];
      if (dstValid && !dstValid->at(w, l, reg)) {
        ++res.maskedAccesses;
        continue;
      }
      out.at(w, l, reg) = offered[size_t(from * vecN + e)];
    }
  }
}

/// Executes the rounds and register copies of a WarpShuffle plan (Plan.h:
/// ShuffleRound, WarpShufflePlan) in every warp, after checking every field.
/// Per round and warp: wordsPerVector 32-bit shuffles, all lanes offering
/// their packed vector before any lane reads (none in a lane-local round,
/// ShuffleRound::laneLocal: each lane keeps its own vector). Counts the
/// shuffles, the selects (selectCount), the pack and unpack moves
/// (2^|V| - 1 each per shuffled round when a word holds several elements),
/// the moves of lane-local rounds (one per element and word) and the
/// copies.
Status runWarpShuffle(const Plan &plan, RegisterFile &in, RegisterFile &out,
                      SimulationResult &res, const RegisterFile *srcValid,
                      const RegisterFile *dstValid) {
  if (!plan.shuffle)
    return Diagnostic::error("warp-shuffle plan without its WarpShufflePlan");
  const WarpShufflePlan &sp = *plan.shuffle;
  const int64_t vecN = sp.vectorElements;
  LK_TRY(const int64_t words, shuffleWords(plan, sp));
  std::vector<std::vector<int64_t>> sendBase, dstBase;
  for (size_t t = 0; t < plan.rounds.size(); ++t)
    LK_CHECK(checkRound(plan.rounds[t], t, vecN, in, out, sendBase, dstBase));
  for (const WarpShufflePlan::RegisterCopy &c : sp.registerCopies)
    if (c.to < 0 || c.to >= out.regs || c.from < 0 || c.from >= out.regs)
      return Diagnostic::error("register copy " + std::to_string(c.from) +
                               " -> " + std::to_string(c.to) + " out of range");
  const int64_t rounds = int64_t(plan.rounds.size());
  int64_t shuffled = 0;
  for (const ShuffleRound &r : plan.rounds)
    shuffled += !r.laneLocal();
  std::vector<uint64_t> offered(size_t(in.lanes * vecN));
  for (int64_t w = 0; w < in.warps; ++w) {
    for (const ShuffleRound &r : plan.rounds) {
      runRound(r, vecN, w, in, out, offered, srcValid, dstValid, res);
      if (!r.laneLocal()) // else each lane reads its own vector
        res.shuffles += words;
    }
    for (const WarpShufflePlan::RegisterCopy &c : sp.registerCopies)
      for (int64_t l = 0; l < in.lanes; ++l) {
        if (dstValid && !dstValid->at(w, l, c.to)) {
          ++res.maskedAccesses;
          continue;
        }
        out.at(w, l, c.to) = out.at(w, l, c.from);
      }
    res.registerMoves += int64_t(sp.registerCopies.size());
    if (rounds) {
      res.selects += selectCount(sendBase, words, false) +
                     selectCount(dstBase, words, true);
      // Pack and unpack in shuffled rounds; a move per element (per word)
      // in lane-local ones.
      res.registerMoves +=
          shuffled * 2 * (vecN - 1) + (rounds - shuffled) * vecN * words;
    }
  }
  return Ok{};
}

/// Fails unless the shared-memory step is well formed for machine `m`: sizes,
/// a buffer that holds a CTA's tile over the iterations, a vector width the
/// banks take, and matrix instructions the machine has, of 16-bit elements
/// over 32 lanes.
Status checkSharedStep(const SharedMemoryPlan &sp, const hw::Machine &m,
                       int64_t lanes, int64_t ctas) {
  const int64_t eb = sp.elementBytes;
  if (eb <= 0 || sp.bytes <= 0 || sp.bytes % eb || !isPow2(sp.iterations))
    return Diagnostic::error("malformed shared-memory plan (element size, "
                             "buffer size or iteration count)");
  if ((sp.bytes / eb) * sp.iterations * ctas < sp.memory.totalInSize())
    return Diagnostic::error("the buffer of " + std::to_string(sp.bytes) +
                             " bytes over " + std::to_string(sp.iterations) +
                             " iterations does not hold a CTA's tile");
  LK_TRY(hw::LaneGrouping grp, m.smem.grouping(eb * sp.vectorElements));
  (void)grp;
  if (sp.store.matrixInstruction && !m.hasStmatrix)
    return Diagnostic::error("stmatrix needs sm_90, not " +
                             std::string(m.name));
  if (sp.load.matrixInstruction && !m.hasLdmatrix)
    return Diagnostic::error("ldmatrix is not available on " +
                             std::string(m.name));
  for (const MatrixAccess *ma : {&sp.store.matrix, &sp.load.matrix}) {
    bool used = ma == &sp.store.matrix ? sp.store.matrixInstruction
                                       : sp.load.matrixInstruction;
    if (!used)
      continue;
    if (eb != 2 || lanes != 32 || ma->halfRegBit < 0 ||
        ma->count() != sp.matrixCount)
      return Diagnostic::error("malformed ldmatrix/stmatrix step (16-bit "
                               "elements, 32 lanes, a half register bit and " +
                               std::to_string(sp.matrixCount) +
                               " matrices needed)");
  }
  return Ok{};
}

/// One run of a SharedMemory plan (see runSharedMemory): the buffers of
/// every CTA and the steps that move elements through them.
class SharedMemoryRun {
public:
  SharedMemoryRun(const Plan &plan, const hw::Machine &m, LinearLayout inv,
                  RegisterFile &in, RegisterFile &out, SimulationResult &res,
                  int64_t warpsPerCta, const RegisterFile *srcValid,
                  const RegisterFile *dstValid, const Validity *valid)
      : srcValid_(srcValid), dstValid_(dstValid), valid_(valid),
        src_(plan.layouts.src), dst_(plan.layouts.dst), sp_(*plan.smem), m_(m),
        inv_(std::move(inv)), in_(in), out_(out), res_(res),
        warpsPerCta_(warpsPerCta), eb_(sp_.elementBytes),
        vecN_(sp_.vectorElements), bufElems_(sp_.bytes / eb_),
        smem_(size_t(bufElems_ * (in.warps / warpsPerCta)), 0) {}

  /// The stores of iteration `it`: skip duplicated registers and warps;
  /// lanes that duplicate are inactive (st.shared) or write the same value
  /// twice (stmatrix).
  Status store(int64_t it) {
    const uint64_t regFree = dimFreeMask(src_, 0),
                   warpFree = dimFreeMask(src_, 2);
    const int64_t vecMask = sp_.store.matrixInstruction
                                ? sp_.store.matrix.registerMask()
                                : bitMask(sp_.store.vecRegBits);
    for (int64_t w = 0; w < in_.warps; ++w) {
      if (uint64_t(w % warpsPerCta_) & warpFree)
        continue;
      for (int64_t r = 0; r < in_.regs; ++r) {
        if ((uint64_t(r) & regFree) || (r & vecMask))
          continue;
        if (sp_.store.matrixInstruction)
          LK_CHECK(matrixOp(src_, sp_.store.matrix, true, r, w, it));
        else
          LK_CHECK(storeVector(r, w, it));
      }
    }
    return Ok{};
  }

  /// The loads of iteration `it`: each distinct destination register once.
  Status load(int64_t it) {
    const uint64_t regFree = dimFreeMask(dst_, 0);
    const int64_t vecMask = sp_.load.matrixInstruction
                                ? sp_.load.matrix.registerMask()
                                : bitMask(sp_.load.vecRegBits);
    for (int64_t w = 0; w < out_.warps; ++w)
      for (int64_t r = 0; r < out_.regs; ++r) {
        if ((uint64_t(r) & regFree) || (r & vecMask))
          continue;
        if (sp_.load.matrixInstruction)
          LK_CHECK(matrixOp(dst_, sp_.load.matrix, false, r, w, it));
        else
          LK_CHECK(loadVector(r, w, it));
      }
    return Ok{};
  }

  /// A free register bit of a distributed layout is a zero column: the
  /// register with those bits cleared holds the same element.
  void copyDuplicates() {
    const uint64_t regFree = dimFreeMask(dst_, 0);
    for (int64_t w = 0; w < out_.warps; ++w)
      for (int64_t r = 0; r < out_.regs; ++r) {
        if (!(uint64_t(r) & regFree))
          continue;
        ++res_.registerMoves;
        for (int64_t l = 0; l < out_.lanes; ++l) {
          if (!dstOn(w, l, r)) {
            ++res_.maskedAccesses;
            continue;
          }
          out_.at(w, l, r) = out_.at(w, l, int64_t(uint64_t(r) & ~regFree));
        }
      }
  }

private:
  static int64_t bitMask(const std::vector<int> &bits) {
    int64_t m = 0;
    for (int b : bits)
      m |= int64_t(1) << b;
    return m;
  }
  /// Full offset of the element at (r, l, w) of layout `lay`.
  int64_t offsetOf(const LinearLayout &lay, int64_t r, int64_t l,
                   int64_t w) const {
    return int64_t(inv_.applyFlat(lay.applyFlat(hwIndex(lay, r, l, w))));
  }
  int64_t iterationOf(int64_t off) const {
    return (off / bufElems_) & (sp_.iterations - 1);
  }
  /// Index into smem_ of buffer offset `off` in the CTA of warp w.
  int64_t slot(int64_t w, int64_t off) const {
    return (w / warpsPerCta_) * bufElems_ + off % bufElems_;
  }
  /// Base offset of a vector; error when not contiguous and aligned.
  Expected<int64_t> vectorBase(const LinearLayout &lay,
                               const std::vector<int> &bits, int64_t r,
                               int64_t l, int64_t w) const {
    int64_t base = offsetOf(lay, r, l, w);
    if (base % vecN_)
      return Diagnostic::error("vector at offset " + std::to_string(base) +
                               " is not aligned to " + std::to_string(vecN_));
    for (int64_t j = 1; j < vecN_; ++j)
      if (offsetOf(lay, r | vecRegOffset(bits, j), l, w) != base + j)
        return Diagnostic::error("vector is not contiguous in memory");
    return base;
  }

  /// The byte address of each lane's vector in one st.shared (store) or
  /// ld.shared of register vector r of warp w (-1: the lane does not
  /// access; a store leaves the lanes that duplicate another's values to
  /// that lane), or nothing when the instruction is not in iteration `it`.
  /// Its predicated-off lanes count as masked accesses once, in its
  /// iteration.
  Expected<std::optional<std::vector<int64_t>>>
  laneAddresses(bool store, int64_t r, int64_t w, int64_t it) {
    const LinearLayout &lay = store ? src_ : dst_;
    const auto bits = store ? sp_.store.vecRegBits : sp_.load.vecRegBits;
    const int64_t lanes = store ? in_.lanes : out_.lanes;
    const uint64_t laneFree = store ? dimFreeMask(src_, 1) : 0;
    std::vector<int64_t> addrs(size_t(lanes), -1);
    int64_t first = -1, offLanes = 0;
    for (int64_t l = 0; l < lanes; ++l) {
      if (uint64_t(l) & laneFree)
        continue;
      if (elementsOn(bits, store, r, l, w) == 0) {
        ++offLanes; // the lane is predicated off
        continue;
      }
      LK_TRY(int64_t base, vectorBase(lay, bits, r, l, w));
      if (first < 0)
        first = iterationOf(base);
      if (iterationOf(base) != first)
        return Diagnostic::error(std::string("a ") +
                                 (store ? "store" : "load") +
                                 " instruction spans iterations");
      addrs[size_t(l)] = (base % bufElems_) * eb_;
    }
    if (first < 0 ? it == 0 : first == it) // counted in one iteration
      res_.maskedAccesses += offLanes * vecN_;
    if (first != it)
      return std::optional<std::vector<int64_t>>(); // not this iteration
    return std::optional<std::vector<int64_t>>(std::move(addrs));
  }

  /// One st.shared of register vector r of warp w, when in iteration `it`.
  Status storeVector(int64_t r, int64_t w, int64_t it) {
    LK_TRY(auto found, laneAddresses(true, r, w, it));
    if (!found)
      return Ok{};
    const std::vector<int64_t> &addrs = *found;
    for (int64_t l = 0; l < in_.lanes; ++l) {
      if (addrs[size_t(l)] < 0)
        continue;
      if (elementsOn(sp_.store.vecRegBits, true, r, l, w) < vecN_)
        ++res_.partialVectors;
      for (int64_t j = 0; j < vecN_; ++j) {
        int64_t reg = r | vecRegOffset(sp_.store.vecRegBits, j);
        if (!srcOn(w, l, reg)) {
          ++res_.maskedAccesses;
          continue;
        }
        checkSlot(offsetOf(src_, reg, l, w), true, w, l);
        uint64_t v = in_.at(w, l, reg);
        if (v == kPoison)
          violation(res_, "warp " + std::to_string(w) + " lane " +
                              std::to_string(l) + " stores register " +
                              std::to_string(reg) + ", which holds padding");
        smem_[size_t(slot(w, addrs[size_t(l)] / eb_ + j))] = v;
      }
    }
    LK_TRY(int64_t wf, m_.smem.wavefronts(addrs, eb_ * vecN_));
    res_.storeWavefronts += wf;
    ++res_.storeInstructions;
    return Ok{};
  }

  /// One ld.shared of register vector r of warp w, when in iteration `it`.
  Status loadVector(int64_t r, int64_t w, int64_t it) {
    LK_TRY(auto found, laneAddresses(false, r, w, it));
    if (!found)
      return Ok{};
    const std::vector<int64_t> &addrs = *found;
    for (int64_t l = 0; l < out_.lanes; ++l) {
      if (addrs[size_t(l)] < 0)
        continue;
      if (elementsOn(sp_.load.vecRegBits, false, r, l, w) < vecN_)
        ++res_.partialVectors;
      for (int64_t j = 0; j < vecN_; ++j) {
        int64_t reg = r | vecRegOffset(sp_.load.vecRegBits, j);
        if (!dstOn(w, l, reg)) {
          ++res_.maskedAccesses;
          continue;
        }
        checkSlot(offsetOf(dst_, reg, l, w), false, w, l);
        out_.at(w, l, reg) = smem_[size_t(slot(w, addrs[size_t(l)] / eb_ + j))];
      }
    }
    LK_TRY(int64_t wf, m_.smem.wavefronts(addrs, eb_ * vecN_));
    res_.loadWavefronts += wf;
    ++res_.loadInstructions;
    return Ok{};
  }

  /// One ldmatrix / stmatrix (docs/hardware.md §3.1, §3.2): lane 8j + i
  /// gives row i of matrix j; lane l's register j, half h is, with
  /// g = l >> 2, q = l & 3: non-trans row g element 2q + h, .trans row
  /// 2q + h element g. Does nothing when the instruction is not in
  /// iteration `it`.
  Status matrixOp(const LinearLayout &lay, const MatrixAccess &ma, bool store,
                  int64_t r, int64_t w, int64_t it) {
    const int64_t count = ma.count();
    std::vector<int64_t> rowAddr(size_t(8 * count));
    for (int64_t lane = 0; lane < 8 * count; ++lane) {
      MatrixRowStart rs = matrixRowStart(ma, r, lane);
      int64_t off = offsetOf(lay, rs.reg, rs.lane, w);
      if (iterationOf(off) != iterationOf(offsetOf(lay, r, 0, w)))
        return Diagnostic::error("a matrix instruction spans iterations");
      rowAddr[size_t(lane)] = (off % bufElems_) * eb_;
      if (rowAddr[size_t(lane)] % 16)
        return Diagnostic::error(
            "row address " + std::to_string(rowAddr[size_t(lane)]) +
            " of lane " + std::to_string(lane) + " is not 16-byte aligned");
    }
    if (iterationOf(offsetOf(lay, r, 0, w)) != it)
      return Ok{};
    for (int64_t l = 0; l < 32; ++l)
      for (int64_t j = 0; j < count; ++j)
        for (int64_t h = 0; h < 2; ++h) {
          int64_t g = l >> 2, q = l & 3;
          int64_t row = ma.trans ? 2 * q + h : g;
          int64_t col = ma.trans ? g : 2 * q + h;
          int64_t at = slot(w, rowAddr[size_t(8 * j + row)] / eb_ + col);
          int64_t reg = matrixElementRegister(ma, r, j, h);
          // A matrix instruction moves whole rows: it cannot skip padding.
          if (store ? !srcOn(w, l, reg) : !dstOn(w, l, reg))
            violation(res_, std::string(store ? "stmatrix" : "ldmatrix") +
                                " moves padding (warp " + std::to_string(w) +
                                " lane " + std::to_string(l) + ")");
          if (store)
            smem_[size_t(at)] = in_.at(w, l, reg);
          else
            out_.at(w, l, reg) = smem_[size_t(at)];
        }
    LK_TRY(int64_t wf, m_.smem.ldmatrixWavefronts(rowAddr, count));
    (store ? res_.storeWavefronts : res_.loadWavefronts) += wf;
    ++(store ? res_.storeInstructions : res_.loadInstructions);
    return Ok{};
  }

  /// A masked run: does the element of (warp, lane, register) count, and
  /// does the element at a full buffer offset (memory layout) count.
  bool srcOn(int64_t w, int64_t l, int64_t r) const {
    return !srcValid_ || srcValid_->at(w, l, r);
  }
  bool dstOn(int64_t w, int64_t l, int64_t r) const {
    return !dstValid_ || dstValid_->at(w, l, r);
  }
  /// Checks that full offset `off`, accessed for a valid element, does not
  /// hold padding by the memory layout.
  void checkSlot(int64_t off, bool store, int64_t w, int64_t l) {
    if (valid_ && !(*valid_)(sp_.memory.applyFlat(uint64_t(off))))
      violation(res_, std::string(store ? "a store to" : "a load from") +
                          " offset " + std::to_string(off) +
                          ", which holds padding (warp " + std::to_string(w) +
                          " lane " + std::to_string(l) + ")");
  }
  /// Of the vector of register r (vector bits `bits`) in lane l of warp w:
  /// how many elements count (all of them without a mask).
  int64_t elementsOn(const std::vector<int> &bits, bool src, int64_t r,
                     int64_t l, int64_t w) const {
    int64_t n = 0;
    for (int64_t j = 0; j < vecN_; ++j) {
      int64_t reg = r | vecRegOffset(bits, j);
      n += src ? srcOn(w, l, reg) : dstOn(w, l, reg);
    }
    return n;
  }

  const RegisterFile *srcValid_, *dstValid_;
  const Validity *valid_;
  const LinearLayout &src_, &dst_;
  const SharedMemoryPlan &sp_;
  const hw::Machine &m_;
  const LinearLayout inv_;
  RegisterFile &in_, &out_;
  SimulationResult &res_;
  const int64_t warpsPerCta_, eb_, vecN_, bufElems_;
  std::vector<uint64_t> smem_;
};

/// Executes a SharedMemory plan over every CTA (global warp index
/// w = block * warpsPerCta + warp): per iteration, the stores of the
/// elements of that iteration (vectorized st.shared or stmatrix), a barrier,
/// the loads (ld.shared or ldmatrix), a barrier before the next iteration;
/// then the register copies of duplicated destination registers. Each CTA
/// has its own buffer of sp.bytes bytes; an element's buffer offset is
/// memory^-1(x) mod (bytes / elementBytes) and its iteration the next
/// log2(iterations) offset bits. Counts are over every CTA.
Status runSharedMemory(const Plan &plan, const hw::Machine &m, RegisterFile &in,
                       RegisterFile &out, SimulationResult &res,
                       int64_t warpsPerCta, const RegisterFile *srcValid,
                       const RegisterFile *dstValid, const Validity *valid) {
  if (!plan.smem)
    return Diagnostic::error("shared-memory plan without its step");
  const SharedMemoryPlan &sp = *plan.smem;
  const int64_t ctas = in.warps / warpsPerCta;
  LK_TRY(LinearLayout inv, sp.memory.invert());
  LK_CHECK(checkSharedStep(sp, m, in.lanes, ctas));
  SharedMemoryRun run(plan, m, std::move(inv), in, out, res, warpsPerCta,
                      srcValid, dstValid, valid);
  for (int64_t it = 0; it < sp.iterations; ++it) {
    if (it > 0)
      res.barriers += ctas; // the loads of the previous iteration are done
    LK_CHECK(run.store(it));
    res.barriers += ctas;
    LK_CHECK(run.load(it));
  }
  run.copyDuplicates();
  return Ok{};
}

} // namespace

Expected<SimulationResult> simulate(const Plan &plan, hw::Arch arch) {
  return simulate(plan, arch, SimulationMask{});
}

Expected<SimulationResult> simulate(const Plan &plan, hw::Arch arch,
                                    const SimulationMask &mask) {
  const LinearLayout &src = plan.layouts.src, &dst = plan.layouts.dst;
  const hw::Machine &m = hw::machine(arch);
  // Every CTA runs: warp index w = block * warpsPerCta + warp (the block
  // bits follow the warp bits of an aligned layout, so hwIndex holds).
  const int64_t warpsPerCta = src.inDimSize(dims::kWarp);
  const int64_t ctas = src.inDimSize(dims::kBlock);
  const int64_t warps = warpsPerCta * ctas;
  const int64_t lanes = src.inDimSize(dims::kLane);
  const int64_t srcRegs = src.inDimSize(dims::kRegister);
  const int64_t dstRegs = dst.inDimSize(dims::kRegister);
  if (dst.inDimSize(dims::kBlock) != ctas ||
      dst.inDimSize(dims::kWarp) != warpsPerCta)
    return Diagnostic::error("source and destination run different CTAs");
  if (lanes > m.warpSize)
    return Diagnostic::error("more lanes than the warp size");

  const bool masked = !mask.logicalExtents.empty();
  Validity valid;
  if (masked) {
    if (int(mask.logicalExtents.size()) != src.numOutDims())
      return Diagnostic::error(
          "the mask has " + std::to_string(mask.logicalExtents.size()) +
          " extents for " + std::to_string(src.numOutDims()) + " out-dims");
    for (int d = 0; d < src.numOutDims(); ++d) {
      valid.shift.push_back(src.outShift(d));
      valid.log2.push_back(src.outDim(d).log2);
      valid.extent.push_back(mask.logicalExtents[size_t(d)]);
    }
  }
  SimulationResult res;
  RegisterFile in(warps, lanes, srcRegs), out(warps, lanes, dstRegs);
  RegisterFile srcOn(masked ? warps : 0, lanes, srcRegs),
      dstOn(masked ? warps : 0, lanes, dstRegs);
  for (int64_t w = 0; w < warps; ++w)
    for (int64_t l = 0; l < lanes; ++l) {
      for (int64_t r = 0; r < srcRegs; ++r) {
        uint64_t x = src.applyFlat(hwIndex(src, r, l, w));
        bool ok = !masked || valid(x);
        in.at(w, l, r) = ok ? x + 1 : kPoison;
        if (masked)
          srcOn.at(w, l, r) = ok;
      }
      if (masked)
        for (int64_t r = 0; r < dstRegs; ++r)
          dstOn.at(w, l, r) = valid(dst.applyFlat(hwIndex(dst, r, l, w)));
    }
  const RegisterFile *srcValid = masked ? &srcOn : nullptr,
                     *dstValid = masked ? &dstOn : nullptr;
  // Copies a source register into a destination register, predicated on
  // the destination holding a valid element.
  auto copyRegister = [&](int64_t w, int64_t l, int64_t r, int64_t s) {
    if (dstValid && !dstValid->at(w, l, r)) {
      ++res.maskedAccesses;
      return;
    }
    out.at(w, l, r) = in.at(w, l, s);
    if (out.at(w, l, r) == kPoison)
      violation(res, "warp " + std::to_string(w) + " lane " +
                         std::to_string(l) + " reads register " +
                         std::to_string(s) + ", which holds padding");
  };

  switch (plan.strategy) {
  case Strategy::NoOp:
    if (srcRegs != dstRegs)
      return Diagnostic::error("no-op plan with different register counts");
    for (int64_t w = 0; w < warps; ++w)
      for (int64_t l = 0; l < lanes; ++l)
        for (int64_t r = 0; r < dstRegs; ++r)
          copyRegister(w, l, r, r);
    break;
  case Strategy::RegisterPermutation: {
    if (int64_t(plan.registerSource.size()) != dstRegs)
      return Diagnostic::error("register permutation of the wrong size");
    for (int64_t r = 0; r < dstRegs; ++r) {
      int64_t s = plan.registerSource[size_t(r)];
      if (s < 0 || s >= srcRegs)
        return Diagnostic::error("register source out of range");
      if (s != r)
        res.registerMoves += warps;
      for (int64_t w = 0; w < warps; ++w)
        for (int64_t l = 0; l < lanes; ++l)
          copyRegister(w, l, r, s);
    }
    break;
  }
  case Strategy::WarpShuffle:
    LK_CHECK(runWarpShuffle(plan, in, out, res, srcValid, dstValid));
    break;
  case Strategy::SharedMemory:
    LK_CHECK(runSharedMemory(plan, m, in, out, res, warpsPerCta, srcValid,
                             dstValid, masked ? &valid : nullptr));
    break;
  }
  res.instructions = res.registerMoves + res.selects + res.shuffles +
                     res.storeInstructions + res.loadInstructions;
  for (int64_t w = 0; w < warps; ++w)
    for (int64_t l = 0; l < lanes; ++l)
      for (int64_t r = 0; r < dstRegs; ++r) {
        uint64_t got = out.at(w, l, r);
        if (dstValid && !dstValid->at(w, l, r)) {
          if (got != 0) // a register of padding was written
            violation(res, "warp " + std::to_string(w) + " lane " +
                               std::to_string(l) + " register " +
                               std::to_string(r) +
                               " holds padding but was written");
          continue;
        }
        ++res.checked;
        uint64_t want = dst.applyFlat(hwIndex(dst, r, l, w)) + 1;
        if (got != want) {
          if (!res.mismatches)
            res.firstMismatch = "warp " + std::to_string(w) + " lane " +
                                std::to_string(l) + " register " +
                                std::to_string(r) + ": holds " +
                                std::to_string(int64_t(got) - 1) + ", wants " +
                                std::to_string(int64_t(want) - 1);
          ++res.mismatches;
        }
      }
  res.correct = res.mismatches == 0 && res.maskViolations == 0;
  return res;
}

} // namespace lk::plan
