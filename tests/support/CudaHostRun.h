//===- CudaHostRun.h - The CUDA emitter's tables executed on the host ----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// runTables executes the numbers the CUDA emitter prints
/// (plan::cudaEmitTables) on the host exactly as the emitted code uses them:
/// thread offsets XORed with register constants, idle lanes, vector widths,
/// shuffle partners and, for masked tables, the per-register predicates
/// sv / dv computed from CudaEmitTables::valid. The result is compared with
/// the destination layout evaluated directly, and the counts are those
/// plan::simulate reports for the same plan, so tests compare the two.
/// Used by EmitCudaTest.cpp and EmitCudaMaskedTest.cpp.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TESTS_SUPPORT_CUDAHOSTRUN_H
#define LAYOUTKIT_TESTS_SUPPORT_CUDAHOSTRUN_H

#include "layoutkit/hw/Machine.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Padded.h"
#include "layoutkit/plan/EmitCuda.h"
#include "layoutkit/plan/Plan.h"
#include "layoutkit/plan/Simulator.h"
#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lk::plan::test {

inline uint64_t hwIndex(const linear::LinearLayout &l, int64_t r, int64_t lane,
                        int64_t w, int64_t b = 0) {
  return uint64_t(r) | uint64_t(lane) << l.inShift(1) |
         uint64_t(w) << l.inShift(2) | uint64_t(b) << l.inShift(3);
}

/// A source register holding padding (never to be read), and the value a
/// destination register holds until it is written.
inline constexpr uint64_t kPoison = ~uint64_t(0);
inline constexpr uint64_t kUnwritten = ~uint64_t(0) - 1;

/// What executing the tables on the host gives. Masked runs also count,
/// as plan::simulate does, the element accesses predicated off, the lane
/// vectors moved with only some elements valid, and every access that
/// touched padding (a src register of padding read, a dst register of
/// padding written).
struct HostRun {
  int64_t mismatches = 0, checked = 0;
  std::string firstMismatch;
  int64_t storeInstructions = 0, loadInstructions = 0;
  int64_t storeWavefronts = 0, loadWavefronts = 0;
  int64_t shuffles = 0, barriers = 0;
  int64_t maskedAccesses = 0, partialVectors = 0, violations = 0;
  std::string firstViolation;
  void violation(std::string what) {
    if (!violations++)
      firstViolation = std::move(what);
  }
};

/// Per lane, per register values of one warp.
using Registers = std::vector<std::vector<uint64_t>>;

/// The emitted predicate of src (dst) register r of (l, w, b): sv / dv.
inline bool srcOn(const CudaEmitTables &t, int64_t r, int64_t l, int64_t w,
                  int64_t b) {
  return t.valid(t.srcIndex[size_t(r)] ^ t.srcIndexThread.at(l, w, b));
}
inline bool dstOn(const CudaEmitTables &t, int64_t r, int64_t l, int64_t w,
                  int64_t b) {
  return t.valid(t.dstIndex[size_t(r)] ^ t.dstIndexThread.at(l, w, b));
}

