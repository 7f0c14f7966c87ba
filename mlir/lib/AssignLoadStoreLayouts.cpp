//===- AssignLoadStoreLayouts.cpp - tileas-assign-load-store-layouts ------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Three layers (docs/mlir.md):
//  1. pipeline alias groups: tiled loads and stores, produce_one /
//     consume_one, views and convert_layout seeds joined along use-def
//     edges (union-find);
//  2. per-op constraints and candidates, through a dispatch table keyed by
//     the op's TypeID: loads and stores enumerate atoms (LayoutCost.h),
//     produce_one / consume_one allow the memory kinds of a pipeline slot,
//     convert_layout seeds the memory kind and family of its target,
//     views pass through; the group keeps the memory kinds and families all
//     its ops accept (a candidate of another family is pruned, not
//     penalised; of two conversions of one value to different families
//     the first in program order counts, with a warning, SiblingConflict);
//  3. the cheapest surviving candidate of each load/store is written back:
//     `tileas.atom`, `tileas.layout` (the memory-side layout) and the
//     result type's encoding.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/LayoutCost.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit/hw/Atom.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"

#include <cstdlib>
#include <functional>

namespace lk::tileas {
#define GEN_PASS_DEF_TILEASASSIGNLOADSTORELAYOUTS
#include "layoutkit-mlir/Passes.h.inc"
} // namespace lk::tileas

using namespace mlir;
using namespace lk::tileas;

