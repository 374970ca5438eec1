"""The main job runs end to end on the host backend and reports every layout."""
import pytest

from cugraph_compressed import FORMATS
from cugraph_compressed.__main__ import main


def test_main_job_small_graph(capsys, tmp_path):
    out = tmp_path / "run.json"
    assert main(["--scale", "8", "--repeats", "1", "--json", str(out)]) in (None, 0)
    printed = capsys.readouterr().out
    for name in FORMATS:
        assert name in printed
    assert out.is_file()


def test_a_scale_that_cannot_fit_is_a_usage_error(capsys):
    """Refused before anything is generated, saying what it needs and what fits."""
    with pytest.raises(SystemExit) as exit_:
        main(["--scale", "40", "--backend", "host"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "scale 40" in error and "GiB" in error and "largest scale that fits is" in error


def test_fit_check_names_the_largest_scale():
    from cugraph_compressed.bench import check_fits
    from cugraph_compressed.bench.graphs import PEAK_BYTES_PER_EDGE

    room = PEAK_BYTES_PER_EDGE["host"] * 16 * 2**20  # exactly R-MAT 20
    check_fits(20, 16, "host", available=room)
    with pytest.raises(ValueError, match="largest scale that fits is 20"):
        check_fits(21, 16, "host", available=room)
    with pytest.raises(ValueError, match="no scale fits"):
        check_fits(5, 16, "host", available=10)