/// One shared-memory side of iteration `it` in warp w of block b, with the
/// hardware meaning of each instruction: st/ld.shared move the vector
/// elements at consecutive element addresses; stmatrix / ldmatrix .m8n8
/// (PTX ISA, docs/hardware.md §3): lane 8j + i supplies the address of row i of
/// matrix j, and 32-bit register j of lane l = 4g + q holds row g, elements
/// 2q and 2q + 1 (non-trans) or rows 2q and 2q + 1, element g (.trans),
/// low half first. Masked vector accesses move only the elements whose
/// register is valid; a lane with none does not access, and an instruction
/// no lane accesses is not issued.
inline void runSide(const CudaSharedSide &side, const CudaEmitTables &t,
                    bool store, int64_t it, int64_t w, int64_t b,
                    Registers &regs, std::vector<uint64_t> &buf,
                    uint64_t idleLanes, HostRun &run) {
  const hw::Machine &m = hw::machine(hw::Arch::Sm90);
  const uint64_t eb = uint64_t(t.elementBytes);
  auto slot = [&](uint64_t byte) -> uint64_t & {
    EXPECT_EQ(byte % eb, 0u);
    EXPECT_LT(byte, uint64_t(t.smemBytes));
    return buf[size_t(byte / eb) % buf.size()];
  };
  auto on = [&](int64_t reg, int64_t l) {
    return store ? srcOn(t, reg, l, w, b) : dstOn(t, reg, l, w, b);
  };
  uint64_t wit = 0;
  for (size_t k = 0; k < side.warpIteration.size(); ++k)
    if (uint64_t(w) >> k & 1)
      wit ^= side.warpIteration[k];
  std::vector<int64_t> addrs(size_t(t.lanes));
  for (const CudaSharedAccess &a : side.accesses) {
    if ((uint64_t(a.iteration) ^ wit) != uint64_t(it))
      continue;
    bool issued = false;
    for (int64_t l = 0; l < t.lanes; ++l) {
      addrs[size_t(l)] = -1;
      if (uint64_t(l) & idleLanes)
        continue;
      int64_t valid = 0;
      for (int64_t reg : a.registers)
        valid += on(reg, l);
      const int64_t n = int64_t(a.registers.size());
      run.maskedAccesses += n - valid;
      run.partialVectors += valid > 0 && valid < n;
      if (valid > 0 || side.matrixCount) {
        addrs[size_t(l)] = int64_t(a.registerBytes ^ side.thread.at(l, w, b));
        issued = true;
      }
    }
    if (!issued)
      continue;
    if (side.matrixCount) {
      for (int64_t j = 0; j < side.matrixCount; ++j)
        for (int64_t i = 0; i < 8; ++i)
          for (int64_t e = 0; e < 8; ++e) {
            int64_t lane = side.trans ? 4 * e + i / 2 : 4 * i + e / 2;
            int64_t half = side.trans ? i % 2 : e % 2;
            int64_t reg = a.registers[size_t(2 * j + half)];
            uint64_t &cell =
                slot(uint64_t(addrs[size_t(8 * j + i)]) + uint64_t(e) * eb);
            if (store)
              cell = regs[size_t(lane)][size_t(reg)];
            else
              regs[size_t(lane)][size_t(reg)] = cell;
          }
      std::vector<int64_t> rows(addrs.begin(),
                                addrs.begin() + 8 * side.matrixCount);
      (store ? run.storeWavefronts : run.loadWavefronts) +=
          ok(m.smem.ldmatrixWavefronts(rows, side.matrixCount));
    } else {
      for (int64_t l = 0; l < t.lanes; ++l) {
        if (addrs[size_t(l)] < 0)
          continue;
        for (size_t j = 0; j < a.registers.size(); ++j) {
          if (!on(a.registers[j], l))
            continue;
          uint64_t &cell = slot(uint64_t(addrs[size_t(l)]) + j * eb);
          uint64_t &reg = regs[size_t(l)][size_t(a.registers[j])];
          if (store && reg == kPoison)
            run.violation("lane " + std::to_string(l) + " stores register " +
                          std::to_string(a.registers[j]) +
                          ", which holds padding");
          if (store)
            cell = reg;
          else
            reg = cell;
        }
      }
      (store ? run.storeWavefronts : run.loadWavefronts) +=
          ok(m.smem.wavefronts(addrs, side.accessBytes));
    }
    ++(store ? run.storeInstructions : run.loadInstructions);
  }
}

