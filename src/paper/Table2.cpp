//===- Table2.cpp - Global-access vectorization (paper Table 2) ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/paper/Table2.h"

#include "layoutkit/linear/Analysis.h"

#include <algorithm>

namespace lk::paper {

namespace {

constexpr int64_t kMaxAccessBits = 128;

std::string listText(const std::vector<unsigned> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

Expected<AccessChoice> measure(std::span<const int64_t> shape, int elementBits,
                               int numWarps, CoalesceStyle style) {
  Expected<linear::Encoding> e =
      coalescedEncoding(shape, elementBits, numWarps, style);
  if (!e)
    return std::move(e).error();
  Expected<linear::LinearLayout> l = linear::toLinearLayout(*e, shape);
  if (!l)
    return std::move(l).error();
  Expected<int64_t> n = style == CoalesceStyle::AcrossDims
                            ? linear::contiguousElements(*l)
                            : linear::contiguousElementsPerDim(*l, e->order);
  if (!n)
    return std::move(n).error();
  AccessChoice c;
  c.layout = blockedText(*e);
  c.elements = *n;
  c.bitwidth = std::min<int64_t>(kMaxAccessBits, *n * elementBits);
  Expected<std::string> inst = accessInstruction(c.bitwidth);
  if (!inst)
    return std::move(inst).error();
  c.instruction = std::move(*inst);
  return c;
}

} // namespace

std::string blockedText(const linear::Encoding &e) {
  return "blocked(" + listText(e.sizePerThread) + "," +
         listText(e.threadsPerWarp) + "," + listText(e.warpsPerCTA) + "," +
         listText(e.order) + ")";
}

Expected<Table2Row> table2Row(std::string dtype, int elementBits,
                              std::vector<int64_t> shape, int numWarps) {
  Table2Row row;
  row.dtype = std::move(dtype);
  row.shape = std::move(shape);
  Expected<AccessChoice> legacy =
      measure(row.shape, elementBits, numWarps, CoalesceStyle::PerDim);
  if (!legacy)
    return std::move(legacy).error();
  Expected<AccessChoice> across =
      measure(row.shape, elementBits, numWarps, CoalesceStyle::AcrossDims);
  if (!across)
    return std::move(across).error();
  row.perDim = std::move(*legacy);
  row.acrossDims = std::move(*across);
  return row;
}

Expected<std::vector<Table2Row>> table2() {
  struct Type {
    const char *name;
    int bits;
  };
  static constexpr Type kTypes[] = {{"f8", 8}, {"f16", 16}};
  static constexpr int64_t kColumns[] = {1, 2, 4, 8, 16};
  std::vector<Table2Row> rows;
  for (const Type &t : kTypes)
    for (int64_t k : kColumns) {
      Expected<Table2Row> r = table2Row(t.name, t.bits, {512, k});
      if (!r)
        return std::move(r).error();
      rows.push_back(std::move(*r));
    }
  return rows;
}

} // namespace lk::paper