namespace {

/// The group-level diagnostic, fixed byte for byte (docs/design.md §6.7;
/// leading space and trailing newline included).
constexpr const char *kNoCommonMemKind =
    " can not find common memKind among pipeline alias group\n";

/// Target of the pass, from its options.
struct Target {
  lk::hw::Arch arch = lk::hw::Arch::Sm90;
  bool tmemArch = false;
  int64_t numWarps = 4;
  CostWeights weights;
  /// LK_TILEAS_PREFER_TMA: a legal bulk-tensor (TMA) candidate wins over
  /// cheaper ones.
  bool preferTma = false;
  /// The row-major buffer layouts made in this run, by (rows, cols): one
  /// attribute for every load and store of a tile size.
  mutable llvm::DenseMap<std::pair<int64_t, int64_t>, LayoutAttr> rowMajor;
};

/// The environment switch that biases loads and stores toward TMA.
constexpr const char *kPreferTmaEnv = "LK_TILEAS_PREFER_TMA";

/// A TMA atom: the bulk tensor copy or reduction.
bool isTma(const Candidate &c) {
  return c.atom == "cp.async.bulk.tensor" ||
         c.atom == "cp.reduce.async.bulk.tensor";
}

/// What one op allows for its group (empty optional: no constraint).
struct OpConstraint {
  std::optional<SmallVector<MemKind>> kinds;
  std::optional<SmallVector<LayoutFamily>> families;
  /// Load/store candidates (only loads and stores have them).
  std::vector<Candidate> candidates;
  /// A convert_layout's target encoding.
  EncodingAttr seed;
};

using Collector =
    std::function<FailureOr<OpConstraint>(Operation *, const Target &)>;

/// The two sides of an access: the tile in registers or memory and the
/// buffer it is read from (tiled_load, gather: the result from the source)
/// or written to (tiled_store, scatter: the value into the dest), and the
/// indexed axis of a gather or scatter (-1 for a tiled access).
struct Sides {
  Value tile, buffer;
  bool isLoad = true;
  int64_t axis = -1;
};

bool isAccess(Operation *op) {
  return isa<TiledLoadOp, TiledStoreOp, TiledAtomicOp, GatherOp, ScatterOp>(op);
}

Sides sidesOf(Operation *op) {
  if (auto l = dyn_cast<TiledLoadOp>(op))
    return {l.getResult(), l.getSource(), true};
  if (auto st = dyn_cast<TiledStoreOp>(op))
    return {st.getValue(), st.getDest(), false};
  if (auto at = dyn_cast<TiledAtomicOp>(op))
    return {at.getValue(), at.getDest(), false};
  if (auto g = dyn_cast<GatherOp>(op))
    return {g.getResult(), g.getSource(), true,
            static_cast<int64_t>(g.getAxis())};
  auto sc = cast<ScatterOp>(op);
  return {sc.getValues(), sc.getDest(), false,
          static_cast<int64_t>(sc.getAxis())};
}

/// The access of a load, store, gather or scatter, or nullopt when the
/// tile is not a static 2-d tile of a scalar type, or a gather / scatter
/// works on a register tile (an exchange between registers, not a memory
/// access): no candidates then.
std::optional<AccessShape> accessOf(Operation *op, const Target &t) {
  Sides sides = sidesOf(op);
  Value tile = sides.tile, buffer = sides.buffer;
  bool isLoad = sides.isLoad;
  auto type = cast<RankedTensorType>(tile.getType());
  if (type.getRank() != 2 || !type.hasStaticShape() ||
      !type.getElementType().isIntOrFloat())
    return std::nullopt;
  if (sides.axis >= 0 && !isMemory(memKindOf(buffer.getType())))
    return std::nullopt;
  AccessShape a;
  a.isLoad = isLoad;
  a.indexedAxis = static_cast<int>(sides.axis);
  a.atomic = isa<TiledAtomicOp>(op);
  a.rows = type.getDimSize(0);
  a.cols = type.getDimSize(1);
  a.elementBits = *storageBits(type.getElementType()); // int or float
  a.bufferKind = memKindOf(buffer.getType());
  if (EncodingAttr enc = encodingOf(buffer.getType()); enc && enc.getLayout())
    a.bufferLayout = enc.getLayout().getValue();
  if (auto align = op->getAttrOfType<IntegerAttr>("tileas.alignment"))
    a.bufferAlignment = align.getInt();
  a.arch = t.arch;
  a.tmemArch = t.tmemArch;
  a.numWarps = t.numWarps;
  return a;
}

/// Keeps the elements of `acc` that `next` also has.
template <class T>
void intersect(std::optional<SmallVector<T>> &acc,
               const std::optional<SmallVector<T>> &next) {
  if (!next)
    return;
  if (!acc) {
    acc = next;
    return;
  }
  llvm::erase_if(*acc, [&](T v) { return !llvm::is_contained(*next, v); });
}

bool isGroupOp(Operation *op);

/// Arithmetic: an elementwise op or any op of `arith` / `math`. It computes
/// on values in registers.
bool computesInRegisters(Operation *op) {
  StringRef ns = op->getName().getDialectNamespace();
  return op->hasTrait<OpTrait::Elementwise>() || ns == "arith" || ns == "math";
}

/// The memory kinds the user of `use` accepts for that operand, when it is
/// not a group op (group ops meet in the group): arithmetic takes
/// registers; wgmma takes a in registers or smem, b in smem, acc in
/// registers; tcgen05_mma a in smem or tmem, b in smem, acc in tmem.
/// nullopt: no constraint (control flow, copies, calls, ...).
std::optional<SmallVector<MemKind>> operandKinds(OpOperand &use) {
  Operation *user = use.getOwner();
  unsigned i = use.getOperandNumber();
  using K = SmallVector<MemKind>;
  if (isGroupOp(user))
    return std::nullopt;
  if (isa<WgmmaOp>(user))
    return i == 0   ? K{MemKind::Register, MemKind::Smem}
           : i == 1 ? K{MemKind::Smem}
                    : K{MemKind::Register};
  if (isa<Tcgen05MmaOp>(user))
    return i == 0   ? K{MemKind::Smem, MemKind::Tmem}
           : i == 1 ? K{MemKind::Smem}
                    : K{MemKind::Tmem};
  if (computesInRegisters(user))
    return K{MemKind::Register};
  return std::nullopt;
}

/// Layer 2's memory-space filter: where the tile of a load or store may
/// live, from its context outside the group. A load's result: what every
/// non-group user accepts. A stored value: the memory kind of its encoding,
/// or registers when arithmetic computed it. nullopt: no constraint.
std::optional<SmallVector<MemKind>> contextKinds(Operation *op) {
  std::optional<SmallVector<MemKind>> kinds;
  Sides sides = sidesOf(op);
  if (sides.isLoad) {
    for (OpOperand &use : sides.tile.getUses())
      intersect(kinds, operandKinds(use));
    return kinds;
  }
  Value value = sides.tile;
  if (EncodingAttr enc = encodingOf(value.getType()))
    return SmallVector<MemKind>{enc.getMemKind()};
  Operation *def = value.getDefiningOp();
  if (def && !isGroupOp(def) && computesInRegisters(def))
    return SmallVector<MemKind>{MemKind::Register};
  return std::nullopt;
}

FailureOr<OpConstraint> collectLoadStore(Operation *op, const Target &t) {
  OpConstraint c;
  std::optional<AccessShape> a = accessOf(op, t);
  if (!a)
    return c;
  lk::Expected<std::vector<Candidate>> cands =
      a->atomic             ? atomicCandidatesFor(*a)
      : a->indexedAxis >= 0 ? indexedCandidatesFor(*a)
                            : candidatesFor(*a);
  if (!cands)
    return op->emitOpError() << cands.error().message;
  c.candidates = std::move(*cands);
  if (c.candidates.empty())
    return op->emitOpError()
           << "has no structurally legal candidate (memory space, shape or "
              "alignment) for a "
           << a->rows << "x" << a->cols << " tile of " << a->elementBits
           << "-bit elements in " << stringifyMemKind(a->bufferKind);
  SmallVector<MemKind> kinds;
  for (const Candidate &cand : c.candidates)
    if (!llvm::is_contained(kinds, cand.memKind))
      kinds.push_back(cand.memKind);
  c.kinds = kinds;
  std::optional<SmallVector<MemKind>> context = contextKinds(op);
  intersect(c.kinds, context);
  if (c.kinds->empty()) {
    InFlightDiagnostic d = op->emitOpError()
                           << "has no candidate in a memory kind its context "
                              "allows (the tile must live in";
    for (MemKind k : *context)
      d << " " << stringifyMemKind(k);
    if (context->empty())
      d << " no kind: its users disagree";
    d << "; the candidates put it in";
    for (MemKind k : kinds)
      d << " " << stringifyMemKind(k);
    return d << ")";
  }
  // The group's kinds are within these: applyBest prunes (and `explain`
  // lists as pruned) the candidates in another kind.
  return c;
}

/// produce_one / consume_one: a pipeline slot is smem, or tmem where it
/// exists.
FailureOr<OpConstraint> collectPipelineSlot(Operation *, const Target &t) {
  OpConstraint c;
  c.kinds = SmallVector<MemKind>{MemKind::Smem};
  if (t.tmemArch)
    c.kinds->push_back(MemKind::Tmem);
  return c;
}

/// convert_layout: its target encoding, when it has one, seeds the group.
FailureOr<OpConstraint> collectConvertSeed(Operation *op, const Target &) {
  OpConstraint c;
  if (EncodingAttr enc = encodingOf(op->getResult(0).getType())) {
    c.kinds = SmallVector<MemKind>{enc.getMemKind()};
    c.families = SmallVector<LayoutFamily>{enc.getFamily()};
    c.seed = enc;
  }
  return c;
}

FailureOr<OpConstraint> collectNothing(Operation *, const Target &) {
  return OpConstraint{};
}

/// Layer 2's op-kind dispatch table.
const llvm::DenseMap<TypeID, Collector> &collectors() {
  static const llvm::DenseMap<TypeID, Collector> table = {
      {TypeID::get<TiledLoadOp>(), collectLoadStore},
      {TypeID::get<TiledStoreOp>(), collectLoadStore},
      {TypeID::get<TiledAtomicOp>(), collectLoadStore},
      {TypeID::get<GatherOp>(), collectLoadStore},
      {TypeID::get<ScatterOp>(), collectLoadStore},
      {TypeID::get<ProduceOneOp>(), collectPipelineSlot},
      {TypeID::get<ConsumeOneOp>(), collectPipelineSlot},
      {TypeID::get<ConvertLayoutOp>(), collectConvertSeed},
      {TypeID::get<ViewOp>(), collectNothing},
  };
  return table;
}

bool isGroupOp(Operation *op) {
  return collectors().count(op->getName().getTypeID()) != 0;
}

/// A convert_layout between memory kinds moves the value (like a copy): it
/// starts a group of its own instead of joining its source's (the shared
/// memory handoff of tileas-resolve-agent-boundary ends in one).
bool movesMemory(Operation *op) {
  auto cvt = dyn_cast<ConvertLayoutOp>(op);
  return cvt &&
         memKindOf(cvt.getSource().getType()) != memKindOf(cvt.getType());
}

/// Whether `user`'s operand `v`, made by the group op `def`, joins their
/// groups. A gather's source and a scatter's dest are buffers the access
/// reads or writes at data-dependent places, and a scatter's result is its
/// dest: the tile side (indices, values, result) is what the access
/// places, so the buffer side joins nothing.
bool joins(Operation *def, Operation *user, Value v) {
  if (isa<ScatterOp>(def))
    return false;
  if (auto g = dyn_cast<GatherOp>(user); g && v == g.getSource())
    return false;
  auto sc = dyn_cast<ScatterOp>(user);
  return !(sc && v == sc.getDest());
}

/// Layer 1: ops of the function joined along use-def edges between group
/// ops, in first-seen order.
SmallVector<SmallVector<Operation *>> collectPipelineGroups(Operation *fn) {
  // Union-find over the group ops, numbered as first met (by the walk, or
  // as a joined definition): one map from op to number, the rest in
  // vectors (the parents, and the walk's ops with their numbers).
  llvm::DenseMap<Operation *, unsigned> number;
  SmallVector<unsigned> parent;
  SmallVector<std::pair<Operation *, unsigned>> order;
  auto numberOf = [&](Operation *op) {
    auto [it, fresh] = number.try_emplace(op, unsigned(parent.size()));
    if (fresh)
      parent.push_back(it->second);
    return it->second;
  };
  auto root = [&](unsigned x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  };
  fn->walk([&](Operation *op) {
    if (!isGroupOp(op))
      return;
    unsigned self = numberOf(op);
    order.push_back({op, self});
    if (movesMemory(op))
      return;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && isGroupOp(def) && joins(def, op, operand)) {
        unsigned a = root(numberOf(def)), b = root(self);
        if (a != b)
          parent[b] = a;
      }
  });
  // The groups in the order of their first op in the walk, each in walk
  // order.
  SmallVector<int> groupOf(parent.size(), -1);
  SmallVector<SmallVector<Operation *>> out;
  for (auto [op, n] : order) {
    int &g = groupOf[root(n)];
    if (g < 0) {
      g = int(out.size());
      out.emplace_back();
    }
    out[g].push_back(op);
  }
  return out;
}

