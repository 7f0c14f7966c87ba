//===- Describe.cpp - Results as records ----------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Describe.h"

#include "layoutkit/api/Layout.h"

#include <algorithm>

namespace lk::api {

namespace {

Value leaf(const IntTuple::Node &node) {
  BasisPath path = BasisPath::fromRaw(node.basis);
  if (path.empty())
    return node.value;
  Value::List basis;
  for (int k = 0; k < path.depth(); ++k)
    basis.emplace_back(int64_t(path.at(k)));
  return Record().add("scale", node.value).add("basis", std::move(basis));
}

/// The subtree rooted at nodes[i]; advances i past it.
Value subtree(const IntTuple::Node *nodes, size_t &i) {
  const IntTuple::Node &node = nodes[i++];
  if (node.rank == IntTuple::kLeaf)
    return leaf(node);
  Value::List children;
  children.reserve(size_t(node.rank));
  for (int16_t c = 0; c < node.rank; ++c)
    children.push_back(subtree(nodes, i));
  return children;
}

} // namespace

Value describe(const IntTuple &t) {
  size_t i = 0;
  return subtree(t.nodes(), i);
}

Record describe(const cute::Layout &l) {
  Value cosize;
  if (!l.hasBasisStrides())
    if (Expected<int64_t> c = l.cosize())
      cosize = *c;
  return Record()
      .add("layout", l.str())
      .add("shape", describe(l.shape()))
      .add("stride", describe(l.stride()))
      .add("size", l.size())
      .add("cosize", std::move(cosize))
      .add("rank", int64_t(l.rank()))
      .add("depth", l.depth());
}

Record describe(const cute::ComposedLayout &c) {
  bool plain = c.swizzle.isIdentity() && c.offset == 0;
  return Record()
      .add("layout", plain ? c.layout.str() : c.str())
      .add("swizzle", Record()
                          .add("B", c.swizzle.B)
                          .add("M", c.swizzle.M)
                          .add("S", c.swizzle.S))
      .add("offset", c.offset)
      .add("inner", describe(c.layout));
}

Record describeAsWritten(const cute::ComposedLayout &c) {
  if (c.swizzle.isIdentity() && c.offset == 0)
    return describe(c.layout);
  return describe(c);
}

Record describe(const cute::LayoutAttribute &a) {
  Value swizzle, elem;
  if (a.swizzle)
    swizzle = Record()
                  .add("B", a.swizzle->B)
                  .add("M", a.swizzle->M)
                  .add("S", a.swizzle->S);
  if (a.elem)
    elem = Record().add("name", a.elem->name).add("bits", a.elem->bits);
  // Parsed attributes have it; one built field by field may not.
  Expected<cute::ComposedLayout> layout = a.elementLayout();
  return Record()
      .add("text", cute::printLayoutAttribute(a))
      .add("layout", layout ? describeAsWritten(*layout) : describe(a.layout))
      .add("swizzle", std::move(swizzle))
      .add("elem", std::move(elem));
}

Record describe(const Diagnostic &d) {
  Record r;
  r.add("message", d.message);
  if (d.range) {
    const SourceRange &s = *d.range;
    r.add("line", int64_t(s.begin.line))
        .add("column", int64_t(s.begin.column))
        .add("offset", int64_t(s.begin.offset))
        .add("length", std::max<int64_t>(1, int64_t(s.end.offset) -
                                                int64_t(s.begin.offset)))
        .add("input", d.source);
  } else {
    r.add("line", Value()).add("column", Value()).add("offset", Value());
    r.add("length", 0).add("input", Value());
  }
  return r.add("notes", Value::strings(d.notes))
      .add("parameter", d.parameter.empty() ? Value() : Value(d.parameter))
      .add("rendered", d.render());
}

} // namespace lk::api

//===----------------------------------------------------------------------===//
// Tile layouts
//===----------------------------------------------------------------------===//

