//===- DemoServer.cpp - A tiny static file server for the demo ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "cli/DemoServer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <system_error>
#include <thread>

namespace lk::cli {

namespace {

constexpr size_t kMaxHead = 8192;
constexpr int64_t kMaxFile = int64_t(64) << 20;

struct TypeRow {
  std::string_view ext, type;
};
constexpr TypeRow kTypes[] = {
    {".html", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".wasm", "application/wasm"},
    {".svg", "image/svg+xml"},
    {".json", "application/json"},
    {".png", "image/png"},
    {".txt", "text/plain; charset=utf-8"},
};

bool pathChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '/' || c == '-';
}

using Clock = std::chrono::steady_clock;

/// Milliseconds left until `deadline` (0 when passed).
int msLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                  deadline - Clock::now())
                  .count();
  return left <= 0 ? 0 : int(std::min<long long>(left, INT_MAX));
}

/// Waits until fd is ready for `events` or the deadline passes.
bool waitFor(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    int ms = msLeft(deadline);
    if (ms == 0)
      return false;
    pollfd p{fd, events, 0};
    int n = ::poll(&p, 1, ms);
    if (n > 0)
      return true;
    if (n == 0 || errno != EINTR)
      return false;
  }
}

/// Writes all of `data` before `deadline`; false when the client is gone or
/// too slow.
bool sendAll(int fd, std::string_view data, Clock::time_point deadline) {
  while (!data.empty()) {
    if (!waitFor(fd, POLLOUT, deadline))
      return false;
    ssize_t n =
        ::send(fd, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
      continue;
    if (n <= 0)
      return false;
    data.remove_prefix(size_t(n));
  }
  return true;
}

void reply(int fd, int status, std::string_view reason, std::string_view type,
           std::string_view body, bool head, Clock::time_point deadline) {
  std::ostringstream h;
  h << "HTTP/1.1 " << status << " " << reason << "\r\n"
    << "Content-Type: " << type << "\r\n"
    << "Content-Length: " << body.size() << "\r\n"
    << "Cache-Control: no-store\r\nConnection: close\r\n\r\n";
  if (sendAll(fd, h.str(), deadline) && !head)
    sendAll(fd, body, deadline);
}

/// The request head as read before the deadline.
struct Head {
  std::string text;
  bool complete = false; ///< the blank line arrived
  bool tooLong = false;  ///< kMaxHead bytes without the blank line
};

/// Reads the request head (up to the blank line), at most kMaxHead bytes,
/// all of it before `deadline` (one recv timeout per byte would let a
/// client sending a byte every few seconds hold the connection forever).
Head readHead(int fd, Clock::time_point deadline) {
  Head h;
  char buf[1024];
  while (h.text.size() < kMaxHead) {
    if (h.text.find("\r\n\r\n") != std::string::npos ||
        h.text.find("\n\n") != std::string::npos) {
      h.complete = true;
      return h;
    }
    if (!waitFor(fd, POLLIN, deadline))
      return h;
    ssize_t n = ::recv(fd, buf, std::min(sizeof buf, kMaxHead - h.text.size()),
                       MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
      continue;
    if (n <= 0)
      return h;
    h.text.append(buf, size_t(n));
  }
  h.complete = h.text.find("\r\n\r\n") != std::string::npos ||
               h.text.find("\n\n") != std::string::npos;
  h.tooLong = !h.complete;
  return h;
}

/// Ends the connection without a reset: no more writes, then the unread
/// input (at most 1 MiB, for at most 250 ms) is drained before the close.
void closeGracefully(int fd) {
  ::shutdown(fd, SHUT_WR);
  auto deadline = Clock::now() + std::chrono::milliseconds(250);
  char buf[4096];
  size_t drained = 0;
  while (drained < (size_t(1) << 20) && waitFor(fd, POLLIN, deadline)) {
    ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n <= 0)
      break;
    drained += size_t(n);
  }
  ::close(fd);
}

/// The resolved directory of `root` ("" when it does not resolve).
std::string resolvedRoot(const std::string &root) {
  char *r = ::realpath(root.c_str(), nullptr);
  if (!r)
    return "";
  std::string s(r);
  std::free(r);
  return s;
}

/// The file's bytes when `root + path` resolves (symlinks followed) to a
/// regular file of at most kMaxFile bytes inside `realRoot`.
std::optional<std::string> readFile(const std::string &realRoot,
                                    const std::string &root,
                                    const std::string &path) {
  if (realRoot.empty())
    return std::nullopt;
  char *r = ::realpath((root + path).c_str(), nullptr);
  if (!r)
    return std::nullopt;
  std::string real(r);
  std::free(r);
  if (real.compare(0, realRoot.size(), realRoot) != 0 ||
      real.size() <= realRoot.size() || real[realRoot.size()] != '/')
    return std::nullopt;
  struct stat st;
  if (::stat(real.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size > kMaxFile)
    return std::nullopt;
  std::ifstream in(real, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// What the connection threads share.
struct Shared {
  std::string root, realRoot;
  std::ostream &log;
  ServerLimits limits;
  std::mutex mu; ///< guards log and active
  std::condition_variable idle;
  int active = 0;

  void logLine(const std::string &line) {
    std::lock_guard<std::mutex> g(mu);
    log << line << "\n";
    log.flush();
  }
};

void handle(int fd, Shared &sh) {
  auto start = Clock::now();
  auto writeBy = start + std::chrono::milliseconds(sh.limits.headMs) +
                 std::chrono::milliseconds(sh.limits.writeMs);
  Head head = readHead(fd, start + std::chrono::milliseconds(sh.limits.headMs));
  std::string line = head.text.substr(0, head.text.find_first_of("\r\n"));
  if (head.tooLong) {
    reply(fd, 431, "Request Header Fields Too Large",
          "text/plain; charset=utf-8",
          "the request head is longer than " + std::to_string(kMaxHead) +
              " bytes\n",
          false, writeBy);
    sh.logLine("431 " + logText(line.substr(0, 200)));
    return;
  }
  if (!head.complete) {
    // Idle, too slow or gone: no answer, just the log line.
    sh.logLine("408 " + logText(line.substr(0, 200)));
    return;
  }
  bool isHead = line.rfind("HEAD ", 0) == 0;
  auto path = requestPath(line);
  if (!path) {
    bool badMethod = path.error().message.find("method") != std::string::npos;
    reply(fd, badMethod ? 405 : 400,
          badMethod ? "Method Not Allowed" : "Bad Request",
          "text/plain; charset=utf-8", path.error().message + "\n", isHead,
          writeBy);
    sh.logLine((badMethod ? "405 " : "400 ") + logText(line.substr(0, 200)));
    return;
  }
  std::optional<std::string> body = readFile(sh.realRoot, sh.root, *path);
  if (!body) {
    reply(fd, 404, "Not Found", "text/plain; charset=utf-8",
          "not found: " + *path + "\n", isHead, writeBy);
    sh.logLine("404 " + *path);
    return;
  }
  reply(fd, 200, "OK", contentType(*path), *body, isHead, writeBy);
  sh.logLine("200 " + *path);
}

} // namespace

Expected<std::string> requestPath(std::string_view line) {
  size_t sp = line.find(' ');
  if (sp == std::string_view::npos)
    return Diagnostic::error("malformed request line");
  std::string_view method = line.substr(0, sp);
  if (method != "GET" && method != "HEAD")
    return Diagnostic::error("method '" + std::string(method.substr(0, 16)) +
                             "' not allowed (GET only)");
  std::string_view rest = line.substr(sp + 1);
  std::string_view target = rest.substr(0, rest.find(' '));
  target = target.substr(0, target.find_first_of("?#"));
  if (target.empty() || target[0] != '/')
    return Diagnostic::error("the path must start with '/'");
  for (char c : target)
    if (!pathChar(c))
      return Diagnostic::error("unexpected character in the path");
  if (target.find("//") != std::string_view::npos)
    return Diagnostic::error("empty path segment");
  std::string path(target);
  for (size_t i = 0; i < path.size();) {
    size_t j = path.find('/', i + 1);
    std::string_view seg = std::string_view(path).substr(
        i + 1, j == std::string::npos ? std::string::npos : j - i - 1);
    if (seg == "..")
      return Diagnostic::error("'..' in the path");
    if (!seg.empty() && seg[0] == '.')
      return Diagnostic::error("a path segment starting with '.' (hidden "
                               "files are not served)");
    if (j == std::string::npos)
      break;
    i = j;
  }
  if (path.back() == '/')
    path += "index.html";
  return path;
}

std::string_view contentType(std::string_view path) {
  for (const TypeRow &r : kTypes)
    if (path.size() >= r.ext.size() &&
        path.substr(path.size() - r.ext.size()) == r.ext)
      return r.type;
  return "application/octet-stream";
}

Expected<Listener> listenLocal(int port) {
  if (port < 0 || port > 65535)
    return Diagnostic::error("port " + std::to_string(port) +
                             " is outside 0..65535");
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0)
    return Diagnostic::error(std::string("socket: ") + std::strerror(errno));
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
      ::listen(fd, 16) != 0) {
    std::string why = std::strerror(errno);
    ::close(fd);
    return Diagnostic::error(
        "cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + why);
  }
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
  return Listener{fd, int(ntohs(a.sin_port))};
}

std::string logText(std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += char(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

void serveStatic(const Listener &l, const std::string &root,
                 int64_t maxRequests, std::ostream &log,
                 const ServerLimits &limits) {
  Shared sh{root, resolvedRoot(root), log, limits, {}, {}, 0};
  for (int64_t accepted = 0; maxRequests < 0 || accepted < maxRequests;) {
    int c = ::accept(l.fd, nullptr, nullptr);
    if (c < 0) {
      if (errno == EINTR || errno == ECONNABORTED)
        continue;
      break;
    }
    ++accepted;
    {
      std::unique_lock<std::mutex> g(sh.mu);
      if (sh.active >= limits.maxConnections) {
        g.unlock();
        auto by = Clock::now() + std::chrono::seconds(1);
        reply(c, 503, "Service Unavailable", "text/plain; charset=utf-8",
              "too many connections\n", false, by);
        closeGracefully(c);
        sh.logLine("503 (connection cap of " +
                   std::to_string(limits.maxConnections) + " reached)");
        continue;
      }
      ++sh.active;
    }
    try {
      std::thread([c, &sh] {
        handle(c, sh);
        closeGracefully(c);
        std::lock_guard<std::mutex> g(sh.mu);
        if (--sh.active == 0)
          sh.idle.notify_all();
      }).detach();
    } catch (const std::system_error &e) {
      // No thread to be had (threads or address space exhausted, e.g.
      // under `ulimit -v`): this client is turned away, the server lives.
      {
        std::lock_guard<std::mutex> g(sh.mu);
        --sh.active;
      }
      auto by = Clock::now() + std::chrono::seconds(1);
      reply(c, 503, "Service Unavailable", "text/plain; charset=utf-8",
            "no thread for this connection\n", false, by);
      closeGracefully(c);
      sh.logLine(std::string("503 (no thread for the connection: ") + e.what() +
                 ")");
    }
  }
  std::unique_lock<std::mutex> g(sh.mu);
  sh.idle.wait(g, [&] { return sh.active == 0; });
}

} // namespace lk::cli