std::string describe(const Candidate &c, const CostWeights &w) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << c.atom << " (" << stringifyMemKind(c.memKind) << ", "
     << stringifyLayoutFamily(c.family);
  for (LayoutFamily f : c.alsoFits)
    os << "|" << stringifyLayoutFamily(f);
  os << "): score " << llvm::format("%g", score(c.terms, w)) << " = smem "
     << c.terms.smemWavefronts << ", tmem " << c.terms.tmemInstructions
     << ", registers " << c.terms.registers;
  return s;
}

/// The encoding a load's result gets: the group's seed when it places the
/// value the same way (its conversion then is an identity, removed by
/// tileas-remove-layout-conversions), else the winner's memory kind and
/// family with the memory layout (memory values) or the catalog atom
/// (register values). The buffer's memory layout goes onto the tile only
/// when it places exactly the tile's elements (the tile is the whole
/// buffer); a tile of a larger buffer gets no layout, as a memory layout
/// must place its tensor's elements (EncodingAttr::verifyEncoding).
/// `tile` has a static shape (accessOf gave the op candidates).
EncodingAttr resultEncoding(MLIRContext *ctx, const Candidate &win,
                            LayoutAttr layout, EncodingAttr seed,
                            RankedTensorType tile) {
  if (seed && seed.getMemKind() == win.memKind && win.fits(seed.getFamily()))
    return seed;
  bool memory = isMemory(win.memKind);
  bool placesTile =
      layout && layout.getValue().layout.size() == tile.getNumElements();
  StringRef atom = lk::hw::findAtom(win.atom) ? StringRef(win.atom) : "";
  return EncodingAttr::get(ctx, win.memKind, win.family,
                           memory && placesTile ? layout : LayoutAttr(),
                           memory ? "" : atom, std::nullopt);
}

