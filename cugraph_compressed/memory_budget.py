"""GPU memory budgets: what a device graph may keep on the GPU, shared by several graphs.

``CompressedGraph(memory_budget=...)`` takes bytes (an int: a budget of the graph's own) or a
:class:`MemoryBudget` passed to several graphs that live side by side.  Each graph draws from
it what it keeps on the GPU (:meth:`MemoryBudget.draw`): its per-vertex arrays, the part of its
per-edge payload its placement keeps there and the per-vertex state of its largest algorithm
(:data:`STATE_BYTES_PER_VERTEX`), so the algorithms of any of them still run within the budget;
a directed graph that builds its in-lists beside its out-lists
(``TraversalConfig.directed_bottom_up``) draws their GPU bytes too.  A graph gives its draw
back when it goes (a weak reference: nothing keeps a graph alive) or when it is placed again.
Under ``placement="auto"`` a graph takes what is left and keeps the rest of its payload in
pinned host memory; under ``"device"`` or ``"host"`` a graph that does not fit what is left
raises MemoryError naming the bytes it needs under ``"device"``.
"""
from __future__ import annotations

import threading
import weakref

from ._args import check_int

#: GPU bytes per vertex each algorithm's state takes at most, with 32-bit ids and float32
#: weights, its result frame included (the bounds the GPU tests hold the RMM peak of each call
#: to: ``tests/algorithms/test_gpu_vertex_state.py``, ``tests/api/test_gpu_placement.py``).
STATE_BYTES_PER_VERTEX = {"bfs": 36, "sssp": 48, "pagerank": 52,
                          "weakly_connected_components": 36}


def state_bytes_per_vertex(wide: bool) -> int:
    """Per-vertex state of the largest algorithm: :data:`STATE_BYTES_PER_VERTEX`'s largest,
    doubled for 64-bit ids or weights (every id and value at most doubles)."""
    largest = max(STATE_BYTES_PER_VERTEX.values())
    return 2 * largest if wide else largest


class MemoryBudget:
    """Bytes of GPU memory that one or more device graphs may keep there.

    Parameters
    ----------
    nbytes : int
        The budget, at least 1.

    Notes
    -----
    Pass the same object as ``memory_budget`` to every graph that shares it
    (``CompressedGraph(..., memory_budget=budget)``, ``G.to_placement(..., memory_budget=...)``,
    ``CompressedGraph.load(..., memory_budget=...)``).  :attr:`used` and :attr:`available` say
    where it stands; :meth:`draws` lists each live graph's draw.  The budget counts what the
    graphs keep, not what the GPU holds: other allocations are the user's to leave room for.

    Examples
    --------
    >>> from cugraph_compressed import MemoryBudget
    >>> budget = MemoryBudget(1 << 30)
    >>> budget.available
    1073741824
    """

    def __init__(self, nbytes: int):
        self.nbytes = check_int("nbytes", nbytes, 1)
        self._lock = threading.Lock()
        self._draws = {}  # token -> (bytes, weakref.finalize of the owner)
        self._next = 0

    @property
    def used(self) -> int:
        """Bytes drawn by live graphs."""
        with self._lock:
            return sum(nbytes for nbytes, _ in self._draws.values())

    @property
    def available(self) -> int:
        """Bytes not drawn."""
        return self.nbytes - self.used

    def draws(self) -> list:
        """The bytes each live graph has drawn."""
        with self._lock:
            return [nbytes for nbytes, _ in self._draws.values()]

    def held(self, token) -> int:
        """Bytes of the draw ``token`` (0 for None or a draw given back)."""
        with self._lock:
            return self._draws.get(token, (0, None))[0]

    def draw(self, owner, nbytes: int, replacing=None) -> int:
        """Draw ``nbytes`` for ``owner`` (released when ``owner`` goes), giving back the draw
        ``replacing`` (a token from an earlier call) at the same time; returns the new token.

        Raises
        ------
        MemoryError
            Fewer than ``nbytes`` bytes are available (``replacing``'s counted as available);
            nothing changes.
        """
        nbytes = int(nbytes)
        with self._lock:
            self._require_locked(nbytes, replacing)
            self._release_locked(replacing)
            token, self._next = self._next, self._next + 1
            self._draws[token] = (nbytes, weakref.finalize(owner, self.release, token))
        return token

    def require(self, nbytes: int, replacing=None) -> None:
        """Raise the MemoryError :meth:`draw` would raise for ``nbytes``, drawing nothing: a
        graph checks the budget before it allocates."""
        with self._lock:
            self._require_locked(int(nbytes), replacing)

    def _require_locked(self, nbytes: int, replacing) -> None:
        held = self._draws.get(replacing, (0, None))[0]
        free = self.nbytes - sum(n for n, _ in self._draws.values()) + held
        if nbytes > free:
            raise MemoryError(
                f"the graph needs {nbytes} bytes under 'device' and its memory budget has "
                f"{free} of {self.nbytes} bytes left")

    def release(self, token) -> None:
        """Give back the draw ``token`` (nothing when it is gone already)."""
        with self._lock:
            self._release_locked(token)

    def _release_locked(self, token) -> None:
        entry = self._draws.pop(token, None)
        if entry is not None:
            entry[1].detach()

    def __repr__(self) -> str:
        return f"MemoryBudget(nbytes={self.nbytes}, used={self.used})"


def check_memory_budget(memory_budget) -> MemoryBudget | None:
    """None, a :class:`MemoryBudget`, or an int made a budget of its own; TypeError /
    ValueError naming a bad value."""
    if memory_budget is None or isinstance(memory_budget, MemoryBudget):
        return memory_budget
    return MemoryBudget(check_int("memory_budget", memory_budget, 1))
