//===- DescribePlan.h - Plans, reductions and gathers as records -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one description (api/Record.h, rules in api/Describe.h: snake_case
/// keys, a field a result lacks is null) of the planners' results, which
/// `layoutkit plan|gather|paper reduce --json`, the Python objects of
/// layoutkit.plan / gather / reduce and the wasm replies of plan / gather /
/// reduce all serialize.
///
///   plan      {"strategy":"shared-memory","dtype":"f32","element_bits":32,
///              "arch":"sm_90","src":..,"dst":.. (the aligned layouts),
///              "register_sources":[..] (register-permutation, else null),
///              "shuffle":{"vector_elements":1,"rounds":[{"src_lane":[..],
///                "send_registers":[[..]],"dst_registers":[[..]],
///                "lane_local":false}]} (warp-shuffle, else null),
///              "shared_memory":{"vector_elements":1,"access_bytes":4,
///                "memory_layout":..,"memory_layout_cute":..|null,
///                "memory_layout_tile":..|null,
///                "store":{"instructions":8,"wavefronts":8,"lower_bound":8,
///                         "lemma_bits":0},"load":{..},
///                "register_copies":0,"store_instruction":"st.shared",
///                "load_instruction":"ld.shared","iterations":1,
///                "bytes":1024} (shared-memory, else null),
///              "cost":{"instructions","register_moves","selects",
///                "shuffles","barriers","wavefronts","smem_bytes","cycles"},
///              "padding":null}
///             A plan of a padded tensor has
///              "padding":{"logical_shape":[12,24],"src_padded_elements":..,
///                "dst_padded_elements":..,"src_masked_slots":..,
///                "dst_masked_slots":..,"smem_offsets":..,
///                "masked_smem_offsets":..,"buffer_slots":..,
///                "unused_buffer_slots":..,"unused_buffer_bytes":..
///                (the five buffer fields null without shared memory),
///                "simulation":{"correct":true,"checked":..,
///                "masked_accesses":..,"store_instructions":..,
///                "load_instructions":..,"violations":0,
///                "first_problem":null}}
///   reduction {"axis":0,"element_bits":32,"eliminate_duplicates":true,
///              "src":..,"result":.. (the reduced layout),
///              "description":..,"register_axis_bits":[..],
///              "lane_axis_bits":[..],"warp_axis_bits":[..],
///              "counts":{"combines","shuffles","store_instructions",
///                "thread_stores","load_instructions","register_copies",
///                "barriers","bytes"},
///              "correct":true,"checked":64,"first_mismatch":null}
///   gather    {"strategy":"warp-shuffle","axis":1,"element_bits":32,
///              "src":..,"index":.. (the aligned layouts),
///              "rounds_per_register":2,"description":..,
///              "cost":{"shuffles":4,"selects":4,"shared_stores":0,
///                "shared_loads":0,"barriers":0,"smem_bytes":0}}
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_DESCRIBEPLAN_H
#define LAYOUTKIT_API_DESCRIBEPLAN_H

#include "layoutkit/api/Plan.h"
#include "layoutkit/api/Record.h"

namespace lk::api {

/// A plan; padding is null. The memory forms are r.memory's (null where
/// the report was made without them).
Record describe(const PlanReport &r);
/// A plan of a padded tensor: as above, with padding the account of
/// r.padded and `sim` (plan::simulatePadded(r.padded, r.report.arch)).
Record describe(const PaddedPlanReport &r, const plan::SimulationResult &sim);
/// The record of planTensorConversion's answer: describe(t.report) for a
/// plain plan; for a padded one the padding account, after running the
/// masked simulation on t.report.arch (returned in *sim when asked for).
/// Fails when the simulation does.
Expected<Record> describe(const TensorPlanReport &t,
                          plan::SimulationResult *sim = nullptr);
Record describe(const ReductionReport &r);
Record describe(const plan::GatherPlan &p);

} // namespace lk::api

#endif // LAYOUTKIT_API_DESCRIBEPLAN_H