/// The layout of the buffer a load reads or a store writes: its encoding's,
/// else row-major.
LayoutAttr bufferLayoutOf(Operation *op, const Target &t) {
  Value buffer = sidesOf(op).buffer;
  if (EncodingAttr enc = encodingOf(buffer.getType()); enc && enc.getLayout())
    return enc.getLayout();
  // The candidates were computed, so the tile's size fits: make succeeds.
  std::optional<AccessShape> a = accessOf(op, t);
  LayoutAttr &known = t.rowMajor[{a->rows, a->cols}];
  if (known)
    return known;
  lk::Expected<lk::cute::Layout> l =
      lk::cute::Layout::make(lk::IntTuple::tuple({a->rows, a->cols}),
                             lk::IntTuple::tuple({a->cols, 1}));
  known = LayoutAttr::get(op->getContext(),
                          *lk::cute::LayoutAttribute::make(std::move(*l)));
  return known;
}

/// A remark on `op` with one note per candidate: its terms and score,
/// "pruned: " before those the group excluded, " <- chosen" after the
/// winner.
void explainCandidates(Operation *op, ArrayRef<Candidate> all,
                       ArrayRef<Candidate> legal, std::optional<size_t> best,
                       const CostWeights &w, bool biased) {
  InFlightDiagnostic d = op->emitRemark("layout candidates");
  for (const Candidate &cand : all) {
    bool kept = llvm::any_of(legal, [&](const Candidate &l) {
      return l.atom == cand.atom && l.memKind == cand.memKind;
    });
    bool chosen = best && legal[*best].atom == cand.atom;
    d.attachNote() << (kept ? "" : "pruned: ") << describe(cand, w)
                   << (chosen ? " <- chosen" : "")
                   << (chosen && biased ? " (TMA preferred)" : "");
  }
}

