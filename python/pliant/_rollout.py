"""Rollouts from full states, as mujoco.rollout.

    state0 = np.empty((B, pliant.state_size(model, pliant.State.FULLPHYSICS)))
    ...                                   # each row: time, qpos, qvel, act
    state, sensordata = pliant.rollout(model, data, state0, control)   # control [B, T, nu]

Each row starts from a reset Data set to its initial state (and its warm
start when `initial_warmstart` is given), then for each step sets that
step's controls (the state components `control_spec` names; mjSTATE_CTRL by
default) and steps once. `state` [B, T, nstate] holds the full physics state
after each step, `sensordata` [B, T, nsensordata] the sensors. Rows run on
`threads` threads, or on a pool kept across calls (`Rollout`,
`persistent_pool=True`); the numbers do not depend on either. `model` may
be a list, one model per row (all of one size), for randomised parameters.
The `data` argument is there for MuJoCo's signature: rows never read it (a
list of Data sets the thread count, as in MuJoCo).
"""
import os

import numpy as np

from . import _pliant

_FULLPHYSICS = 1 | 2 | 4 | 8 | 4096
_CTRL = 32
_shared_pool = None


def _as_rows(array, name, columns, batch=None):
    array = np.ascontiguousarray(array, dtype=np.float64)
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2 or array.shape[1] != columns:
        raise ValueError("%s needs shape (B, %d) or (%d,), got %s"
                         % (name, columns, columns, array.shape))
    if batch is not None and array.shape[0] != batch:
        if array.shape[0] != 1:
            raise ValueError("%s has %d rows; the batch has %d" % (name, array.shape[0], batch))
        array = np.ascontiguousarray(np.broadcast_to(array, (batch, columns)))
    return array


def state_rollout(model, initial_state, control=None, *, control_spec=_CTRL, nstep=None,
                  initial_warmstart=None, state=None, sensordata=None, pool=None, threads=1):
    """The rollout above, on `pool` (a _RolloutPool) or on `threads` threads."""
    models = list(model) if isinstance(model, (list, tuple)) else [model]
    first = models[0]
    nstate = _pliant.state_size(first, _FULLPHYSICS)
    initial_state = _as_rows(initial_state, "initial_state", nstate)
    batch = initial_state.shape[0]
    if len(models) > 1 and batch == 1:
        initial_state = _as_rows(initial_state, "initial_state", nstate, len(models))
        batch = len(models)
    ncontrol = _pliant.state_size(first, int(control_spec))
    if control is not None:
        control = np.ascontiguousarray(control, dtype=np.float64)
        if control.ndim == 2:
            control = control[None]
        if control.ndim != 3 or control.shape[2] != ncontrol:
            raise ValueError("control needs shape (B, T, %d) or (T, %d) for control_spec %d, "
                             "got %s" % (ncontrol, ncontrol, int(control_spec), control.shape))
        if control.shape[0] == 1 and batch > 1:
            control = np.ascontiguousarray(np.broadcast_to(control, (batch,) + control.shape[1:]))
        if nstep is not None and nstep != control.shape[1]:
            raise ValueError("nstep %d differs from the control's %d steps"
                             % (nstep, control.shape[1]))
        nstep = control.shape[1]
    if nstep is None:
        raise ValueError("give nstep, or control with one row per step")
    if int(nstep) != nstep or nstep < 0:
        raise ValueError("nstep must be a non-negative integer, got %r" % (nstep,))
    if initial_warmstart is not None:
        initial_warmstart = _as_rows(initial_warmstart, "initial_warmstart", first.nv, batch)
    own_pool = pool is None
    if own_pool:
        pool = _pliant._RolloutPool(max(1, min(int(threads), max(batch, 1))))
    try:
        out_state, out_sensors = _pliant._state_rollout(
            models, initial_state, control, int(control_spec), initial_warmstart, int(nstep), pool,
            True)
    finally:
        if own_pool:
            del pool
    for given, result, name in ((state, out_state, "state"),
                                (sensordata, out_sensors, "sensordata")):
        if given is not None:
            if given.shape != result.shape:
                raise ValueError("%s needs shape %s, got %s" % (name, result.shape, given.shape))
            given[...] = result
    return (state if state is not None else out_state,
            sensordata if sensordata is not None else out_sensors)


class Rollout:
    """A thread pool kept across rollouts (mujoco.rollout.Rollout)."""

    def __init__(self, *, nthread=None):
        self._pool = _pliant._RolloutPool(int(nthread) if nthread else (os.cpu_count() or 1))

    @property
    def nthread(self):
        return self._pool.threads

    def rollout(self, model, data, initial_state, control=None, **options):
        options.pop("skip_checks", None)
        options.pop("chunk_size", None)
        if self._pool is None:
            raise RuntimeError("this Rollout is closed")
        return state_rollout(model, initial_state, control, pool=self._pool, **options)

    def close(self):
        self._pool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def mujoco_rollout(model, data, initial_state, control=None, *, control_spec=_CTRL,
                   skip_checks=False, nstep=None, initial_warmstart=None, state=None,
                   sensordata=None, chunk_size=None, persistent_pool=False):
    """mujoco.rollout.rollout's signature: a list of Data sets the threads."""
    del skip_checks, chunk_size
    global _shared_pool
    threads = len(data) if isinstance(data, (list, tuple)) else 1
    pool = None
    if persistent_pool:
        if _shared_pool is None or _shared_pool.threads != threads:
            _shared_pool = _pliant._RolloutPool(threads)
        pool = _shared_pool
    return state_rollout(model, initial_state, control, control_spec=control_spec, nstep=nstep,
                         initial_warmstart=initial_warmstart, state=state, sensordata=sensordata,
                         pool=pool, threads=threads)
