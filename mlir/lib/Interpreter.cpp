//===- Interpreter.cpp - Reference interpreter of tileas ------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Interpreter.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using lk::tileas::InterpValue;

int64_t InterpValue::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

double &InterpValue::at(int64_t i) const {
  size_t k = static_cast<size_t>(offset + i);
  if (k >= storage->size())
    storage->resize(k + 1, 0.0);
  return (*storage)[k];
}

std::vector<double> InterpValue::elements() const {
  std::vector<double> out(static_cast<size_t>(numElements()));
  for (int64_t i = 0; i < numElements(); ++i)
    out[i] = at(i);
  return out;
}

InterpValue InterpValue::make(std::vector<int64_t> shape,
                              std::vector<double> values) {
  InterpValue v;
  v.shape = std::move(shape);
  v.storage = std::make_shared<std::vector<double>>(std::move(values));
  v.storage->resize(static_cast<size_t>(v.numElements()), 0.0);
  return v;
}

namespace {

std::vector<int64_t> shapeOf(Type t) {
  if (auto rt = dyn_cast<RankedTensorType>(t))
    return std::vector<int64_t>(rt.getShape().begin(), rt.getShape().end());
  return {};
}

/// Row-major strides of `shape`.
std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

/// Calls f(tileIndex, bufferIndex) for every element of a tile of
/// `tile` placed at `origin` inside a buffer of shape `buf`.
template <typename F>
void forEachIn(const std::vector<int64_t> &tile,
               const std::vector<int64_t> &buf,
               const std::vector<int64_t> &origin, F f) {
  std::vector<int64_t> bs = stridesOf(buf), idx(tile.size(), 0);
  int64_t n = 1;
  for (int64_t d : tile)
    n *= d;
  for (int64_t t = 0; t < n; ++t) {
    int64_t b = 0;
    for (size_t d = 0; d < tile.size(); ++d)
      b += (origin[d] + idx[d]) * bs[d];
    f(t, b);
    for (int d = static_cast<int>(tile.size()) - 1; d >= 0; --d) {
      if (++idx[d] < tile[d])
        break;
      idx[d] = 0;
    }
  }
}

class Interp {
public:
  explicit Interp(std::string &error) : error(error) {}

  LogicalResult runBlock(Block &block, ArrayRef<InterpValue> args,
                         std::vector<InterpValue> &yielded);

private:
  std::string &error;
  llvm::DenseMap<Value, InterpValue> env;

