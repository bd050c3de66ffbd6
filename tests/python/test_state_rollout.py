"""Rollouts from full states (as mujoco.rollout): on 1 and 2 threads, on a
pool kept across calls, with one model per row and on Dask workers, each
equals stepping one Data at a time, bit for bit."""
import numpy as np
import pytest

import pliant
import pliant.mujoco as mujoco

FULL = int(pliant.State.FULLPHYSICS)
CTRL = int(pliant.State.CTRL)
QFRC = int(pliant.State.QFRC_APPLIED)


def initial_states(model, batch, seed=11):
    rng = np.random.default_rng(seed)
    data = pliant.Data(model)
    states = np.empty((batch, pliant.state_size(model, FULL)))
    for b in range(batch):
        pliant.reset(model, data)
        data.qpos[2] += 0.05 * rng.standard_normal()
        data.qvel[:] = 0.2 * rng.standard_normal(model.nv)
        pliant.get_state(model, data, states[b], FULL)
        states[b, 0] = 0.25 * b  # time is part of the state
    return states


def one_at_a_time(models, states, control, spec, warmstart=None):
    batch, steps = states.shape[0], control.shape[1]
    m0 = models[0]
    out = np.empty((batch, steps, states.shape[1]))
    sensors = np.empty((batch, steps, m0.nsensordata))
    for b in range(batch):
        model = models[b if len(models) > 1 else 0]
        data = pliant.Data(model)
        pliant.reset(model, data)
        pliant.set_state(model, data, states[b], FULL)
        if warmstart is not None:
            data.qacc_warmstart[:] = warmstart[b]
        for t in range(steps):
            pliant.set_state(model, data, control[b, t], spec)
            pliant.step(model, data)
            pliant.get_state(model, data, out[b, t], FULL)
            sensors[b, t] = data.sensordata
    return out, sensors


@pytest.fixture
def humanoid(humanoid_path):
    return pliant.Model.from_xml_path(humanoid_path)


def test_threads_and_pools_equal_one_at_a_time(humanoid):
    model = humanoid
    states = initial_states(model, 5)
    control = 0.3 * np.random.default_rng(2).standard_normal((5, 40, model.nu))
    expected = one_at_a_time([model], states, control, CTRL)
    data = pliant.Data(model)
    for threads in (1, 2):
        state, sensordata = pliant.rollout(model, data, states, control, threads=threads)
        assert np.array_equal(state, expected[0]) and np.array_equal(sensordata, expected[1])
    with pliant.Rollout(nthread=2) as pool:
        for _ in range(2):  # the same pool twice
            state, sensordata = pool.rollout(model, data, states, control)
            assert np.array_equal(state, expected[0]) and np.array_equal(sensordata, expected[1])
    # Outputs into given arrays.
    state_out = np.empty_like(expected[0])
    pliant.rollout(model, data, states, control, state=state_out, threads=2)
    assert np.array_equal(state_out, expected[0])


def test_warm_start_applied_forces_and_no_control(humanoid):
    model = humanoid
    states = initial_states(model, 3, seed=4)
    rng = np.random.default_rng(9)
    warm = rng.standard_normal((3, model.nv))
    spec = CTRL | QFRC
    control = rng.standard_normal((3, 25, pliant.state_size(model, spec)))
    expected = one_at_a_time([model], states, control, spec, warm)
    state, _ = pliant.rollout(model, None, states, control, control_spec=spec,
                              initial_warmstart=warm, threads=2)
    assert np.array_equal(state, expected[0])
    # No control: the rows keep the reset's zero controls.
    zero = np.zeros((3, 25, model.nu))
    state, _ = pliant.rollout(model, None, states, nstep=25)
    assert np.array_equal(state, one_at_a_time([model], states, zero, CTRL)[0])


def test_one_model_per_row(humanoid_path):
    models = [pliant.Model.from_xml_path(humanoid_path) for _ in range(3)]
    for k, m in enumerate(models):
        m.body_mass[1:] *= 1 + 0.2 * k
        m.geom_friction[:, 0] = 0.5 + 0.3 * k
    states = initial_states(models[0], 3, seed=6)
    control = np.zeros((3, 30, models[0].nu))
    expected = one_at_a_time(models, states, control, CTRL)
    state, sensordata = pliant.rollout(models, None, states, control, threads=2)
    assert np.array_equal(state, expected[0]) and np.array_equal(sensordata, expected[1])
    assert not np.array_equal(state[0], state[2])


def test_mujoco_face_rollout(humanoid):
    model = humanoid
    states = initial_states(model, 4, seed=8)
    control = 0.2 * np.ones((4, 20, model.nu))
    expected = one_at_a_time([model], states, control, CTRL)
    datas = [mujoco.MjData(model) for _ in range(2)]
    state, sensordata = mujoco.rollout.rollout(model, datas, states, control)
    assert np.array_equal(state, expected[0]) and np.array_equal(sensordata, expected[1])
    state, _ = mujoco.rollout.rollout(model, datas, states, control, persistent_pool=True)
    assert np.array_equal(state, expected[0])
    with mujoco.rollout.Rollout(nthread=2) as r:
        assert np.array_equal(r.rollout(model, datas, states, control)[0], expected[0])


def test_bad_input_is_refused(humanoid):
    model = humanoid
    states = initial_states(model, 2)
    with pytest.raises(ValueError, match="initial_state needs shape"):
        pliant.rollout(model, None, states[:, :5], nstep=3)
    with pytest.raises(ValueError, match="control needs shape"):
        pliant.rollout(model, None, states, np.zeros((2, 3, 2)))
    with pytest.raises(ValueError, match="give nstep"):
        pliant.rollout(model, None, states)
    other = pliant.Model.from_xml_string("<mujoco><worldbody><body><freejoint/>"
                                         "<geom size='1'/></body></worldbody></mujoco>")
    with pytest.raises(ValueError, match="same sizes"):
        pliant.rollout([model, other], None, states, nstep=2)


def test_dask_rollout_states_equal_rollout(humanoid_path, humanoid):
    distributed = pytest.importorskip("distributed")
    import pliant.distributed as pd  # noqa: PLC0415
    model = humanoid
    states = initial_states(model, 5, seed=12)
    control = 0.3 * np.random.default_rng(1).standard_normal((5, 30, model.nu))
    expected = pliant.rollout(model, None, states, control)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    try:
        with distributed.Client(cluster) as client:
            state, sensordata = pd.rollout_states(client, humanoid_path, states, control)
            assert np.array_equal(state, expected[0]) and np.array_equal(sensordata, expected[1])
    finally:
        cluster.close()
