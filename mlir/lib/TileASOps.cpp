//===- TileASOps.cpp - Verifiers and interfaces of the tileas ops ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// One verifier per op; each message names the rule it checks. The copy atom
// of `tileas.copy` comes from LayoutKit's hardware catalog (hw/Atom.h) or is
// one of the two non-fragment copies, the TMA bulk tensor copy
// "cp.async.bulk.tensor" and the plain per-thread "universal" copy.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Pragmas.h"
#include "layoutkit-mlir/TileAS.h"

#include "layoutkit/core/Checked.h"
#include "layoutkit/hw/Atom.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace lk::tileas;

#define GET_OP_CLASSES
#include "layoutkit-mlir/TileASOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

static RankedTensorType tileType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// `a` and `b` hold the same elements: equal shapes and element types.
static LogicalResult verifySameTile(Operation *op, Value a, Value b,
                                    StringRef aName, StringRef bName) {
  RankedTensorType ta = tileType(a), tb = tileType(b);
  if (ta.getElementType() != tb.getElementType())
    return op->emitOpError()
           << aName << " and " << bName << " must have the same element type";
  if (ta.getShape() != tb.getShape())
    return op->emitOpError()
           << aName << " and " << bName << " must have the same shape";
  return success();
}

/// A buffer: a memory kind, and a memory layout (when it has one) that
/// places exactly its elements. The layout rule is the encoding's
/// (EncodingAttr::verifyEncoding), which parsed and getChecked types have
/// passed already; it is applied again here for types a pass built with
/// RankedTensorType::get, which release builds of MLIR do not verify.
static LogicalResult verifyBuffer(Operation *op, Value v, StringRef name) {
  if (!isMemory(memKindOf(v.getType())))
    return op->emitOpError()
           << name << " must be a smem, tmem or global buffer";
  auto type = cast<RankedTensorType>(v.getType());
  return encodingOf(type).verifyEncoding(
      type.getShape(), type.getElementType(),
      [&] { return op->emitOpError() << name << ": "; });
}

