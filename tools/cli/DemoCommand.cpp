//===- DemoCommand.cpp - `layoutkit demo` ---------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Serves the browser demo (docs/demo.md) built by scripts/build-wasm.sh:
/// argument handling, then the static file server of DemoServer.h.
///
//===----------------------------------------------------------------------===//

#include "cli/DemoServer.h"
#include "cli/Handlers.h"

#include <sys/stat.h>

#include <iostream>

#ifndef LK_DEMO_DIR
#define LK_DEMO_DIR "build-wasm/web"
#endif

namespace lk::cli {

Expected<Reply> runDemo(const Invocation &inv) {
  std::string dir = inv.option("dir").value_or(LK_DEMO_DIR);
  struct stat st;
  if (::stat((dir + "/index.html").c_str(), &st) != 0 ||
      ::stat((dir + "/layoutkit.wasm").c_str(), &st) != 0)
    return Diagnostic::error("no demo built in '" + dir + "'")
        .note("build it with: bash scripts/build-wasm.sh (or pass --dir)");
  LK_TRY(int64_t port, inv.integerOption("port", 0));
  LK_TRY(int64_t requests, inv.integerOption("requests", -1));
  if (port < 0 || port > 65535)
    return Diagnostic::error("--port must be in 0..65535; got " +
                             std::to_string(port));
  LK_TRY(Listener l, listenLocal(int(port)));
  std::ostream &out = inv.out ? *inv.out : std::cout;
  out << "LayoutKit demo: http://127.0.0.1:" << l.port << "/ (serving " << dir
      << "; Ctrl-C stops)" << std::endl;
  serveStatic(l, dir, requests, inv.err ? *inv.err : std::cerr);
  Reply r;
  r.streamed = true;
  return r;
}

std::vector<CommandSpec> demoCommands() {
  return {{"demo",
           "Demo",
           "Serve the interactive layout demo (WebAssembly) on 127.0.0.1",
           "Serves the static files of the browser demo that "
           "scripts/build-wasm.sh builds (build-wasm/web/) and prints the "
           "address to open. GET only, files under the directory only; "
           "each request is logged on stderr.",
           {"layoutkit demo --port 8080"},
           {},
           {{"port", "N", "the port (default 0: a free port)"},
            {"dir", "DIR",
             "the demo's directory (default: build-wasm/web "
             "of the source tree)"},
            {"requests", "N",
             "stop after N requests (default: serve until "
             "stopped)"}},
           runDemo}};
}

} // namespace lk::cli