  LogicalResult fail(Operation *op, const std::string &what) {
    error = op->getName().getStringRef().str() + ": " + what;
    return failure();
  }
  /// The value of `v`; a value the interpreter never defined (an op it
  /// skipped) reads as an empty scalar and sets `missing`.
  const InterpValue &get(Value v) {
    auto it = env.find(v);
    if (it != env.end())
      return it->second;
    missing = true;
    static const InterpValue kEmpty = InterpValue::make({}, {0});
    return kEmpty;
  }
  bool missing = false;
  /// Binds `v` (taken by value: a reference into `env` would dangle when
  /// the insertion grows the map).
  void set(Value key, InterpValue v) { env[key] = std::move(v); }
  double scalar(Value v) { return get(v).at(0); }
  static InterpValue scalarValue(double x) {
    return InterpValue::make({}, {x});
  }
  InterpValue fresh(Type t) {
    std::vector<int64_t> s = shapeOf(t);
    return InterpValue::make(s, {});
  }
  LogicalResult step(Operation &op);
  LogicalResult arith(Operation &op);
  LogicalResult mma(Operation &op, Value a, Value b, Value acc);
  LogicalResult integerDivision(Operation &op, bool remainder);
  LogicalResult scfFor(scf::ForOp op);
  LogicalResult scfIf(scf::IfOp op);
  LogicalResult scfWhile(scf::WhileOp op);
  /// A fresh storage holding the elements of `v`, with the shape of `t`.
  InterpValue snapshot(const InterpValue &v, Type t) {
    return InterpValue::make(shapeOf(t), v.elements());
  }
  std::vector<int64_t> origin(Operation *op, ValueRange indices, size_t rank);
  LogicalResult indexed(Operation &op, Value data, Value indices, int64_t axis,
                        llvm::function_ref<void(int64_t, int64_t)> f);
};

/// For element i (row-major) of `indices`, calls f(i, k) with k the
/// row-major position in `data` of i's multi-index with its `axis`
/// coordinate replaced by indices[i]; fails on an index that is not an
/// integer in [0, extent of the axis).
LogicalResult Interp::indexed(Operation &op, Value data, Value indices,
                              int64_t axis,
                              llvm::function_ref<void(int64_t, int64_t)> f) {
  std::vector<int64_t> ds = shapeOf(data.getType());
  std::vector<int64_t> is = shapeOf(indices.getType());
  std::vector<int64_t> strides = stridesOf(ds), idx(is.size(), 0);
  const InterpValue &ix = get(indices);
  for (int64_t i = 0; i < ix.numElements(); ++i) {
    double raw = ix.at(i);
    if (raw < 0 || raw >= static_cast<double>(ds[axis]) ||
        raw != std::floor(raw))
      return fail(&op, "index " + std::to_string(raw) + " outside [0, " +
                           std::to_string(ds[axis]) + ")");
    int64_t k = 0;
    for (size_t d = 0; d < is.size(); ++d)
      k += (static_cast<int64_t>(d) == axis ? static_cast<int64_t>(raw)
                                            : idx[d]) *
           strides[d];
    f(i, k);
    for (int d = static_cast<int>(is.size()) - 1; d >= 0; --d) {
      if (++idx[d] < is[d])
        break;
      idx[d] = 0;
    }
  }
  return success();
}

std::vector<int64_t> Interp::origin(Operation *, ValueRange indices,
                                    size_t rank) {
  std::vector<int64_t> o(rank, 0);
  for (size_t d = 0; d < indices.size() && d < rank; ++d)
    o[d] = static_cast<int64_t>(scalar(indices[d]));
  return o;
}

LogicalResult Interp::runBlock(Block &block, ArrayRef<InterpValue> args,
                               std::vector<InterpValue> &yielded) {
  for (auto [arg, v] : llvm::zip(block.getArguments(), args))
    set(arg, v);
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      yielded.clear();
      for (Value v : op.getOperands())
        yielded.push_back(get(v));
      return success();
    }
    if (failed(step(op)))
      return failure();
    if (missing)
      return fail(&op, "operand not defined");
  }
  return success();
}

LogicalResult Interp::mma(Operation &op, Value a, Value b, Value acc) {
  const InterpValue &va = get(a), &vb = get(b), &vc = get(acc);
  int64_t m = va.shape[0], k = va.shape[1], n = vb.shape[1];
  InterpValue r = InterpValue::make(vc.shape, vc.elements());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = r.at(i * n + j);
      for (int64_t l = 0; l < k; ++l)
        s += va.at(i * k + l) * vb.at(l * n + j);
      r.at(i * n + j) = s;
    }
  set(op.getResult(0), r);
  return success();
}

