//===- App.cpp - CLI11 wiring of the command table ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds one CLI11 subcommand per row of commandRegistry(), parses the
/// arguments, runs the selected handler and prints its Reply as text or as
/// JSON. CLI11 reports parse errors by throwing; every exception stops here
/// and becomes an exit status.
///
//===----------------------------------------------------------------------===//

#include "cli/App.h"

#include "cli/Command.h"
#include "cli/Json.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <memory>

#ifndef LK_VERSION
#define LK_VERSION "0.1.0"
#endif

namespace lk::cli {

namespace {

constexpr int kExitInternal = 3;

/// The CLI11 objects and the storage they parse into for one subcommand.
struct Binding {
  const CommandSpec *spec = nullptr;
  CLI::App *app = nullptr;
  /// Storage of single-valued parameters, one per ParamSpec.
  std::vector<std::string> single;
  /// Storage of the variadic parameter, one per ParamSpec.
  std::vector<std::vector<std::string>> many;
  std::vector<CLI::Option *> params;
  std::vector<std::string> optionText;
  std::vector<CLI::Option *> options;
  bool json = false;
};

std::string examplesFooter(const CommandSpec &spec) {
  std::string footer;
  if (!spec.details.empty())
    footer += spec.details + "\n\n";
  if (!spec.examples.empty()) {
    footer += "Examples:\n";
    for (const std::string &e : spec.examples)
      footer += "  " + e + "\n";
  }
  return footer;
}

/// The CLI11 app a command is added to: the root, or for a command named
/// "FAMILY NAME" the FAMILY subcommand (created on first use).
CLI::App &parentOf(CLI::App &root, const CommandSpec &spec) {
  std::string family = familyOf(spec.name);
  if (family.empty())
    return root;
  for (CLI::App *sub : root.get_subcommands({}))
    if (sub->get_name() == family)
      return *sub;
  CLI::App *sub = root.add_subcommand(family, familySummary(family));
  sub->group(familyGroup(family));
  sub->require_subcommand(1);
  sub->footer("Run 'layoutkit " + family +
              " SUBCOMMAND --help' for the arguments and examples of one "
              "subcommand.");
  return *sub;
}

std::unique_ptr<Binding> bind(CLI::App &root, const CommandSpec &spec) {
  auto b = std::make_unique<Binding>();
  b->spec = &spec;
  CLI::App &parent = parentOf(root, spec);
  b->app = parent.add_subcommand(leafNameOf(spec.name), spec.summary);
  b->app->group(spec.group);
  b->app->footer(examplesFooter(spec));
  // Sized up front: CLI11 keeps pointers into these vectors.
  b->single.resize(spec.params.size());
  b->many.resize(spec.params.size());
  b->optionText.resize(spec.options.size());
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const ParamSpec &p = spec.params[i];
    CLI::Option *opt = p.arity == Arity::OneOrMore
                           ? b->app->add_option(p.name, b->many[i], p.help)
                           : b->app->add_option(p.name, b->single[i], p.help);
    opt->required(p.arity != Arity::Optional);
    opt->type_name(""); // the help text says what the argument is
    b->params.push_back(opt);
  }
  for (size_t i = 0; i < spec.options.size(); ++i) {
    const OptionSpec &o = spec.options[i];
    CLI::Option *opt;
    if (o.isFlag) {
      opt = b->app->add_flag("--" + o.name, o.help);
    } else {
      opt = b->app->add_option("--" + o.name, b->optionText[i], o.help);
      opt->type_name(o.valueName);
      if (!o.choices.empty())
        opt->check(CLI::IsMember(o.choices));
      if (o.required)
        opt->required();
    }
    b->options.push_back(opt);
  }
  for (size_t i = 0; i < spec.options.size(); ++i) // once all are declared
    if (!spec.options[i].needs.empty())
      b->options[i]->needs("--" + spec.options[i].needs);
  b->app->add_flag("--json", b->json,
                   "print a JSON object instead of text (errors too)");
  return b;
}

Invocation invocationOf(const Binding &b, bool json, std::ostream &out,
                        std::ostream &err) {
  Invocation inv;
  inv.spec = b.spec;
  inv.json = json || b.json;
  inv.out = &out;
  inv.err = &err;
  for (size_t i = 0; i < b.spec->params.size(); ++i) {
    if (b.params[i]->count() == 0)
      inv.values.emplace_back();
    else if (b.spec->params[i].arity == Arity::OneOrMore)
      inv.values.push_back(b.many[i]);
    else
      inv.values.push_back({b.single[i]});
  }
  for (size_t i = 0; i < b.spec->options.size(); ++i) {
    if (b.options[i]->count() == 0)
      inv.optionValues.emplace_back();
    else if (b.spec->options[i].isFlag)
      inv.optionValues.emplace_back("true");
    else
      inv.optionValues.emplace_back(b.optionText[i]);
  }
  return inv;
}

JsonValue inputsOf(const Invocation &inv) {
  JsonValue inputs = JsonValue::object();
  for (size_t i = 0; i < inv.spec->params.size(); ++i) {
    if (!inv.has(i))
      continue;
    const ParamSpec &p = inv.spec->params[i];
    if (p.arity == Arity::OneOrMore)
      inputs[p.name] = inv.values[i];
    else
      inputs[p.name] = inv.values[i].front();
  }
  for (size_t i = 0; i < inv.spec->options.size(); ++i)
    if (inv.optionValues[i])
      inputs["--" + inv.spec->options[i].name] = *inv.optionValues[i];
  return inputs;
}

/// JSON text that never throws on invalid UTF-8 in user input.
std::string dumpJson(const JsonValue &j) {
  return j.dump(-1, ' ', false, JsonValue::error_handler_t::replace);
}

bool wantsJson(const std::vector<std::string> &args) {
  for (const std::string &a : args) {
    if (a == "--")
      return false;
    if (a == "--json")
      return true;
  }
  return false;
}

/// The subcommand the arguments name ("show", "tile eval"), for the usage
/// hint; "" when none.
std::string subcommandIn(const std::vector<std::string> &args) {
  for (size_t i = 0; i < args.size(); ++i)
    for (const CommandSpec &spec : commandRegistry()) {
      if (args[i] == spec.name)
        return args[i];
      if (i + 1 < args.size() && familyOf(spec.name) == args[i] &&
          leafNameOf(spec.name) == args[i + 1])
        return spec.name;
    }
  for (const std::string &a : args)
    if (isFamily(a))
      return a;
  return "";
}

/// The first two non-option arguments.
std::vector<std::string> leadingWords(const std::vector<std::string> &args) {
  std::vector<std::string> words;
  for (const std::string &a : args) {
    if (a == "--" || words.size() == 2)
      break;
    if (!a.empty() && a[0] == '-')
      continue;
    words.push_back(a);
  }
  return words;
}

/// Prints a usage error (and its JSON form when --json was asked for).
int reportUsageError(const std::string &message, const std::string &hint,
                     const std::vector<std::string> &args, std::ostream &out,
                     std::ostream &err) {
  err << "layoutkit: error: " << message << "\n" << hint << "\n";
  if (wantsJson(args)) {
    Diagnostic d = Diagnostic::error(message);
    d.notes.push_back(hint);
    JsonValue j = errorToJson(d);
    j["kind"] = "usage";
    out << dumpJson(j) << "\n";
  }
  return kExitUsage;
}

int reportDiagnostic(const Diagnostic &d, bool json, std::ostream &out,
                     std::ostream &err) {
  err << d.render();
  if (json) {
    JsonValue j = errorToJson(d);
    j["kind"] = "input";
    out << dumpJson(j) << "\n";
  }
  return kExitBadInput;
}

int run(const std::vector<std::string> &args, std::ostream &out,
        std::ostream &err) {
  CLI::App root("layoutkit: inspect and compute CuTe layouts "
                "(shape:stride, swizzles, the layout algebra).",
                "layoutkit");
  root.set_version_flag("--version", std::string("layoutkit ") + toolVersion());
  root.require_subcommand(1);
  bool json = false;
  root.add_flag("--json", json, "print JSON (same as the subcommand's --json)");
  root.footer(
      "Run 'layoutkit SUBCOMMAND --help' for the arguments and examples "
      "of one subcommand.\nExit status: 0 ok, 1 input rejected, 2 "
      "usage error.");

  std::vector<std::unique_ptr<Binding>> bindings;
  for (const CommandSpec &spec : commandRegistry())
    bindings.push_back(bind(root, spec));

  // CLI11 would report an unknown subcommand as a missing one.
  std::vector<std::string> words = leadingWords(args);
  if (!words.empty()) {
    if (!isFamily(words[0]) && subcommandIn({words[0]}).empty())
      return reportUsageError("unknown subcommand '" + words[0] + "'",
                              "run 'layoutkit --help' for the list of "
                              "subcommands",
                              args, out, err);
    if (isFamily(words[0]) && words.size() == 2 &&
        subcommandIn(words) != words[0] + " " + words[1])
      return reportUsageError("unknown subcommand '" + words[0] + " " +
                                  words[1] + "'",
                              "run 'layoutkit " + words[0] +
                                  " --help' for the list of its subcommands",
                              args, out, err);
  }

  // CLI11 consumes a vector from its back.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    root.parse(reversed);
  } catch (const CLI::ParseError &e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
      return root.exit(e, out, err); // --help, --help-all, --version
    std::string sub = subcommandIn(args);
    return reportUsageError(e.what(),
                            "run 'layoutkit " + (sub.empty() ? "" : sub + " ") +
                                "--help' for usage",
                            args, out, err);
  }

