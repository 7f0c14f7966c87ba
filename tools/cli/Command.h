//===- Command.h - The layoutkit subcommand model ----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every `layoutkit` subcommand is one row of a table (`commandRegistry()`):
/// its name, help text, examples, positional parameters, options and a
/// handler. App.cpp turns each row into a CLI11 subcommand; the handler
/// receives an `Invocation` (the raw argument texts plus typed accessors
/// that parse them with the cute text grammar) and returns a `Reply` (a text
/// rendering and a JSON value) or the Diagnostic that explains the failure.
///
/// Example row (abridged):
///   {"size", "Number of coordinates of a layout", ...,
///    {{"LAYOUT", "the layout, e.g. ((2,4),8):((1,16),2)"}}, {},
///    [](const Invocation &inv) -> Expected<Reply> { ... }}
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_COMMAND_H
#define LAYOUTKIT_TOOLS_COMMAND_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace lk::cli {

/// JSON values of the tool's output; keys keep their insertion order so that
/// "op" comes first and a layout's "layout" text precedes its fields.
using JsonValue = nlohmann::ordered_json;

/// Process exit codes of the tool.
enum ExitCode : int {
  kExitOk = 0,
  /// The input text or the algebra rejected the arguments.
  kExitBadInput = 1,
  /// The command line itself is malformed (unknown subcommand, missing
  /// argument, bad option value).
  kExitUsage = 2,
};

/// How many values a positional parameter takes.
enum class Arity { One, Optional, OneOrMore };

/// A positional parameter, e.g. {"TILER", "a tiler, e.g. (4:1,_)"}.
struct ParamSpec {
  std::string name;
  std::string help;
  Arity arity = Arity::One;
};

/// A named option, e.g. {"profile", "P", "coalesce within ..."}. A flag
/// (`isFlag`) takes no value. `choices`, when not empty, are the only
/// accepted values.
struct OptionSpec {
  std::string name;
  std::string valueName = {}; ///< "" for a flag
  std::string help;
  bool isFlag = false;
  std::vector<std::string> choices = {};
  /// A missing required option is a usage error (exit 2), as a missing
  /// positional argument is.
  bool required = false;
  /// Another option of the command this one is meaningless without (e.g.
  /// "emit" for --out): giving it alone is a usage error (exit 2).
  std::string needs = {};
};

struct Invocation;

/// What a successful command produces: `text` for humans, `json` for the
/// `result` field of the --json object. When `streamed` is set the handler
/// already wrote its output and `exitCode` is the process status.
struct Reply {
  std::string text;
  JsonValue json;
  bool streamed = false;
  int exitCode = kExitOk;
  /// Items of a listing left out (see --all): the JSON object gets
  /// "omitted": N beside "result".
  int64_t omitted = 0;
};

using Handler = Expected<Reply> (*)(const Invocation &);

/// One row of the command table.
struct CommandSpec {
  std::string name;
  /// The heading `layoutkit --help` lists the command under.
  std::string group;
  /// One line, listed by `layoutkit --help`.
  std::string summary;
  /// Further paragraphs for `layoutkit NAME --help` (may be empty).
  std::string details;
  /// Command lines with their results, shown under "Examples:".
  std::vector<std::string> examples;
  std::vector<ParamSpec> params;
  std::vector<OptionSpec> options;
  Handler run = nullptr;
};

/// The arguments of one subcommand call, as texts, with parsing accessors.
/// Every accessor that fails returns a Diagnostic with a note naming the
/// parameter, so errors say which argument was wrong.
struct Invocation {
  const CommandSpec *spec = nullptr;
  /// values[i] holds the texts given for spec->params[i] (empty when an
  /// optional parameter was omitted).
  std::vector<std::vector<std::string>> values;
  /// Option values by option name; absent when not given.
  std::vector<std::optional<std::string>> optionValues;
  bool json = false;
  std::ostream *out = nullptr;
  std::ostream *err = nullptr;

  /// The text of parameter i. @pre has(i)
  const std::string &text(size_t i) const { return values[i].front(); }
  bool has(size_t i) const { return i < values.size() && !values[i].empty(); }
  /// The value of option `name` when given (flags give "true").
  std::optional<std::string> option(std::string_view name) const;

  Expected<cute::Layout> layout(size_t i) const;
  /// A plain layout or `Sw<B,M,S> o [offset o] layout`.
  Expected<cute::ComposedLayout> composedLayout(size_t i) const;
  Expected<cute::Tiler> tiler(size_t i) const;
  Expected<IntTuple> intTuple(size_t i) const;
  Expected<int64_t> integer(size_t i) const;
  /// Option `name` read as an IntTuple. @pre option(name) is set
  Expected<IntTuple> intTupleOption(std::string_view name) const;
  /// Option `name` read as a flat list of integers ("(2,128,112)", "8,16"),
  /// empty when it is not given; a fault is noted in option --NAME, with
  /// a caret under the option text.
  Expected<std::vector<int64_t>> leavesOption(std::string_view name) const;
  /// Option --dtype as an element type: the type named `fallback` when
  /// the option is not given, an error when it is required (no fallback);
  /// an unknown name's error notes the option.
  Expected<cute::ElementType> dtypeOption(const char *fallback = nullptr) const;
  /// The element type of a call on the layouts of parameters `layouts`:
  /// --dtype, else the one their texts name (a Triton tensor type), else
  /// `fallback` (api::callElementType); a named type's fault notes its
  /// parameter.
  Expected<cute::ElementType> elementType(std::initializer_list<size_t> layouts,
                                          const char *fallback = nullptr) const;
  /// Option `name` read as an integer, or `fallback` when it is not given.
  Expected<int64_t> integerOption(std::string_view name,
                                  int64_t fallback) const;

  /// `d` with the note "in argument NAME of 'COMMAND'" for parameter i,
  /// or locate's where d's parameter names an option the user gave
  /// (a Triton encoding read over --shape: a dim of --shape that is not a
  /// power of two is --shape's fault).
  Diagnostic inArgument(Diagnostic d, size_t i) const;
  /// `d` with the note "in option --NAME of 'COMMAND'".
  Diagnostic inOption(Diagnostic d, std::string_view name) const;
  /// `d` noted in option --P where its Diagnostic::parameter P names an
  /// option the user gave (e.g. --logical), else in argument P (upper
  /// case: "shape" is SHAPE) where the command has one, unless an argument
  /// or option is noted already; otherwise `d`. Every command's fault
  /// passes through it.
  Diagnostic locate(Diagnostic d) const;
  /// `e`, its diagnostic (if any) noted as in parameter i (inArgument).
  /// Example: `return inv.argument(cute::parseTiler(inv.text(1)), 1);`
  template <class T> Expected<T> argument(Expected<T> e, size_t i) const {
    if (!e)
      return inArgument(std::move(e).error(), i);
    return e;
  }
};

/// Whether `text` is written as a swizzled layout (starts with "Sw<").
bool looksSwizzled(std::string_view text);

/// The table of all subcommands, in the order `--help` lists them.
const std::vector<CommandSpec> &commandRegistry();

/// Commands come in families: a command named "tile eval" is run as
/// `layoutkit tile eval ...`. familyOf("tile eval") == "tile",
/// leafNameOf("tile eval") == "eval"; a plain name has family "".
std::string familyOf(std::string_view commandName);
std::string leafNameOf(std::string_view commandName);
/// True when some command belongs to family `name`.
bool isFamily(std::string_view name);
/// One line describing a family, for `layoutkit --help`.
std::string familySummary(std::string_view family);
/// The heading `layoutkit --help` lists a family under.
std::string familyGroup(std::string_view family);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_COMMAND_H
