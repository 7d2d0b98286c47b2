"""The functions run on arm64 (template.yaml's Architectures): the layer the build makes
(layers/engine/Makefile, the recipe `sam build` runs) must hold machine code for aarch64
only, whatever machine builds it, and the compiled modules the service imports must be
among that code, the analysis kernel included; that kernel, built for aarch64 and run
under qemu-user, must value hands as the host's does, and the layer stay under 20 MB."""

from __future__ import annotations

import glob
import json
import os
import shutil
import struct
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from blackjack.rules import TABLES
from blackjack.strategy import native
from blackjack.strategy.analysis import EMPTY, of_ranks, shoe_counts
from blackjack.strategy.dealer import RANKS, add
from blackjack_service.openapi import openapi_document

from .harness import ROOT

LAYER = ROOT / "layers" / "engine"

ELF_MAGIC = b"\x7fELF"
EM_AARCH64 = 183  # e_machine of Arm 64-bit (elf.h)
ELF_BYTE_ORDER = {1: "<", 2: ">"}  # e_ident[EI_DATA]: little-, big-endian

# The compiled modules the service imports: pydantic's validator core, the argon2 bindings
# (the password hashes) and cffi's backend, which those bindings load.
REQUIRED_MODULES = {"pydantic_core._pydantic_core", "_argon2_cffi_bindings._ffi", "_cffi_backend"}
KERNEL = "blackjack/strategy/_kernel.so"  # the analysis kernel (layers/engine/native)
MAX_LAYER_BYTES = 20_000_000
AARCH64_GLIBC = Path("/usr/aarch64-linux-gnu")  # Debian's libc6-arm64-cross, qemu-user's -L
# The file suffixes CPython 3.12 on Linux aarch64 imports an extension module from
# (importlib.machinery.EXTENSION_SUFFIXES there), most specific first.
AARCH64_EXTENSION_SUFFIXES = (".cpython-312-aarch64-linux-gnu.so", ".abi3.so", ".so")


def _build_env() -> dict[str, str]:
    """Not the make running these tests, if one does: its flags are not the build's."""
    return {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}


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
        env=_build_env(),
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


def test_the_layer_holds_the_analysis_kernel_for_aarch64(layer: Path) -> None:
    kernel = layer / KERNEL
    assert kernel.is_file(), "the layer has no analysis kernel: hints would run in Python"
    assert _is_elf(kernel) and _machine(kernel) == EM_AARCH64


def test_the_layer_stays_under_20_mb(layer: Path) -> None:
    size = sum(path.stat().st_size for path in _files(layer))
    assert size < MAX_LAYER_BYTES, f"{size / 1e6:.1f} MB"


def _queries() -> Iterator[tuple[native.KernelSolver, str]]:
    """Solvers of every table (fresh, part-dealt and fractional pools) and what to ask
    them, as check.c reads it."""
    comps = [EMPTY, of_ranks(9, 6), of_ranks(0, 5), of_ranks(1, 1, 2), of_ranks(7, 7)]
    for table in TABLES.values():
        rules = table.rules
        for up in (0, 1, 5, 9):
            full = add(shoe_counts(rules.decks), up, -1)
            part = tuple(n - n // 3 for n in full)
            average = tuple(n * 0.83 + 0.25 for n in full)
            for pool in (None, part, average):
                s = native.KernelSolver(rules, up, pool=pool)
                for comp in comps:
                    yield s, "dealer " + _numbers(comp)
                for hand in comps[1:]:
                    yield s, f"best {_numbers(hand)}"
                    for op in ("stand", "hit", "double", "surrender"):
                        yield s, f"{op} {_numbers(EMPTY)} {_numbers(hand)}"
                    yield s, f"hit {_numbers(of_ranks(7))} {_numbers(of_ranks(7, 2))}"
                for pair in (0, 7, 9):
                    yield s, f"split {pair} {_numbers(EMPTY)} 1"


def _numbers(values: Iterable[float]) -> str:
    return " ".join(repr(v) for v in values)


def _solver_line(s: native.KernelSolver) -> str:
    c = s.config
    legal = [c.split_legal[p][r] for p in range(RANKS) for r in range(RANKS)]
    return " ".join(
        [
            "solver",
            _numbers(tuple(c.counts)),
            repr(c.ten_of_rank),
            f"{c.up} {c.peeked} {c.any_21_pays_3_2} {c.same_rank_tens}",
            str(int(s.rules.dealer_hits_soft_17)),
            _numbers(tuple(c.max_hands)),
            _numbers(tuple(legal)),
        ]
    )


def _host_answer(s: native.KernelSolver, query: str) -> list[float]:
    op, *args = query.split()
    numbers = [int(a) for a in args]
    if op == "dealer":
        return s.dealer(tuple(numbers))
    if op == "best":
        return [s.best(tuple(numbers))]
    if op == "split":
        return [s.split(numbers[0], tuple(numbers[1:11]), numbers[11])]
    extra, hand = tuple(numbers[:10]), tuple(numbers[10:])
    return [
        {"stand": s.stand, "hit": s.hit, "double": s.double, "surrender": s.surrender}[op](
            extra, hand
        )
    ]


def test_the_aarch64_kernel_values_hands_as_the_hosts_does(tmp_path: Path) -> None:
    """native/check.c, the kernel as an aarch64 program, run under qemu-user on Debian's
    aarch64 glibc: every value equal to the host library's to the bit (kernel.mk: no fused
    multiply-adds)."""
    qemu = shutil.which("qemu-aarch64") or shutil.which("qemu-aarch64-static")
    if qemu is None or not (AARCH64_GLIBC / "lib" / "ld-linux-aarch64.so.1").exists():
        pytest.skip(
            "qemu-aarch64 or an aarch64 glibc not found: install Debian's qemu-user and"
            " libc6-arm64-cross (`make test` does, as root)"
        )
    if native.library() is None:
        pytest.skip("the host's analysis kernel is not built: `make` builds it")
    python = _python312()
    if python is None:
        pytest.skip("no python3.12 (the runtime's, which builds the layer) on PATH or in pyenv")
    program = tmp_path / "check"
    make = ["make", "--no-print-directory", "-C", str(LAYER), "kernel-check-arm64"]
    built = subprocess.run(
        [*make, f"CHECK={program}", f"PYTHON={python}"],
        env=_build_env(),
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, f"the check's build failed:\n{built.stdout}\n{built.stderr}"
    assert _machine(program) == EM_AARCH64
    lines: list[str] = []
    expected: list[list[float]] = []
    current = None
    for s, query in _queries():
        if s is not current:
            lines.append(_solver_line(s))
            current = s
        lines.append(query)
        expected.append(_host_answer(s, query))
    ran = subprocess.run(
        [qemu, "-L", str(AARCH64_GLIBC), str(program)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stderr
    answers = [[float(v) for v in line.split()] for line in ran.stdout.splitlines()]
    assert len(answers) == len(expected)
    differ = [(q, a, e) for q, a, e in zip(lines, answers, expected, strict=False) if a != e]
    assert answers == expected, differ[:3]
