//===- BindHwPlan.cpp - Atoms, descriptors, analyses, plans ---------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The hardware atom catalog, shared-memory and TMA descriptors, the access
// analyses (bank conflicts, coalescing, vectorization, duplicates) and
// conversion plans (api/Plan.h) with their CUDA text.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "layoutkit/api/Describe.h"
#include "layoutkit/api/DescribePlan.h"
#include "layoutkit/api/Descriptor.h"
#include "layoutkit/api/Plan.h"
#include "layoutkit/hw/Analysis.h"
#include "layoutkit/hw/Atom.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/hw/SmemDescriptor.h"
#include "layoutkit/hw/SwizzleMode.h"
#include "layoutkit/linear/Analysis.h"
#include "layoutkit/plan/EmitCuda.h"
#include "layoutkit/tile/Bank.h"

#include <algorithm>
#include <cstdio>
#include <list>

namespace lkpy {

using namespace lk;
using lk::linear::LinearLayout;
using lk::tile::SwizzledTileLayout;

namespace {

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

hw::Arch archOf(const std::string &name) { return unwrap(hw::parseArch(name)); }

hw::SwizzleMode hwSwizzleOf(const std::string &name) {
  return unwrap(api::parseHwSwizzle(name));
}
hw::SmemDescriptorKind smemKindOf(const std::string &k) {
  return unwrap(api::parseDescriptorKind(k));
}
hw::Major majorOf(const std::string &m) { return unwrap(api::parseMajor(m)); }

tile::MemoryLayout memoryOf(const SwizzledTileLayout &c) {
  return unwrap(tile::MemoryLayout::of(c));
}

//===----------------------------------------------------------------------===//
// Atoms and descriptors
//===----------------------------------------------------------------------===//

void bindAtoms(py::module_ &m) {
  py::class_<hw::Atom>(
      m, "Atom",
      R"doc(One hardware instruction's thread/value layout (the atom catalog, docs/hardware.md).

eval(t, v) is the logical coordinate thread t's value v holds: tv(t, v)
split over the logical shape; tv is the CuTe TV layout (thread, value) ->
index.

Example:
    >>> find_atom("mma.m16n8k16.f16.A").eval(1, 2)
    [8, 2]
)doc")
      .def_readonly("name", &hw::Atom::name)
      .def_property_readonly("arch", &hw::Atom::firstArchName)
      .def_readonly("instruction", &hw::Atom::instruction)
      .def_readonly("operand", &hw::Atom::operand)
      .def_readonly("threads", &hw::Atom::threads)
      .def_readonly("values", &hw::Atom::values)
      .def_readonly("unverified", &hw::Atom::unverified)
      .def_readonly("facts", &hw::Atom::facts)
      .def_readonly("note", &hw::Atom::note)
      .def_readonly("coord_names", &hw::Atom::coordNames)
      .def_readonly("tv", &hw::Atom::tv,
                    "The CuTe TV layout (thread, value) -> index")
      .def_property_readonly("shape", &hw::Atom::logicalShape,
                             "The logical shape, e.g. [16, 16]")
      .def("eval", bound(&hw::Atom::eval), py::arg("thread"), py::arg("value"))
      .def("tile_layout",
           [](const hw::Atom &a) {
             return SwizzledTileLayout(tile::SwizzleLayout(),
                                       unwrap(a.tileLayout()));
           })
      .def("linear_layout", bound(&hw::Atom::linearLayout))
      .def(
          "grid",
          [](const hw::Atom &a) {
            return tvGridTuple(unwrap(api::atomGrid(a)));
          },
          "(rows, cols, cells) of the logical tile (api::atomGrid): rows "
          "flatten every coordinate "
          "but the last, cells[r * cols + c] the [(thread, value), ...] there")
      .def("__repr__",
           [](const hw::Atom &a) { return "<Atom " + a.name + ">"; });

  m.def(
      "atoms",
      [](std::optional<std::string> arch, std::string instruction,
         std::string operand) {
        hw::AtomFilter f{arch ? std::optional(archOf(*arch)) : std::nullopt,
                         instruction, operand};
        py::list r;
        for (const hw::Atom *a : unwrap(hw::listAtoms(f)))
          r.append(py::cast(a, py::return_value_policy::reference));
        return r;
      },
      py::arg("arch") = py::none(), py::arg("instruction") = "",
      py::arg("operand") = "",
      "The atom catalog: those that run on arch ('sm_80', ...), whose name "
      "is instruction or starts with it and a '.' ('mma', "
      "'mma.m16n8k16.f16'), of operand (A, B, C or frag)");
  m.def(
      "find_atom",
      [](const std::string &name) { return unwrap(hw::findAtom(name)); },
      py::arg("name"), py::return_value_policy::reference,
      "The atom named `name`");
}

void bindDescriptors(py::module_ &m) {
  m.def(
      "decode_smem_descriptor",
      [](py::object word, const std::string &kind) {
        uint64_t w = py::isinstance<py::str>(word)
                         ? unwrap(api::parseWord(word.cast<std::string>()))
                         : toUint64(word, "word");
        return toDict(api::describe(
            unwrap(hw::decodeSmemDescriptor(smemKindOf(kind), w))));
      },
      py::arg("word"), py::arg("kind") = "wgmma",
      "The fields of a wgmma/umma shared-memory descriptor word (int or '0x..' "
      "text); addresses in bytes");
  m.def(
      "encode_smem_descriptor",
      [](Int64 start, Int64 lbo, Int64 sbo, const std::string &swizzle,
         Int64 base, bool lboAbsolute, const std::string &kind) {
        hw::SmemDescriptor d{start,      lbo, sbo, base, hwSwizzleOf(swizzle),
                             lboAbsolute};
        return unwrap(hw::encodeSmemDescriptor(smemKindOf(kind), d));
      },
      py::arg("start_address"), py::arg("leading_byte_offset"),
      py::arg("stride_byte_offset"), py::arg("swizzle") = "none",
      py::arg("base_offset") = 0, py::arg("lbo_absolute").noconvert() = false,
      py::arg("kind") = "wgmma",
      "The 64-bit descriptor word (addresses >> 4 in their fields)");
  m.def(
      "tile_tma",
      [](const std::string &elem, Int64 bits, const std::string &major,
         Int64 mn, Int64 k, const std::string &swizzle) {
        return toDict(api::describe(unwrap(api::tileTma(
            elem, bits, majorOf(major), mn, k, hwSwizzleOf(swizzle)))));
      },
      py::arg("element_type"), py::arg("element_bits"), py::arg("major"),
      py::arg("mn"), py::arg("k"), py::arg("swizzle") = "none",
      "The TMA description that loads one (mn, k) tile");
  m.def(
      "swizzle_modes",
      [] {
        py::list r;
        for (const hw::SwizzleModeInfo &i : hw::swizzleModes())
          r.append(py::make_tuple(
              std::string(i.name), i.spanBytes,
              i.hasCute ? py::cast(cute::Swizzle{i.B, i.M, i.S}) : py::none()));
        return r;
      },
      "[(name, span bytes, byte Swizzle or None), ...]");
  m.def(
      "element_swizzle",
      [](const std::string &mode, Int64 bits) {
        return unwrap(hw::elementSwizzle(hwSwizzleOf(mode), bits));
      },
      py::arg("mode"), py::arg("element_bits"),
      "The CuTe swizzle of a mode over element offsets");
}

//===----------------------------------------------------------------------===//
// Analyses
//===----------------------------------------------------------------------===//

void bindAnalyses(py::module_ &m) {
  m.def(
      "bank_conflicts",
      [](const SwizzledTileLayout &memory, Int64 bits, py::object access) {
        return toDict(api::describe(unwrap(api::conflictReport(
            memoryOf(memory), bits, toIntRows(access, "access")))));
      },
      py::arg("memory"), py::arg("dtype_bits"), py::arg("access"),
      "Bank conflicts of one warp access, the conflicts record (read None): "
      "access[lane] = the "
      "element indices the lane reads; ways = the largest number of distinct "
      "4-byte words in one bank");
  // The distributed side: a layout of any model or text (toTile).
  auto analyse = [](py::handle dist, const SwizzledTileLayout &mem,
                    int64_t bits, std::optional<int64_t> bytes,
                    const std::string &arch) {
    return unwrap(api::analyseAccess(unwrap(api::unshapedTile(anyOf(dist), "")),
                                     memoryOf(mem), bits, bytes, archOf(arch)));
  };
  m.def(
      "access",
      [analyse](py::handle dist, const SwizzledTileLayout &mem, Int64 bits,
                std::optional<int64_t> bytes, const std::string &arch) {
        return Result{"access",
                      api::describe(analyse(dist, mem, bits, bytes, arch))};
      },
      py::arg("distributed"), py::arg("memory"), py::arg("element_bits"),
      py::arg("access_bytes") = py::none(), py::arg("arch") = "sm_90",
      "A warp's access analysed (the access record: vector_bytes, "
      "access_bytes, instructions, shared_memory, global_memory, "
      "replication); access_bytes defaults to the widest the registers allow");
  // One side of access()'s analysis, `side` a member of AccessAnalysis.
  auto part = [analyse](auto side) {
    return [analyse, side](py::handle dist, const SwizzledTileLayout &mem,
                           Int64 bits, Int64 bytes, const std::string &arch) {
      return toDict(
          api::describe(analyse(dist, mem, bits, int64_t(bytes), arch).*side));
    };
  };
  m.def("shared_access", part(&api::AccessAnalysis::shared),
        py::arg("distributed"), py::arg("memory"), py::arg("element_bits"),
        py::arg("access_bytes"), py::arg("arch") = "sm_90",
        "Shared-memory wavefronts per instruction of a warp's access "
        "(the shared_memory field of access())");
  m.def("global_access", part(&api::AccessAnalysis::global),
        py::arg("distributed"), py::arg("memory"), py::arg("element_bits"),
        py::arg("access_bytes"), py::arg("arch") = "sm_90",
        "Coalescing of a warp's global access (the global_memory field of "
        "access()): 32-byte "
        "sectors and 128-byte lines touched; "
        "efficiency = requested bytes / (32 * sectors)");
  m.def(
      "vector_bytes",
      [](const SwizzledTileLayout &dist, const SwizzledTileLayout &mem,
         Int64 bits) {
        return unwrap(hw::vectorBytes(dist.tile(), memoryOf(mem), bits));
      },
      py::arg("distributed"), py::arg("memory"), py::arg("element_bits"),
      "The widest access (bytes, at most 16) that every lane can make with "
      "contiguous registers");
  m.def(
      "vectorization",
      [](const LinearLayout &reg, const LinearLayout &mem, bool permute) {
        LinearLayout r2o = unwrap(linear::registerToOffset(reg, mem));
        linear::Vectorization v =
            unwrap(linear::largestVectorization(r2o, permute));
        return py::make_tuple(v.elements, v.perm);
      },
      py::arg("registers"), py::arg("memory"),
      py::arg("allow_permutation").noconvert() = true,
      "(elements, register permutation) of the largest vector: the register "
      "bits whose offsets are 1, 2, 4, ...");
  m.def(
      "duplicates",
      [](const LinearLayout &l) {
        linear::Duplicates d = linear::duplicates(l);
        py::dict r;
        for (int i = 0; i < l.numInDims(); ++i)
          r[py::str(std::string(linear::dimName(l.inDim(i).id)))] =
              d.freeMask(l, l.inDim(i).id);
        return r;
      },
      py::arg("layout"),
      "{in_dim: mask} of the input bits that only duplicate data (broadcast "
      "bits)");
  m.def(
      "replication",
      [](py::handle dist) {
        hw::ReplicationReport r = unwrap(
            hw::replication(unwrap(api::unshapedTile(anyOf(dist), "")).tile()));
        py::list l;
        for (const hw::Replica &x : r.replicated)
          l.append(py::make_tuple(x.element, x.holders));
        return py::make_tuple(l, r.explanation);
      },
      py::arg("distributed"),
      "([(element, [(lane, register), ...]), ...], explanation) of the "
      "elements held twice");
}

//===----------------------------------------------------------------------===//
// Plans
//===----------------------------------------------------------------------===//

/// A plan; its memory forms are computed on first use (api::memoryForms).
struct PyPlan {
  /// The plan, and for a padded tensor (plan(..., logical=...)) its
  /// padded plan.
  api::TensorPlanReport t;
  bool formsDone = false;
  /// The plan record (api/DescribePlan.h), made on first use: with the
  /// memory forms and, for a padded tensor, the masked simulation.
  std::optional<api::Record> described, quick;

