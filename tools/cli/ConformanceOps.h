//===- ConformanceOps.h - Ops of the conformance runner ----------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The ops `layoutkit conformance` knows, one table filled by each model in
/// its own file (CuteConformance.cpp, TileConformance.cpp, ...). An op reads
/// the case's JSON arguments and returns the library's answer as JSON or a
/// Diagnostic; `same` decides whether an answer equals `expect` (plain JSON
/// equality when absent).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_CONFORMANCEOPS_H
#define LAYOUTKIT_TOOLS_CONFORMANCEOPS_H

#include "layoutkit/core/Expected.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>

namespace lk::cli {

struct ConformanceOp {
  std::function<Expected<nlohmann::json>(const nlohmann::json &args)> run;
  /// Compares an answer with `expect`; null means JSON equality.
  std::function<bool(const nlohmann::json &got, const nlohmann::json &expect)>
      same;
};
using ConformanceOps = std::map<std::string, ConformanceOp>;

/// Fails unless `args` is an array of lo..hi elements.
Status arity(const nlohmann::json &args, size_t lo, size_t hi);
/// Reads a JSON integer that fits int64 (an unsigned above INT64_MAX is
/// refused, not wrapped).
Expected<int64_t> intFromJson(const nlohmann::json &j);
/// Field `key` of object `j` as a boolean, `fallback` when absent; a value
/// of another type (e.g. 1) is an error naming the field.
Expected<bool> boolField(const nlohmann::json &j, const char *key,
                         bool fallback);

/// Each model adds its ops.
void addCuteOps(ConformanceOps &ops);
void addTileOps(ConformanceOps &ops);
void addLinearOps(ConformanceOps &ops);
void addHwOps(ConformanceOps &ops);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_CONFORMANCEOPS_H
