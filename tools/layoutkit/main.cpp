//===- main.cpp - The layoutkit executable --------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/App.h"

#include <iostream>

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  int status = lk::cli::runLayoutkit(std::move(args), std::cout, std::cerr);
  std::cout.flush();
  return status;
}
