//===- AtomTable.h - The atom catalog as data (private) ---------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One row per concrete atom: names, the TV layout as CuTe text and the
/// codomain. Atom.cpp parses the rows into lk::hw::Atom.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_HW_ATOMTABLE_H
#define LAYOUTKIT_SRC_HW_ATOMTABLE_H

#include "layoutkit/hw/Machine.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lk::hw::detail {

struct AtomRow {
  std::string name;
  Arch arch = Arch::Sm80;
  std::string instruction;
  std::string operand;
  std::string facts;
  bool unverified = false;
  std::string note;
  int64_t threads = 32;
  /// (thread, value) -> colex index, CuTe text.
  std::string tv;
  std::vector<int64_t> cuteExtents;
  std::vector<int> logicalOrder;
  std::vector<std::string> coordNames;
  /// The least compute capability that runs it where its arch's is too
  /// low (89: fp8 mma.sync); 0 otherwise.
  int64_t minCapability = 0;
  /// The last architecture that runs it, where a later one does not
  /// (sm_90: wgmma is sm_90a's); none otherwise.
  std::optional<Arch> lastArch = std::nullopt;
};

/// Every row of the catalog, in catalog order.
std::vector<AtomRow> atomRows();

} // namespace lk::hw::detail

#endif // LAYOUTKIT_SRC_HW_ATOMTABLE_H