/// Elementwise arith on tiles or scalars; constants; index casts.
LogicalResult Interp::arith(Operation &op) {
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    Attribute a = c.getValue();
    double x = 0;
    if (auto i = dyn_cast<IntegerAttr>(a))
      x = static_cast<double>(i.getValue().getSExtValue());
    else if (auto f = dyn_cast<FloatAttr>(a))
      x = f.getValueAsDouble();
    else if (auto d = dyn_cast<SplatElementsAttr>(a)) {
      Attribute e = d.getSplatValue<Attribute>();
      if (auto fe = dyn_cast<FloatAttr>(e))
        x = fe.getValueAsDouble();
      else
        x = static_cast<double>(cast<IntegerAttr>(e).getValue().getSExtValue());
      InterpValue v = fresh(c.getType());
      std::fill(v.storage->begin(), v.storage->end(), x);
      set(c.getResult(), v);
      return success();
    } else
      return fail(&op, "unsupported constant");
    set(c.getResult(), scalarValue(x));
    return success();
  }
  if (isa<arith::SelectOp>(op)) {
    set(op.getResult(0), scalar(op.getOperand(0)) != 0 ? get(op.getOperand(1))
                                                       : get(op.getOperand(2)));
    return success();
  }
  auto unary = [&](auto f) {
    const InterpValue &x = get(op.getOperand(0));
    InterpValue r = InterpValue::make(x.shape, {});
    for (int64_t i = 0; i < r.numElements(); ++i)
      r.at(i) = f(x.at(i));
    set(op.getResult(0), r);
    return success();
  };
  auto binary = [&](auto f) {
    const InterpValue &x = get(op.getOperand(0)), &y = get(op.getOperand(1));
    InterpValue r = InterpValue::make(x.shape, {});
    for (int64_t i = 0; i < r.numElements(); ++i)
      r.at(i) = f(x.at(i), y.at(i));
    set(op.getResult(0), r);
    return success();
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case<arith::AddFOp, arith::AddIOp>([&](auto) {
        return binary([](double a, double b) { return a + b; });
      })
      .Case<arith::SubFOp, arith::SubIOp>([&](auto) {
        return binary([](double a, double b) { return a - b; });
      })
      .Case<arith::MulFOp, arith::MulIOp>([&](auto) {
        return binary([](double a, double b) { return a * b; });
      })
      .Case<arith::MaximumFOp>([&](auto) {
        return binary([](double a, double b) { return std::max(a, b); });
      })
      .Case<arith::MinimumFOp>([&](auto) {
        return binary([](double a, double b) { return std::min(a, b); });
      })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(
          [&](auto) {
            return integerDivision(op, isa<arith::RemSIOp, arith::RemUIOp>(op));
          })
      .Case<arith::NegFOp>(
          [&](auto) { return unary([](double a) { return -a; }); })
      .Case<arith::IndexCastOp>(
          [&](auto) { return unary([](double a) { return a; }); })
      .Case<arith::CmpIOp>([&](arith::CmpIOp c) {
        auto p = c.getPredicate();
        return binary([p](double a, double b) -> double {
          switch (p) {
          case arith::CmpIPredicate::eq:
            return a == b;
          case arith::CmpIPredicate::ne:
            return a != b;
          case arith::CmpIPredicate::slt:
          case arith::CmpIPredicate::ult:
            return a < b;
          case arith::CmpIPredicate::sle:
          case arith::CmpIPredicate::ule:
            return a <= b;
          case arith::CmpIPredicate::sgt:
          case arith::CmpIPredicate::ugt:
            return a > b;
          default:
            return a >= b;
          }
        });
      })
      .Default([&](Operation *o) { return fail(o, "unsupported arith op"); });
}

/// divsi / divui / remsi / remui on integers (a stage's parity k mod 2):
/// truncating division, the remainder has the dividend's sign (the unsigned
/// ops agree on the non-negative values programs index with); a zero
/// divisor fails.
LogicalResult Interp::integerDivision(Operation &op, bool remainder) {
  const InterpValue &x = get(op.getOperand(0)), &y = get(op.getOperand(1));
  InterpValue r = InterpValue::make(x.shape, {});
  for (int64_t i = 0; i < r.numElements(); ++i) {
    auto a = static_cast<int64_t>(x.at(i)), b = static_cast<int64_t>(y.at(i));
    if (b == 0)
      return fail(&op, "division by zero");
    r.at(i) = static_cast<double>(remainder ? a % b : a / b);
  }
  set(op.getResult(0), r);
  return success();
}

LogicalResult Interp::scfFor(scf::ForOp op) {
  int64_t lb = static_cast<int64_t>(scalar(op.getLowerBound()));
  int64_t ub = static_cast<int64_t>(scalar(op.getUpperBound()));
  int64_t st = static_cast<int64_t>(scalar(op.getStep()));
  if (st <= 0)
    return fail(op, "non-positive step");
  std::vector<InterpValue> carried;
  for (Value v : op.getInitArgs())
    carried.push_back(get(v));
  for (int64_t i = lb; i < ub; i += st) {
    std::vector<InterpValue> args{scalarValue(static_cast<double>(i))};
    args.insert(args.end(), carried.begin(), carried.end());
    if (failed(runBlock(*op.getBody(), args, carried)))
      return failure();
  }
  for (auto [r, v] : llvm::zip(op.getResults(), carried))
    set(r, v);
  return success();
}

