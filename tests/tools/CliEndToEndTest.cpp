//===- CliEndToEndTest.cpp - The built executable through popen -----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace {

struct Process {
  int status = -1;
  std::string out;
};

std::string binary() { return std::string(LK_BINARY_DIR) + "/tools/layoutkit"; }

/// Runs the executable with `args` (already shell-quoted); stderr is
/// discarded.
Process runBinary(const std::string &args) {
  Process p;
  std::string cmd = "'" + binary() + "' " + args + " 2>/dev/null";
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe)
    return p;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0)
    p.out.append(buf, n);
  int raw = pclose(pipe);
  p.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return p;
}

class CliEndToEnd : public ::testing::Test {
protected:
  void SetUp() override {
    if (!std::filesystem::exists(binary()))
      GTEST_SKIP() << binary() << " is not built";
  }
};

TEST_F(CliEndToEnd, ShowPrintsRows) {
  // (2,3):(3,1): rows [0,1,2] and [3,4,5].
  Process p = runBinary("show '(2,3):(3,1)'");
  EXPECT_EQ(p.status, 0);
  EXPECT_NE(p.out.find("0 | 0 | 1 | 2 |"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("1 | 3 | 4 | 5 |"), std::string::npos) << p.out;
}

TEST_F(CliEndToEnd, JsonAndExitCodes) {
  Process p = runBinary("logical_divide 128:1 32:1 --json");
  ASSERT_EQ(p.status, 0);
  // 128:1 / 32:1 = (32,4):(1,32).
  EXPECT_EQ(nlohmann::json::parse(p.out)["result"]["layout"], "(32,4):(1,32)");
  EXPECT_EQ(runBinary("size '(2,3:(3,1)'").status, 1);
  EXPECT_EQ(runBinary("size").status, 2);
  EXPECT_EQ(runBinary("--help").status, 0);
}

TEST_F(CliEndToEnd, NegativeNumbersArePositional) {
  // B=3, M=5, S=-3 at 3622 -> 3878 (see CliInspectTest).
  Process p = runBinary("swizzle 3 5 -3 3622");
  EXPECT_EQ(p.status, 0);
  EXPECT_EQ(p.out, "3878\n");
}

} // namespace
