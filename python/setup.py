"""Builds layoutkit._layoutkit with the repository's CMake build.

The extension is configured from the repository root (this directory's
parent) with only the library and the module enabled, built by CMake, and
copied where setuptools expects it. Extra CMake arguments come from the
CMAKE_ARGS environment variable (e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache).
"""
import os
import pathlib
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        args = [
            "cmake", "-S", str(REPO), "-B", str(build),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DLK_BUILD_PYTHON=ON", "-DLK_BUILD_TOOLS=OFF", "-DLK_BUILD_TESTS=OFF",
            "-DLK_BUILD_BENCH=OFF", "-DLK_BUILD_EXAMPLES=OFF", "-DLK_BUILD_FUZZ=OFF",
            f"-DPYTHON_EXECUTABLE={sys.executable}",
        ] + shlex.split(os.environ.get("CMAKE_ARGS", ""))
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        subprocess.run(args, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        subprocess.run(["cmake", "--build", str(build), "--target", "_layoutkit",
                        "-j", jobs], check=True)
        built = next((build / "python" / "layoutkit").glob("_layoutkit*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


setup(ext_modules=[CMakeExtension("layoutkit._layoutkit")],
      cmdclass={"build_ext": CMakeBuild})
