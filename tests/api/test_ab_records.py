"""benchmarks/ab.py's records: a run cut short (its timeout) keeps the rows it measured, and a
comparison sets side by side only the rows every record has."""
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

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
    ab.compare(paths[:2], paths[2:])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1  # PageRank is missing from old2
    assert lines[0].split()[:2] == ["csr", "bfs"]
    assert lines[0].endswith("new/old  0.500")  # median(2, 3) / median(4, 6)


def test_copies_run_in_turn_and_compare_with_the_first(tmp_path):
    """--copies: one process per copy and round, each timing its copy's package (--package),
    a run past its timeout keeping its rows, and each later copy compared with the first."""
    old, new = tmp_path / ".ab-old", tmp_path / ".ab-new"
    for copy in (old, new):
        (copy / "cugraph_compressed").mkdir(parents=True)
    times = {"old": 4.0, "new": 2.0}
    commands = []

    def run(cmd, check, timeout):
        commands.append(cmd)
        label, out = cmd[cmd.index("--label") + 1], cmd[cmd.index("--out") + 1]
        cut = label == "new" and len(commands) == 4  # the second round's new run
        rows = [("csr", "bfs", times[label])] + ([] if cut else [("csr", "wcc", 1.0)])
        _record(out, label, rows, complete=not cut)
        if cut:
            raise ab.subprocess.TimeoutExpired(cmd, timeout)

    options = SimpleNamespace(copies=[str(old), str(new)], rounds=2, timeout=60,
                              out_dir=str(tmp_path / "records"))
    lines = []
    ab.run_copies(options, ["--scale=20"], run=run, log=lines.append)
    assert [c[c.index("--label") + 1] for c in commands] == ["old", "new", "old", "new"]
    assert all(c[c.index("--package") + 1] == str(new if c[c.index("--label") + 1] == "new"
                                                   else old) for c in commands)
    assert all("--scale=20" in c for c in commands)
    assert lines[:4] == [f"{label} round {r}: 0 s{note}" for r, label, note in
                         [(1, "old", ""), (1, "new", ""), (2, "old", ""),
                          (2, "new", ", cut at 60 s")]]
    assert lines[4] == "# new / old"
    assert len(lines) == 6  # bfs only: wcc is missing from the cut run
    assert lines[5].split()[:2] == ["csr", "bfs"] and lines[5].endswith("new/old  0.500")


def test_copies_need_distinct_names(tmp_path):
    options = SimpleNamespace(copies=[str(tmp_path / "a" / ".ab-x"), str(tmp_path / "b" / "x")],
                              rounds=1, timeout=None, out_dir=str(tmp_path / "records"))
    with pytest.raises(SystemExit, match="distinct names"):
        ab.run_copies(options, [], run=None, log=None)


def test_package_without_the_package_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="holds no cugraph_compressed"):
        ab.main(["--package", str(tmp_path)])


def test_a_copy_whose_run_fails_is_logged_and_the_others_run(tmp_path):
    """Real processes: the command line run_copies builds parses in the child, which then
    refuses a copy without the package (exit status 1, not argparse's 2)."""
    empty = tmp_path / ".ab-empty"
    empty.mkdir()
    options = SimpleNamespace(copies=[str(empty)], rounds=2, timeout=120,
                              out_dir=str(tmp_path / "records"))
    lines = []
    ab.run_copies(options, ["--scale=20", "--formats", "csr", "--algorithms", "bfs",
                            "--renumber"], log=lines.append)
    assert [line.split(":")[0] for line in lines] == ["empty round 1", "empty round 2"]
    assert all(line.endswith("failed with exit status 1") for line in lines)


def test_a_copy_short_of_records_is_compared_by_its_own_count(tmp_path):
    """A failed run writes no record (nor leaves an older one in its place), so the copies
    compared can hold different numbers of records: each side's median is its own."""
    old, new = tmp_path / ".ab-old", tmp_path / ".ab-new"
    out = tmp_path / "records"
    out.mkdir()
    _record(out / "new2.json", "new", [("csr", "bfs", 100.0)])  # from an earlier invocation
    ms = {("old", 1): 4.0, ("old", 2): 6.0, ("new", 1): 2.0}

    def run(cmd, check, timeout):
        label, path = cmd[cmd.index("--label") + 1], cmd[cmd.index("--out") + 1]
        if (label, int(Path(path).stem[-1])) not in ms:
            raise ab.subprocess.CalledProcessError(1, cmd)
        _record(path, label, [("csr", "bfs", ms[label, int(Path(path).stem[-1])])])

    options = SimpleNamespace(copies=[str(old), str(new)], rounds=2, timeout=None,
                              out_dir=str(out))
    lines = []
    ab.run_copies(options, [], run=run, log=lines.append)
    assert lines[3] == "new round 2: 0 s, failed with exit status 1"
    assert lines[4] == "# new / old"
    assert lines[5].endswith("new/old  0.400")  # 2 / median(4, 6)
    assert len(lines) == 6
