"""The C++ drivers of the native tests, compiled for the CPU under AddressSanitizer and UBSan,
each once per test session.

A driver takes tens of seconds to compile.  Module fixtures compiled it once per pytest-xdist
worker (each worker runs some of a module's tests), so CI compiled every driver twice; here the
workers share one folder and a lock per driver: the first worker to need a driver compiles it,
the others wait for it, and a worker that would only wait compiles another driver the session
needs meanwhile.
"""
import contextlib
import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cugraph_compressed.kernels import PACKAGE_ROOT

NATIVE = Path(__file__).resolve().parent

#: -g1: line tables only, what a sanitizer report's stack trace needs, compiled in two thirds
#: of -g's time.
FLAGS = ["-std=c++20", "-O1", "-g1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
         "-fno-omit-frame-pointer", "-Wall", "-Wno-unused-function", "-Wno-unknown-pragmas"]


def session_folder(tmp_path_factory, name: str) -> Path:
    """A folder of this test session shared by its xdist workers (each worker's base temporary
    folder lies in the session's; without xdist, the session's own)."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def compile_driver(source: Path, exe: Path, includes=(), options=()) -> None:
    """Compile ``source`` to ``exe`` with :data:`FLAGS` (skips where there is no compiler or no
    sanitizer runtime); ``exe`` appears whole or not at all."""
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.skip(f"no C++ compiler (g++) to build {source.name} for the CPU")
    partial = exe.with_name(exe.name + ".partial")
    cmd = [compiler, *FLAGS, *options, *(f"-I{path}" for path in (*includes, NATIVE,
                                                                  PACKAGE_ROOT)),
           str(source), "-o", str(partial)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0 and "sanitize" in done.stderr and "cannot find" in done.stderr:
        pytest.skip(f"the compiler has no sanitizer runtime: {done.stderr.strip()[:300]}")
    assert done.returncode == 0, done.stderr
    os.replace(partial, exe)


@contextlib.contextmanager
def _locked(path: Path, wait: bool = True):
    """Holds the lock file ``path`` (yields True), or yields False when another process holds
    it and ``wait`` is False."""
    with open(path, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_once(folder: Path, builds: dict, name: str) -> Path:
    """The driver ``folder / name``, compiled by ``builds[name](path)`` unless a process of this
    session already did.  While another process compiles it, this one compiles the other
    missing drivers of ``builds`` that no one is compiling (a failure there is left for the
    test that needs that driver to meet)."""
    exe = folder / name
    others = [other for other in builds if other != name]
    while not exe.exists():
        with _locked(folder / f"{name}.lock", wait=False) as mine:
            if mine:
                if not exe.exists():
                    builds[name](exe)
                return exe
        spare = next((other for other in others if not (folder / other).exists()), None)
        if spare is None:
            with _locked(folder / f"{name}.lock"):  # wait for the process compiling it
                pass
            others = []
            continue
        others.remove(spare)
        with _locked(folder / f"{spare}.lock", wait=False) as mine:
            if mine and not (folder / spare).exists():
                with contextlib.suppress(Exception, pytest.skip.Exception):
                    builds[spare](folder / spare)
    return exe
