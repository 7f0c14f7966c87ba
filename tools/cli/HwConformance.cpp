//===- HwConformance.cpp - Conformance ops of the hw layer ----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The ops of the hardware-atom cases (oracles/README.md, "Hardware-atom
// cases"):
//
//   atom_eval [atom, thread, value] -> the logical coordinate as an array
//             of integers (A: [row, k]; B: [k, n]; C: [row, col];
//             ldmatrix: [matrix, row, col]; tcgen05.ld: [lane, column]),
//             compared as JSON (order matters).
//
//===----------------------------------------------------------------------===//

#include "cli/ConformanceOps.h"

#include "layoutkit/hw/Atom.h"

namespace lk::cli {

using nlohmann::json;

namespace {

Expected<json> atomEval(const json &a) {
  LK_CHECK(arity(a, 3, 3));
  if (!a[0].is_string())
    return Diagnostic::error("expected an atom name, got " + a[0].dump());
  LK_TRY(const hw::Atom *atom, hw::findAtom(a[0].get<std::string>()));
  LK_TRY(int64_t thread, intFromJson(a[1]));
  LK_TRY(int64_t value, intFromJson(a[2]));
  LK_TRY(std::vector<int64_t> coord, atom->eval(thread, value));
  json out = json::array();
  for (int64_t c : coord)
    out.push_back(c);
  return out;
}

} // namespace

void addHwOps(ConformanceOps &ops) {
  ops["atom_eval"] = ConformanceOp{atomEval, nullptr};
}

} // namespace lk::cli
