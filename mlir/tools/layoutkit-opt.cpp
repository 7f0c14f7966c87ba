//===- layoutkit-opt.cpp - The tileas MLIR driver -------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the tileas dialect, the upstream func / arith / scf /
// affine dialects, every tileas pass and the pipeline `tileas-layout-pipeline`
// (docs/mlir.md). The input is refused before parsing when it nests deeper
// than lk::tileas::kMaxNestingDepth; parsing, verification and the passes
// run on a thread with a stack of lk::tileas::kDriverStackBytes, without
// MLIR's thread pool unless --mlir-disable-threading=false is given
// (docs/mlir.md, "Input bounds").
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/InputBounds.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <pthread.h>

#include <cstring>

#include <vector>

using namespace mlir;

/// Reads the input, refuses it when it nests too deep, runs mlir-opt on it
/// and writes the output file.
static LogicalResult runDriver(StringRef inputFilename,
                               StringRef outputFilename,
                               DialectRegistry &registry,
                               const MlirOptMainConfig &config) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return failure();
  }
  if (std::optional<size_t> at = lk::tileas::firstTooDeep(
          file->getBuffer(), lk::tileas::kMaxNestingDepth)) {
    llvm::SourceMgr sources;
    const char *where = file->getBufferStart() + *at;
    sources.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    sources.PrintMessage(
        llvm::SMLoc::getFromPointer(where), llvm::SourceMgr::DK_Error,
        "input nests deeper than " + llvm::Twine(lk::tileas::kMaxNestingDepth) +
            " brackets ({, (, [, <); refused before parsing");
    return failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return failure();
  }
  if (failed(MlirOptMain(output->os(), std::move(file), registry, config)))
    return failure();
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  lk::tileas::registerProgramDialects(registry);
  registry.insert<affine::AffineDialect>();
  registerCanonicalizerPass();
  registerCSEPass();
  lk::tileas::registerTileASPasses();
  lk::tileas::registerTileASLayoutPipeline();
  // Single-threaded unless asked otherwise: the passes follow alias and
  // dead-op chains recursively, and only this driver's thread has the
  // large stack (MLIR's pool threads have the default one).
  std::vector<char *> args(argv, argv + argc);
  bool threadingGiven = llvm::any_of(args, [](const char *a) {
    return llvm::StringRef(a).contains("mlir-disable-threading");
  });
  static char disableThreading[] = "--mlir-disable-threading";
  if (!threadingGiven)
    args.push_back(disableThreading);
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      static_cast<int>(args.size()), args.data(),
      "LayoutKit tileas optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(MlirOptMain(static_cast<int>(args.size()),
                                        args.data(), inputFilename,
                                        outputFilename, registry));
  struct Job {
    llvm::StringRef in, out;
    DialectRegistry &registry;
    MlirOptMainConfig &config;
    LogicalResult result = failure();
  } job{inputFilename, outputFilename, registry, config};
  // A raw pthread, not llvm::thread: when the stack cannot be had (an
  // address space limited below it, `ulimit -v`), the refusal is a
  // diagnostic and exit status 1, not LLVM's abort.
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, lk::tileas::kDriverStackBytes);
  pthread_t driver;
  int rc = pthread_create(
      &driver, &attr,
      [](void *p) -> void * {
        Job &j = *static_cast<Job *>(p);
        j.result = runDriver(j.in, j.out, j.registry, j.config);
        return nullptr;
      },
      &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    llvm::errs() << "layoutkit-opt: error: cannot start the driver thread "
                    "with its "
                 << (lk::tileas::kDriverStackBytes >> 20)
                 << " MiB stack: " << std::strerror(rc)
                 << " (is the address space limited, ulimit -v?)\n";
    return 1;
  }
  pthread_join(driver, nullptr);
  return asMainReturnCode(job.result);
}
