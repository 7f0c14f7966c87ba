//===- DemoServer.h - A tiny static file server for the demo ----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `layoutkit demo` serves the browser demo's static files (docs/demo.md)
/// from 127.0.0.1 with plain POSIX sockets. Deliberately small and bounded:
///
///  * GET (and HEAD) only; any other method -> 405;
///  * one request per connection, handled in turn (Connection: close); the
///    request head is read up to 8 KiB with a 5 s receive timeout (-> 400 or
///    a closed connection);
///  * the path is the request target up to '?' or '#'; it must start with
///    '/' and contain only [A-Za-z0-9._/-], no ".." segment and no "//"
///    (-> 400, no decoding of %-escapes); "/" is /index.html;
///  * the file must be a regular file under the root of at most 64 MiB
///    (-> 404); the content type follows the extension (.wasm is
///    application/wasm, which streaming compilation needs).
///
/// Example: requestPath("GET /app.js?x=1 HTTP/1.1") -> "/app.js";
///          requestPath("GET /../etc/passwd HTTP/1.1") -> error.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_DEMOSERVER_H
#define LAYOUTKIT_TOOLS_DEMOSERVER_H

#include "layoutkit/core/Expected.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace lk::cli {

/// The path a request line asks for ("/" -> "/index.html"), or the reason
/// it is refused (a method other than GET / HEAD, a malformed line, a path
/// outside the root).
Expected<std::string> requestPath(std::string_view requestLine);

/// The Content-Type for a file name's extension (octet-stream otherwise).
std::string_view contentType(std::string_view path);

/// A listening socket on 127.0.0.1.
struct Listener {
  int fd = -1;
  int port = 0;
};
/// Binds 127.0.0.1:port (0: a free port the system picks) and listens.
Expected<Listener> listenLocal(int port);

/// Serves files under `root` on `l` until `maxRequests` requests were
/// answered (negative: forever). Each request is logged as one line.
void serveStatic(const Listener &l, const std::string &root,
                 int64_t maxRequests, std::ostream &log);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_DEMOSERVER_H
