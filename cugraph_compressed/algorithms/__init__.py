"""The algorithms, one module each (its ``.py`` beside its ``.cu``), each registered by its
front door in :mod:`~cugraph_compressed.algorithms.registry`.

Importing this package imports every module in it, so a new algorithm module is found without
being listed anywhere; ``FUNCTIONS`` maps each public name (front doors and aliases) to its
function.
"""
import importlib
import pkgutil

from .registry import ALGORITHMS, public_functions, supported

for _module in pkgutil.iter_modules(__path__):
    if not _module.name.startswith("_") and _module.name != "registry":
        importlib.import_module(f"{__name__}.{_module.name}")

FUNCTIONS = public_functions()

__all__ = ["ALGORITHMS", "FUNCTIONS", "supported"]
