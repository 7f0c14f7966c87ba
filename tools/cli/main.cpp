//===- main.cpp - The layoutkit executable --------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "cli/App.h"

#include <iostream>

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  // runLayoutkit flushes std::cout and reports a failed write itself.
  return lk::cli::runLayoutkit(std::move(args), std::cout, std::cerr);
}