/// True when `op` and everything that uses its results, transitively, is
/// free of side effects and region-free, so that the chain computes values
/// nobody reads; appends the chain to `out`, users before their producers.
bool collectDeadChain(Operation *op, SmallVector<Operation *> &out) {
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
      op->hasTrait<OpTrait::IsTerminator>())
    return false;
  for (Operation *user : op->getUsers())
    if (!collectDeadChain(user, out))
      return false;
  if (!llvm::is_contained(out, op))
    out.push_back(op);
  return true;
}

/// Layer 3 for one load/store: the best candidate the group admits, written
/// back. Notes list every candidate when `explain` is set. Returns whether
/// `op` changed.
bool applyBest(Operation *op, const OpConstraint &c,
               const SmallVector<MemKind> &kinds,
               const std::optional<SmallVector<LayoutFamily>> &families,
               EncodingAttr seed, const Target &t, bool explain,
               llvm::DenseSet<Operation *> &erased) {
  // An op placed by an earlier run keeps its choice: the pass is a no-op on
  // its own output.
  if (op->hasAttr("tileas.atom"))
    return false;
  std::vector<Candidate> legal;
  for (const Candidate &cand : c.candidates)
    if (llvm::is_contained(kinds, cand.memKind) &&
        (!families ||
         llvm::any_of(*families, [&](LayoutFamily f) { return cand.fits(f); })))
      legal.push_back(cand);
  std::optional<size_t> best = pickByCost(legal, t.weights);
  // The TMA switch picks among the legal candidates only: what layer 2
  // pruned stays pruned, and the op verifies as without the switch.
  bool biased = false;
  if (t.preferTma) {
    std::vector<Candidate> tma;
    std::vector<size_t> where;
    for (size_t i = 0; i < legal.size(); ++i)
      if (isTma(legal[i]))
        tma.push_back(legal[i]), where.push_back(i);
    if (std::optional<size_t> b = pickByCost(tma, t.weights)) {
      biased = where[*b] != *best;
      best = where[*b];
    }
  }
  if (explain)
    explainCandidates(op, c.candidates, legal, best, t.weights, biased);
  if (!best)
    return false;
  const Candidate &win = legal[*best];
  MLIRContext *ctx = op->getContext();
  LayoutAttr buffer = bufferLayoutOf(op, t);
  Sides sides = sidesOf(op);
  EncodingAttr enc = resultEncoding(
      ctx, win, buffer, seed, cast<RankedTensorType>(sides.tile.getType()));
  // The memory side: the layout the value keeps in memory, else the
  // buffer's.
  bool resident = isMemory(enc.getMemKind()) && enc.getLayout();
  op->setAttr("tileas.atom", StringAttr::get(ctx, win.atom));
  op->setAttr("tileas.layout", resident ? enc.getLayout() : buffer);
  noteChanged(op);
  // The result type changes only where every live user is a group op, whose
  // verifiers accept any encoding of the same tile; dead users (whose
  // results are never used) are erased first, so that the decision is the
  // same before and after a dead-code cleanup.
  if (!sides.isLoad)
    return true;
  Value result = sides.tile;
  SmallVector<Operation *> dead;
  for (Operation *user : result.getUsers())
    if (!isGroupOp(user) && !collectDeadChain(user, dead))
      return true;
  for (Operation *d : dead)
    if (d->use_empty()) {
      erased.insert(d);
      eraseOp(d);
    }
  auto type = cast<RankedTensorType>(result.getType());
  result.setType(
      RankedTensorType::get(type.getShape(), type.getElementType(), enc));
  noteRetyped(result);
  return true;
}

