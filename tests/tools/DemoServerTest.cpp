//===- DemoServerTest.cpp - `layoutkit demo`'s static file server ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The request-line rules of DemoServer.h (GET only, no way out of the
// directory), real requests over a loopback socket, and hostile clients:
// symlinks out, dot-files, an over-long head, escape bytes, idle, slow and
// many parallel clients, the connection cap. Every client here is on
// 127.0.0.1, at most 24 at once, and every wait is bounded (the server's
// head deadline is cut to 300 ms for the test).
//
//===----------------------------------------------------------------------===//

#include "cli/DemoServer.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

using lk::cli::contentType;
using lk::cli::requestPath;

namespace {

TEST(DemoServer, PathOfAGet) {
  EXPECT_EQ(*requestPath("GET / HTTP/1.1"), "/index.html");
  EXPECT_EQ(*requestPath("GET /app.js?v=2#x HTTP/1.1"), "/app.js");
  EXPECT_EQ(*requestPath("HEAD /a/b-c_d.wasm HTTP/1.0"), "/a/b-c_d.wasm");
  EXPECT_EQ(*requestPath("GET /sub/ HTTP/1.1"), "/sub/index.html");
}

TEST(DemoServer, RefusesOtherMethods) {
  auto r = requestPath("POST /index.html HTTP/1.1");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("method 'POST' not allowed"),
            std::string::npos);
  EXPECT_FALSE(requestPath("GET"));
  EXPECT_FALSE(requestPath(""));
}

TEST(DemoServer, RefusesPathsOutsideTheRoot) {
  for (const char *line :
       {"GET /../etc/passwd HTTP/1.1", "GET /a/../../b HTTP/1.1",
        "GET /.. HTTP/1.1", "GET /%2e%2e/x HTTP/1.1",
        "GET //etc/passwd HTTP/1.1", "GET etc/passwd HTTP/1.1",
        "GET /a\\b HTTP/1.1"})
    EXPECT_FALSE(requestPath(line)) << line;
  // A dot inside a name is no parent reference.
  EXPECT_EQ(*requestPath("GET /a..b/c.txt HTTP/1.1"), "/a..b/c.txt");
}

TEST(DemoServer, ContentTypes) {
  EXPECT_EQ(contentType("/layoutkit.wasm"), "application/wasm");
  EXPECT_EQ(contentType("/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(contentType("/x"), "application/octet-stream");
}

std::string get(int port, const std::string &request) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
    ::close(fd);
    return "";
  }
  ::send(fd, request.data(), request.size(), 0);
  std::string out;
  char buf[512];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
    out.append(buf, size_t(n));
  ::close(fd);
  return out;
}

TEST(DemoServer, ServesAFileAndRefusesTheRest) {
  std::string root = ::testing::TempDir() + "lk_demo_server";
  std::remove((root + "/hello.txt").c_str());
  ::mkdir(root.c_str(), 0700);
  std::ofstream(root + "/hello.txt") << "hello";
  auto l = lk::cli::listenLocal(0);
  ASSERT_TRUE(l) << l.error().message;
  EXPECT_GT(l->port, 0);
  std::ostringstream log;
  std::thread server([&] { lk::cli::serveStatic(*l, root, 4, log); });
  std::string ok = get(l->port, "GET /hello.txt HTTP/1.0\r\n\r\n");
  std::string missing = get(l->port, "GET /nope.txt HTTP/1.0\r\n\r\n");
  std::string up = get(l->port, "GET /../hello.txt HTTP/1.0\r\n\r\n");
  std::string post = get(l->port, "POST /hello.txt HTTP/1.0\r\n\r\n");
  server.join();
  ::close(l->fd);
  EXPECT_EQ(ok.substr(0, 15), "HTTP/1.1 200 OK");
  EXPECT_EQ(ok.substr(ok.size() - 5), "hello");
  EXPECT_EQ(missing.substr(0, 12), "HTTP/1.1 404");
  EXPECT_EQ(up.substr(0, 12), "HTTP/1.1 400");
  EXPECT_EQ(post.substr(0, 12), "HTTP/1.1 405");
  EXPECT_EQ(log.str(), "200 /hello.txt\n404 /nope.txt\n400 GET /../hello.txt "
                       "HTTP/1.0\n405 POST /hello.txt HTTP/1.0\n");
}

using Clock = std::chrono::steady_clock;

