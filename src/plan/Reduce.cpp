//===- Reduce.cpp - Reductions along one axis of a distributed layout ----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Reduce.h"

#include "Preconditions.h"

#include "layoutkit/linear/Analysis.h"

#include <algorithm>
#include <map>
#include <utility>

namespace lk::plan {

using linear::DimId;
using linear::InDimBases;
using linear::LinearLayout;
using linear::OutDim;
namespace dims = linear::dims;

namespace {

constexpr DimId kHwDims[] = {dims::kRegister, dims::kLane, dims::kWarp,
                             dims::kBlock};
/// Bound on the hardware locations planned and simulated (128x128 over 8
/// warps is 2^14).
constexpr int kMaxHwBits = 20;
/// Bound on the element ids the simulator holds at once: result locations
/// x fiber length (2^21 for 128x128 over 8 warps).
constexpr int kMaxSimulatedIdBits = 26;

/// Places the bits of `v` at the positions listed in `bits` (ascending).
uint64_t deposit(uint64_t v, std::span<const int> bits) {
  uint64_t r = 0;
  for (size_t i = 0; i < bits.size(); ++i)
    if (v >> i & 1)
      r |= uint64_t(1) << bits[i];
  return r;
}

/// The bits of `v` at the positions listed in `bits`, packed from bit 0.
uint64_t extract(uint64_t v, std::span<const int> bits) {
  uint64_t r = 0;
  for (size_t i = 0; i < bits.size(); ++i)
    r |= (v >> bits[i] & 1) << i;
  return r;
}

/// `l` with input dims exactly [register, lane, warp, block].
Expected<LinearLayout> alignInputs(const LinearLayout &l) {
  for (int i = 0; i < l.numInDims(); ++i) {
    DimId id = l.inDim(i).id;
    if (std::find(std::begin(kHwDims), std::end(kHwDims), id) ==
        std::end(kHwDims))
      return Diagnostic::error(
          "reduction: expected input dims register, lane, warp, block; got '" +
          std::string(linear::dimName(id)) + "'");
  }
  std::vector<InDimBases> ins;
  for (DimId id : kHwDims) {
    int i = l.inDimIndex(id);
    ins.push_back(
        {id, i < 0 ? std::vector<std::vector<int64_t>>{} : l.bases(i)});
  }
  return LinearLayout::make(ins, l.outDims());
}

/// The layout with the axis kept at size 1: axis components cleared,
/// register bits on the axis dropped.
Expected<LinearLayout> sliceAxis(const LinearLayout &src, int axis,
                                 std::span<const int> regAxisBits) {
  std::vector<OutDim> outs = src.outDims();
  outs[axis].size = 1;
  std::vector<InDimBases> ins;
  for (int i = 0; i < src.numInDims(); ++i) {
    InDimBases d{src.inDim(i).id, {}};
    std::vector<std::vector<int64_t>> bases = src.bases(i);
    for (size_t b = 0; b < bases.size(); ++b) {
      if (i == 0 && std::find(regAxisBits.begin(), regAxisBits.end(), int(b)) !=
                        regAxisBits.end())
        continue;
      bases[b][axis] = 0;
      d.bases.push_back(std::move(bases[b]));
    }
    ins.push_back(std::move(d));
  }
  return LinearLayout::make(ins, outs);
}

/// The input bits of dim `in` whose column touches `outMask` (axis bits).
std::vector<int> bitsOnMask(const LinearLayout &l, int in, uint64_t outMask) {
  std::vector<int> r;
  for (int b = 0; b < l.inDim(in).log2; ++b)
    if (l.column(l.inShift(in) + b) & outMask)
      r.push_back(b);
  return r;
}

uint64_t zeroMaskOf(const LinearLayout &l, int in) {
  return l.zeroColumnMasks()[in];
}

void predictCounts(ReducePlan &p) {
  const LinearLayout &res = p.result;
  int64_t warps = res.inDimSize(dims::kWarp);
  int64_t lanes = res.inDimSize(dims::kLane);
  int64_t computed = int64_t(p.computedRegisters.size());
  int64_t words = p.elementBits > 32 ? 2 : 1;
  ReduceCounts &c = p.counts;
  c = {};
  int64_t perReg = (int64_t(1) << p.registerAxisBits.size()) - 1 +
                   int64_t(p.laneAxisBits.size());
  c.combines = warps * computed * perReg;
  c.shuffles = warps * computed * int64_t(p.laneAxisBits.size()) * words;
  c.registerCopies = warps * int64_t(p.copies.size());
  if (p.warpAxisBits.empty())
    return;
  int64_t partials = int64_t(1) << p.warpAxisBits.size();
  int64_t storingWarps = 0, storingRegs = 0;
  for (int64_t w = 0; w < warps; ++w)
    storingWarps += (uint64_t(w) & p.storeWarpSkip) == 0;
  for (int64_t r = 0; r < res.inDimSize(dims::kRegister); ++r)
    storingRegs += (uint64_t(r) & p.storeRegisterSkip) == 0;
  int64_t storingLanes = lanes >> __builtin_popcountll(p.storeLaneSkip);
  c.storeInstructions = storingWarps * storingRegs;
  c.storeLanes = c.storeInstructions * storingLanes;
  c.loadInstructions = warps * computed * partials;
  c.combines += warps * computed * (partials - 1);
  c.registerCopies *= 2;
  c.barriers = 1;
  c.bytes = res.totalOutSize() * partials * (p.elementBits / 8);
}

} // namespace

std::string ReducePlan::describe() const {
  std::string s = "in-thread: " +
                  std::to_string((int64_t(1) << registerAxisBits.size()) - 1) +
                  " combines per result register; butterfly: " +
                  std::to_string(laneAxisBits.size()) + " rounds; ";
  if (warpAxisBits.empty())
    return s + "no shared memory";
  return s +
         "shared memory: " + std::to_string(int64_t(1) << warpAxisBits.size()) +
         " partials per element, " + std::to_string(counts.storeInstructions) +
         " store instructions (" + std::to_string(counts.storeLanes) +
         " thread stores), " + std::to_string(counts.loadInstructions) +
         " loads, 1 barrier";
}

/// A shared precondition's failure in the reduction's words ("reduction: "
/// first, as its own refusals).
Status inReduction(Status s) {
  if (s)
    return s;
  Diagnostic d = std::move(s).error();
  d.message = "reduction: " + d.message;
  return d;
}

Expected<ReducePlan> planReduction(const LinearLayout &layout, int axis,
                                   int64_t elementBits,
                                   bool eliminateDuplicates) {
  LK_CHECK(inReduction(detail::checkElementBits(elementBits)));
  if (axis < 0 || axis >= layout.numOutDims())
    return Diagnostic::error("reduction: axis " + std::to_string(axis) +
                             " out of range: the "
                             "layout has " +
                             std::to_string(layout.numOutDims()) +
                             " output dims");
  if (!linear::isDistributed(layout))
    return Diagnostic::error(
        "reduction: expected a distributed layout (every basis one logical "
        "bit or zero, non-zero bases distinct); got " +
        layout.str());
  LK_CHECK(inReduction(detail::checkCovers(layout, "reduced")));
  if (layout.inDimSize(dims::kBlock) != 1)
    return Diagnostic::error(
        "reduction: expected one CTA (block size 1), got " +
        std::to_string(layout.inDimSize(dims::kBlock)));
  if (layout.totalInBits() > kMaxHwBits)
    return Diagnostic::error("reduction: at most 2^" +
                             std::to_string(kMaxHwBits) +
                             " hardware locations are planned, got 2^" +
                             std::to_string(layout.totalInBits()));
  // The costs count bytes of the result tensor and the simulation visits
  // every element: a tensor of at most 2^kMaxHwBits elements.
  if (layout.totalOutBits() > kMaxHwBits)
    return Diagnostic::error("reduction: at most 2^" +
                             std::to_string(kMaxHwBits) +
                             " tensor elements are planned, got 2^" +
                             std::to_string(layout.totalOutBits()));
  Expected<LinearLayout> src = alignInputs(layout);
  if (!src)
    return std::move(src).error();
  ReducePlan p;
  p.src = std::move(*src);
  p.axis = axis;
  p.elementBits = elementBits;
  p.eliminateDuplicates = eliminateDuplicates;
  uint64_t axisMask = ((uint64_t(1) << p.src.outDim(axis).log2) - 1)
                      << p.src.outShift(axis);
  p.registerAxisBits = bitsOnMask(p.src, 0, axisMask);
  p.laneAxisBits = bitsOnMask(p.src, 1, axisMask);
  p.warpAxisBits = bitsOnMask(p.src, 2, axisMask);
  Expected<LinearLayout> res = sliceAxis(p.src, axis, p.registerAxisBits);
  if (!res)
    return std::move(res).error();
  p.result = std::move(*res);
  uint64_t regZero = zeroMaskOf(p.result, 0);
  for (int64_t r = 0; r < p.result.inDimSize(dims::kRegister); ++r) {
    if ((uint64_t(r) & regZero) == 0)
      p.computedRegisters.push_back(r);
    else
      p.copies.push_back({r, int64_t(uint64_t(r) & ~regZero)});
  }
  if (eliminateDuplicates) {
    p.storeRegisterSkip = regZero;
    p.storeLaneSkip = zeroMaskOf(p.result, 1);
    p.storeWarpSkip = zeroMaskOf(p.src, 2);
  }
  predictCounts(p);
  return p;
}

//===----------------------------------------------------------------------===//
// Simulation
//===----------------------------------------------------------------------===//

namespace {

using Partial = std::vector<uint32_t>; // sorted element ids

Partial merged(const Partial &a, const Partial &b) {
  Partial r(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), r.begin());
  return r;
}

struct Machine {
  int rb = 0, lb = 0, wb = 0; // result register / lane / warp bits
  std::vector<Partial> vals;  // [warp][lane][result register]
  Partial &at(int64_t w, int64_t l, int64_t r) {
    return vals[size_t(((w << lb) | l) << rb | r)];
  }
};

bool inRange(std::span<const int> bits, int limit) {
  return std::all_of(bits.begin(), bits.end(),
                     [&](int b) { return b >= 0 && b < limit; });
}

Status checkShape(const ReducePlan &p) {
  const LinearLayout &s = p.src, &r = p.result;
  if (s.numInDims() != 4 || r.numInDims() != 4 ||
      s.totalInBits() > kMaxHwBits || s.totalOutBits() > kMaxHwBits ||
      r.inDimLog2(dims::kLane) != s.inDimLog2(dims::kLane) ||
      r.inDimLog2(dims::kWarp) != s.inDimLog2(dims::kWarp) ||
      r.inDimLog2(dims::kRegister) + int(p.registerAxisBits.size()) !=
          s.inDimLog2(dims::kRegister) ||
      p.axis < 0 || p.axis >= s.numOutDims())
    return Diagnostic::error("reduction simulation: the plan's layouts do not "
                             "fit each other or its axis bits");
  int idBits = r.totalInBits() + s.outDim(p.axis).log2;
  if (idBits > kMaxSimulatedIdBits)
    return Diagnostic::error(
        "reduction simulation: result locations x fiber length is 2^" +
        std::to_string(idBits) + " element ids, over the limit of 2^" +
        std::to_string(kMaxSimulatedIdBits));
  if (!inRange(p.registerAxisBits, s.inDimLog2(dims::kRegister)) ||
      !inRange(p.laneAxisBits, s.inDimLog2(dims::kLane)) ||
      !inRange(p.warpAxisBits, s.inDimLog2(dims::kWarp)))
    return Diagnostic::error("reduction simulation: an axis bit is out of "
                             "range");
  for (int64_t reg : p.computedRegisters)
    if (reg < 0 || reg >= r.inDimSize(dims::kRegister))
      return Diagnostic::error("reduction simulation: computed register " +
                               std::to_string(reg) + " out of range");
  for (const ReducePlan::Copy &c : p.copies)
    if (c.to < 0 || c.from < 0 || c.to >= r.inDimSize(dims::kRegister) ||
        c.from >= r.inDimSize(dims::kRegister))
      return Diagnostic::error("reduction simulation: a register copy is out "
                               "of range");
  return Ok{};
}

/// The source register of result register r with axis register bits `a`.
uint64_t sourceRegister(const ReducePlan &p, uint64_t r, uint64_t a) {
  int srcBits = p.src.inDimLog2(dims::kRegister);
  std::vector<int> kept;
  for (int b = 0; b < srcBits; ++b)
    if (std::find(p.registerAxisBits.begin(), p.registerAxisBits.end(), b) ==
        p.registerAxisBits.end())
      kept.push_back(b);
  return deposit(r, kept) | deposit(a, p.registerAxisBits);
}

uint64_t srcElement(const ReducePlan &p, uint64_t reg, uint64_t lane,
                    uint64_t warp) {
  const LinearLayout &s = p.src;
  return s.applyFlat(reg | lane << s.inShift(1) | warp << s.inShift(2));
}

void copyRegisters(const ReducePlan &p, Machine &m, ReduceCounts &c) {
  for (int64_t w = 0; w < (int64_t(1) << m.wb); ++w) {
    for (const ReducePlan::Copy &cp : p.copies) {
      for (int64_t l = 0; l < (int64_t(1) << m.lb); ++l)
        m.at(w, l, cp.to) = m.at(w, l, cp.from);
      ++c.registerCopies;
    }
  }
}

void inThread(const ReducePlan &p, Machine &m, ReduceCounts &c) {
  uint64_t combos = uint64_t(1) << p.registerAxisBits.size();
  for (int64_t w = 0; w < (int64_t(1) << m.wb); ++w)
    for (int64_t r : p.computedRegisters) {
      for (int64_t l = 0; l < (int64_t(1) << m.lb); ++l) {
        Partial acc;
        for (uint64_t a = 0; a < combos; ++a)
          acc = merged(
              acc, {uint32_t(srcElement(p, sourceRegister(p, r, a), l, w))});
        m.at(w, l, r) = std::move(acc);
      }
      c.combines += int64_t(combos) - 1;
    }
}

void butterfly(const ReducePlan &p, Machine &m, ReduceCounts &c) {
  int64_t words = p.elementBits > 32 ? 2 : 1;
  int64_t lanes = int64_t(1) << m.lb;
  for (int b : p.laneAxisBits)
    for (int64_t w = 0; w < (int64_t(1) << m.wb); ++w)
      for (int64_t r : p.computedRegisters) {
        std::vector<Partial> next(static_cast<size_t>(lanes));
        for (int64_t l = 0; l < lanes; ++l)
          next[size_t(l)] = merged(m.at(w, l, r), m.at(w, l ^ (1 << b), r));
        for (int64_t l = 0; l < lanes; ++l)
          m.at(w, l, r) = std::move(next[size_t(l)]);
        c.shuffles += words;
        ++c.combines;
      }
}

Status acrossWarps(const ReducePlan &p, Machine &m, ReduceCounts &c) {
  const LinearLayout &res = p.result;
  std::map<std::pair<uint64_t, uint64_t>, Partial> slots;
  auto element = [&](int64_t w, int64_t l, int64_t r) {
    return res.applyFlat(uint64_t(r) | uint64_t(l) << res.inShift(1) |
                         uint64_t(w) << res.inShift(2));
  };
  for (int64_t w = 0; w < (int64_t(1) << m.wb); ++w) {
    if (uint64_t(w) & p.storeWarpSkip)
      continue;
    uint64_t j = extract(uint64_t(w), p.warpAxisBits);
    for (int64_t r = 0; r < (int64_t(1) << m.rb); ++r) {
      if (uint64_t(r) & p.storeRegisterSkip)
        continue;
      ++c.storeInstructions;
      for (int64_t l = 0; l < (int64_t(1) << m.lb); ++l) {
        if (uint64_t(l) & p.storeLaneSkip)
          continue;
        ++c.storeLanes;
        auto [it, fresh] =
            slots.try_emplace({element(w, l, r), j}, m.at(w, l, r));
        if (!fresh && it->second != m.at(w, l, r))
          return Diagnostic::error(
              "reduction simulation: warp " + std::to_string(w) + " lane " +
              std::to_string(l) + " register " + std::to_string(r) +
              " stores a partial different from the one in its slot");
      }
    }
  }
  ++c.barriers;
  uint64_t partials = uint64_t(1) << p.warpAxisBits.size();
  for (int64_t w = 0; w < (int64_t(1) << m.wb); ++w)
    for (int64_t r : p.computedRegisters) {
      for (int64_t l = 0; l < (int64_t(1) << m.lb); ++l) {
        Partial acc;
        for (uint64_t j = 0; j < partials; ++j) {
          auto it = slots.find({element(w, l, r), j});
          if (it == slots.end())
            return Diagnostic::error(
                "reduction simulation: warp " + std::to_string(w) + " lane " +
                std::to_string(l) + " register " + std::to_string(r) +
                " loads partial " + std::to_string(j) +
                ", which no one stored");
          acc = merged(acc, it->second);
        }
        m.at(w, l, r) = std::move(acc);
      }
      c.loadInstructions += int64_t(partials);
      c.combines += int64_t(partials) - 1;
    }
  c.bytes = res.totalOutSize() * int64_t(partials) * (p.elementBits / 8);
  return Ok{};
}

} // namespace