/// Two convert_layout seeds of one group that convert the same value to
/// encodings of different layout families (a blocked and a linear register
/// encoding). Intersected, their families leave none: every candidate
/// would be pruned and the group's loads and stores would get no layout,
/// which nothing later changes (the cleanup merges a chain of conversions,
/// never two uses of one value). The group takes the family of the first
/// of the two in program order instead, the other conversion stays a real
/// conversion, and the pass warns at the value with a note at each. A
/// chain (x -> blocked -> linear) is no such pair: its families intersect
/// as usual, and in the pipeline the cleanup merges it and the next round
/// places the group.
struct SiblingConflict {
  ConvertLayoutOp first, second;

  void warn() {
    EncodingAttr a = encodingOf(first.getType()),
                 b = encodingOf(second.getType());
    InFlightDiagnostic d = emitWarning(first.getSource().getLoc())
                           << "value converted to both a "
                           << stringifyLayoutFamily(a.getFamily()) << " and a "
                           << stringifyLayoutFamily(b.getFamily()) << " "
                           << stringifyMemKind(a.getMemKind())
                           << " encoding: its group takes the family of the "
                              "first conversion ("
                           << stringifyLayoutFamily(a.getFamily())
                           << "), the other conversion stays";
    d.attachNote(first.getLoc()) << "conversion to " << a;
    d.attachNote(second.getLoc()) << "conversion to " << b;
  }
};

