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
///  * clients are served concurrently, one thread per connection, at most
///    ServerLimits::maxConnections at once (one more is answered 503 and
///    closed); one request per connection (Connection: close);
///  * the whole request head must arrive within ServerLimits::headMs (a
///    client sending a byte now and then is cut off there; an idle one
///    too, without stalling anyone else); a head over 8 KiB is answered
///    431 (Request Header Fields Too Large) and the rest of it is drained
///    before the close, so the client reads the answer (no reset);
///  * every answer must be written within ServerLimits::writeMs;
///  * the path is the request target up to '?' or '#'; it must start with
///    '/' and contain only [A-Za-z0-9._/-], no ".." segment, no "//" and no
///    segment starting with '.' (dot-files) (-> 400, no decoding of
///    %-escapes); "/" is /index.html;
///  * the file, resolved with realpath (symlinks followed), must be a
///    regular file inside the root's own resolved directory, of at most
///    64 MiB (-> 404): a link inside the root that leads out is not served;
///    the content type follows the extension (.wasm is application/wasm,
///    which streaming compilation needs);
///  * each request is logged as one line, its bytes outside printable
///    ASCII written as \xNN (no escape sequence reaches the terminal).
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

/// The server's bounds (see the file comment).
struct ServerLimits {
  int headMs = 5000;       ///< time for the whole request head
  int writeMs = 30000;     ///< time for the whole answer
  int maxConnections = 64; ///< connections served at once
};

/// `text` with every byte outside printable ASCII, and the backslash,
/// written as the four characters \xNN: the escape byte 0x1b becomes
/// "\x1b", so a request line cannot drive the terminal that shows the log.
std::string logText(std::string_view text);

/// Serves files under `root` on `l` until `maxRequests` connections were
/// accepted (negative: forever), then waits for those being served. Each
/// request is logged as one line.
void serveStatic(const Listener &l, const std::string &root,
                 int64_t maxRequests, std::ostream &log,
                 const ServerLimits &limits = {});

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_DEMOSERVER_H
