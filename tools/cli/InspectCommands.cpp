//===- InspectCommands.cpp - show, eval, idx2crd, swizzle -----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Handlers of the commands that evaluate a layout rather than transform it.
///
//===----------------------------------------------------------------------===//

#include "cli/Handlers.h"
#include "cli/Show.h"

#include "layoutkit/api/Describe.h"
#include "layoutkit/cute/Attribute.h"
#include "layoutkit/cute/BasisDescriptor.h"
#include "layoutkit/cute/Swizzle.h"

#include <fstream>

#include <limits>

namespace lk::cli {

Status writeFile(const std::string &path, const std::string &contents) {
  std::ofstream file(path, std::ios::binary);
  if (!file)
    return Diagnostic::error("cannot open '" + path + "' for writing");
  file << contents;
  file.close();
  if (!file)
    return Diagnostic::error("cannot write '" + path + "'");
  return Ok{};
}

OptionSpec allOption() {
  return {"all", "",
          "list every item (default: the first " +
              std::to_string(api::kListLimit) +
              " and a line saying how many more)",
          true};
}

std::optional<int64_t> listLimit(const Invocation &inv) {
  if (inv.option("all"))
    return std::nullopt;
  return api::kListLimit;
}

void noteOmitted(Reply &reply, int64_t shown, int64_t total) {
  if (total <= shown)
    return;
  reply.omitted = total - shown;
  if (!reply.text.empty() && reply.text.back() != '\n')
    reply.text += "\n";
  reply.text += "... " + std::to_string(total - shown) +
                (shown < api::kListLimit || shown >= api::kMaxListAll
                     ? " more (--all lists at most " +
                           std::to_string(api::kMaxListAll) + ")\n"
                     : " more (--all lists them)\n");
}

Status attachSvg(const Invocation &inv, const std::string &svg, Reply &reply) {
  std::optional<std::string> path = inv.option("svg");
  return path ? putOutput(reply, svg, *path, "svg") : Status(Ok{});
}

Status putOutput(Reply &reply, const std::string &contents,
                 const std::string &path, const std::string &key) {
  if (path == "-") { // on stdout alone; in JSON a field
    reply.text = contents;
    reply.json[key] = contents;
    return Ok{};
  }
  LK_CHECK(writeFile(path, contents));
  reply.json[key + "_file"] = path;
  return Ok{};
}

Expected<Reply> runParse(const Invocation &inv) {
  const std::string grammar = inv.text(0);
  const std::string &text = inv.text(1);
  Reply r;
  if (grammar == "basis") {
    LK_TRY(auto d, inv.argument(cute::parseBasisDescriptor(text), 1));
    LK_TRY(std::string printed, cute::printBasisDescriptor(d));
    r.text = printed;
    r.json = {{"grammar", grammar}, {"text", printed}, {"value", toJson(d)}};
    return r;
  }
  if (grammar != "attribute")
    return inv.inArgument(Diagnostic::error("unknown grammar '" + grammar +
                                            "'; expected basis or attribute"),
                          0);
  LK_TRY(auto a, inv.argument(cute::parseLayoutAttribute(text), 1));
  r.text = cute::printLayoutAttribute(a);
  r.json = {{"grammar", grammar}};
  r.json.update(jsonOf(api::describe(a)));
  return r;
}

Expected<Reply> runShow(const Invocation &inv) {
  LK_TRY(cute::ComposedLayout layout, inv.composedLayout(0));
  LK_TRY(OffsetTable table, api::tabulate(layout));

  Reply reply;
  reply.text = renderTable(table);
  JsonValue rows = JsonValue::array();
  for (int64_t r = 0; r < table.rows; ++r) {
    JsonValue row = JsonValue::array();
    for (int64_t c = 0; c < table.cols; ++c)
      row.push_back(toJson(table.at(r, c)));
    rows.push_back(std::move(row));
  }
  reply.json = {{"layout", jsonOf(api::describeAsWritten(layout))},
                {"rows", table.rows},
                {"cols", table.cols},
                {"table", std::move(rows)}};

  if (inv.option("svg"))
    LK_CHECK(attachSvg(inv, renderSvg(table), reply));
  return reply;
}

Expected<Reply> runEval(const Invocation &inv) {
  LK_TRY(cute::ComposedLayout layout, inv.composedLayout(0));
  LK_TRY(IntTuple coord, inv.intTuple(1));
  LK_TRY(IntTuple offset, api::evaluate(layout, coord));
  return tupleReply(offset);
}

Expected<Reply> runSwizzle(const Invocation &inv) {
  LK_TRY(int64_t b, inv.integer(0));
  LK_TRY(int64_t m, inv.integer(1));
  LK_TRY(int64_t s, inv.integer(2));
  LK_TRY(int64_t x, inv.integer(3));
  LK_CHECK(cute::swizzleParamsValid(b, m, s));
  return integerReply(cute::swizzleApply(int(b), int(m), int(s), x));
}

} // namespace lk::cli