/// Executes `t` on the host the way the emitted code does: registers filled
/// from the self-check index tables (index ^ thread term, + 1; kPoison for
/// a src register of padding), dst registers starting as kUnwritten, then
/// the strategy's steps with the emitted addresses, instructions, partners
/// and predicates, then every dst register compared with the destination
/// layout evaluated directly (dst.applyFlat, independent of the tables): a
/// valid one must hold its element + 1, one of padding must be unwritten.
/// Validity here comes from `logical` (one extent per out-dim; empty: no
/// padding), not from the tables, whose predicates must agree with it.
/// Values are kept whole (no truncation to the element width) so any
/// misplaced element shows. `fallback` runs the sm_80 store instead of
/// stmatrix.
inline HostRun runTables(const Plan &plan, const CudaEmitTables &t,
                         bool fallback = false,
                         std::span<const int64_t> logical = {}) {
  const linear::LinearLayout &src = plan.layouts.src, &dst = plan.layouts.dst;
  HostRun run;
  std::optional<linear::PaddedLayout> padded;
  if (!logical.empty())
    padded = ok(linear::PaddedLayout::make(src, logical));
  auto valid = [&](uint64_t y) { return !padded || padded->validOut(y); };
  auto fill = [&](int64_t w, int64_t b) {
    Registers in(size_t(t.lanes),
                 std::vector<uint64_t>(size_t(t.srcRegisters)));
    for (int64_t l = 0; l < t.lanes; ++l)
      for (int64_t r = 0; r < t.srcRegisters; ++r) {
        uint64_t idx = t.srcIndex[size_t(r)] ^ t.srcIndexThread.at(l, w, b);
        EXPECT_EQ(idx, src.applyFlat(hwIndex(src, r, l, w, b)));
        EXPECT_EQ(srcOn(t, r, l, w, b), valid(idx));
        in[size_t(l)][size_t(r)] = valid(idx) ? idx + 1 : kPoison;
      }
    return in;
  };
  auto check = [&](const Registers &out, int64_t w, int64_t b) {
    for (int64_t l = 0; l < t.lanes; ++l)
      for (int64_t r = 0; r < t.dstRegisters; ++r) {
        uint64_t idx = dst.applyFlat(hwIndex(dst, r, l, w, b));
        EXPECT_EQ(t.dstIndex[size_t(r)] ^ t.dstIndexThread.at(l, w, b), idx);
        EXPECT_EQ(dstOn(t, r, l, w, b), valid(idx));
        const uint64_t holds = out[size_t(l)][size_t(r)];
        const std::string where =
            "block " + std::to_string(b) + " warp " + std::to_string(w) +
            " lane " + std::to_string(l) + " register " + std::to_string(r);
        if (!valid(idx)) {
          if (holds != kUnwritten)
            run.violation(where + " holds padding but was written");
          continue;
        }
        ++run.checked;
        if (holds != idx + 1 && !run.mismatches++)
          run.firstMismatch = where + ": holds " + std::to_string(holds) +
                              ", wants " + std::to_string(idx + 1);
      }
  };
  auto copies = [&](Registers &out, int64_t w, int64_t b) {
    for (int64_t l = 0; l < t.lanes; ++l)
      for (const auto &[to, from] : t.registerCopies) {
        if (!dstOn(t, to, l, w, b)) {
          ++run.maskedAccesses;
          continue;
        }
        out[size_t(l)][size_t(to)] = out[size_t(l)][size_t(from)];
      }
  };
  // Reads src register r of lane l for a send or a copy.
  auto read = [&](const Registers &in, int64_t l, int64_t r) {
    uint64_t v = in[size_t(l)][size_t(r)];
    if (v == kPoison)
      run.violation("lane " + std::to_string(l) + " reads register " +
                    std::to_string(r) + ", which holds padding");
    return v;
  };
  auto fresh = [&] {
    return Registers(size_t(t.lanes),
                     std::vector<uint64_t>(size_t(t.dstRegisters), kUnwritten));
  };
  for (int64_t b = 0; b < t.blocks; ++b) {
    if (plan.strategy != Strategy::SharedMemory) {
      for (int64_t w = 0; w < t.warps; ++w) {
        Registers in = fill(w, b);
        Registers out = fresh();
        if (plan.strategy == Strategy::WarpShuffle) {
          for (const CudaShuffle &s : t.shuffles) {
            // Every lane picks its send registers, then all exchange.
            Registers sent(size_t(t.lanes));
            for (int64_t l = 0; l < t.lanes; ++l)
              for (const auto &choices : s.send) {
                int found = 0;
                for (const CudaLaneChoice &c : choices)
                  if (c.lanes >> l & 1) {
                    const bool on = srcOn(t, c.reg, l, w, b);
                    run.maskedAccesses += !on;
                    sent[size_t(l)].push_back(on ? read(in, l, c.reg) : 0);
                    ++found;
                  }
                EXPECT_EQ(found, 1) << "lane " << l;
              }
            for (int64_t l = 0; l < t.lanes; ++l) {
              uint64_t from = uint64_t(s.srcLane[0]);
              if (s.srcLaneAffine) {
                for (size_t j = 0; j < s.srcLaneXor.size(); ++j)
                  if (uint64_t(l) >> j & 1)
                    from ^= s.srcLaneXor[j];
              } else {
                from = uint64_t(s.srcLane[size_t(l)]);
              }
              for (size_t e = 0; e < s.receive.size(); ++e)
                for (const CudaLaneChoice &c : s.receive[e])
                  if (c.lanes >> l & 1) {
                    if (!dstOn(t, c.reg, l, w, b)) {
                      ++run.maskedAccesses;
                      continue;
                    }
                    out[size_t(l)][size_t(c.reg)] = sent[size_t(from)][e];
                  }
            }
            if (!s.laneLocal) {
              run.shuffles += t.wordsPerVector;
            } else {
              // A lane-local round reads only the lane itself.
              for (int64_t l = 0; l < t.lanes; ++l)
                EXPECT_EQ(s.srcLane[size_t(l)], l);
            }
          }
          copies(out, w, b);
        } else {
          for (int64_t l = 0; l < t.lanes; ++l)
            for (int64_t r = 0; r < t.dstRegisters; ++r) {
              if (!dstOn(t, r, l, w, b)) {
                ++run.maskedAccesses;
                continue;
              }
              out[size_t(l)][size_t(r)] =
                  read(in, l, t.registerSource[size_t(r)]);
            }
        }
        check(out, w, b);
      }
      continue;
    }
    // Shared memory: each CTA its own buffer of element slots.
    std::vector<uint64_t> buf(size_t(t.smemBytes / t.elementBytes), 0);
    std::vector<Registers> in, out;
    for (int64_t w = 0; w < t.warps; ++w) {
      in.push_back(fill(w, b));
      out.push_back(fresh());
    }
    const CudaSharedSide &store =
        fallback && t.storeFallback ? *t.storeFallback : t.store;
    for (int64_t it = 0; it < t.iterations; ++it) {
      if (it)
        ++run.barriers;
      for (int64_t w = 0; w < t.warps; ++w)
        if (!(uint64_t(w) & t.storeIdleWarps))
          runSide(store, t, true, it, w, b, in[size_t(w)], buf,
                  t.storeIdleLanes, run);
      ++run.barriers;
      for (int64_t w = 0; w < t.warps; ++w)
        runSide(t.load, t, false, it, w, b, out[size_t(w)], buf, 0, run);
    }
    for (int64_t w = 0; w < t.warps; ++w) {
      copies(out[size_t(w)], w, b);
      check(out[size_t(w)], w, b);
    }
  }
  return run;
}

