"""The Python module: loading, numpy views, stepping, errors."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import pliant


def test_humanoid_qpos_bit_identical_to_pliant_dump(humanoid_path, cli):
    # `pliant dump` prints the state before each step, with 17 digits.
    out = subprocess.run([cli, "dump", humanoid_path, "--steps", "200"], capture_output=True,
                         text=True, check=True).stdout
    expected = [json.loads(line)["qpos"] for line in out.splitlines() if line.startswith("{")]
    assert len(expected) == 200
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    for step in range(200):
        assert data.qpos.tolist() == expected[step], "step %d" % step
        pliant.step(model, data)


def test_sizes_and_names(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    assert (model.nq, model.nv, model.nu) == (28, 27, 21)
    assert model.nbody == 17 and model.nsensor == 34 and model.nsensordata == 66
    torso = model.body("torso")
    assert torso.id == 1 and torso.name == "torso" and model.body(1).name == "torso"
    assert model.sensor("torso_accel").id == 1
    with pytest.raises(KeyError, match="no body named 'tail'"):
        model.body("tail")
    with pytest.raises(IndexError):
        model.joint(1000)


def test_views_share_memory(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    qpos = data.qpos
    qpos[2] = 3.0                       # lift the root
    pliant.forward(model, data)
    assert data.qpos[2] == 3.0 and abs(data.xpos[1][2] - 3.0) < 1e-12
    # A write through an old view is seen after the step too.
    data.ctrl[:] = 0.5
    pliant.step(model, data)
    assert np.all(data.ctrl == 0.5) and qpos is not data.qpos and qpos[2] == data.qpos[2]
    # Assigning a whole array copies into the engine's memory.
    data.qvel = np.zeros(model.nv)
    data.qvel[0] = 1.0
    pliant.step(model, data)
    assert data.qpos[0] > 0
    # The views survive a reset.
    view = data.qpos
    pliant.reset(model, data)
    view[0] = 0.25
    assert data.qpos[0] == 0.25 and data.time == 0


def test_applied_force_in_mujoco_order(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    data.qpos[2] = 5.0                  # in the air: nothing but gravity and the push
    torso = model.body("torso").id
    data.xfrc_applied[torso, :3] = [0, 0, 2000.0]     # force first, as in MuJoCo
    pliant.step(model, data, nstep=10)
    assert data.qvel[2] > 0             # pushed up against gravity
    assert data.xquat.shape == (model.nbody, 4) and abs(data.xquat[0][0] - 1) < 1e-15


def test_mocap_quat_writes_take_effect():
    xml = """<mujoco><worldbody>
      <body name="hand" mocap="true"><geom size="0.1"/></body>
    </worldbody></mujoco>"""
    model = pliant.Model.from_xml_string(xml)
    data = pliant.Data(model)
    assert data.mocap_quat.tolist() == [[1, 0, 0, 0]]
    data.mocap_pos[0] = [1, 2, 3]
    data.mocap_quat[0] = [0, 0, 0, 1]   # half a turn about z, (w, x, y, z)
    pliant.forward(model, data)
    assert data.xpos[1].tolist() == [1, 2, 3]
    assert data.xquat[1].tolist() == [0, 0, 0, 1]


def test_sensordata_equals_pliant_dump(humanoid_path, cli):
    out = subprocess.run([cli, "dump", humanoid_path, "--steps", "20"], capture_output=True,
                         text=True, check=True).stdout
    expected = [json.loads(line)["sensordata"] for line in out.splitlines()
                if line.startswith("{")]
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    assert data.sensordata.shape == (model.nsensordata,)
    for step in range(20):
        pliant.forward(model, data)
        assert data.sensordata.tolist() == expected[step], "step %d" % step
        pliant.step(model, data)
    assert any(v != 0 for v in expected[-1])


def test_keyframe_reset():
    xml = """<mujoco><worldbody><body><joint name="j"/><geom size="0.1"/></body></worldbody>
      <keyframe><key name="up" qpos="0.5" time="2"/></keyframe></mujoco>"""
    model = pliant.Model.from_xml_string(xml)
    data = pliant.Data(model)
    pliant.reset(model, data, "up")
    assert data.qpos[0] == 0.5 and data.time == 2
    pliant.reset(model, data, 0)
    assert data.qpos[0] == 0.5
    with pytest.raises(IndexError):
        pliant.reset(model, data, 3)


def test_bad_input_raises(tmp_path, humanoid_path):
    with pytest.raises(pliant.LoadError, match="no_such_model.xml"):
        pliant.Model.from_xml_path(str(tmp_path / "no_such_model.xml"))
    with pytest.raises(pliant.LoadError, match=r"<string>:3: .*unknown attribute 'colour'"):
        pliant.Model.from_xml_string("<mujoco>\n<worldbody>\n<geom colour='red'/>\n"
                                     "</worldbody>\n</mujoco>")
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    with pytest.raises(ValueError, match=r"qpos needs shape \(28\), got \(3\)"):
        data.qpos = [1, 2, 3]
    with pytest.raises(ValueError, match=r"xfrc_applied needs shape \(17, 6\)"):
        data.xfrc_applied = np.zeros((17, 3))
    with pytest.raises(ValueError, match="nstep"):
        pliant.step(model, data, -1)
    other = pliant.Model.from_xml_string("<mujoco><worldbody><body><freejoint/><geom size='1'/>"
                                         "</body></worldbody></mujoco>")
    with pytest.raises(ValueError, match="another model"):
        pliant.step(other, data)
    with pytest.raises(TypeError):
        pliant.step(model, "not data")


def test_import_falls_back_to_the_numpy_it_was_built_with():
    # `-S` hides the interpreter's site folders (where numpy lives), as a
    # pyenv or venv python3 without numpy would: pliant finds the numpy it
    # was built with and works.
    script = ("import pliant, numpy; from pliant import _build_info; "
              "m = pliant.Model.from_xml_string('<mujoco><worldbody><body><freejoint/>"
              "<geom size=\\'0.1\\'/></body></worldbody></mujoco>'); d = pliant.Data(m); "
              "pliant.step(m, d, 10); "
              "print(numpy.__file__.startswith(_build_info.NUMPY_SITE), d.qvel[2] < 0)")
    result = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True,
                            env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True"]


def test_edge_inputs_raise_or_work(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    with pytest.raises(TypeError):
        pliant.Data(None)
    with pytest.raises(TypeError):
        pliant.step(None, data)
    with pytest.raises(TypeError):
        pliant.rollout(None, np.zeros((1, 28)), np.zeros((1, 27)), np.zeros((1, 1, 21)))
    assert model.body(np.int64(1)).name == "torso"
    with pytest.raises(TypeError):
        model.body(1.5)
    with pytest.raises(ValueError, match="read-only"):
        data.xquat[0, 0] = 2.0
    # Equal counts, another tree: refused, naming the size that differs.
    chain = pliant.Model.from_xml_string(
        "<mujoco><worldbody><body><joint/><geom size='.1'/><body><joint/><geom size='.1'/>"
        "</body></body><body><geom size='.1'/></body></worldbody></mujoco>")
    apart = pliant.Model.from_xml_string(
        "<mujoco><worldbody><body><joint/><geom size='.1'/><body><geom size='.1'/></body></body>"
        "<body><joint/><geom size='.1'/></body></worldbody></mujoco>")
    with pytest.raises(ValueError, match="mass matrix"):
        pliant.step(apart, pliant.Data(chain))
    # A model without dofs or actuators, and empty batches.
    still = pliant.Model.from_xml_string("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
    empty = pliant.Data(still)
    pliant.step(still, empty, 3)
    assert empty.qpos.shape == (0,) and empty.mocap_quat.shape == (0, 4) and empty.time > 0
    qpos, qvel = pliant.rollout(still, np.zeros((2, 0)), np.zeros((2, 0)), np.zeros((2, 5, 0)))
    assert qpos.shape == (2, 5, 0)
    qpos, qvel = pliant.rollout(model, np.zeros((0, 28)), np.zeros((0, 27)),
                                np.zeros((0, 5, 21)))
    assert qpos.shape == (0, 5, 28)
    qpos, qvel = pliant.rollout(model, np.tile(data.qpos, (2, 1)), np.zeros((2, 27)),
                                np.zeros((2, 0, 21)))
    assert qpos.shape == (2, 0, 28)
    # Non-contiguous input is copied in.
    data.qvel = np.zeros((27, 2))[:, 0]


def _box_pile_xml(count):
    # Free cubes in a loose grid, dropped onto a plane: several islands.
    bodies = "".join(
        f'<body pos="{0.25 * (i % 5)} {0.25 * (i // 5 % 4)} {0.2 + 0.25 * (i // 20)}" '
        f'euler="{7 * i % 30} {11 * i % 30} 0"><freejoint/>'
        f'<geom type="box" size="0.1 0.1 0.1"/></body>'
        for i in range(count)
    )
    return (
        '<mujoco><worldbody><geom type="plane" size="5 5 0.1"/>'
        f"{bodies}</worldbody></mujoco>"
    )


def test_threads_give_the_state_of_one_thread():
    model = pliant.Model.from_xml_string(_box_pile_xml(40))
    one, two = pliant.Data(model), pliant.Data(model)
    assert one.threads == 1
    two.threads = 2
    pliant.step(model, one, nstep=200)
    pliant.step(model, two, nstep=200)
    assert len(one.contact) > 0
    assert np.array_equal(one.qpos, two.qpos)
    assert np.array_equal(one.qvel, two.qvel)
    with pytest.raises(ValueError):
        two.threads = 0
    assert two.threads == 2