LogicalResult Interp::scfIf(scf::IfOp op) {
  bool c = scalar(op.getCondition()) != 0;
  Region &region = c ? op.getThenRegion() : op.getElseRegion();
  std::vector<InterpValue> out;
  if (!region.empty() && failed(runBlock(region.front(), {}, out)))
    return failure();
  for (auto [r, v] : llvm::zip(op.getResults(), out))
    set(r, v);
  return success();
}

/// The before region runs on the carried values; its scf.condition
/// operands (condition, then values) either end the loop (they are the
/// results) or start the after region, whose yield carries on. At most
/// kMaxWhileIterations rounds.
LogicalResult Interp::scfWhile(scf::WhileOp op) {
  constexpr int64_t kMaxWhileIterations = 1 << 20;
  std::vector<InterpValue> carried, cond, next;
  for (Value v : op.getInits())
    carried.push_back(get(v));
  for (int64_t round = 0; round < kMaxWhileIterations; ++round) {
    if (failed(runBlock(op.getBefore().front(), carried, cond)))
      return failure();
    std::vector<InterpValue> values(cond.begin() + 1, cond.end());
    if (cond.front().at(0) == 0) {
      for (auto [r, v] : llvm::zip(op.getResults(), values))
        set(r, v);
      return success();
    }
    if (failed(runBlock(op.getAfter().front(), values, next)))
      return failure();
    carried = next;
  }
  return fail(op, "ran past " + std::to_string(kMaxWhileIterations) +
                      " iterations");
}