Expected<ReduceSimulation> simulateReduction(const ReducePlan &p) {
  if (Status ok = checkShape(p); !ok)
    return std::move(ok).error();
  const LinearLayout &s = p.src;
  Machine m;
  m.rb = p.result.inDimLog2(dims::kRegister);
  m.lb = s.inDimLog2(dims::kLane);
  m.wb = s.inDimLog2(dims::kWarp);
  m.vals.resize(size_t(1) << (m.rb + m.lb + m.wb));
  ReduceSimulation sim;
  inThread(p, m, sim.counts);
  butterfly(p, m, sim.counts);
  copyRegisters(p, m, sim.counts);
  if (!p.warpAxisBits.empty()) {
    if (Status ok = acrossWarps(p, m, sim.counts); !ok)
      return std::move(ok).error();
    copyRegisters(p, m, sim.counts);
  }
  // The expected fibers, from the source layout alone.
  uint64_t axisMask = ((uint64_t(1) << s.outDim(p.axis).log2) - 1)
                      << s.outShift(p.axis);
  std::map<uint64_t, Partial> fibers;
  for (uint64_t e = 0; e < uint64_t(s.totalOutSize()); ++e)
    fibers[e & ~axisMask].push_back(uint32_t(e));
  for (int64_t w = 0; w < (int64_t(1) << m.wb); ++w)
    for (int64_t l = 0; l < (int64_t(1) << m.lb); ++l)
      for (int64_t r = 0; r < (int64_t(1) << m.rb); ++r) {
        ++sim.checked;
        uint64_t key = srcElement(p, sourceRegister(p, uint64_t(r), 0),
                                  uint64_t(l), uint64_t(w)) &
                       ~axisMask;
        if (m.at(w, l, r) == fibers[key])
          continue;
        if (sim.mismatches++ == 0)
          sim.firstMismatch =
              "warp " + std::to_string(w) + " lane " + std::to_string(l) +
              " register " + std::to_string(r) + ": holds " +
              std::to_string(m.at(w, l, r).size()) + " elements, wants the " +
              std::to_string(fibers[key].size()) + " of its fiber";
      }
  sim.correct = sim.mismatches == 0;
  return sim;
}

} // namespace lk::plan
