"""The functions run on arm64 (template.yaml's Architectures): the layer the build makes
(layers/engine/Makefile, the recipe `sam build` runs) must hold machine code for aarch64
only, whatever machine builds it, and the compiled modules the service imports must be
among that code."""

from __future__ import annotations

import glob
import json
import os
import shutil
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from blackjack_service.openapi import openapi_document

from .harness import ROOT

LAYER = ROOT / "layers" / "engine"

ELF_MAGIC = b"\x7fELF"
EM_AARCH64 = 183  # e_machine of Arm 64-bit (elf.h)
ELF_BYTE_ORDER = {1: "<", 2: ">"}  # e_ident[EI_DATA]: little-, big-endian

# The compiled modules the service imports: pydantic's validator core, the argon2 bindings
# (the password hashes) and cffi's backend, which those bindings load.
REQUIRED_MODULES = {"pydantic_core._pydantic_core", "_argon2_cffi_bindings._ffi", "_cffi_backend"}
# The file suffixes CPython 3.12 on Linux aarch64 imports an extension module from
# (importlib.machinery.EXTENSION_SUFFIXES there), most specific first.
AARCH64_EXTENSION_SUFFIXES = (".cpython-312-aarch64-linux-gnu.so", ".abi3.so", ".so")


def _python312() -> str | None:
    """A Python 3.12 that runs (the Makefile's PY312: on PATH, else pyenv's), or None."""
    candidates = [shutil.which("python3.12") or ""]
    candidates += sorted(glob.glob(str(Path.home() / ".pyenv/versions/3.12*/bin/python3.12")))
    for candidate in filter(None, candidates):
        # A pyenv shim runs only when PYENV_VERSION names a 3.12: ask for the real one.
        found = subprocess.run(
            [candidate, "-c", "import sys; print(sys.version_info[:2] == (3, 12), sys.executable)"],
            capture_output=True,
            text=True,
        )
        ok, _, executable = found.stdout.strip().partition(" ")
        if found.returncode == 0 and ok == "True":
            return executable
    return None


@pytest.fixture(scope="module")
def layer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The layer's python/ folder, built by the Makefile target sam runs (ARTIFACTS_DIR is
    where sam has it write)."""
    python = _python312()
    if python is None:
        pytest.skip("no python3.12 (the runtime's, which builds the layer) on PATH or in pyenv")
    artifacts = tmp_path_factory.mktemp("EngineLayer")
    document = artifacts / "openapi.json"  # what `make build` writes before sam builds
    document.write_text(json.dumps(openapi_document()))
    # Not the make running these tests, if one does: its flags are not the build's.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    built = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-C",
            str(LAYER),
            "build-EngineLayer",
            f"ARTIFACTS_DIR={artifacts}",
            f"PYTHON={python}",
            f"DOCUMENT={document}",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, f"the layer's build failed:\n{built.stdout}\n{built.stderr}"
    return artifacts / "python"


def _files(root: Path) -> Iterator[Path]:
    return (path for path in sorted(root.rglob("*")) if path.is_file() and not path.is_symlink())


def _is_elf(path: Path) -> bool:
    with path.open("rb") as file:
        return file.read(len(ELF_MAGIC)) == ELF_MAGIC


def _machine(path: Path) -> int:
    """e_machine, from the ELF header: e_ident (16 bytes), e_type, e_machine (2 bytes each, in
    the byte order e_ident[EI_DATA] gives)."""
    with path.open("rb") as file:
        header = file.read(20)
    order = ELF_BYTE_ORDER[header[5]]
    (machine,) = struct.unpack_from(f"{order}H", header, 18)
    return int(machine)


def _module_name(layer: Path, path: Path) -> str:
    """The module an extension file is imported as on aarch64, or its path if none is."""
    relative = path.relative_to(layer).as_posix()
    for suffix in AARCH64_EXTENSION_SUFFIXES:
        if relative.endswith(suffix):
            return relative.removesuffix(suffix).replace("/", ".")
    return relative


def _elf_files(layer: Path) -> list[Path]:
    """Every ELF file of the layer, found by its magic number, whatever its name."""
    return [path for path in _files(layer) if _is_elf(path)]


def test_every_elf_file_in_the_layer_is_aarch64(layer: Path) -> None:
    elves = _elf_files(layer)
    assert elves, "the layer holds no compiled code at all"
    machines = {path.relative_to(layer).as_posix(): _machine(path) for path in elves}
    assert {name: m for name, m in machines.items() if m != EM_AARCH64} == {}


def test_every_shared_object_file_is_an_elf(layer: Path) -> None:
    """A .so that is no ELF (a macOS or Windows build) would not load at all."""
    named = [path for path in _files(layer) if ".so" in path.suffixes]
    assert named
    assert [path.relative_to(layer).as_posix() for path in named if not _is_elf(path)] == []


def test_the_compiled_modules_the_service_imports_are_aarch64_ones(layer: Path) -> None:
    aarch64 = [path for path in _elf_files(layer) if _machine(path) == EM_AARCH64]
    modules = {_module_name(layer, path) for path in aarch64}
    assert modules >= REQUIRED_MODULES, f"missing: {sorted(REQUIRED_MODULES - modules)}"
