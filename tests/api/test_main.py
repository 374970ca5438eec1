"""The main job runs end to end on the host backend and reports every layout."""
from cugraph_compressed import FORMATS
from cugraph_compressed.__main__ import main


def test_main_job_small_graph(capsys, tmp_path):
    out = tmp_path / "run.json"
    assert main(["--scale", "8", "--repeats", "1", "--json", str(out)]) in (None, 0)
    printed = capsys.readouterr().out
    for name in FORMATS:
        assert name in printed
    assert out.is_file()
