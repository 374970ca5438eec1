"""The package's shape: layers import only downwards, nothing outside ``graph.py`` reads
another object's private members, Python constants agree with the CUDA sources, and the code
passes the linter configured in ``pyproject.toml``."""
import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cugraph_compressed as cgc
from cugraph_compressed.algorithms import ALGORITHMS, FUNCTIONS
from cugraph_compressed.kernels import traversal

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "cugraph_compressed"
SOURCES = sorted(PACKAGE.rglob("*.py"))

#: Package parts and the parts each may not import (its own layer and those above it).
FORBIDDEN = {
    "_pinned": {"graph", "graph_view", "_ids", "formats", "kernels", "saved", "_placement",
                "_build", "algorithms", "bench", "nx"},
    "_placement": {"graph", "graph_view", "_ids", "formats", "kernels", "saved", "_build",
                   "algorithms", "bench", "nx"},
    "formats": {"graph", "graph_view", "_ids", "algorithms", "bench", "nx"},
    "kernels": {"graph", "graph_view", "_ids", "algorithms", "bench", "nx"},
    "graph": {"drop_in", "algorithms", "bench", "nx"},
    "graph_view": {"algorithms", "bench", "nx"},
    "_ids": {"algorithms", "bench", "nx"},
    "saved": {"graph", "graph_view", "algorithms", "bench", "nx"},
    "_edgelist": {"graph", "graph_view", "algorithms", "bench", "nx"},
    "_auto": {"graph", "graph_view", "graph_queries", "drop_in", "_ids", "algorithms", "bench",
              "nx"},
    "graph_queries": {"graph", "drop_in", "algorithms", "bench", "nx"},
    "drop_in": {"algorithms", "bench", "nx"},
    "_text_pieces": {"graph", "graph_view", "_ids", "algorithms", "bench", "nx"},
    "edge_files": {"algorithms", "bench", "nx"},
    "algorithms": {"transforms", "bench", "nx"},
    "transforms": {"bench", "nx", "drop_in"},
    "bench": {"nx"},
    "nx": {"bench", "drop_in"},
    "dask": {"bench", "drop_in", "nx"},
}


def part_of(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def imported_parts(path: Path):
    """(line, package part) of every import of the package made by ``path``, relative or
    absolute, at any depth (function-level imports included)."""
    tree = ast.parse(path.read_text())
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[: len(package) - node.level + 1])
                target = base + (node.module.split(".") if node.module else [])
                names = [target + [a.name] for a in node.names] if not node.module else [target]
            else:
                names = [(node.module or "").split(".")]
            for name in names:
                if name[:1] == ["cugraph_compressed"] and len(name) > 1:
                    yield node.lineno, name[1]
        elif isinstance(node, ast.Import):
            for a in node.names:
                name = a.name.split(".")
                if name[0] == "cugraph_compressed" and len(name) > 1:
                    yield node.lineno, name[1]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_layers_import_downwards(path):
    forbidden = FORBIDDEN.get(part_of(path), set())
    bad = [(line, part) for line, part in imported_parts(path) if part in forbidden]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad} (line, part) from a layer above it"


def test_graph_imports_no_algorithm():
    assert not [p for _, p in imported_parts(PACKAGE / "graph.py") if p == "algorithms"]


def private_reads(path: Path):
    """Attribute reads ``x._name`` where ``x`` is not ``self`` or ``cls`` (dunders aside)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        if node.attr.startswith("__") and node.attr.endswith("__"):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        yield node.lineno, ast.unparse(node)


@pytest.mark.parametrize("path", [p for p in SOURCES if p.name != "graph.py"],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_private_reads_outside_graph(path):
    """Outside ``graph.py`` no code reads an underscore attribute of anything but its own
    object (``self`` or ``cls``): the algorithms see a graph only through its GraphView."""
    found = list(private_reads(path))
    assert not found, f"{path.relative_to(ROOT)} reads private members: {found}"


def test_private_read_check_can_fail(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def f(G, self):\n    return G._layout, self._fine, G.__class__\n")
    assert [text for _, text in private_reads(probe)] == ["G._layout"]


def cuda_constant(filename: str, name: str) -> int:
    text = (PACKAGE / "kernels" / filename).read_text()
    match = re.search(rf"constexpr\s+int\s+{name}\s*=\s*(\d+)\s*;", text)
    assert match, f"no 'constexpr int {name} = ...;' in kernels/{filename}"
    return int(match.group(1))


def test_launch_constants_match_the_cuda_sources():
    """The launcher sizes grids with the block and tile the kernels are written for."""
    assert traversal.BLOCK == cuda_constant("common.cuh", "BLOCK")
    assert traversal.ITEMS == cuda_constant("traverse.cuh", "ITEMS")
    assert traversal.WARP == cuda_constant("common.cuh", "WARP")


def test_fault_bits_match_the_cuda_sources():
    """The checked kernels' fault bits (common.cuh) are the ones the driver names."""
    text = (PACKAGE / "kernels" / "common.cuh").read_text()
    bits = re.findall(r"constexpr unsigned long long FAULT_\w+ = (\d+);", text)
    assert sorted(int(b) for b in bits) == sorted(traversal.FAULTS)


def test_registry_is_the_namespace():
    """Every registered algorithm (and alias) is exported by the package, listed by
    supported(), and nothing else claims to be an algorithm."""
    for name, function in FUNCTIONS.items():
        assert getattr(cgc, name) is function
        assert name in cgc.__all__
    assert set(cgc.supported()) == set(ALGORITHMS)
    assert {entry.function for entry in ALGORITHMS.values()} <= set(FUNCTIONS.values())


def test_lint():
    """ruff, configured in pyproject.toml (line length 100), finds nothing."""
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
