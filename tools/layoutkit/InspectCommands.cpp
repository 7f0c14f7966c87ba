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

#include "layoutkit/Handlers.h"
#include "layoutkit/Show.h"

#include <fstream>

namespace lk::cli {

namespace {

/// The JSON of a layout argument: the composed form only when swizzled.
JsonValue layoutArgumentJson(const cute::ComposedLayout &c) {
  if (c.swizzle.isIdentity() && c.offset == 0)
    return toJson(c.layout);
  return toJson(c);
}

} // namespace

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

Status attachSvg(const Invocation &inv, const std::string &svg, Reply &reply) {
  std::optional<std::string> path = inv.option("svg");
  if (!path)
    return Ok{};
  if (*path == "-") {
    // The picture replaces the text on stdout; in JSON it is a field.
    reply.text = svg;
    reply.json["svg"] = svg;
    return Ok{};
  }
  LK_CHECK(writeFile(*path, svg));
  reply.json["svg_file"] = *path;
  return Ok{};
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
  reply.json = {{"layout", layoutArgumentJson(layout)},
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

Expected<Reply> runIdx2crd(const Invocation &inv) {
  LK_TRY(IntTuple shape, inv.intTuple(0));
  LK_TRY(int64_t index, inv.integer(1));
  LK_TRY(IntTuple coord, cute::idx2crd(index, shape));
  return tupleReply(coord);
}

Expected<Reply> runSwizzle(const Invocation &inv) {
  LK_TRY(int64_t b, inv.integer(0));
  LK_TRY(int64_t m, inv.integer(1));
  LK_TRY(int64_t s, inv.integer(2));
  LK_TRY(int64_t x, inv.integer(3));
  int64_t absS = s < 0 ? -s : s;
  if (b < 0 || m < 0 || b > 62 || m > 62 || absS > 62 || b + m + absS >= 63)
    return Diagnostic::error("swizzle parameters out of range: need 0 <= B, "
                             "0 <= M and B + M + |S| < 63")
        .note("got B=" + std::to_string(b) + ", M=" + std::to_string(m) +
              ", S=" + std::to_string(s));
  return integerReply(cute::swizzleApply(int(b), int(m), int(s), x));
}

} // namespace lk::cli
