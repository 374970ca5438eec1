"""README examples run as written: ```python blocks here, ```python gpu blocks on a GPU."""
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCKS = re.findall(r"```(python(?: gpu)?)\n(.*?)```", README.read_text(), re.S)


def test_readme_has_examples():
    kinds = [kind for kind, _ in BLOCKS]
    assert "python" in kinds and "python gpu" in kinds


@pytest.mark.parametrize("code", [c for k, c in BLOCKS if k == "python"])
def test_host_example(code):
    exec(compile(code, str(README), "exec"), {})


@pytest.mark.gpu
@pytest.mark.parametrize("code", [c for k, c in BLOCKS if k == "python gpu"])
def test_gpu_example(code):
    import rmm

    previous = rmm.mr.get_current_device_resource()
    try:
        exec(compile(code, str(README), "exec"), {})
    finally:
        rmm.mr.set_current_device_resource(previous)
