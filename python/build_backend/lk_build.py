"""PEP 517 build backend for the layoutkit Python package (standard library only).

`pip install ./python` calls `build_wheel` here. It configures the
repository's CMake project with only the libraries and the pybind11 module
enabled, builds the `_layoutkit` target, and zips the module with the pure
Python files of python/layoutkit/ into a wheel. Nothing is fetched: the
backend needs no setuptools or wheel, with or without build isolation.

Environment:
  CMAKE_ARGS                  extra configure arguments, appended after the
                              backend's own (a later -D wins), e.g.
                              "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  CMAKE_BUILD_PARALLEL_LEVEL  build jobs (CMake's own variable)
  LK_WHEEL_BUILD_DIR          keep the CMake build there (default: a
                              temporary directory removed afterwards)

`build_sdist` writes the repository's tracked sources with a root
pyproject.toml, so that the sdist builds with this same backend.
"""
import base64
import hashlib
import io
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile

PACKAGE_DIR = pathlib.Path(__file__).resolve().parents[1]  # python/
ROOT = PACKAGE_DIR.parent  # the repository (or the unpacked sdist)


def _project():
    """The [project] table of python/pyproject.toml: name, version, ..."""
    text = (PACKAGE_DIR / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib  # Python 3.11+
        return tomllib.loads(text)["project"]
    except ImportError:
        # Older Pythons: the flat `key = "value"` lines of [project] suffice.
        section = text.split("[project]", 1)[1].split("\n[", 1)[0]
        return dict(re.findall(r'^(\w[\w-]*)\s*=\s*"([^"]*)"', section, re.M))


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project.get('description', '')}",
        f"Requires-Python: {project.get('requires-python', '>=3')}",
    ]
    lic = project.get("license")
    if isinstance(lic, dict) and "text" in lic:
        lines.append(f"License: {lic['text']}")
    for extra, reqs in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in reqs]
    readme = PACKAGE_DIR / project.get("readme", "README.md")
    body = readme.read_text(encoding="utf-8") if readme.is_file() else ""
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + body


def _tag():
    """cpXY-cpXY-<platform>: the module is built for this interpreter only."""
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    plat = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{impl}-{impl}-{plat}"


def _dist_info(project):
    return f"{project['name']}-{project['version']}.dist-info"


def _write_dist_info(directory, project):
    info = pathlib.Path(directory) / _dist_info(project)
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata(project), encoding="utf-8")
    (info / "WHEEL").write_text(
        "Wheel-Version: 1.0\nGenerator: lk_build\nRoot-Is-Purelib: false\n"
        f"Tag: {_tag()}\n", encoding="utf-8")
    (info / "top_level.txt").write_text("layoutkit\n", encoding="utf-8")
    return info.name


def _cmake_build(build_dir):
    """Configures and builds `_layoutkit`; returns the built package folder."""
    configure = [
        "cmake", "-S", str(ROOT), "-B", str(build_dir),
        "-DCMAKE_BUILD_TYPE=Release", f"-DPYTHON_EXECUTABLE={sys.executable}",
        "-DLK_BUILD_PYTHON=ON", "-DLK_BUILD_TOOLS=OFF", "-DLK_BUILD_TESTS=OFF",
        "-DLK_BUILD_BENCH=OFF", "-DLK_BUILD_EXAMPLES=OFF", "-DLK_BUILD_MLIR=OFF",
    ]
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
    subprocess.run(configure, check=True, stdout=sys.stderr)
    subprocess.run(["cmake", "--build", str(build_dir), "--target", "_layoutkit"],
                   check=True, stdout=sys.stderr)
    package = pathlib.Path(build_dir) / "python" / "layoutkit"
    if not any(package.glob("_layoutkit*.so")) and not any(package.glob("_layoutkit*.pyd")):
        raise RuntimeError(f"the build made no _layoutkit module in {package} "
                           "(is pybind11-dev installed?)")
    return package


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"{arcname},sha256={digest.decode()},{len(data)}"


def _zip_wheel(path, package, project):
    """The wheel: layoutkit/* from the build, the dist-info, and RECORD."""
    record = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        def add(arcname, data):
            wheel.writestr(arcname, data)
            record.append(_record_line(arcname, data))

        for f in sorted(package.iterdir()):
            if f.is_file() and f.suffix in (".py", ".pyi", ".so", ".pyd", ".typed"):
                add(f"layoutkit/{f.name}", f.read_bytes())
        with tempfile.TemporaryDirectory() as tmp:
            info = _write_dist_info(tmp, project)
            for f in sorted((pathlib.Path(tmp) / info).iterdir()):
                add(f"{info}/{f.name}", f.read_bytes())
        record_name = f"{_dist_info(project)}/RECORD"
        record.append(f"{record_name},,")
        wheel.writestr(record_name, "\n".join(record) + "\n")


# --- PEP 517 hooks -----------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _write_dist_info(metadata_directory, _project())


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = _project()
    name = f"{project['name']}-{project['version']}-{_tag()}.whl"
    keep = os.environ.get("LK_WHEEL_BUILD_DIR")
    if keep:
        package = _cmake_build(pathlib.Path(keep).resolve())
        _zip_wheel(pathlib.Path(wheel_directory) / name, package, project)
    else:
        with tempfile.TemporaryDirectory(prefix="lk-wheel-") as build_dir:
            package = _cmake_build(build_dir)
            _zip_wheel(pathlib.Path(wheel_directory) / name, package, project)
    return name


def _sdist_files():
    """The repository's files as git tracks them (else every file but builds)."""
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], check=True,
                             capture_output=True).stdout.decode()
        return [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        skip = re.compile(r"(^|/)(build[^/]*|node_modules|\.git|__pycache__)(/|$)")
        return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                if p.is_file() and not skip.search(str(p.relative_to(ROOT)))]


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = f"{project['name']}-{project['version']}"
    # The sdist's root is the repository's; its pyproject.toml is python/'s
    # with the backend and readme paths made relative to that root.
    pyproject = (PACKAGE_DIR / "pyproject.toml").read_text(encoding="utf-8")
    pyproject = pyproject.replace('backend-path = ["build_backend"]',
                                  'backend-path = ["python/build_backend"]')
    pyproject = pyproject.replace('readme = "README.md"', 'readme = "python/README.md"')
    path = pathlib.Path(sdist_directory) / f"{base}.tar.gz"
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for rel in _sdist_files():
            if (ROOT / rel).is_file():
                tar.add(ROOT / rel, arcname=f"{base}/{rel}")
        data = pyproject.encode()
        info = tarfile.TarInfo(f"{base}/pyproject.toml")
        info.size = len(data)
        info.mode = 0o644
        tar.addfile(info, io.BytesIO(data))
        meta = _metadata(project).encode()
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(meta)
        info.mode = 0o644
        tar.addfile(info, io.BytesIO(meta))
    return path.name
