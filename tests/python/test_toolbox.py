"""MuJoCo's toolbox in Python: Jacobians equal to the C++ ones (through
`pliant jacobian`), states saved and restored bit for bit, bad calls refused."""
import json
import subprocess

import numpy as np
import pytest

import pliant


def test_jacobians_equal_the_command_lines(cli, humanoid_path, tmp_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    data.qvel[:] = np.linspace(-1, 1, model.nv)
    pliant.step(model, data, 20)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"qpos": data.qpos.tolist(), "qvel": data.qvel.tolist()}))
    expected = json.loads(subprocess.run([cli, "jacobian", humanoid_path, "--state", str(state)],
                                         capture_output=True, text=True, check=True).stdout)
    pliant.forward(model, data)
    jacp, jacr = np.zeros((3, model.nv)), np.zeros((3, model.nv))
    for site in range(model.nsite):
        pliant.jac_site(model, data, jacp, jacr, site)
        assert jacp.reshape(-1).tolist() == expected["site"][site][0]
        assert jacr.reshape(-1).tolist() == expected["site"][site][1]
    for body in range(model.nbody):
        pliant.jac_body_com(model, data, jacp, None, body)
        assert jacp.reshape(-1).tolist() == expected["body_com"][body][0]
        pliant.jac_subtree_com(model, data, jacp, body)
        assert jacp.reshape(-1).tolist() == expected["subtree_com"][body]
        pliant.jac_dot(model, data, jacp, jacr, data.xpos[body], body)
        assert jacp.reshape(-1).tolist() == expected["body_dot"][body][0]
    # jac at a body's centre of mass is jac_body_com.
    pliant.jac(model, data, jacp, jacr, data.xipos[3], 3)
    assert jacp.reshape(-1).tolist() == expected["body_com"][3][0]


def test_bad_jacobian_calls_raise():
    model = pliant.Model.from_xml_string(
        "<mujoco><worldbody><body><joint/><geom size='.1'/><site name='s'/></body>"
        "</worldbody></mujoco>")
    data = pliant.Data(model)
    with pytest.raises(ValueError, match="3 x nv"):
        pliant.jac_site(model, data, np.zeros((3, 2)), None, 0)
    with pytest.raises(TypeError):
        pliant.jac_site(model, data, np.zeros((3, 1), dtype=np.float32), None, 0)
    with pytest.raises(IndexError, match="site 4 does not exist"):
        pliant.jac_site(model, data, np.zeros((3, 1)), None, 4)
    with pytest.raises(ValueError, match="3 numbers"):
        pliant.jac(model, data, None, None, [0, 0], 1)


def test_state_restores_bit_for_bit(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    data.ctrl[:] = 0.2
    data.xfrc_applied[1] = [0, 0, 5, 0.1, 0, 0]  # MuJoCo's (force, torque)
    pliant.step(model, data, 100)
    spec = pliant.State.INTEGRATION
    state = np.empty(pliant.state_size(model, spec))
    pliant.get_state(model, data, state, spec)
    pliant.step(model, data, 100)
    restored = pliant.Data(model)
    pliant.set_state(model, restored, state, spec)
    assert restored.xfrc_applied[1].tolist() == [0, 0, 5, 0.1, 0, 0]
    pliant.step(model, restored, 100)
    assert restored.qpos.tolist() == data.qpos.tolist()
    assert restored.qvel.tolist() == data.qvel.tolist()
    assert pliant.state_size(model, pliant.State.QPOS | pliant.State.QVEL) == model.nq + model.nv
    with pytest.raises(ValueError, match="must hold"):
        pliant.set_state(model, restored, state[:-1], spec)
    with pytest.raises(ValueError, match="bits beyond"):
        pliant.state_size(model, 1 << 14)
