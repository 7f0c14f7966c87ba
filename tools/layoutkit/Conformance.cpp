//===- Conformance.cpp - Oracle conformance runner ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Each op of the oracle format is one entry of a table: a function that reads
// the case's JSON arguments and returns the library's answer as JSON (or a
// Diagnostic). A case passes when the answer equals `expect`, or when the
// library reports an error and the case has `expect_error: true`.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/Conformance.h"
#include "layoutkit/ConformanceOps.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <map>

namespace lk::cli {

using nlohmann::json;

//===----------------------------------------------------------------------===//
// Reading arguments
//===----------------------------------------------------------------------===//

Expected<int64_t> intFromJson(const json &j) {
  if (!j.is_number_integer())
    return Diagnostic::error("expected an integer, got " + j.dump());
  return j.get<int64_t>();
}

Status arity(const json &args, size_t lo, size_t hi) {
  if (!args.is_array() || args.size() < lo || args.size() > hi)
    return Diagnostic::error("expected " + std::to_string(lo) +
                             (lo == hi ? "" : " to " + std::to_string(hi)) +
                             " arguments, got " + args.dump());
  return Ok{};
}

namespace {

/// Every model's ops; a model adds its own in <Model>Conformance.cpp.
const ConformanceOps &allOps() {
  static const ConformanceOps ops = [] {
    ConformanceOps o;
    addCuteOps(o);
    addTileOps(o);
    addLinearOps(o);
    addHwOps(o);
    return o;
  }();
  return ops;
}

struct OpCount {
  int passed = 0;
  int failed = 0;
};

} // namespace

int runConformance(const std::vector<std::string> &files,
                   const ConformanceOptions &options, std::ostream &out,
                   std::ostream &err) {
  std::map<std::string, OpCount> perOp;
  int passed = 0, failed = 0, shown = 0;
  auto fail = [&](const std::string &where, const std::string &op,
                  const std::string &why) {
    ++failed;
    ++perOp[op].failed;
    if (options.verbose || shown < 20) {
      err << "FAIL " << where << " [" << op << "]: " << why << "\n";
      ++shown;
    }
  };
  for (const std::string &file : files) {
    std::ifstream in(file);
    if (!in) {
      err << "error: cannot open " << file << "\n";
      fail(file, "<file>", "cannot open");
      continue;
    }
    std::string line;
    size_t lineNo = 0;
    while (std::getline(in, line)) {
      ++lineNo;
      if (line.find_first_not_of(" \t\r") == std::string::npos)
        continue;
      std::string where = file + ":" + std::to_string(lineNo);
      json c = json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (c.is_discarded() || !c.is_object() || !c.contains("op") ||
          !c["op"].is_string() || !c.contains("args")) {
        fail(where, "<malformed>", "not a case object");
        continue;
      }
      std::string op = c["op"].get<std::string>();
      auto it = allOps().find(op);
      if (it == allOps().end()) {
        fail(where, op, "unknown op");
        continue;
      }
      bool expectError = c.value("expect_error", false);
      if (!expectError && !c.contains("expect")) {
        fail(where, op, "case has neither expect nor expect_error");
        continue;
      }
      const ConformanceOp &fn = it->second;
      Expected<json> got = fn.run(c["args"]);
      if (expectError) {
        if (got) {
          fail(where, op, "expected an error (" + c.value("reason", std::string()) +
                              "), got " + got->dump());
          continue;
        }
      } else if (!got) {
        fail(where, op, "expected " + c["expect"].dump() + ", got error: " +
                            got.error().message);
        continue;
      } else if (fn.same ? !fn.same(*got, c["expect"]) : *got != c["expect"]) {
        fail(where, op, "args " + c["args"].dump() + ": expected " +
                            c["expect"].dump() + ", got " + got->dump());
        continue;
      }
      ++passed;
      ++perOp[op].passed;
    }
  }
  if (options.json) {
    json summary;
    for (const auto &[op, n] : perOp)
      summary["ops"][op] = {{"passed", n.passed}, {"failed", n.failed}};
    summary["passed"] = passed;
    summary["failed"] = failed;
    out << summary.dump(2) << "\n";
  } else {
    for (const auto &[op, n] : perOp)
      out << "  " << op << ": " << n.passed << " passed, " << n.failed
          << " failed\n";
    out << passed << " passed, " << failed << " failed\n";
  }
  return (failed == 0 && passed > 0) ? 0 : 1;
}

} // namespace lk::cli
