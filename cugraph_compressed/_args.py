"""Type checks of scalar arguments, shared by the graph and the algorithms.

A flag given as ``"no"`` or a damping factor given as ``"0.85"`` would otherwise be read by
Python's truthiness or ``float()`` and silently do something else; these raise TypeError
naming the parameter and the value instead, as cuGraph's own type checks do.
"""
from __future__ import annotations

import numbers

import numpy as np


def check_bool(name: str, value) -> bool:
    """``value`` as a bool; TypeError unless it is a Python or NumPy bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {value!r} ({type(value).__name__})")
    return bool(value)


def check_optional_bool(name: str, value):
    """None, or ``value`` as a bool (:func:`check_bool`)."""
    return None if value is None else check_bool(name, value)


def check_number(name: str, value) -> float:
    """``value`` as a float; TypeError unless it is a real number (not a bool, not a string)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r} ({type(value).__name__})")
    return float(value)


def _shown(bound: int) -> str:
    """A bound as written in messages: ``2**k`` for a large power of two."""
    if bound >= 2**20 and bound & (bound - 1) == 0:
        return f"2**{bound.bit_length() - 1}"
    return str(bound)


def check_int(name: str, value, lo: int, hi=None, *, not_int=TypeError) -> int:
    """``value`` as an int in ``[lo, hi]`` (``hi`` None: no upper bound); ``not_int`` (TypeError
    by default) unless it is an integer (not a bool), ValueError naming the bound otherwise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise not_int(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < lo or (hi is not None and value > hi):
        bound = f"in [{lo}, {_shown(hi)}]" if hi is not None else f">= {lo}"
        raise ValueError(f"{name} must be {bound}, got {value}")
    return value