int connectTo(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  timeval tv{5, 0}; // a test never waits longer on one read
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

/// Everything the server sends until it closes; "<reset>" appended when
/// the connection was reset instead of closed.
std::string readAll(int fd) {
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0)
    out.append(buf, size_t(n));
  if (n < 0 && errno == ECONNRESET)
    out += "<reset>";
  return out;
}

std::string makeRoot(const std::string &name) {
  namespace fs = std::filesystem;
  std::string root = ::testing::TempDir() + name;
  fs::remove_all(root);
  fs::create_directories(root + "/sub");
  std::ofstream(root + "/hello.txt") << "hello";
  std::ofstream(root + "/sub/in.txt") << "inside";
  std::ofstream(root + "/.secret") << "secret";
  fs::create_symlink("/etc/passwd", root + "/passwd.txt");
  fs::create_symlink("/etc", root + "/etc");
  fs::create_symlink(root + "/sub/in.txt", root + "/alias.txt");
  return root;
}

lk::cli::ServerLimits quick() {
  lk::cli::ServerLimits l;
  l.headMs = 300;
  l.writeMs = 2000;
  l.maxConnections = 8;
  return l;
}

/// A server of makeRoot(name) on an ephemeral loopback port, answering
/// `requests` connections on its own thread under `limits`; finish()
/// waits for it and closes the port (the destructor does, when a failed
/// assertion left early).
struct Served {
  std::string root;
  lk::Expected<lk::cli::Listener> listener;
  std::ostringstream log;
  std::thread thread;

  Served(const std::string &name, int requests, lk::cli::ServerLimits limits)
      : root(makeRoot(name)), listener(lk::cli::listenLocal(0)) {
    if (listener)
      thread = std::thread([this, requests, limits] {
        lk::cli::serveStatic(*listener, root, requests, log, limits);
      });
  }
  ~Served() { finish(); }
  int port() const { return listener->port; }
  void finish() {
    if (!thread.joinable())
      return;
    thread.join();
    ::close(listener->fd);
  }
};

TEST(DemoServer, OnlyRegularFilesInsideTheRoot) {
  Served s("lk_demo_files", 6, quick());
  ASSERT_TRUE(s.listener) << s.listener.error().message;
  std::string out = get(s.port(), "GET /passwd.txt HTTP/1.0\r\n\r\n");
  std::string dir = get(s.port(), "GET /etc/passwd HTTP/1.0\r\n\r\n");
  std::string dot = get(s.port(), "GET /.secret HTTP/1.0\r\n\r\n");
  std::string alias = get(s.port(), "GET /alias.txt HTTP/1.0\r\n\r\n");
  std::string sub = get(s.port(), "GET /sub/in.txt HTTP/1.0\r\n\r\n");
  std::string folder = get(s.port(), "GET /sub HTTP/1.0\r\n\r\n");
  s.finish();
  EXPECT_EQ(out.substr(0, 12), "HTTP/1.1 404");      // a link out of the root
  EXPECT_EQ(dir.substr(0, 12), "HTTP/1.1 404");      // through a linked folder
  EXPECT_EQ(dot.substr(0, 12), "HTTP/1.1 400");      // a dot-file
  EXPECT_EQ(alias.substr(0, 15), "HTTP/1.1 200 OK"); // a link that stays in
  EXPECT_EQ(alias.substr(alias.size() - 6), "inside");
  EXPECT_EQ(sub.substr(sub.size() - 6), "inside");
  EXPECT_EQ(folder.substr(0, 12), "HTTP/1.1 404"); // not a regular file
  EXPECT_EQ(out.find("root:"), std::string::npos);
}

TEST(DemoServer, LongHeadIs431AndEscapesAreLogged) {
  Served s("lk_demo_head", 2, quick());
  ASSERT_TRUE(s.listener) << s.listener.error().message;
  // 9000 bytes, no blank line: answered 431 and closed cleanly (no reset),
  // although the client wrote more than the server read.
  std::string longHead = "GET /" + std::string(9000, 'a');
  int fd = connectTo(s.port());
  ASSERT_GE(fd, 0);
  ::send(fd, longHead.data(), longHead.size(), MSG_NOSIGNAL);
  std::string answer = readAll(fd);
  ::close(fd);
  std::string esc = get(s.port(), "GET /\x1b[2J\x07 HTTP/1.0\r\n\r\n");
  s.finish();
  EXPECT_EQ(answer.substr(0, 46),
            "HTTP/1.1 431 Request Header Fields Too Large\r\n");
  EXPECT_EQ(answer.find("<reset>"), std::string::npos);
  EXPECT_EQ(esc.substr(0, 12), "HTTP/1.1 400");
  EXPECT_NE(s.log.str().find("400 GET /\\x1b[2J\\x07 HTTP/1.0\n"),
            std::string::npos)
      << s.log.str();
  EXPECT_EQ(s.log.str().find('\x1b'), std::string::npos);
  EXPECT_EQ(lk::cli::logText("a\\b\xff"), "a\\x5cb\\xff");
}

