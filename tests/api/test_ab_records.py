"""benchmarks/ab.py's records: a run cut short (its timeout) keeps the rows it measured, and a
comparison sets side by side only the rows every record has."""
import json
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import ab  # noqa: E402


def _record(path, label, rows, complete=True):
    args = SimpleNamespace(label=label, scale=20, renumber=True, out=str(path))
    ab.save(args, [1, 2], [{"format": f, "algorithm": a, "ms": ms} for f, a, ms in rows],
            complete)
    return str(path)


def test_a_partial_record_is_saved_and_marked(tmp_path):
    path = _record(tmp_path / "cut.json", "old", [("csr", "bfs", 2.0)], complete=False)
    record = json.loads(Path(path).read_text())
    assert record["complete"] is False
    assert record["rows"] == [{"format": "csr", "algorithm": "bfs", "ms": 2.0}]


def test_compare_skips_rows_a_cut_record_lacks(tmp_path, capsys):
    both = [("csr", "bfs", 4.0), ("csr", "pagerank", 10.0)]
    paths = [_record(tmp_path / "old1.json", "old", both),
             _record(tmp_path / "old2.json", "old", [("csr", "bfs", 6.0)], complete=False),
             _record(tmp_path / "new1.json", "new", [("csr", "bfs", 2.0), ("csr", "pagerank", 5)]),
             _record(tmp_path / "new2.json", "new", [("csr", "bfs", 3.0), ("csr", "pagerank", 5)])]
    ab.compare(paths)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1  # PageRank is missing from old2
    assert lines[0].split()[:2] == ["csr", "bfs"]
    assert lines[0].endswith("new/old  0.500")  # median(2, 3) / median(4, 6)