LogicalResult Interp::step(Operation &op) {
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    // The map folded at the operands' values (index integers).
    SmallVector<Attribute> operands, results;
    for (Value v : apply.getMapOperands())
      operands.push_back(IntegerAttr::get(IndexType::get(op.getContext()),
                                          static_cast<int64_t>(scalar(v))));
    if (failed(apply.getAffineMap().constantFold(operands, results)) ||
        results.size() != 1)
      return fail(&op, "affine.apply does not fold");
    set(apply.getResult(), scalarValue(static_cast<double>(
                               cast<IntegerAttr>(results[0]).getInt())));
    return success();
  }
  using namespace lk::tileas;
  // gather reads at the indexed places; scatter has value semantics (it is
  // pure): its result is a copy of the dest with the values written at the
  // indexed places, in row-major order of the indices (a later duplicate
  // wins).
  if (auto g = dyn_cast<GatherOp>(op)) {
    InterpValue r = fresh(g.getType());
    const InterpValue &src = get(g.getSource());
    if (failed(indexed(op, g.getSource(), g.getIndices(),
                       static_cast<int64_t>(g.getAxis()),
                       [&](int64_t i, int64_t k) { r.at(i) = src.at(k); })))
      return failure();
    set(g.getResult(), r);
    return success();
  }
  if (auto sc = dyn_cast<ScatterOp>(op)) {
    InterpValue r = snapshot(get(sc.getDest()), sc.getType());
    const InterpValue &vals = get(sc.getValues());
    if (failed(indexed(op, sc.getDest(), sc.getIndices(),
                       static_cast<int64_t>(sc.getAxis()),
                       [&](int64_t i, int64_t k) { r.at(k) = vals.at(i); })))
      return failure();
    set(sc.getResult(), r);
    return success();
  }
  if (op.getDialect() && op.getDialect()->getNamespace() == "arith")
    return arith(op);
  if (auto f = dyn_cast<scf::ForOp>(op))
    return scfFor(f);
  if (auto i = dyn_cast<scf::IfOp>(op))
    return scfIf(i);
  if (auto w = dyn_cast<scf::WhileOp>(op))
    return scfWhile(w);
  // A pipeline slot holds the value as it was produced; consuming it gives
  // that value (snapshots: later writes to either side do not reach it).
  if (auto p = dyn_cast<ProduceOneOp>(op)) {
    set(p.getSlot(), snapshot(get(p.getValue()), p.getType()));
    return success();
  }
  if (auto c = dyn_cast<ConsumeOneOp>(op)) {
    set(c.getResult(), snapshot(get(c.getSlot()), c.getType()));
    return success();
  }
  if (auto a = dyn_cast<AllocTensorOp>(op)) {
    set(a.getResult(), fresh(a.getType()));
    return success();
  }
  if (auto v = dyn_cast<ViewOp>(op)) {
    InterpValue r = get(v.getSource());
    r.offset += v.getDynamicOffset()
                    ? static_cast<int64_t>(scalar(v.getDynamicOffset()))
                    : v.getOffset().value_or(0);
    r.shape = shapeOf(v.getType());
    set(v.getResult(), r);
    return success();
  }
  if (auto s = dyn_cast<SelectOp>(op)) {
    set(s.getResult(), scalar(s.getCondition()) != 0 ? get(s.getTrueValue())
                                                     : get(s.getFalseValue()));
    return success();
  }
  if (auto c = dyn_cast<ConvertLayoutOp>(op)) {
    set(c.getResult(), get(c.getSource()));
    return success();
  }
  if (auto c = dyn_cast<CopyOp>(op)) {
    const InterpValue &src = get(c.getSource()), &dst = get(c.getDestination());
    std::vector<double> e = src.elements();
    for (int64_t i = 0; i < dst.numElements(); ++i)
      dst.at(i) = e[i];
    set(c.getResult(), dst);
    return success();
  }
  if (auto l = dyn_cast<TiledLoadOp>(op)) {
    const InterpValue &buf = get(l.getSource());
    InterpValue r = fresh(l.getType());
    forEachIn(r.shape, buf.shape, origin(&op, l.getIndices(), buf.shape.size()),
              [&](int64_t t, int64_t b) { r.at(t) = buf.at(b); });
    set(l.getResult(), r);
    return success();
  }
  if (auto s = dyn_cast<TiledStoreOp>(op)) {
    const InterpValue &buf = get(s.getDest()), &v = get(s.getValue());
    std::vector<double> e = v.elements();
    forEachIn(v.shape, buf.shape, origin(&op, s.getIndices(), buf.shape.size()),
              [&](int64_t t, int64_t b) { buf.at(b) = e[t]; });
    return success();
  }
  // tiled_atomic combines each element into the buffer in place.
  if (auto a = dyn_cast<TiledAtomicOp>(op)) {
    const InterpValue &buf = get(a.getDest()), &v = get(a.getValue());
    std::vector<double> e = v.elements();
    StringRef kind = a.getKind();
    forEachIn(v.shape, buf.shape, origin(&op, a.getIndices(), buf.shape.size()),
              [&](int64_t t, int64_t b) {
                double &d = buf.at(b);
                d = kind == "add"   ? d + e[t]
                    : kind == "min" ? std::min(d, e[t])
                                    : std::max(d, e[t]);
              });
    return success();
  }
  if (auto w = dyn_cast<WgmmaOp>(op))
    return mma(op, w.getA(), w.getB(), w.getAcc());
  if (auto t = dyn_cast<Tcgen05MmaOp>(op))
    return mma(op, t.getA(), t.getB(), t.getAcc());
  if (auto e = dyn_cast<PipelineExecuteOp>(op)) {
    std::vector<InterpValue> args, out;
    for (Value v : e.getInits())
      args.push_back(get(v));
    if (failed(runBlock(e.getBody().front(), args, out)))
      return failure();
    for (auto [r, v] : llvm::zip(e.getResults(), out))
      set(r, v);
    return success();
  }
  if (auto sw = dyn_cast<AgentSwitchOp>(op)) {
    // Agents run one after the other: a well-formed program's agents
    // communicate only through ordered pipeline slots.
    for (Region &r : sw.getAgents()) {
      std::vector<InterpValue> out;
      if (failed(runBlock(r.front(), {}, out)))
        return failure();
    }
    return success();
  }
  if (isa<FenceOp, AsyncWaitOp, PragmaBeginOp, PragmaEndOp>(op))
    return success();
  return fail(&op, "not interpreted");
}

} // namespace

LogicalResult lk::tileas::interpret(func::FuncOp fn,
                                    const std::vector<InterpValue> &args,
                                    std::vector<InterpValue> &results,
                                    std::string &error) {
  if (fn.getBody().empty())
    return error = "function has no body", failure();
  if (fn.getNumArguments() != args.size())
    return error = "argument count mismatch", failure();
  Interp interp(error);
  return interp.runBlock(fn.getBody().front(), args, results);
}