  const api::MemoryForms &forms() {
    if (!formsDone && t.report.plan.smem)
      t.report.memory = api::memoryForms(t.report.plan.smem->memory);
    formsDone = true;
    return t.report.memory;
  }
  const api::Record &record() {
    if (described)
      return *described;
    described = unwrapWithoutGil([&] {
      forms();
      return api::describe(t); // the masked simulation for a padded plan
    });
    return *described;
  }
  /// Field `key` of the record; the fields other than shared_memory and
  /// padding need neither the memory forms nor the simulation, so reading
  /// them (strategy, cost, ...) computes neither.
  const api::Value &field(const std::string &key) {
    if (described || key == "shared_memory" || key == "padding")
      return *record().find(key);
    if (!quick)
      quick = api::describe(t.report);
    return *quick->find(key);
  }
};

/// One read-only attribute of class c per key of `keys` (a record of the
/// type) but those in `skip`, read as get(object, key).
template <class T, class Get>
void recordAttributes(py::class_<T> &c, const api::Record &keys, Get get,
                      std::initializer_list<std::string_view> skip = {}) {
  static std::list<std::string> names; // attribute names outlive the module
  for (size_t i = 0; i < keys.size(); ++i)
    if (std::find(skip.begin(), skip.end(), keys.key(i)) == skip.end()) {
      const std::string &key = names.emplace_back(keys.key(i));
      c.def_property_readonly(key.c_str(),
                              [key, get](T &x) { return get(x, key); });
    }
}

/// A plan's layout argument as a distributed layout over `shape`, checked
/// as the CLI checks it whatever its form (a LinearLayout's dims against
/// `shape` too).
LinearLayout distributedOf(py::object x, py::object shape) {
  api::ParseOptions o;
  o.shapeName = "shape=";
  o.shape = optionalTuple(shape, "shape");
  if (py::isinstance<py::str>(x))
    return unwrap(api::parseDistributed(x.cast<std::string>(), o));
  return unwrap(api::distributedLayout(anyOf(x), o));
}

/// The element type a layout argument's text names (a Triton tensor
/// type's); nullopt for layout objects and text that names none.
std::optional<cute::ElementType> namedElementType(py::object x) {
  if (!py::isinstance<py::str>(x))
    return std::nullopt;
  return unwrap(api::elementTypeOf(x.cast<std::string>()));
}

/// plan()'s dtype: a registry name, or None for the one src / dst name.
cute::ElementType conversionType(py::object dtype, py::object src,
                                 py::object dst) {
  std::optional<cute::ElementType> given;
  if (!dtype.is_none()) {
    if (!py::isinstance<py::str>(dtype))
      throw py::type_error("dtype: expected an element type name such as "
                           "'f16', or None");
    given = unwrap(api::elementTypeNamed(dtype.cast<std::string>()));
  }
  return unwrap(api::conversionElementType(given, namedElementType(src),
                                           namedElementType(dst), "dtype"));
}

/// The extents of plan(..., logical=): an int, a tuple of ints (nested
/// tuples are flattened) or their text; empty for None.
std::vector<int64_t> logicalExtents(py::object logical) {
  std::vector<int64_t> extents;
  if (logical.is_none())
    return extents;
  const IntTuple t = toIntTuple(logical, "logical");
  for (size_t k = 0; k < t.nodeCount(); ++k)
    if (t.nodes()[k].rank == IntTuple::kLeaf)
      extents.push_back(t.nodes()[k].value);
  if (extents.empty())
    unwrap(Expected<int>(Diagnostic::error("logical= names no extent")));
  return extents;
}

void bindPlan(py::module_ &m) {
  py::class_<PyPlan> cls(
      m, "Plan",
      R"doc(A conversion plan between two distributed layouts (docs/plan.md).

The attributes named after the plan record's keys (`layoutkit plan --json`,
to_dict()): strategy ('no-op', 'register permutation', 'warp shuffle' or
'shared memory'), dtype, element_bits, arch, src and dst (the aligned
layouts, LinearLayouts here), register_sources (register permutation,
else None), shuffle (warp shuffle: vector_elements and the rounds, else
None), shared_memory (the staging step, else None), cost (instructions,
shuffles, wavefronts, barriers, shared bytes and the estimated cycles:
0.5 per move, 1 per shuffle and wavefront, 20 per barrier) and padding
(with logical=, computed on first read: each side's waste, the buffer's
and the masked simulation; else None). cuda(): the CUDA device function.
)doc");
  recordAttributes(
      cls, api::describe(api::PlanReport{}),
      [](PyPlan &p, const std::string &k) { return toPython(p.field(k)); },
      {"src", "dst"});
  cls.def_property_readonly(
         "src", [](const PyPlan &p) { return p.t.report.plan.layouts.src; },
         "The aligned source layout")
      .def_property_readonly(
          "dst", [](const PyPlan &p) { return p.t.report.plan.layouts.dst; },
          "The aligned destination layout")
      .def(
          "to_dict", [](PyPlan &p) { return toDict(p.record()); },
          "The plan record as a dict (the keys of `layoutkit plan --json`)")
      .def_property_readonly(
          "store_instruction",
          [](const PyPlan &p) { return p.t.report.storeInstruction; })
      .def_property_readonly(
          "load_instruction",
          [](const PyPlan &p) { return p.t.report.loadInstruction; })
      .def_property_readonly(
          "shuffle_rounds",
          [](const PyPlan &p) { return p.t.report.plan.rounds.size(); })
      .def_property_readonly(
          "memory",
          [](const PyPlan &p) -> py::object {
            const auto &smem = p.t.report.plan.smem;
            return smem ? py::cast(smem->memory) : py::none();
          },
          "The shared-memory layout offset -> logical (None without shared "
          "memory)")
      .def_property_readonly(
          "memory_cute", [](PyPlan &p) { return orNone(p.forms().cute); },
          "The shared-memory layout as a cute Sw o L over (dim0, dim1, ...) "
          "(None when it has none), computed on first use")
      .def_property_readonly(
          "memory_tile", [](PyPlan &p) { return orNone(p.forms().tile); },
          "The shared-memory layout as a tile layout (None when it has none), "
          "computed on first use")
      .def("describe",
           [](const PyPlan &p) { return p.t.report.plan.describe(); })
      .def(
          "cuda",
          [](const PyPlan &p, const std::string &name, bool testKernel,
             bool hostMain) {
            plan::CudaEmitOptions o{name, testKernel, hostMain};
            return unwrap(p.t.padded ? plan::emitCuda(*p.t.padded, o)
                                     : plan::emitCuda(p.t.report.plan, o));
          },
          py::arg("function_name") = "lk_convert",
          py::arg("test_kernel").noconvert() = false,
          py::arg("host_main").noconvert() = false,
          "The CUDA text of the plan (masked for a padded tensor: padding is "
          "never read or written); host_main=True adds a main() that runs the "
          "self-checking test kernel, which it brings along")
      .def_property_readonly(
          "logical_shape",
          [](const PyPlan &p) -> py::object {
            return p.t.padded ? py::cast(p.t.padded->logicalShape) : py::none();
          },
          "The logical shape given as logical= (None without it)")
      .def("__repr__", [](const PyPlan &p) {
        char cycles[32];
        std::snprintf(cycles, sizeof cycles, "%.1f",
                      p.t.report.plan.cost.cycles);
        return "<Plan " +
               std::string(plan::strategyName(p.t.report.plan.strategy)) +
               ", " + cycles + " cycles>";
      });

