"""The field tables: every array of Model and Data is a numpy attribute of
the shape its table line gives, and `pliant info --json` prints every one."""
import json
import os
import subprocess

import numpy as np
import pytest

import pliant

SCENES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "samples", "scenes")


def expected_shape(field, sizes):
    """(rows,) or (rows, columns), the table's expressions evaluated with the sizes."""
    rows = eval(field["rows"], {}, sizes)
    columns = eval(field["columns"], {}, sizes)
    return (rows,) if columns == 1 else (rows, columns)


def expect_arrays(owner, fields, sizes):
    """Each field is a numpy attribute of `owner` with the table's shape."""
    for field in fields:
        value = getattr(owner, field["name"])
        assert isinstance(value, np.ndarray), field["name"]
        assert value.shape == expected_shape(field, sizes), field["name"]


def model_sizes(model):
    return {name: getattr(model, name) for name, _ in pliant.model_sizes()}


@pytest.fixture(params=["humanoid", "box_pyramid", "sensors", "terrain"])
def model_path(request, models_dir):
    if request.param == "humanoid":
        return os.path.join(models_dir, "dm_control", "humanoid.xml")
    return os.path.join(SCENES, request.param + ".xml")


def test_every_model_array_has_its_shape(model_path):
    model = pliant.Model.from_xml_path(model_path)
    sizes = model_sizes(model)
    assert len(pliant.model_fields()) >= 200
    expect_arrays(model, pliant.model_fields(), sizes)
    for field in pliant.model_fields():
        value = getattr(model, field["name"])
        assert value.dtype == (np.int32 if field["integer"] else np.float64), field["name"]
    for option in pliant.model_options():
        assert getattr(model, option["name"]) is not None


def test_every_data_array_has_its_shape(model_path):
    model = pliant.Model.from_xml_path(model_path)
    data = pliant.Data(model)
    pliant.step(model, data, 30)
    sizes = model_sizes(model)
    sizes.update({name: getattr(data, name) for name, _ in pliant.data_sizes()})
    assert len(pliant.data_fields()) >= 60
    expect_arrays(data, pliant.data_fields(), sizes)


def test_data_values_follow_mujoco_conventions(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    pliant.step(model, data, 10)
    # xmat row by row, the same rotation as xquat (w, x, y, z).
    w, x, y, z = data.xquat[1]
    row0 = [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)]
    assert np.allclose(data.xmat[1][:3], row0, atol=1e-12)
    # Results in MuJoCo's layout are views: they follow the next step.
    cvel = data.cvel
    before = cvel.copy()
    pliant.step(model, data)
    assert not np.array_equal(cvel, before) and np.array_equal(cvel, data.cvel)


def test_copies_are_read_only(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    pliant.step(model, data)
    with pytest.raises(ValueError):
        data.xmat[0, 0] = 2.0
    with pytest.raises(ValueError):
        model.body_parentid[1] = 2  # structure; parameters are writable (test_model_edit)
    with pytest.raises(AttributeError):
        model.nbody = 3


def test_info_json_prints_every_field_of_the_table(cli, model_path):
    out = subprocess.run([cli, "info", model_path, "--json"], capture_output=True, text=True,
                         check=True).stdout
    info = json.loads(out)
    model = pliant.Model.from_xml_path(model_path)
    sizes = model_sizes(model)
    for name in sizes:
        assert info[name] == sizes[name], name
    for field in pliant.model_fields():
        shape = expected_shape(field, sizes)
        assert len(info[field["name"]]) == int(np.prod(shape)), field["name"]
    for option in pliant.model_options():
        assert option["name"] in info
    sensor_fields = ["sensor_type", "sensor_objtype", "sensor_objid", "sensor_dim",
                     "sensor_adr", "sensor_cutoff", "sensor_noise"]
    for name in sensor_fields:
        assert len(info[name]) == model.nsensor
    expected = len(pliant.model_fields()) + len(pliant.model_options()) + len(sizes) + 1
    assert len(info) == expected


def test_dump_fields_prints_the_chosen_fields(cli, humanoid_path):
    out = subprocess.run([cli, "dump", humanoid_path, "--steps", "3", "--fields",
                          "xpos,efc_force,sensordata"], capture_output=True, text=True,
                         check=True).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 3
    assert list(lines[0]) == ["step", "time", "xpos", "efc_force", "sensordata"]
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    pliant.step(model, data, 2)
    pliant.forward(model, data)
    assert lines[2]["xpos"] == data.xpos.reshape(-1).tolist()
    bad = subprocess.run([cli, "dump", humanoid_path, "--fields", "xpos,nope"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown Data field 'nope'" in bad.stderr


def test_docs_fields_md_is_current(cli):
    root = os.path.dirname(SCENES.rstrip("/").rsplit("/", 1)[0])
    with open(os.path.join(root, "docs", "fields.md")) as f:
        written = f.read()
    generated = subprocess.run([cli, "fields"], capture_output=True, text=True,
                               check=True).stdout
    assert written == generated, "docs/fields.md is stale: pliant fields > docs/fields.md"
