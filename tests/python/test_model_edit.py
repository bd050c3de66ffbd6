"""A writable model, set_const, contacts, inverse dynamics and the step's
derivatives in Python: writes take effect at the next step, structure and
bad values are refused and change nothing, and the numbers are the C++
calls' (through `pliant dump`)."""
import json
import os
import subprocess

import numpy as np
import pytest

import pliant


def steps(model, n, ctrl=None):
    data = pliant.Data(model)
    if ctrl is not None:
        data.ctrl[:] = ctrl
    pliant.step(model, data, n)
    return data


def test_every_field_writes_back_or_is_refused_with_a_reason(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    editable = 0
    for index, field in enumerate(pliant.model_fields()):
        name = field["name"]
        before = np.array(getattr(model, name))
        reason = model._field_not_editable(index)
        if reason:
            with pytest.raises(ValueError, match=name):
                setattr(model, name, before)
        else:
            setattr(model, name, before)  # the same values: accepted, nothing changes
            editable += 1
        assert np.array_equal(np.array(getattr(model, name)), before), name
    assert editable > 100


def test_writes_take_effect_at_the_next_step(humanoid_path):
    reference = pliant.Model.from_xml_path(humanoid_path)
    for write in (lambda m: m.geom_friction.__setitem__((slice(None), 0), 0.1),
                  lambda m: m.body_mass.__setitem__(3, 12.0),
                  lambda m: m.dof_damping.__setitem__(slice(None), 5.0),
                  lambda m: setattr(m.opt, "gravity", [1.0, 0.0, -9.81]),
                  lambda m: m.actuator_gear.__setitem__((0, 0), 300.0)):
        model = pliant.Model.from_xml_path(humanoid_path)
        write(model)
        ours = steps(model, 150, ctrl=0.3)
        theirs = steps(reference, 150, ctrl=0.3)
        assert not np.allclose(ours.qpos, theirs.qpos, atol=1e-9)


def test_set_const_recomputes_the_constants(humanoid_path, tmp_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    before = model.body_subtreemass.copy(), model.dof_invweight0.copy()
    model.body_mass[3] *= 3
    assert np.array_equal(model.body_subtreemass, before[0])
    pliant.set_const(model)
    assert model.body_subtreemass[1] == pytest.approx(before[0][1] + 2 * model.body_mass[3] / 3)
    assert not np.allclose(model.dof_invweight0, before[1])
    # The same as a model loaded with that mass (saved and reloaded).
    path = tmp_path / "heavier.xml"
    pliant.save_xml(model, str(path))
    again = pliant.Model.from_xml_path(str(path))
    assert np.allclose(again.dof_invweight0, model.dof_invweight0, rtol=1e-12)


def test_bad_writes_raise_and_change_nothing(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    mass = model.body_mass.copy()
    array = model.body_mass
    for bad in (float("nan"), -1.0):
        with pytest.raises(ValueError):
            array[2] = bad
        assert np.array_equal(array, mass) and np.array_equal(model.body_mass, mass)
    with pytest.raises(ValueError):
        model.body_mass = mass[:-1]
    with pytest.raises(ValueError):
        model.geom_condim[0] = 2
    with pytest.raises(ValueError):
        model.opt.timestep = 0
    with pytest.raises(AttributeError):
        model.opt.no_such_option = 1
    assert model.opt.timestep > 0


def test_contacts_match_the_command_line(cli, humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    data = steps(model, 200)
    pliant.forward(model, data)
    line = json.loads(subprocess.run([cli, "dump", humanoid_path, "--steps", "201", "--every",
                                      "200"], capture_output=True, text=True,
                                     check=True).stdout.splitlines()[1])
    assert len(data.contact) == line["ncon"] > 0
    for i, (ours, theirs) in enumerate(zip(data.contact, line["contacts"])):
        assert [ours.geom1, ours.geom2] == theirs["g"]
        assert ours.dist == theirs["dist"] and ours.pos.tolist() == theirs["pos"]
        assert ours.frame.tolist() == theirs["frame"]
        assert pliant.contact_force(model, data, i).tolist() == theirs["force"]
    assert data.contact.geom2.tolist() == [c["g"][1] for c in line["contacts"]]
    with pytest.raises(IndexError):
        pliant.contact_force(model, data, len(data.contact))


def test_inverse_and_derivatives_match_the_command_line(cli, humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    data = steps(model, 100)
    pliant.forward(model, data)
    line = json.loads(subprocess.run(
        [cli, "dump", humanoid_path, "--steps", "101", "--every", "100", "--inverse",
         "--derivatives"], capture_output=True, text=True, check=True).stdout.splitlines()[1])
    pliant.inverse(model, data)
    assert data.qfrc_inverse.tolist() == line["qfrc_inverse"]
    a, b, c, d = pliant.transition_fd(model, data)
    assert a.reshape(-1).tolist() == line["A"] and b.reshape(-1).tolist() == line["B"]
    assert c.reshape(-1).tolist() == line["C"] and d.reshape(-1).tolist() == line["D"]
    # The linearised solve agrees with differencing where no row changes state.
    a2, b2, _, _ = pliant.transition_fd(model, data, linearise_solve=True, sensors=False)
    assert np.allclose(a2, a, atol=1e-5) and np.allclose(b2, b, atol=1e-5)
    # Threads share the qpos columns: the same matrices, bit for bit.
    a3, b3, _, _ = pliant.transition_fd(model, data, linearise_solve=True, sensors=False, threads=2)
    assert (a3 == a2).all() and (b3 == b2).all()
    with pytest.raises(ValueError, match="threads"):
        pliant.transition_fd(model, data, threads=0)
    inv = pliant.inverse_fd(model, data)
    assert inv["DfDa"].shape == (model.nv, model.nv) and inv["DmDq"].shape == (model.nM, model.nv)


def test_inverse_force_applied_gives_back_the_acceleration(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    model.opt.tolerance = 1e-14
    model.opt.iterations = 200
    data = steps(model, 150)
    pliant.forward(model, data)
    assert len(data.contact) > 0
    asked = data.qacc + np.linspace(-1, 1, model.nv)
    data.qacc[:] = asked
    pliant.inverse(model, data)
    data.qfrc_applied[:] = data.qfrc_inverse
    data.ctrl[:] = 0
    pliant.forward(model, data)
    assert np.allclose(data.qacc, asked, rtol=1e-8, atol=1e-8)
