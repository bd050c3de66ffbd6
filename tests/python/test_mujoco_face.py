"""`import pliant.mujoco as mujoco`: MuJoCo's calls and named access on
Pliant, the same numbers as pliant's own calls, and NotImplementedError by
name for what is not offered."""
import numpy as np
import pytest

import pliant
import pliant.mujoco as mujoco


@pytest.fixture
def humanoid(humanoid_path):
    model = mujoco.MjModel.from_xml_path(humanoid_path)
    data = mujoco.MjData(model)
    mujoco.mj_step(model, data, 150)
    mujoco.mj_forward(model, data)
    return model, data


def test_names_and_named_access(humanoid):
    model, data = humanoid
    torso = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, "torso")
    assert torso == 1 and mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, 1) == "torso"
    assert mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "no such geom") == -1
    assert mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, 999) is None
    assert np.array_equal(data.body("torso").xpos, data.xpos[torso])
    assert np.array_equal(model.geom("floor").friction, model.geom_friction[0])
    root = data.joint("root")
    assert root.qpos.shape == (7,) and np.array_equal(root.qvel, data.qvel[:6])
    sensor = model.sensor(2)
    assert np.array_equal(data.sensor(2).data,
                          data.sensordata[model.sensor_adr[2]:model.sensor_adr[2] +
                                          model.sensor_dim[2]])
    assert sensor.id == 2
    model.geom("floor").friction = [0.4, 0.01, 0.001]
    assert model.geom_friction[0].tolist() == [0.4, 0.01, 0.001]
    data.actuator(3).ctrl = 0.25
    assert data.ctrl[3] == 0.25
    with pytest.raises(KeyError):
        model.body("tail")
    with pytest.raises(IndexError):
        data.joint(1000)
    with pytest.raises(AttributeError):
        model.body("torso").no_such_field


def test_calls_give_pliants_numbers(humanoid):
    model, data = humanoid
    nv = model.nv
    jacp, jacr = np.zeros((3, nv)), np.zeros((3, nv))
    ours_p, ours_r = np.zeros((3, nv)), np.zeros((3, nv))
    mujoco.mj_jacSite(model, data, jacp, jacr, 1)
    pliant.jac_site(model, data, ours_p, ours_r, 1)
    assert np.array_equal(jacp, ours_p) and np.array_equal(jacr, ours_r)
    nx = 2 * nv + model.na
    a, b = np.zeros((nx, nx)), np.zeros((nx, model.nu))
    c, d = np.zeros((model.nsensordata, nx)), np.zeros((model.nsensordata, model.nu))
    mujoco.mjd_transitionFD(model, data, 1e-6, False, a, b, c, d)
    a2, b2, c2, d2 = pliant.transition_fd(model, data)
    assert np.array_equal(a, a2) and np.array_equal(b, b2) and np.array_equal(c, c2)
    dfdq = np.zeros((nv, nv))
    mujoco.mjd_inverseFD(model, data, 1e-6, 0, dfdq, None, None, None, None, None, None)
    assert np.array_equal(dfdq, pliant.inverse_fd(model, data)["DfDq"].T)
    # Inverse dynamics at forward's qacc returns the applied forces, to the
    # solver's stopping rule: a gradient below tolerance * meaninertia * nv.
    mujoco.mj_forward(model, data)
    mujoco.mj_inverse(model, data)
    bound = model.opt.tolerance * model.stat_meaninertia * nv
    assert np.abs(data.qfrc_inverse - data.qfrc_actuator - data.qfrc_applied).max() < bound
    spec = mujoco.mjtState.mjSTATE_INTEGRATION
    state = np.zeros(mujoco.mj_stateSize(model, spec))
    mujoco.mj_getState(model, data, state, spec)
    mujoco.mj_step(model, data, 5)
    after = data.qpos.copy()
    mujoco.mj_setState(model, data, state, spec)
    mujoco.mj_step(model, data, 5)
    assert np.array_equal(data.qpos, after)
    force = np.zeros(6)
    mujoco.mj_contactForce(model, data, 0, force)
    assert np.array_equal(force, pliant.contact_force(model, data, 0))
    geom = np.zeros(1, np.int32)
    distance = mujoco.mj_ray(model, data, [0, 0, 5], [0, 0, -1], None, 1, -1, geom)
    assert distance > 0 and geom[0] >= 0


def test_what_is_not_offered_says_so(humanoid):
    with pytest.raises(NotImplementedError, match="mjr_uploadMesh"):
        mujoco.mjr_uploadMesh
    with pytest.raises(NotImplementedError, match="mjv_updateScene"):
        mujoco.mjv_updateScene
    assert not hasattr(mujoco, "mjr_render")
    with pytest.raises(NotImplementedError):
        mujoco.MjModel.from_binary_path("model.mjb")


def test_option_flags_as_mujoco_masks(humanoid):
    model, data = humanoid
    assert model.opt.disableflags == 0 and model.opt.enableflags == 0
    model.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_GRAVITY
    model.opt.enableflags = mujoco.mjtEnableBit.mjENBL_ENERGY
    mujoco.mj_resetData(model, data)
    mujoco.mj_forward(model, data)
    # At rest and without gravity the bias force is zero; the energy flag
    # computes the energy in forward (no gravity, no springs: zero).
    assert np.all(data.qfrc_bias == 0)
    assert np.all(data.energy == 0)
    model.opt.disableflags = 0
    mujoco.mj_forward(model, data)
    assert np.any(data.qfrc_bias != 0) and data.energy[0] != 0
    model.opt.disableflags = mujoco.mjtDisableBit.mjDSBL_GRAVITY
    with pytest.raises(ValueError, match="disableflags"):
        model.opt.disableflags = -1
    assert model.opt.disableflags == int(mujoco.mjtDisableBit.mjDSBL_GRAVITY)
    model.opt.disableflags = 0
    model.opt.enableflags = 0


def test_solver_statistics_in_mujocos_shapes(humanoid):
    model, data = humanoid
    mujoco.mj_step(model, data)
    niter = data.solver_niter
    assert niter.shape == (mujoco.mjNISLAND,) and niter[0] >= 1 and not niter[1:].any()
    stats = data.solver
    assert stats.improvement.shape == (mujoco.mjNISLAND * mujoco.mjNSOLVER,)
    # Each iteration the solver ran is recorded, nothing after the last.
    assert (stats.neval[:niter[0]] >= 1).all() and not stats.neval[niter[0]:].any()
    assert stats[niter[0] - 1].gradient == stats.gradient[niter[0] - 1]
    assert 0 < stats.nactive[niter[0] - 1] <= data.nefc
    with pytest.raises(AttributeError, match="does not record 'lineslope'"):
        stats.lineslope
    with pytest.raises(IndexError):
        stats[mujoco.mjNISLAND * mujoco.mjNSOLVER]
    # A snapshot: the next step does not change what was read.
    before = stats.improvement.copy()
    mujoco.mj_step(model, data)
    assert np.array_equal(stats.improvement, before)