  auto selected = std::find_if(bindings.begin(), bindings.end(),
                               [](const auto &b) { return b->app->parsed(); });
  if (selected == bindings.end()) {
    err << "layoutkit: error: no subcommand given\n";
    return kExitUsage;
  }
  const Binding &b = **selected;
  Invocation inv = invocationOf(b, json, out, err);
  Expected<Reply> reply = b.spec->run(inv);
  if (!reply)
    return reportDiagnostic(inv.locate(reply.error()), inv.json, out, err);
  if (reply->streamed)
    return reply->exitCode;
  if (inv.json) {
    JsonValue doc = {{"op", b.spec->name},
                     {"inputs", inputsOf(inv)},
                     {"result", reply->json}};
    if (reply->omitted > 0)
      doc["omitted"] = reply->omitted;
    out << dumpJson(doc) << "\n";
  } else {
    out << reply->text;
    if (reply->text.empty() || reply->text.back() != '\n')
      out << "\n";
  }
  return reply->exitCode;
}

} // namespace

const char *toolVersion() { return LK_VERSION; }

namespace {

/// The one place every command's output is finished: `out` is flushed and
/// a failed write (a full disk, a closed pipe, `> /dev/full`) turns a
/// successful status into kExitBadInput with a message on `err`.
int finishOutput(int status, std::ostream &out, std::ostream &err) {
  out.flush();
  if (out.good())
    return status;
  err << "layoutkit: error: writing the output failed (standard output "
         "full or closed)\n";
  err.flush();
  return status == kExitOk ? int(kExitBadInput) : status;
}

} // namespace

int runLayoutkit(std::vector<std::string> args, std::ostream &out,
                 std::ostream &err) {
  int status = kExitInternal;
  try {
    status = run(args, out, err);
  } catch (const std::exception &e) {
    err << "layoutkit: internal error: " << e.what() << "\n";
  } catch (...) {
    err << "layoutkit: internal error\n";
  }
  return finishOutput(status, out, err);
}

} // namespace lk::cli