/// tiled_load / tiled_store: without indices the tile is the whole buffer;
/// with indices (one per dimension) it is a tile of the buffer's rank that
/// fits in it.
static LogicalResult verifyTiledAccess(Operation *op, Value buffer, Value tile,
                                       ValueRange indices) {
  RankedTensorType tb = tileType(buffer), tt = tileType(tile);
  if (tb.getElementType() != tt.getElementType())
    return op->emitOpError("buffer and tile must have the same element type");
  if (indices.empty()) {
    if (tb.getShape() != tt.getShape())
      return op->emitOpError(
          "without indices, buffer and tile must have the same shape");
    return success();
  }
  if (static_cast<int64_t>(indices.size()) != tb.getRank())
    return op->emitOpError()
           << "expected " << tb.getRank()
           << " indices (one per buffer dimension), got " << indices.size();
  if (tt.getRank() != tb.getRank())
    return op->emitOpError("tile and buffer must have the same rank");
  for (int64_t d = 0; d < tb.getRank(); ++d)
    if (!tb.isDynamicDim(d) && !tt.isDynamicDim(d) &&
        tt.getDimSize(d) > tb.getDimSize(d))
      return op->emitOpError()
             << "tile dimension " << d << " (" << tt.getDimSize(d)
             << ") exceeds the buffer's (" << tb.getDimSize(d) << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

LogicalResult AllocTensorOp::verify() {
  MemKind kind = memKindOf(getType());
  if (kind != MemKind::Smem && kind != MemKind::Tmem)
    return emitOpError("result must be a smem or tmem buffer "
                       "(#tileas.encoding<smem|tmem, ...>)");
  if (!getType().hasStaticShape())
    return emitOpError("buffer shape must be static");
  return verifyBuffer(*this, getResult(), "result");
}

LogicalResult ViewOp::verify() {
  if (static_cast<bool>(getOffset()) == static_cast<bool>(getDynamicOffset()))
    return emitOpError("needs exactly one offset: the `offset` attribute or "
                       "an index operand");
  // I64Attr hands back the bits as uint64_t; offsets are signed.
  if (getOffset() && static_cast<int64_t>(*getOffset()) < 0)
    return emitOpError() << "offset must be non-negative, got "
                         << static_cast<int64_t>(*getOffset());
  if (failed(verifyBuffer(*this, getSource(), "source")))
    return failure();
  if (memKindOf(getSource().getType()) != memKindOf(getType()))
    return emitOpError("a view stays in the memory kind of its source");
  if (getSource().getType().getElementType() != getType().getElementType())
    return emitOpError("source and result must have the same element type");
  return success();
}

OpFoldResult ViewOp::fold(FoldAdaptor) {
  if (!getOffset())
    return {};
  int64_t off = static_cast<int64_t>(*getOffset());
  if (off == 0 && getSource().getType() == getType())
    return getSource();
  auto inner = getSource().getDefiningOp<ViewOp>();
  if (!inner || !inner.getOffset())
    return {};
  int64_t sum = 0;
  if (lk::addOverflows(static_cast<int64_t>(*inner.getOffset()), off, sum))
    return {};
  getSourceMutable().assign(inner.getSource());
  setOffsetAttr(Builder(getContext()).getI64IntegerAttr(sum));
  return getResult();
}

namespace {
/// Where a copy atom reads and writes.
struct CopyDomains {
  MemKind from;
  MemKind to;
};
} // namespace

/// The memory kinds a copy atom moves between, or an error.
static FailureOr<CopyDomains> copyDomains(Operation *op, StringRef name) {
  if (name == "cp.async.bulk.tensor")
    return CopyDomains{MemKind::Global, MemKind::Smem};
  lk::Expected<const lk::hw::Atom *> atom =
      lk::hw::findAtom(std::string_view(name.data(), name.size()));
  if (!atom || (*atom)->operand != "frag") {
    InFlightDiagnostic d = op->emitOpError()
                           << "unknown copy atom '" << name << "'";
    d.attachNote() << "copy atoms: the data-movement atoms of the hardware "
                      "catalog (ldmatrix.*, stmatrix.*, tcgen05.ld.*, "
                      "tcgen05.st.*), cp.async.bulk.tensor, universal";
    return failure();
  }
  StringRef instr((*atom)->instruction);
  if (instr.starts_with("ldmatrix"))
    return CopyDomains{MemKind::Smem, MemKind::Register};
  if (instr.starts_with("stmatrix"))
    return CopyDomains{MemKind::Register, MemKind::Smem};
  if (instr == "tcgen05.ld")
    return CopyDomains{MemKind::Tmem, MemKind::Register};
  return CopyDomains{MemKind::Register, MemKind::Tmem};
}

LogicalResult CopyOp::verify() {
  if (failed(verifySameTile(*this, getSource(), getDestination(), "source",
                            "destination")))
    return failure();
  if (getType() != getDestination().getType())
    return emitOpError("result must have the destination's type");
  if (getAtom() == "universal")
    return success();
  FailureOr<CopyDomains> domains = copyDomains(*this, getAtom());
  if (failed(domains))
    return failure();
  MemKind from = memKindOf(getSource().getType());
  MemKind to = memKindOf(getDestination().getType());
  bool bulk = getAtom() == "cp.async.bulk.tensor";
  // The bulk tensor copy runs both ways between global and shared memory.
  bool ok = (from == domains->from && to == domains->to) ||
            (bulk && from == domains->to && to == domains->from);
  if (!ok)
    return emitOpError() << "copy atom '" << getAtom() << "' moves "
                         << stringifyMemKind(domains->from) << " to "
                         << stringifyMemKind(domains->to) << ", not "
                         << stringifyMemKind(from) << " to "
                         << stringifyMemKind(to);
  return success();
}

LogicalResult InsertSliceOp::verify() {
  RankedTensorType src = getSource().getType(), dst = getDest().getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source and dest must have the same element type");
  if (src.getRank() != dst.getRank())
    return emitOpError("source and dest must have the same rank");
  if (static_cast<int64_t>(getOffsets().size()) != dst.getRank())
    return emitOpError() << "expected " << dst.getRank() << " offsets, got "
                         << getOffsets().size();
  for (int64_t d = 0; d < dst.getRank(); ++d) {
    int64_t off = getOffsets()[d];
    if (off < 0)
      return emitOpError() << "offset " << d << " is negative";
    if (src.isDynamicDim(d) || dst.isDynamicDim(d))
      continue;
    // off + extent <= dest extent, checked: an offset near 2^63 must not
    // wrap past the comparison.
    int64_t end = 0;
    if (lk::addOverflows(off, src.getDimSize(d), end))
      return emitOpError() << "slice of dimension " << d << " at offset " << off
                           << " with extent " << src.getDimSize(d)
                           << " ends past 2^63-1 (dest extent "
                           << dst.getDimSize(d) << ")";
    if (end > dst.getDimSize(d))
      return emitOpError() << "slice [" << off << ", " << end
                           << ") of dimension " << d
                           << " exceeds the dest extent " << dst.getDimSize(d);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Loads, stores and layout changes
//===----------------------------------------------------------------------===//

LogicalResult TiledLoadOp::verify() {
  if (failed(verifyBuffer(*this, getSource(), "source")))
    return failure();
  return verifyTiledAccess(*this, getSource(), getResult(), getIndices());
}

LogicalResult TiledStoreOp::verify() {
  if (failed(verifyBuffer(*this, getDest(), "dest")))
    return failure();
  return verifyTiledAccess(*this, getDest(), getValue(), getIndices());
}

LogicalResult ConvertLayoutOp::verify() {
  return verifySameTile(*this, getSource(), getResult(), "source", "result");
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  auto inner = getSource().getDefiningOp<ConvertLayoutOp>();
  MemKind kind = memKindOf(getType());
  if (!inner || memKindOf(inner.getSource().getType()) != kind ||
      memKindOf(inner.getType()) != kind)
    return {};
  if (inner.getSource().getType() == getType())
    return inner.getSource();
  getSourceMutable().assign(inner.getSource());
  return getResult();
}

/// tiled_atomic: a combining kind and a tiled access of a buffer, as
/// tiled_store.
LogicalResult TiledAtomicOp::verify() {
  StringRef k = getKind();
  if (k != "add" && k != "min" && k != "max")
    return emitOpError() << "unknown atomic kind \"" << k
                         << "\" (expected add, min or max)";
  if (failed(verifyBuffer(*this, getDest(), "dest")))
    return failure();
  return verifyTiledAccess(*this, getDest(), getValue(), getIndices());
}

/// gather / scatter: `indices` are integers, `axis` a dimension, and every
/// other dimension of `indices` matches `data`.
static LogicalResult verifyIndexed(Operation *op, Value data, Value indices,
                                   int64_t axis) {
  RankedTensorType td = tileType(data), ti = tileType(indices);
  if (!ti.getElementType().isSignlessInteger())
    return op->emitOpError("indices must be signless integers");
  if (td.getRank() != ti.getRank())
    return op->emitOpError("indices must have the rank of the data");
  if (axis < 0 || axis >= td.getRank())
    return op->emitOpError() << "axis " << axis << " is not a dimension of a "
                             << "rank-" << td.getRank() << " tile";
  for (int64_t d = 0; d < td.getRank(); ++d)
    if (d != axis && td.getDimSize(d) != ti.getDimSize(d))
      return op->emitOpError() << "indices dimension " << d
                               << " must match the data (only the axis may "
                                  "differ)";
  return success();
}

LogicalResult GatherOp::verify() {
  if (failed(verifyIndexed(*this, getSource(), getIndices(), getAxis())))
    return failure();
  if (getType().getShape() != getIndices().getType().getShape())
    return emitOpError("result must have the shape of the indices");
  if (getType().getElementType() != getSource().getType().getElementType())
    return emitOpError("result must have the element type of the source");
  return success();
}

LogicalResult ScatterOp::verify() {
  if (failed(verifyIndexed(*this, getDest(), getIndices(), getAxis())))
    return failure();
  if (getValues().getType().getShape() != getIndices().getType().getShape())
    return emitOpError("values must have the shape of the indices");
  if (getValues().getType().getElementType() !=
      getDest().getType().getElementType())
    return emitOpError("values must have the element type of the dest");
  if (getType() != getDest().getType())
    return emitOpError("result must have the dest's type");
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

/// a: M x K, b: K x N, acc and result: M x N of the same type.
static LogicalResult verifyMmaShapes(Operation *op, Value a, Value b, Value acc,
                                     Value result) {
  RankedTensorType ta = tileType(a), tb = tileType(b), tc = tileType(acc);
  if (ta.getRank() != 2 || tb.getRank() != 2 || tc.getRank() != 2)
    return op->emitOpError("operands must be 2-d tiles");
  if (!ta.hasStaticShape() || !tb.hasStaticShape() || !tc.hasStaticShape())
    return op->emitOpError("operands must have static shapes");
  int64_t m = ta.getDimSize(0), k = ta.getDimSize(1), n = tb.getDimSize(1);
  if (tb.getDimSize(0) != k)
    return op->emitOpError() << "a is " << m << "x" << k << " but b has "
                             << tb.getDimSize(0) << " rows";
  if (tc.getDimSize(0) != m || tc.getDimSize(1) != n)
    return op->emitOpError() << "acc must be " << m << "x" << n;
  if (result.getType() != acc.getType())
    return op->emitOpError("result must have the accumulator's type");
  if (n < 8 || n > 256 || n % 8 != 0)
    return op->emitOpError()
           << "N = " << n << " is not a multiple of 8 in [8, 256]";
  return success();
}

static LogicalResult expectKind(Operation *op, Value v, StringRef name,
                                std::initializer_list<MemKind> kinds) {
  MemKind k = memKindOf(v.getType());
  for (MemKind allowed : kinds)
    if (k == allowed)
      return success();
  InFlightDiagnostic d = op->emitOpError()
                         << name << " may not live in " << stringifyMemKind(k)
                         << " (allowed:";
  for (MemKind allowed : kinds)
    d << " " << stringifyMemKind(allowed);
  return d << ")";
}

LogicalResult WgmmaOp::verify() {
  if (failed(verifyMmaShapes(*this, getA(), getB(), getAcc(), getResult())))
    return failure();
  if (getA().getType().getDimSize(0) % 64 != 0)
    return emitOpError(
        "M must be a multiple of 64 (one warpgroup per 64 rows)");
  if (failed(
          expectKind(*this, getA(), "a", {MemKind::Register, MemKind::Smem})) ||
      failed(expectKind(*this, getB(), "b", {MemKind::Smem})) ||
      failed(expectKind(*this, getAcc(), "acc", {MemKind::Register})))
    return failure();
  return success();
}

LogicalResult Tcgen05MmaOp::verify() {
  if (failed(verifyMmaShapes(*this, getA(), getB(), getAcc(), getResult())))
    return failure();
  int64_t m = getA().getType().getDimSize(0);
  if (m != 64 && m != 128 && m != 256)
    return emitOpError() << "M = " << m << " is not 64, 128 or 256";
  if (failed(expectKind(*this, getA(), "a", {MemKind::Smem, MemKind::Tmem})) ||
      failed(expectKind(*this, getB(), "b", {MemKind::Smem})) ||
      failed(expectKind(*this, getAcc(), "acc", {MemKind::Tmem})))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Synchronisation and pipelines
//===----------------------------------------------------------------------===//

LogicalResult FenceOp::verify() {
  StringRef s = getScope();
  if (s != "cta" && s != "cluster" && s != "gpu" && s != "async_proxy")
    return emitOpError() << "unknown fence scope \"" << s
                         << "\" (expected cta, cluster, gpu or async_proxy)";
  return success();
}

LogicalResult AsyncWaitOp::verify() {
  if (static_cast<int64_t>(getPending()) < 0)
    return emitOpError() << "pending must be non-negative, got "
                         << static_cast<int64_t>(getPending());
  return success();
}

/// A pipeline slot is a smem or tmem buffer, or not placed yet (no
/// encoding: the layout pass picks its memory kind).
static LogicalResult verifySlot(Operation *op, Value slot) {
  if (encodingOf(slot.getType()) &&
      failed(expectKind(op, slot, "a pipeline slot",
                        {MemKind::Smem, MemKind::Tmem})))
    return failure();
  return success();
}

LogicalResult ProduceOneOp::verify() {
  if (static_cast<int64_t>(getDepth()) < 1)
    return emitOpError() << "pipeline depth must be at least 1, got "
                         << static_cast<int64_t>(getDepth());
  if (failed(verifySameTile(*this, getValue(), getSlot(), "value", "slot")))
    return failure();
  return verifySlot(*this, getSlot());
}

LogicalResult ConsumeOneOp::verify() {
  if (failed(verifySameTile(*this, getSlot(), getResult(), "slot", "result")))
    return failure();
  return verifySlot(*this, getSlot());
}

LogicalResult PipelineExecuteOp::verify() {
  Block &body = getBody().front();
  if (body.getArgumentTypes() != getInits().getTypes())
    return emitOpError("block arguments must have the types of the operands");
  return success();
}

void PipelineExecuteOp::getSuccessorRegions(
    RegionBranchPoint point, SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent())
    regions.push_back(RegionSuccessor(&getBody(), getBody().getArguments()));
  else
    regions.push_back(RegionSuccessor(getOperation(), getResults()));
}

OperandRange PipelineExecuteOp::getEntrySuccessorOperands(RegionSuccessor) {
  return getInits();
}

LogicalResult AgentSwitchOp::verify() {
  if (getAgents().empty())
    return emitOpError("needs at least one agent region");
  for (Region &agent : getAgents())
    if (agent.front().getNumArguments() != 0)
      return emitOpError("agent regions take no arguments");
  return success();
}

void AgentSwitchOp::getSuccessorRegions(
    RegionBranchPoint point, SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent()) {
    for (Region &agent : getAgents())
      regions.push_back(RegionSuccessor(&agent));
    return;
  }
  regions.push_back(
      RegionSuccessor(getOperation(), getOperation()->getResults()));
}

LogicalResult PipelineYieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (!parent || parent->getResultTypes() != getValues().getTypes())
    return emitOpError("must yield the types of its parent's results");
  return success();
}

PragmaPairs lk::tileas::matchPragmas(Block &block) {
  PragmaPairs pairs;
  llvm::StringMap<llvm::SmallVector<Operation *, 4>> open;
  // The first partnerless op: the first unclosed begin or stray end.
  size_t index = 0, firstIndex = SIZE_MAX;
  llvm::DenseMap<Operation *, size_t> beginIndex;
  for (Operation &op : block) {
    ++index;
    if (auto begin = dyn_cast<PragmaBeginOp>(op)) {
      open[begin.getKind()].push_back(&op);
      beginIndex[&op] = index;
    } else if (auto end = dyn_cast<PragmaEndOp>(op)) {
      llvm::SmallVector<Operation *, 4> &stack = open[end.getKind()];
      if (stack.empty()) {
        if (index < firstIndex)
          firstIndex = index, pairs.unmatched = &op;
        continue;
      }
      pairs.endOf[stack.pop_back_val()] = &op;
    }
  }
  for (auto &entry : open)
    for (Operation *begin : entry.second)
      if (beginIndex[begin] < firstIndex)
        firstIndex = beginIndex[begin], pairs.unmatched = begin;
  return pairs;
}

/// The pairing of a block is checked once, by its first pragma op (found
/// by walking back to the previous pragma op or the block start: every op
/// is walked over at most once per block), which reports the first op
/// without a partner at that op. Linear in the block.
static LogicalResult verifyPragmaBlock(Operation *op) {
  for (Operation *it = op->getPrevNode(); it; it = it->getPrevNode())
    if (isa<PragmaBeginOp, PragmaEndOp>(it))
      return success();
  Operation *bad = matchPragmas(*op->getBlock()).unmatched;
  if (!bad)
    return success();
  if (auto begin = dyn_cast<PragmaBeginOp>(bad))
    bad->emitOpError() << "pragma \"" << begin.getKind()
                       << "\" is not closed by a pragma_end in its block";
  else
    bad->emitOpError() << "pragma_end \"" << cast<PragmaEndOp>(bad).getKind()
                       << "\" has no pragma_begin before it in its block";
  return failure();
}

LogicalResult PragmaBeginOp::verify() { return verifyPragmaBlock(*this); }

LogicalResult PragmaEndOp::verify() { return verifyPragmaBlock(*this); }