namespace lk::api {

Record axisRecord(std::span<const tile::Axis> axes,
                  std::span<const int64_t> values) {
  Record r;
  for (size_t k = 0; k < axes.size(); ++k)
    r.add(std::string(axes[k].name()), values[k]);
  return r;
}

Record axisRecord(std::span<const tile::AxisValue> values) {
  Record r;
  for (const tile::AxisValue &v : values)
    r.add(std::string(v.axis.name()), v.value);
  return r;
}

namespace {

/// layout, shape, coord and x of an element.
Record elementRecord(const tile::SwizzledTileLayout &layout,
                     const TileElement &e) {
  return Record()
      .add("layout", tileText(layout))
      .add("shape", Value::ints(e.shape))
      .add("coord", Value::ints(e.coord))
      .add("x", e.x);
}

} // namespace

Record describe(const EvalStep &s, const tile::SwizzleLayout &swizzle) {
  using Kind = EvalStep::Kind;
  static constexpr const char *kinds[] = {"shard", "offset", "replica",
                                          "swizzle"};
  const bool iter = s.kind == Kind::Shard || s.kind == Kind::Replica;
  const bool sw = s.kind == Kind::Swizzle;
  auto when = [](bool has, int64_t v) { return has ? Value(v) : Value(); };
  return Record()
      .add("kind", kinds[int(s.kind)])
      .add("iter", when(iter, int64_t(s.index)))
      .add("extent", when(iter, s.iter.extent))
      .add("stride", when(iter, s.iter.stride))
      .add("axis", std::string(s.iter.axis.name()))
      .add("component", when(s.kind == Kind::Shard, s.component))
      .add("added",
           when(s.kind == Kind::Shard || s.kind == Kind::Offset, s.added))
      .add("swizzle", sw ? Value(swizzle.str()) : Value())
      .add("from", when(sw, s.component))
      .add("to", when(sw, s.added));
}

Record describe(const Evaluation &e) {
  std::span<const tile::Axis> axes = e.layout.tile().axes();
  Value::List points, steps;
  for (size_t i = 0; i < e.points.points.size(); ++i)
    points.emplace_back(axisRecord(axes, e.points.points[i]));
  for (const EvalStep &s : e.steps)
    steps.emplace_back(describe(s, e.layout.swizzle()));
  return elementRecord(e.layout, e.element)
      .add("points", std::move(points))
      .add("total", e.points.total)
      .add("steps", std::move(steps));
}

Record describe(const OwnerList &o) {
  Value::List owners;
  for (const Owner &p : o.owners)
    owners.emplace_back(
        Record().add("owner", axisRecord(p.owner)).add("at", axisRecord(p.at)));
  return elementRecord(o.layout, o.element)
      .add("owners", std::move(owners))
      .add("total", o.total);
}

Record describe(const Holding &h) {
  Value::List elements, coords;
  for (int64_t k = 0; k < h.shown; ++k) {
    int64_t f = h.elements[size_t(k)];
    elements.emplace_back(f);
    coords.emplace_back(Value::ints(tile::TileLayout::unflatten(h.shape, f)));
  }
  return Record()
      .add("layout", h.layout)
      .add("shape", Value::ints(h.shape))
      .add("where", axisRecord(h.where))
      .add("elements", std::move(elements))
      .add("coords", std::move(coords))
      .add("total", int64_t(h.elements.size()));
}

Record describe(const BankMap &b) {
  Value::List lines;
  for (int64_t l = 0; l < b.view.lineCount; ++l) {
    Value::List words;
    for (int64_t bank = 0; bank < tile::kBanks; ++bank)
      words.push_back(Value::ints(b.view.at(b.view.firstLine + l, bank)));
    lines.emplace_back(std::move(words));
  }
  return Record()
      .add("layout", b.layout)
      .add("dtype_bits", b.dtypeBits)
      .add("first_line", b.view.firstLine)
      .add("line_count", b.view.lineCount)
      .add("lines", std::move(lines));
}

Record describe(const ConflictReport &c) {
  Value read;
  if (c.read)
    read = Record()
               .add("rows", c.read->rows)
               .add("cols", c.read->cols)
               .add("column", c.read->column)
               .add("lanes", laneCount(*c.read))
               .add("vector", c.read->vector)
               .add("first_row", c.read->firstRow);
  Value::List elements, banks;
  for (const std::vector<int64_t> &lane : c.access)
    elements.push_back(Value::ints(lane));
  for (int64_t b = 0; b < tile::kBanks; ++b) {
    Value::List words;
    for (const tile::BankConflicts::Word &w : c.conflicts.banks[size_t(b)])
      words.emplace_back(
          Record().add("word", w.bankWord).add("lanes", Value::ints(w.lanes)));
    banks.emplace_back(Record().add("bank", b).add("words", std::move(words)));
  }
  return Record()
      .add("layout", c.layout)
      .add("dtype_bits", c.dtypeBits)
      .add("read", std::move(read))
      .add("elements", std::move(elements))
      .add("ways", c.conflicts.ways)
      .add("conflict_free", c.conflicts.conflictFree())
      .add("banks", std::move(banks))
      .add("explanation", c.conflicts.explain());
}

//===----------------------------------------------------------------------===//
// Access analysis
//===----------------------------------------------------------------------===//

Record describe(const hw::SharedAccessReport &s) {
  return Record()
      .add("wavefronts", Value::ints(s.wavefronts))
      .add("total", s.total)
      .add("minimum", s.minimum)
      .add("conflict_free", s.total == s.minimum)
      .add("explanation", s.explanation);
}

Record describe(const hw::GlobalAccessReport &g) {
  return Record()
      .add("sectors", g.sectors)
      .add("lines", g.lines)
      .add("minimum_sectors", g.minimumSectors)
      .add("requested_bytes", g.requestedBytes)
      .add("efficiency", g.efficiency)
      .add("coalesced", g.sectors == g.minimumSectors)
      .add("explanation", g.explanation);
}

Record describe(const hw::ReplicationReport &r) {
  Value::List replicated;
  for (const hw::Replica &x : r.replicated) {
    Value::List holders;
    for (const auto &[lane, reg] : x.holders)
      holders.emplace_back(Record().add("lane", lane).add("register", reg));
    replicated.emplace_back(
        Record().add("element", x.element).add("holders", std::move(holders)));
  }
  return Record()
      .add("replicated", std::move(replicated))
      .add("explanation", r.explanation);
}

Record describe(const AccessAnalysis &a) {
  return Record()
      .add("distributed", a.distributed)
      .add("memory", a.memory)
      .add("dtype_bits", a.dtypeBits)
      .add("arch", std::string(hw::machine(a.arch).name))
      .add("vector_bytes", a.vectorBytes)
      .add("access_bytes", a.accessBytes)
      .add("instructions", int64_t(a.shared.wavefronts.size()))
      .add("shared_memory", describe(a.shared))
      .add("global_memory", describe(a.global))
      .add("replication", describe(a.replication));
}

Record describe(const tile::Preset &p) {
  return Record()
      .add("name", p.name)
      .add("layout", p.text)
      .add("shape", Value::ints({p.shape.begin(), p.shape.end()}))
      .add("summary", p.summary);
}

Record describe(const hw::Atom &a) {
  return Record()
      .add("name", a.name)
      .add("arch", a.firstArchName())
      .add("instruction", a.instruction)
      .add("operand", a.operand)
      .add("shape", Value::ints(a.logicalShape()))
      .add("threads", a.threads)
      .add("values", a.values)
      .add("unverified", a.unverified);
}

Record describe(const linear::LinearLayout &l) {
  Record bases;
  for (int i = 0; i < l.numInDims(); ++i) {
    Value::List b;
    for (const std::vector<int64_t> &v : l.bases(i))
      b.push_back(Value::ints(v));
    bases.add(std::string(linear::dimName(l.inDim(i).id)), std::move(b));
  }
  Value::List outs;
  for (int k = 0; k < l.numOutDims(); ++k)
    outs.push_back(
        Value::List{linear::dimName(l.outDim(k).id), l.outDim(k).size()});
  return Record()
      .add("text", l.str())
      .add("bases", std::move(bases))
      .add("out_dims", std::move(outs));
}

Record describe(const linear::Waste &w) {
  Record masked;
  for (const linear::MaskedInputs &m : w.masked) {
    Value::List runs;
    for (size_t i = 0; i < m.values.size();) {
      size_t j = i;
      while (j + 1 < m.values.size() && m.values[j + 1] == m.values[j] + 1)
        ++j;
      runs.push_back(Value::List{m.values[i], m.values[j]});
      i = j + 1;
    }
    masked.add(std::string(linear::dimName(m.dim)), std::move(runs));
  }
  return Record()
      .add("elements", w.elements)
      .add("valid_elements", w.validElements)
      .add("padded_elements", w.paddedElements)
      .add("fraction", w.fraction)
      .add("slots", w.slots)
      .add("masked_slots", w.maskedSlots)
      .add("masked", std::move(masked));
}

} // namespace lk::api
