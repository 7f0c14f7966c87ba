//===- App.h - The layoutkit command-line entry point ------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `runLayoutkit` is the whole tool as a function: it parses `args` (without
/// the program name), runs the selected subcommand, writes to `out` / `err`
/// and returns the exit status. main.cpp forwards to it; tests call it with
/// string streams.
///
/// Exit status: 0 success (also for --help and --version), 1 the input was
/// rejected (parse or algebra error), 2 usage error (unknown subcommand,
/// missing argument, bad option), 3 internal error.
///
/// Example:
///   std::ostringstream out, err;
///   int rc = runLayoutkit({"size", "(8,4):(1,8)"}, out, err);
///   // rc == 0, out.str() == "32\n"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_APP_H
#define LAYOUTKIT_TOOLS_APP_H

#include <ostream>
#include <string>
#include <vector>

namespace lk::cli {

/// The version `layoutkit --version` prints.
const char *toolVersion();

/// Runs the tool on `args` (argv without argv[0]); never throws.
int runLayoutkit(std::vector<std::string> args, std::ostream &out,
                 std::ostream &err);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_APP_H