  m.def(
      "plan",
      [](py::object src, py::object dst, py::object dtype, py::object shape,
         const std::string &arch, Int64 smemBudget, bool matrix,
         py::object logical) {
        LinearLayout s = distributedOf(src, shape),
                     d = distributedOf(dst, shape);
        std::vector<int64_t> extents = logicalExtents(logical);
        cute::ElementType t = conversionType(dtype, src, dst);
        plan::PlanOptions o;
        o.arch = archOf(arch);
        o.smemBudgetBytes = smemBudget;
        o.matrixInstructions = matrix;
        api::ReportOptions lazy; // Plan.memory_cute / memory_tile make them
        lazy.memoryForms = false;
        PyPlan p;
        p.t = unwrapWithoutGil([&] {
          return api::planTensorConversion(s, d, t, extents, o, lazy);
        });
        return p;
      },
      py::arg("src"), py::arg("dst"), py::arg("dtype") = py::none(),
      py::arg("shape") = py::none(), py::arg("arch") = "sm_90",
      py::arg("smem_budget") = 0, py::arg("matrix").noconvert() = true,
      py::arg("logical") = py::none(),
      R"doc(Plans the conversion src -> dst of a distributed tensor of `dtype`.

dtype: an element type name ('f16'); None takes the one src or dst names
(a Triton tensor type such as 'tensor<64x64xf32, #blocked>'); a dtype or
a second type that differs is refused.

src, dst: LinearLayouts (register/lane/warp/block -> dim0..), TileLayouts,
cute TV layouts or text in any grammar, over `shape` (the tensor's
extents; needed for tile and cute layouts). `logical`: the tensor's shape
when it is not all powers of two; src and dst then cover its padded
shape (`shape`, each extent rounded up), the plan uses no ldmatrix /
stmatrix, every access is predicated on its element (Plan.padding,
Plan.cuda()), and `matrix` is ignored. `smem_budget`: the bytes of shared
memory one CTA may use (0: all `arch` has, 232448 on sm_90; more is
refused); a larger tile repeats through a smaller buffer.

Example:
    >>> p = plan("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "((4,8),(2,2)):((32,1),(16,8))", "f16", shape=(16, 8))
    >>> p.strategy
    'no-op'
)doc");

  m.def(
      "reduce",
      [](py::object layout, Int64 axis, const std::string &dtype,
         py::object shape, bool eliminateDuplicates) {
        LinearLayout l = distributedOf(layout, shape);
        cute::ElementType t = unwrap(api::elementTypeNamed(dtype));
        api::ReductionReport r = unwrapWithoutGil(
            [&] { return api::reduce(l, axis, t, eliminateDuplicates); });
        return Result{"reduction", api::describe(r)};
      },
      py::arg("layout"), py::arg("axis"), py::arg("dtype") = "f32",
      py::arg("shape") = py::none(),
      py::arg("eliminate_duplicates").noconvert() = true,
      R"doc(Plans the reduction of a distributed layout along output dim `axis` and simulates it: the reduction record (`layoutkit paper reduce --json`) as a Result of kind "reduction", keys axis, element_bits, eliminate_duplicates, src, result, description, register/lane/warp_axis_bits, counts, correct, checked, first_mismatch.

layout: as plan() takes src (over `shape` where needed).
eliminate_duplicates=False stores from every lane, register and warp.

Example:
    >>> r = reduce("{register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), (4,0)]} -> {dim0: 8, dim1: 8}", axis=0)
    >>> r.correct, r.counts["shuffles"]
    (True, 6)
)doc");

  m.def(
      "gather",
      [](py::object src, py::object index, Int64 axis, const std::string &dtype,
         py::object shape) {
        LinearLayout s = distributedOf(src, shape),
                     i = distributedOf(index, shape);
        cute::ElementType t = unwrap(api::elementTypeNamed(dtype));
        plan::GatherPlan p =
            unwrapWithoutGil([&] { return api::gather(s, i, axis, t); });
        return Result{"gather", api::describe(p)};
      },
      py::arg("src"), py::arg("index"), py::arg("axis"), py::arg("dtype"),
      py::arg("shape") = py::none(),
      R"doc(Plans out = gather(src, index, axis): out[c] = src[c with c[axis] = index[c]]; the gather record (`layoutkit gather --json`) as a Result of kind "gather", keys strategy, axis, element_bits, src, index, rounds_per_register, description, cost.

src, index: distributed layouts as plan() takes them (index is also the
output's layout); dtype: 8, 16, 32 or 64-bit element type.

Example:
    >>> l = "{register: [(0,1)], lane: [(0,2),(0,4),(1,0),(2,0),(4,0)]} -> {dim0: 8, dim1: 8}"
    >>> gather(l, l, axis=1, dtype="f32").strategy
    'warp shuffle'
)doc");
}

} // namespace

void initHwPlan(py::module_ &m) {
  bindAtoms(m);
  bindDescriptors(m);
  bindAnalyses(m);
  bindPlan(m);
}

} // namespace lkpy
