"""Rollouts spread over a Dask cluster (dask.distributed).

    from dask.distributed import Client
    import pliant.distributed
    client = Client("tcp://scheduler:8786")      # or Client(LocalCluster(...))
    qpos, qvel = pliant.distributed.rollout(client, "humanoid.xml", qpos0, qvel0, ctrl)

The batch is cut into one contiguous chunk per worker (or `chunks` chunks);
each worker loads the model once, from `model_path` as that worker sees
it, and keeps it; the chunks come back in order. Each row is computed by
the same code as pliant.rollout, so the result is bit-identical to
pliant.rollout(model, qpos0, qvel0, ctrl).

`rollout_states` does the same for rollouts from full states:

    state, sensordata = pliant.distributed.rollout_states(client, "humanoid.xml", state0, control)

equals pliant.rollout(model, data, state0, control) bit for bit.
"""
import numpy as np

from . import _pliant

_models = {}  # per worker process: model path -> Model


def _cached_model(model_path):
    model = _models.get(model_path)
    if model is None:
        model = _models[model_path] = _pliant.Model.from_xml_path(model_path)
    return model


def _rollout_chunk(model_path, part):
    qpos0, qvel0, ctrl = part
    return _pliant._rollout(_cached_model(model_path), qpos0, qvel0, ctrl, 1)


def rollout(client, model_path, qpos0, qvel0, ctrl, chunks=None):
    """The contract of pliant.rollout, computed by the workers of `client`.

    qpos0 [B, nq], qvel0 [B, nv], ctrl [B, T, nu] -> (qpos [B, T, nq],
    qvel [B, T, nv]). `chunks` defaults to the number of workers.
    """
    qpos0 = np.ascontiguousarray(qpos0, dtype=np.float64)
    qvel0 = np.ascontiguousarray(qvel0, dtype=np.float64)
    ctrl = np.ascontiguousarray(ctrl, dtype=np.float64)
    batch = qpos0.shape[0] if qpos0.ndim == 2 else -1
    if qpos0.ndim != 2 or qvel0.ndim != 2 or ctrl.ndim != 3 or \
            qvel0.shape[0] != batch or ctrl.shape[0] != batch:
        raise ValueError("qpos0 [B, nq], qvel0 [B, nv] and ctrl [B, T, nu] need one batch size B; "
                         "got shapes %s, %s, %s" % (qpos0.shape, qvel0.shape, ctrl.shape))
    # The model is checked here too, so a bad path or shape fails before
    # any work is sent.
    model = _cached_model(model_path)
    if qpos0.shape[1] != model.nq or qvel0.shape[1] != model.nv or ctrl.shape[2] != model.nu:
        raise ValueError("%s has nq %d, nv %d, nu %d; got qpos0 %s, qvel0 %s, ctrl %s" %
                         (model_path, model.nq, model.nv, model.nu, qpos0.shape, qvel0.shape,
                          ctrl.shape))
    steps = ctrl.shape[1]
    if batch == 0:
        return (np.zeros((0, steps, model.nq)), np.zeros((0, steps, model.nv)))
    if chunks is None:
        chunks = max(1, len(client.scheduler_info()["workers"]))
    if chunks < 1:
        raise ValueError("chunks must be at least 1, got %d" % chunks)
    bounds = np.linspace(0, batch, min(chunks, batch) + 1).astype(int)
    parts = [(qpos0[a:b], qvel0[a:b], ctrl[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    # Large inputs go to the workers ahead of the tasks (Dask's advice for
    # arguments over a megabyte); small ones travel with them. Unhashed keys:
    # a repeated call with the same arrays must not share keys with the
    # previous call's data while the scheduler is releasing it.
    if qpos0.nbytes + qvel0.nbytes + ctrl.nbytes > 1 << 20:
        parts = [client.scatter(part, hash=False) for part in parts]
    futures = [client.submit(_rollout_chunk, model_path, part, pure=False) for part in parts]
    parts = client.gather(futures)
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))


def _state_chunk(model_path, part, control_spec, nstep):
    from ._rollout import state_rollout  # noqa: PLC0415
    initial_state, control, warmstart = part
    return state_rollout(_cached_model(model_path), initial_state, control,
                         control_spec=control_spec, nstep=nstep, initial_warmstart=warmstart)


def rollout_states(client, model_path, initial_state, control=None, *, control_spec=32,
                   nstep=None, initial_warmstart=None, chunks=None):
    """pliant.rollout from full states [B, nstate] (and control [B, T,
    ncontrol]), computed by the workers of `client`; returns (state [B, T,
    nstate], sensordata [B, T, nsensordata])."""
    model = _cached_model(model_path)
    nstate = _pliant.state_size(model, 1 | 2 | 4 | 8 | 4096)
    initial_state = np.ascontiguousarray(np.atleast_2d(initial_state), dtype=np.float64)
    if initial_state.ndim != 2 or initial_state.shape[1] != nstate:
        raise ValueError("%s: initial_state needs shape (B, %d), got %s"
                         % (model_path, nstate, initial_state.shape))
    batch = initial_state.shape[0]
    if control is not None:
        control = np.ascontiguousarray(control, dtype=np.float64)
        if control.ndim != 3 or control.shape[0] != batch:
            raise ValueError("control needs shape (B, T, ncontrol) with B = %d, got %s"
                             % (batch, control.shape))
        nstep = control.shape[1]
    if nstep is None:
        raise ValueError("give nstep, or control with one row per step")
    if chunks is None:
        chunks = max(1, len(client.scheduler_info()["workers"]))
    if chunks < 1:
        raise ValueError("chunks must be at least 1, got %d" % chunks)
    if batch == 0:
        return (np.zeros((0, nstep, nstate)), np.zeros((0, nstep, model.nsensordata)))
    bounds = np.linspace(0, batch, min(chunks, batch) + 1).astype(int)
    parts = [(initial_state[a:b], None if control is None else control[a:b],
              None if initial_warmstart is None else np.asarray(initial_warmstart)[a:b])
             for a, b in zip(bounds[:-1], bounds[1:])]
    futures = [client.submit(_state_chunk, model_path, part, int(control_spec), int(nstep),
                             pure=False) for part in parts]
    parts = client.gather(futures)
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))
