//===- Describe.h - Results as records ---------------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one description of each result type (api/Record.h), which the CLI's
/// `--json`, the Python module's `to_dict()` and attributes and the wasm
/// module's objects all serialize. Keys are snake_case (the swizzle's B, M
/// and S keep CuTe's names); a field a result
/// does not have is null rather than missing, so every result of a type
/// has the same keys.
///
///   IntTuple  a leaf is an integer, a tuple a list:
///             ((2,4),8) -> [[2,4],8];  (8) -> [8];  () -> []
///             a basis-stride leaf 3@1 -> {"scale":3,"basis":[1]}
///   Layout    {"layout":"(8,4):(1,8)","shape":[8,4],"stride":[1,8],
///              "size":32,"cosize":32,"rank":2,"depth":1}
///             (cosize is null for basis-stride layouts and when it does
///             not fit in int64)
///   Swizzled  {"layout":"Sw<3,4,3> o (8,64):(64,1)",
///              "swizzle":{"B":3,"M":4,"S":3},"offset":0,
///              "inner":<Layout record>}
///   Attribute {"text":"<(8,64),(64,1),swizzle<3,4,3>,elem=f16>",
///              "layout":<Swizzled record>,"swizzle":{"B":3,"M":4,"S":3},
///              "elem":{"name":"f16","bits":16}}
///             (layout: describeAsWritten, as `show` gives it;
///             swizzle and elem are the clauses, null when absent)
///   Diagnostic {"message":...,"line":1,"column":8,"offset":7,"length":1,
///              "input":...,"notes":[...],"parameter":"order",
///              "rendered":...}
///             (line, column and offset 1-, 1- and 0-based; they and input
///             are null, length 0, without a source range; parameter is
///             the input's named parameter at fault, null when none is)
///
/// Tile layouts (api/Query.h). An axis record names each axis of a
/// coordinate with its value, in the layout's axis order: {"laneid":4,
/// "m":1}. A "coord" is a logical coordinate over "shape" and "x" the
/// layout's flat index of it (row-major over the shape for a tile text).
///
///   Evaluation (tile eval, T.evaluate, wasm steps)
///             {"layout":"S[(8,4,2):(4@laneid,1@laneid,1)]","shape":[8,8],
///              "coord":[1,1],"x":9,"points":[{"laneid":4,"m":1}],
///              "total":1,"steps":[<Step>,...]}
///             points: the first points of L(x) (axis records), total: all
///             of them (the replica count)
///   Step      {"kind":"shard","iter":0,"extent":8,"stride":4,
///              "axis":"laneid","component":1,"added":4,"swizzle":null,
///              "from":null,"to":null}
///             kind shard: iter `iter` takes component c of x and adds
///             added = c * stride on axis; offset: adds `added` on axis
///             (iter, extent, stride, component null); replica: one point
///             per r < extent, axis += stride * r (component, added null);
///             swizzle: m goes from `from` to `to` through `swizzle`
///             (iter, extent, stride, component, added null; axis "m")
///   Owners    (tile owners, T.owners, wasm owners)
///             {"layout":...,"shape":[8,8],"coord":[1,1],"x":9,
///              "owners":[{"owner":{"laneid":4},"at":{"m":1}}],"total":1}
///             owner: the thread and device axes; at: the others
///   Holding   (tile holds, T.holding, wasm holds)
///             {"layout":"S[(8,4,2):(4@laneid,1@laneid,1)]","shape":[8,8],
///              "where":{"laneid":4},"elements":[8,9],
///              "coords":[[1,0],[1,1]],"total":2}
///             elements: the first flat indices held (row-major over the
///             shape, ascending), coords the same as coordinates; total:
///             how many are held
///   BankView  (tile banks, T.bank_view, wasm banks "view")
///             {"layout":"S[(8,64):(64,1)]","dtype_bits":16,
///              "first_line":0,"line_count":8,
///              "lines":[[[0,1],[2,3],...],...]}
///             lines[l][b]: the flat indices in the 4-byte word of bank b
///             (0..31) of line first_line + l (128 bytes), by address
///   Conflicts (tile conflicts, T.conflicts, lk.bank_conflicts, wasm banks
///             "conflicts")
///             {"layout":"S[(8,64):(64,1)]","dtype_bits":16,
///              "read":{"rows":8,"cols":64,"column":0,"lanes":8,
///                      "vector":1,"first_row":0},
///              "elements":[[0],[64],...],"ways":8,"conflict_free":false,
///              "banks":[{"bank":0,"words":[{"word":0,"lanes":[0]},...]},
///                       ...],
///              "explanation":"8-way ..."}
///             elements[lane]: the flat indices the lane reads; read: the
///             column read they come from (null for an access given
///             element by element); banks: all 32, each with its distinct
///             words (byte address / 4) and the lanes reading each
///
/// Access analysis (hw/Analysis.h):
///   Access    (hw analyse, lk.access, wasm access)
///             {"distributed":"S[(8,16):(16@tid,1)]",
///              "memory":"S[(8,16):(16,1)]","dtype_bits":32,
///              "arch":"sm_90","vector_bytes":16,"access_bytes":16,
///              "instructions":4,"shared_memory":<Shared>,
///              "global_memory":<Global>,"replication":<Replication>}
///             (row i on thread 16 i: warp 0 is lanes 0 and 16)
///   Shared    {"wavefronts":[2,2,2,2],"total":8,"minimum":8,
///              "conflict_free":true,"explanation":"4 instructions ..."}
///             (wavefronts per instruction; conflict_free: total ==
///             minimum; lk.shared_access gives this record)
///   Global    {"sectors":8,"lines":4,"minimum_sectors":4,
///              "requested_bytes":128,"efficiency":0.5,
///              "coalesced":false,"explanation":"instruction 0: ..."}
///             (efficiency = requested_bytes / (32 x sectors); coalesced:
///             sectors == minimum_sectors; lk.global_access gives this
///             record)
///   Replication {"replicated":[{"element":0,"holders":[{"lane":0,
///              "register":0},{"lane":8,"register":0}]},...],
///              "explanation":"element 0 is held by lane 0 r0, ..."}
///             (the elements more than one (lane, register) of warp 0
///             holds; [] and "no element is held twice in the warp"
///             when none is)
///   The keys are shared_memory and global_memory, not shared and global:
///   `global` is a Python keyword, and Python shows them as attributes.
///
/// Hardware atoms (hw/Atom.h):
///   Atom      (hw atoms, one per atom)
///             {"name":"mma.m16n8k16.f16.C","arch":"sm_80",
///              "instruction":"mma.m16n8k16","operand":"C","shape":[16,8],
///              "threads":32,"values":4,"unverified":false}
///             shape: the logical extents (Atom::logicalShape)
///
/// Presets (tile/TilePresets.h):
///   Preset    (tile presets, the demo's presets() with "group" added)
///             {"name":"mma_m8n8_fragment","layout":"S[...]","shape":[8,8],
///              "summary":"..."}
///
/// Linear layouts (linear/LinearLayout.h, linear/Padded.h):
///   Linear    (linear show/bases/compose/..., the conformance runner's
///             linear_standard without "text")
///             {"text":"{register: [], lane: [[1]], warp: []} -> {dim0: 2}",
///              "bases":{"register":[],"lane":[[1]],"warp":[]},
///              "out_dims":[["dim0",2]]}
///             bases[in-dim][k]: the image of bit k of that input, one value
///             per out-dim; out_dims: [name, size] in out-dim order
///   Waste     (linear pad)
///             {"elements":64,"valid_elements":48,"padded_elements":16,
///              "fraction":0.25,"slots":64,"masked_slots":16,
///              "masked":{"lane":[[24,31]]}}
///             masked[in-dim]: the fully masked values as [first, last]
///             runs of consecutive values (a mask can have 2^24 values)
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_DESCRIBE_H
#define LAYOUTKIT_API_DESCRIBE_H

