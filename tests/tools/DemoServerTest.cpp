//===- DemoServerTest.cpp - `layoutkit demo`'s static file server ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The request-line rules of DemoServer.h (GET only, no way out of the
// directory) and one real request over a loopback socket.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/DemoServer.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

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
        "GET /.. HTTP/1.1", "GET /%2e%2e/x HTTP/1.1", "GET //etc/passwd HTTP/1.1",
        "GET etc/passwd HTTP/1.1", "GET /a\\b HTTP/1.1"})
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
  EXPECT_EQ(log.str(), "200 /hello.txt\n404 /nope.txt\n400 GET /../hello.txt HTTP/1.0\n405 POST /hello.txt HTTP/1.0\n");
}

} // namespace