struct AssignLoadStoreLayouts
    : lk::tileas::impl::TileASAssignLoadStoreLayoutsBase<
          AssignLoadStoreLayouts> {
  using Base::Base;

  FailureOr<Target> target() {
    Target t;
    if (arch == "sm_80")
      t.arch = lk::hw::Arch::Sm80;
    else if (arch == "sm_90")
      t.arch = lk::hw::Arch::Sm90;
    else if (arch == "sm_100" || arch == "sm_103") {
      t.arch = lk::hw::Arch::Sm100;
      t.tmemArch = true;
    } else {
      getOperation()->emitError()
          << "unknown arch '" << arch
          << "' (expected sm_80, sm_90, sm_100, sm_103)";
      return failure();
    }
    if (numWarps < 1) {
      getOperation()->emitError("num-warps must be at least 1");
      return failure();
    }
    t.numWarps = numWarps;
    if (const char *env = std::getenv(kPreferTmaEnv)) {
      StringRef v(env);
      if (v == "1" || v == "true" || v == "on") {
        t.preferTma = true;
      } else if (!(v.empty() || v == "0" || v == "false" || v == "off")) {
        getOperation()->emitError()
            << kPreferTmaEnv << " must be 1, true, on, 0, false or off, got '"
            << v << "'";
        return failure();
      }
    }
    if (!weights.empty()) {
      if (weights.size() != 3) {
        getOperation()->emitError(
            "weights takes three numbers: smem, tmem, registers");
        return failure();
      }
      t.weights = CostWeights{weights[0], weights[1], weights[2]};
    }
    return t;
  }

  void runOnOperation() override {
    FailureOr<Target> t = target();
    if (failed(t))
      return signalPassFailure();
    bool changed = false;
    // A dead chain erased for one group can hold ops of a later group
    // (a conversion behind an elementwise op): those are skipped. The pass
    // creates no op, so an erased address is not reused meanwhile.
    erased.clear();
    for (SmallVector<Operation *> &group :
         collectPipelineGroups(getOperation())) {
      llvm::erase_if(group, [&](Operation *op) { return erased.contains(op); });
      if (failed(assignGroup(group, *t, changed)))
        return signalPassFailure();
    }
    // Unchanged: no verifier run, and the pipeline's fixed point sees it.
    // Changed inside the pipeline: the driver verifies the noted ops.
    if (!changed || logChange())
      markAllAnalysesPreserved();
  }

  llvm::DenseSet<Operation *> erased;

  /// Places the loads and stores of `group`; sets `changed` when one was.
  LogicalResult assignGroup(ArrayRef<Operation *> group, const Target &t,
                            bool &changed) {
    std::optional<SmallVector<MemKind>> kinds;
    std::optional<SmallVector<LayoutFamily>> families;
    SmallVector<std::pair<Operation *, OpConstraint>> loadStores;
    // The first seed of each converted value, and the first pair of seeds
    // of one value with different families (SiblingConflict): the later
    // one's family is not intersected.
    llvm::SmallDenseMap<Value, ConvertLayoutOp, 4> firstSeedOf;
    std::optional<SiblingConflict> conflict;
    auto joinsSibling = [&](ConvertLayoutOp cvt) {
      auto [it, fresh] = firstSeedOf.try_emplace(cvt.getSource(), cvt);
      if (fresh || encodingOf(it->second.getType()).getFamily() ==
                       encodingOf(cvt.getType()).getFamily())
        return false;
      if (!conflict)
        conflict = SiblingConflict{it->second, cvt};
      return true;
    };
    EncodingAttr seed;
    for (Operation *op : group) {
      FailureOr<OpConstraint> c =
          collectors().lookup(op->getName().getTypeID())(op, t);
      if (failed(c))
        return failure();
      intersect(kinds, c->kinds);
      if (!c->families || !joinsSibling(cast<ConvertLayoutOp>(op)))
        intersect(families, c->families);
      if (!seed)
        seed = c->seed;
      if (isAccess(op))
        loadStores.push_back({op, std::move(*c)});
    }
    if (loadStores.empty())
      return success();
    if (kinds && kinds->empty())
      return group.front()->emitError(kNoCommonMemKind);
    // Warned by the run that decides (a load or store still unplaced).
    if (conflict && llvm::any_of(loadStores, [](const auto &entry) {
          return !entry.first->hasAttr("tileas.atom");
        }))
      conflict->warn();
    SmallVector<MemKind> allowed =
        kinds ? *kinds
              : SmallVector<MemKind>{MemKind::Register, MemKind::Smem,
                                     MemKind::Tmem, MemKind::Global};
    for (auto &[op, c] : loadStores)
      changed |= applyBest(op, c, allowed, families, seed, t, explain, erased);
    return success();
  }
};

} // namespace
