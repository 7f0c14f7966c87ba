//===- DescribePlan.cpp - Plans, reductions and gathers as records --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/DescribePlan.h"

namespace lk::api {

namespace {

Value intLists(const std::vector<std::vector<int64_t>> &v) {
  Value::List l;
  l.reserve(v.size());
  for (const std::vector<int64_t> &x : v)
    l.push_back(Value::ints(x));
  return l;
}

Value bitList(const std::vector<int> &bits) {
  return Value::ints(std::vector<int64_t>(bits.begin(), bits.end()));
}

Record sideRecord(const plan::SharedSide &s) {
  return Record()
      .add("instructions", s.instructions)
      .add("wavefronts", s.wavefronts)
      .add("lower_bound", s.lowerBound)
      .add("lemma_bits", s.lemmaBits);
}

/// The shuffle rounds of a warp-shuffle plan; null for another strategy.
Value shuffleRecord(const plan::Plan &p) {
  if (p.strategy != plan::Strategy::WarpShuffle)
    return Value();
  Value::List rounds;
  rounds.reserve(p.rounds.size());
  for (const plan::ShuffleRound &x : p.rounds)
    rounds.push_back(Record()
                         .add("src_lane", Value::ints(x.srcLane))
                         .add("send_registers", intLists(x.sendRegisters))
                         .add("dst_registers", intLists(x.dstRegisters))
                         .add("lane_local", x.laneLocal()));
  return Record()
      .add("vector_elements", p.shuffle ? p.shuffle->vectorElements : 1)
      .add("rounds", std::move(rounds));
}

/// The staging step of a shared-memory plan; null for another strategy.
Value sharedRecord(const PlanReport &r) {
  if (!r.plan.smem)
    return Value();
  const plan::SharedMemoryPlan &m = *r.plan.smem;
  Value cute, tile;
  if (r.memory.cute)
    cute = r.memory.cute->str();
  if (r.memory.tile)
    tile = tileText(*r.memory.tile);
  return Record()
      .add("vector_elements", m.vectorElements)
      .add("access_bytes", m.accessBytes)
      .add("memory_layout", m.memory.str())
      .add("memory_layout_cute", std::move(cute))
      .add("memory_layout_tile", std::move(tile))
      .add("store", sideRecord(m.store))
      .add("load", sideRecord(m.load))
      .add("register_copies", m.registerCopies)
      .add("store_instruction", r.storeInstruction)
      .add("load_instruction", r.loadInstruction)
      .add("iterations", m.iterations)
      .add("bytes", m.bytes);
}

Record costRecord(const plan::Cost &c) {
  return Record()
      .add("instructions", c.instructions)
      .add("register_moves", c.registerMoves)
      .add("selects", c.selects)
      .add("shuffles", c.shuffles)
      .add("barriers", c.barriers)
      .add("wavefronts", c.wavefronts)
      .add("smem_bytes", c.smemBytes)
      .add("cycles", c.cycles);
}

Record paddingRecord(const plan::PaddedPlan &pp,
                     const plan::SimulationResult &sim) {
  bool smem = pp.plan.smem.has_value();
  auto buffer = [&](int64_t v) { return smem ? Value(v) : Value(); };
  Value problem;
  if (!sim.correct)
    problem = sim.maskViolations ? sim.firstViolation : sim.firstMismatch;
  return Record()
      .add("logical_shape", Value::ints(pp.logicalShape))
      .add("src_padded_elements", pp.srcWaste.paddedElements)
      .add("dst_padded_elements", pp.dstWaste.paddedElements)
      .add("src_masked_slots", pp.srcWaste.maskedSlots)
      .add("dst_masked_slots", pp.dstWaste.maskedSlots)
      .add("smem_offsets", buffer(pp.smemOffsets))
      .add("masked_smem_offsets", buffer(pp.maskedSmemOffsets))
      .add("buffer_slots", buffer(pp.bufferSlots))
      .add("unused_buffer_slots", buffer(pp.unusedBufferSlots))
      .add("unused_buffer_bytes", buffer(pp.unusedBufferBytes))
      .add("simulation", Record()
                             .add("correct", sim.correct)
                             .add("checked", sim.checked)
                             .add("masked_accesses", sim.maskedAccesses)
                             .add("store_instructions", sim.storeInstructions)
                             .add("load_instructions", sim.loadInstructions)
                             .add("violations", sim.maskViolations)
                             .add("first_problem", std::move(problem)));
}

} // namespace

Record describe(const PlanReport &r) {
  const plan::Plan &p = r.plan;
  Value sources;
  if (p.strategy == plan::Strategy::RegisterPermutation)
    sources = Value::ints(p.registerSource);
  return Record()
      .add("strategy", plan::strategyName(p.strategy))
      .add("dtype", r.dtype)
      .add("element_bits", p.elementBits)
      .add("arch", hw::machine(r.arch).name)
      .add("src", p.layouts.src.str())
      .add("dst", p.layouts.dst.str())
      .add("register_sources", std::move(sources))
      .add("shuffle", shuffleRecord(p))
      .add("shared_memory", sharedRecord(r))
      .add("cost", costRecord(p.cost))
      .add("padding", Value());
}

Record describe(const PaddedPlanReport &r, const plan::SimulationResult &sim) {
  return describe(r.report).add("padding", paddingRecord(r.padded, sim));
}

Expected<Record> describe(const TensorPlanReport &t,
                          plan::SimulationResult *sim) {
  if (!t.padded)
    return describe(t.report);
  LK_TRY(plan::SimulationResult run,
         plan::simulatePadded(*t.padded, t.report.arch));
  Record r = describe(t.report).add("padding", paddingRecord(*t.padded, run));
  if (sim)
    *sim = run;
  return r;
}

Record describe(const ReductionReport &r) {
  const plan::ReducePlan &p = r.plan;
  const plan::ReduceCounts &c = p.counts;
  const plan::ReduceSimulation &s = r.simulation;
  return Record()
      .add("axis", p.axis)
      .add("element_bits", p.elementBits)
      .add("eliminate_duplicates", p.eliminateDuplicates)
      .add("src", p.src.str())
      .add("result", p.result.str())
      .add("description", p.describe())
      .add("register_axis_bits", bitList(p.registerAxisBits))
      .add("lane_axis_bits", bitList(p.laneAxisBits))
      .add("warp_axis_bits", bitList(p.warpAxisBits))
      .add("counts", Record()
                         .add("combines", c.combines)
                         .add("shuffles", c.shuffles)
                         .add("store_instructions", c.storeInstructions)
                         .add("thread_stores", c.storeLanes)
                         .add("load_instructions", c.loadInstructions)
                         .add("register_copies", c.registerCopies)
                         .add("barriers", c.barriers)
                         .add("bytes", c.bytes))
      .add("correct", s.correct)
      .add("checked", s.checked)
      .add("first_mismatch", s.correct ? Value() : Value(s.firstMismatch));
}

Record describe(const plan::GatherPlan &p) {
  const plan::GatherCost &c = p.cost;
  return Record()
      .add("strategy", plan::gatherStrategyName(p.strategy))
      .add("axis", p.axis)
      .add("element_bits", p.elementBits)
      .add("src", p.src.str())
      .add("index", p.index.str())
      .add("rounds_per_register", p.roundsPerRegister)
      .add("description", p.describe())
      .add("cost", Record()
                       .add("shuffles", c.shuffles)
                       .add("selects", c.selects)
                       .add("shared_stores", c.sharedStores)
                       .add("shared_loads", c.sharedLoads)
                       .add("barriers", c.barriers)
                       .add("smem_bytes", c.smemBytes));
}

} // namespace lk::api
