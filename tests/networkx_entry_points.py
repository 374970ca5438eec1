"""The package's NetworkX entry points for a source checkout that is not installed.

NetworkX finds backends through installed distributions' entry points, read at ``import
networkx``.  Where the package runs from a checkout on ``PYTHONPATH`` (no ``pip install``), this
writes a minimal ``.dist-info`` holding the ``networkx.*`` entry points of ``pyproject.toml`` to
a temporary directory on ``sys.path``, so tests see the backend as an installed package shows
it.  An installed package (CI's ``pip install -e``) already has them: nothing is written.
"""
import atexit
import shutil
import sys
import tempfile
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

#: The directory :func:`register_checkout` put on ``sys.path`` (None: nothing was needed), for
#: a subprocess's ``PYTHONPATH``.
registered = None


def networkx_entry_points() -> dict:
    """``{group: {name: object reference}}`` of the ``networkx.*`` groups in pyproject.toml."""
    groups = tomllib.loads(PYPROJECT.read_text())["project"]["entry-points"]
    return {group: dict(items) for group, items in groups.items()
            if group.startswith("networkx.")}


def installed() -> bool:
    """True when every NetworkX entry point of pyproject.toml is visible to importlib."""
    return all(entry_points(group=group, name=name)
               for group, items in networkx_entry_points().items() for name in items)


def register_checkout() -> str | None:
    """Put the checkout's NetworkX entry points on ``sys.path`` unless they are installed;
    returns the directory added (removed at exit), or None."""
    global registered
    if registered is not None or installed():
        return registered
    if "networkx" in sys.modules:
        raise RuntimeError("register_checkout must run before networkx is imported: NetworkX "
                           "reads its backends' entry points once, at import")
    root = tempfile.mkdtemp(prefix="cugraph-compressed-entry-points-")
    atexit.register(shutil.rmtree, root, True)
    _write_dist_info(root)
    sys.path.append(root)
    registered = root
    return root


def _write_dist_info(root) -> None:
    """Write the ``.dist-info`` holding the entry points into directory ``root`` (for a
    subprocess's ``PYTHONPATH``)."""
    groups = networkx_entry_points()
    dist = Path(root) / "cugraph_compressed_checkout-0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: cugraph-compressed-checkout\nVersion: 0\n")
    (dist / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in items.items())
        + "\n" for group, items in groups.items()))
