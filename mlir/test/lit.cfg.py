# lit configuration of the tileas dialect tests: every .mlir file under
# test/ runs its RUN lines with layoutkit-opt, FileCheck and not on PATH.
import os
import lit.formats

config.name = "LayoutKit-MLIR"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "run_mlir_examples.py", "unit"]
config.environment["PATH"] = os.pathsep.join(
    [config.lk_mlir_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%lk_source_dir", config.lk_source_dir))
