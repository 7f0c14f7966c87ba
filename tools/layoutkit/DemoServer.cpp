//===- DemoServer.cpp - A tiny static file server for the demo ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/DemoServer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

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
         (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '/' ||
         c == '-';
}

void sendAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0)
      return;
    data.remove_prefix(size_t(n));
  }
}

void reply(int fd, int status, std::string_view reason, std::string_view type,
           std::string_view body, bool head) {
  std::ostringstream h;
  h << "HTTP/1.1 " << status << " " << reason << "\r\n"
    << "Content-Type: " << type << "\r\n"
    << "Content-Length: " << body.size() << "\r\n"
    << "Cache-Control: no-store\r\nConnection: close\r\n\r\n";
  sendAll(fd, h.str());
  if (!head)
    sendAll(fd, body);
}

/// Reads the request head (up to the blank line), at most kMaxHead bytes.
std::string readHead(int fd) {
  std::string head;
  char buf[1024];
  while (head.size() < kMaxHead && head.find("\r\n\r\n") == std::string::npos &&
         head.find("\n\n") == std::string::npos) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0)
      break;
    head.append(buf, size_t(n));
  }
  return head;
}

/// The file's bytes when it is a regular file of at most kMaxFile bytes.
std::optional<std::string> readFile(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size > kMaxFile)
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void handle(int fd, const std::string &root, std::ostream &log) {
  std::string head = readHead(fd);
  std::string line = head.substr(0, head.find_first_of("\r\n"));
  bool isHead = line.rfind("HEAD ", 0) == 0;
  auto path = requestPath(line);
  if (!path) {
    bool badMethod = path.error().message.find("method") != std::string::npos;
    reply(fd, badMethod ? 405 : 400,
          badMethod ? "Method Not Allowed" : "Bad Request",
          "text/plain; charset=utf-8", path.error().message + "\n", isHead);
    log << (badMethod ? "405 " : "400 ") << line.substr(0, 200) << "\n";
    return;
  }
  std::optional<std::string> body = readFile(root + *path);
  if (!body) {
    reply(fd, 404, "Not Found", "text/plain; charset=utf-8",
          "not found: " + *path + "\n", isHead);
    log << "404 " << *path << "\n";
    return;
  }
  reply(fd, 200, "OK", contentType(*path), *body, isHead);
  log << "200 " << *path << "\n";
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
    std::string_view seg =
        std::string_view(path).substr(i + 1, j == std::string::npos
                                                 ? std::string::npos
                                                 : j - i - 1);
    if (seg == "..")
      return Diagnostic::error("'..' in the path");
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
    return Diagnostic::error("cannot listen on 127.0.0.1:" +
                             std::to_string(port) + ": " + why);
  }
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
  return Listener{fd, int(ntohs(a.sin_port))};
}

void serveStatic(const Listener &l, const std::string &root,
                 int64_t maxRequests, std::ostream &log) {
  for (int64_t served = 0; maxRequests < 0 || served < maxRequests; ++served) {
    int c = ::accept(l.fd, nullptr, nullptr);
    if (c < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    timeval tv{5, 0};
    ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    handle(c, root, log);
    log.flush();
    ::close(c);
  }
}

} // namespace lk::cli
