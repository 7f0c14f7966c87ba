//===- Handlers.h - Subcommand implementations -------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The handler of every row of the command table (Commands.cpp). Handlers
/// read their arguments through the Invocation and never print (the
/// conformance runner lists failing cases on stderr as it finds them).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_HANDLERS_H
#define LAYOUTKIT_TOOLS_HANDLERS_H

#include "cli/Command.h"
#include "cli/Json.h"

namespace lk::cli {

//===----------------------------------------------------------------------===//
// Reply builders
//===----------------------------------------------------------------------===//

/// Text: the layout's print form. JSON: the layout object (Json.h).
inline Reply layoutReply(const cute::Layout &l) { return {l.str(), toJson(l)}; }
inline Reply integerReply(int64_t v) { return {std::to_string(v), v}; }
inline Reply tupleReply(const IntTuple &t) { return {t.str(), toJson(t)}; }
inline Reply boolReply(bool b) { return {b ? "true" : "false", b}; }

//===----------------------------------------------------------------------===//
// Long listings
//===----------------------------------------------------------------------===//

/// The `--all` flag of a command whose output is a list.
OptionSpec allOption();
/// How many items a listing asks the api for: api::kListLimit, or with
/// --all none (the api's listLimit: at most api::kMaxListAll).
std::optional<int64_t> listLimit(const Invocation &inv);
/// Records that `total - shown` items were left out: sets reply.omitted
/// and appends "... N more (--all lists them)" to the text. No-op when
/// nothing was left out.
void noteOmitted(Reply &reply, int64_t shown, int64_t total);

//===----------------------------------------------------------------------===//
// Inspection (InspectCommands.cpp)
//===----------------------------------------------------------------------===//

/// Writes `contents` to `path`; the diagnostic names the file.
Status writeFile(const std::string &path, const std::string &contents);
/// An output an option names (--svg, --out): `path` "-" puts `contents` in
/// place of the reply's text (reply.json[key]); any other path is written
/// (reply.json[key + "_file"]).
Status putOutput(Reply &reply, const std::string &contents,
                 const std::string &path, const std::string &key);
/// With --svg FILE, writes `svg` there (reply.json["svg_file"]); with
/// --svg -, the picture replaces the reply's text (and is reply.json["svg"]).
Status attachSvg(const Invocation &inv, const std::string &svg, Reply &reply);

Expected<Reply> runShow(const Invocation &inv);
/// `parse GRAMMAR TEXT`: the canonical print form of a basis descriptor or
/// a layout attribute.
Expected<Reply> runParse(const Invocation &inv);
Expected<Reply> runEval(const Invocation &inv);
Expected<Reply> runSwizzle(const Invocation &inv);

//===----------------------------------------------------------------------===//
// Algebra (AlgebraCommands.cpp)
//===----------------------------------------------------------------------===//

/// The registry's operation named like the command (api/CuteOps.h): each
/// parameter read by its kind (a PROFILE parameter from --profile), the
/// answer printed by its kind.
Expected<Reply> runCuteOp(const Invocation &inv);
Expected<Reply> runFlatten(const Invocation &inv);
Expected<Reply> runGroupModes(const Invocation &inv);
Expected<Reply> runShapeDiv(const Invocation &inv);
Expected<Reply> runCeilDiv(const Invocation &inv);
Expected<Reply> runEquivalent(const Invocation &inv);

//===----------------------------------------------------------------------===//
// Tile layouts (TileCommands.cpp): the `layoutkit tile ...` family
//===----------------------------------------------------------------------===//

/// The rows of the tile family.
std::vector<CommandSpec> tileCommands();

//===----------------------------------------------------------------------===//
// Hardware (HwCommands.cpp): the `layoutkit hw ...` family
//===----------------------------------------------------------------------===//

/// The rows of the hw family.
std::vector<CommandSpec> hwCommands();

//===----------------------------------------------------------------------===//
// Linear layouts (LinearCommands.cpp): the `layoutkit linear ...` family
//===----------------------------------------------------------------------===//

/// The rows of the linear family.
std::vector<CommandSpec> linearCommands();

//===----------------------------------------------------------------------===//
// Conversion plans (PlanCommands.cpp): `layoutkit plan SRC DST`
//===----------------------------------------------------------------------===//

/// The rows of the plan command.
std::vector<CommandSpec> planCommands();

// The paper's evaluation (PaperCommands.cpp): `layoutkit paper ...`
std::vector<CommandSpec> paperCommands();

//===----------------------------------------------------------------------===//
// The browser demo (DemoCommand.cpp): `layoutkit demo`
//===----------------------------------------------------------------------===//

Expected<Reply> runDemo(const Invocation &inv);
/// The row of the demo command.
std::vector<CommandSpec> demoCommands();

//===----------------------------------------------------------------------===//
// Testing (ConformanceCommand.cpp)
//===----------------------------------------------------------------------===//

Expected<Reply> runConformanceCommand(const Invocation &inv);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_HANDLERS_H
