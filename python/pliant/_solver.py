"""data.solver, data.solver_niter, data.solver_fwdinv: what the last step's
constraint solver did, with MuJoCo's names and shapes.

MuJoCo keeps statistics per island: `solver_niter` has NISLAND (20) entries
and `solver` NISLAND * NSOLVER (20 * 200) iterations, island-major. Pliant
reports its solve as island 0, as MuJoCo does when it solves without
islands: `solver_niter[0]` is the iteration count (Pliant solves islands
apart and counts the longest one's), `solver[:solver_niter[0]]` its
iterations, the rest zero. Each is a snapshot (a copy) taken when read.
Not recorded: `lineslope`, `nupdate` and `solver_nnz`.
"""
import numpy as np

from . import _pliant

NISLAND = 20
NSOLVER = 200
_FIELDS = ("improvement", "gradient", "nactive", "nchange", "neval")
_NOT_RECORDED = ("lineslope", "nupdate")


def _padded(values, dtype):
    out = np.zeros(NISLAND * NSOLVER, dtype=dtype)
    n = min(len(values), NSOLVER)
    out[:n] = values[:n]
    return out


class Iteration:
    """One iteration's statistics, as MuJoCo's MjSolverStat."""

    def __init__(self, arrays, i):
        for name in _FIELDS:
            setattr(self, name, arrays[name][i].item())

    def __repr__(self):
        return "<solver iteration: improvement %.6g gradient %.6g nactive %d>" % (
            self.improvement, self.gradient, self.nactive)


class Statistics:
    """The solver's per-iteration statistics: arrays by field, or one
    iteration by index."""

    def __init__(self, raw):
        self._arrays = {
            name: _padded(raw[name], np.float64 if name in ("improvement", "gradient")
                          else np.int32) for name in _FIELDS}

    def __len__(self):
        return NISLAND * NSOLVER

    def __getitem__(self, i):
        if not -len(self) <= i < len(self):
            raise IndexError("solver statistics have %d entries" % len(self))
        return Iteration(self._arrays, i)

    def __getattr__(self, name):
        arrays = self.__dict__.get("_arrays", {})
        if name in arrays:
            return arrays[name]
        if name in _NOT_RECORDED:
            raise AttributeError("Pliant's solver does not record '%s'" % name)
        raise AttributeError("data.solver has no field '%s'" % name)


def _niter(data):
    out = np.zeros(NISLAND, dtype=np.int32)
    out[0] = _pliant._solver_iterations(data)
    return out


def install(data_class):
    data_class.solver = property(
        lambda data: Statistics(_pliant._solver_statistics(data)),
        doc="The last step's solver statistics per iteration (MuJoCo's data.solver)")
    data_class.solver_niter = property(
        _niter, doc="Iterations of the last step's solve, in entry 0 (MuJoCo's solver_niter)")
    data_class.solver_fwdinv = property(
        lambda data: _pliant._solver_fwdinv(data),
        doc="With the fwdinv flag: how far inverse dynamics lands from the forward step, "
            "|constraint force| and |applied force| of the difference (N, N m)")