#include "layoutkit/api/Query.h"
#include "layoutkit/api/Record.h"
#include "layoutkit/core/Diagnostic.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Attribute.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Padded.h"
#include "layoutkit/tile/TilePresets.h"

namespace lk::api {

Value describe(const IntTuple &t);
Record describe(const cute::Layout &l);
Record describe(const cute::ComposedLayout &c);
/// The record of a CuTe layout as a user writes it: the Layout record when
/// it has no swizzle and no offset, else the Swizzled one (what `show` and
/// `parse attribute` give for a layout).
Record describeAsWritten(const cute::ComposedLayout &c);
Record describe(const cute::LayoutAttribute &a);
Record describe(const Diagnostic &d);

/// The axis record of a coordinate: {axis name: value} in the given order,
/// e.g. {"laneid":4,"m":1}; values[k] belongs to axes[k] (equal sizes).
Record axisRecord(std::span<const tile::Axis> axes,
                  std::span<const int64_t> values);
Record axisRecord(std::span<const tile::AxisValue> values);

Record describe(const Evaluation &e);
Record describe(const EvalStep &s, const tile::SwizzleLayout &swizzle);
Record describe(const OwnerList &o);
Record describe(const Holding &h);
Record describe(const BankMap &b);
Record describe(const ConflictReport &c);
Record describe(const AccessAnalysis &a);
Record describe(const hw::SharedAccessReport &s);
Record describe(const hw::GlobalAccessReport &g);
Record describe(const hw::ReplicationReport &r);

/// The Atom record of the file comment.
Record describe(const hw::Atom &a);

/// The Preset record of the file comment.
Record describe(const tile::Preset &p);

/// The Linear and Waste records of the file comment.
Record describe(const linear::LinearLayout &l);
Record describe(const linear::Waste &w);

} // namespace lk::api

#endif // LAYOUTKIT_API_DESCRIBE_H