/// Expects a host run to be correct (no mismatch, nothing touching
/// padding) and to count what the simulator counts for the same plan:
/// valid registers checked, instructions and wavefronts of both sides,
/// shuffles, masked accesses and partial vectors (both 0 unmasked).
inline void expectSimulatorCounts(const HostRun &run, const SimulationResult &s,
                                  const std::string &what) {
  EXPECT_EQ(run.mismatches, 0) << what << ": " << run.firstMismatch;
  EXPECT_EQ(run.violations, 0) << what << ": " << run.firstViolation;
  EXPECT_EQ(run.checked, s.checked) << what;
  EXPECT_EQ(run.storeInstructions, s.storeInstructions) << what;
  EXPECT_EQ(run.loadInstructions, s.loadInstructions) << what;
  EXPECT_EQ(run.storeWavefronts, s.storeWavefronts) << what;
  EXPECT_EQ(run.loadWavefronts, s.loadWavefronts) << what;
  EXPECT_EQ(run.shuffles, s.shuffles) << what;
  EXPECT_EQ(run.maskedAccesses, s.maskedAccesses) << what;
  EXPECT_EQ(run.partialVectors, s.partialVectors) << what;
}

} // namespace lk::plan::test

#endif // LAYOUTKIT_TESTS_SUPPORT_CUDAHOSTRUN_H