// An idle client and a slow one (a byte every 100 ms: 2.7 s for its 27
// bytes) stall nobody: 16 clients in parallel are all served while they hang
// on, each within 1.5 s, less than the 2 s head deadline a server serving
// one connection at a time would make them wait behind the idle one. The
// slow one is cut off at the deadline (plus the 250 ms drain), the idle one
// too.
TEST(DemoServer, IdleSlowAndParallelClients) {
  lk::cli::ServerLimits lim = quick();
  lim.maxConnections = 24;
  lim.headMs = 2000;
  Served s("lk_demo_parallel", 18, lim);
  ASSERT_TRUE(s.listener) << s.listener.error().message;
  int idle = connectTo(s.port());
  ASSERT_GE(idle, 0);
  auto slowStart = Clock::now();
  std::string slowAnswer;
  std::thread slow([&] {
    int fd = connectTo(s.port());
    std::string req = "GET /hello.txt HTTP/1.0\r\n\r\n";
    for (char c : req) {
      if (::send(fd, &c, 1, MSG_NOSIGNAL) != 1)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    slowAnswer = readAll(fd);
    ::close(fd);
  });
  std::vector<std::string> answers(16);
  std::vector<double> seconds(16);
  std::vector<std::thread> clients;
  for (int i = 0; i < 16; ++i)
    clients.emplace_back([&, i] {
      auto t0 = Clock::now();
      answers[size_t(i)] = get(s.port(), "GET /hello.txt HTTP/1.0\r\n\r\n");
      seconds[size_t(i)] =
          std::chrono::duration<double>(Clock::now() - t0).count();
    });
  for (std::thread &t : clients)
    t.join();
  slow.join();
  double slowSeconds =
      std::chrono::duration<double>(Clock::now() - slowStart).count();
  std::string idleAnswer = readAll(idle); // cut off at the head deadline
  ::close(idle);
  s.finish();
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(answers[size_t(i)].substr(0, 15), "HTTP/1.1 200 OK") << i;
    EXPECT_LT(seconds[size_t(i)], 1.5) << i;
  }
  // The server stops reading at 2 s and closes by 2.25 s without an
  // answer; the client's next sends fail (all 27 bytes take 2.7 s).
  EXPECT_LT(slowSeconds, 5.0);
  EXPECT_EQ(slowAnswer.find("HTTP/1.1"), std::string::npos) << slowAnswer;
  EXPECT_EQ(idleAnswer, "");
  // Two cut off (idle: "408 ", slow: "408 GET /hel..."), 16 served.
  std::string text = s.log.str();
  size_t cut = 0, served = 0;
  for (size_t p = 0; (p = text.find("408 ", p)) != std::string::npos; ++p)
    ++cut;
  for (size_t p = 0; (p = text.find("200 /hello.txt", p)) != std::string::npos;
       ++p)
    ++served;
  EXPECT_EQ(cut, 2u) << text;
  EXPECT_EQ(served, 16u) << text;
}

// Beyond maxConnections at once, a connection is answered 503 at once.
TEST(DemoServer, ConnectionCap) {
  lk::cli::ServerLimits lim = quick();
  lim.maxConnections = 2;
  lim.headMs = 1000;
  Served s("lk_demo_cap", 3, lim);
  ASSERT_TRUE(s.listener) << s.listener.error().message;
  int a = connectTo(s.port()), b = connectTo(s.port());
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100)); // both accepted
  auto t0 = Clock::now();
  std::string third = get(s.port(), "GET /hello.txt HTTP/1.0\r\n\r\n");
  double took = std::chrono::duration<double>(Clock::now() - t0).count();
  ::close(a);
  ::close(b);
  s.finish();
  EXPECT_EQ(third.substr(0, 12), "HTTP/1.1 503");
  EXPECT_LT(took, 0.9); // before the two idle ones time out
  EXPECT_NE(s.log.str().find("503 (connection cap of 2 reached)"),
            std::string::npos)
      << s.log.str();
}

} // namespace
