"""pliant.viewer.launch_passive under Xvfb: the window follows the Data the
script steps, reports is_running, and closes."""
import json
import os
import time

import numpy as np
import pytest

import pliant


# A window's first frame (a GL context on the software rasteriser, shaders,
# the font atlas) took over 10 s once while the full test suite ran on both
# cores: the waits allow a minute, and return as soon as the condition holds.
def wait_for(condition, seconds=60.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return False


@pytest.fixture
def humanoid(humanoid_path):
    if not getattr(pliant._pliant, "_render_available", False):
        pytest.skip("this build has no viewer library")
    model = pliant.Model.from_xml_path(humanoid_path)
    return model, pliant.Data(model)


def test_window_follows_the_scripts_data(humanoid, tmp_path):
    model, data = humanoid
    log = tmp_path / "state.jsonl"
    with pliant.viewer.launch_passive(model, data, state_log=str(log), width=640,
                                      height=480) as viewer:
        assert viewer.is_running()
        for _ in range(20):
            pliant.step(model, data, nstep=5)
            viewer.sync()
        assert wait_for(viewer.shows_last_sync), "the window never drew the last sync"
        assert viewer.shown_time() == data.time
        assert viewer.frames() > 0
        # The script's data is its own: syncing without a perturbation
        # leaves xfrc_applied alone.
        assert np.all(data.xfrc_applied == 0)
        assert viewer.is_running()
    assert not viewer.is_running()
    times = [json.loads(line)["time"] for line in log.read_text().splitlines()]
    assert times and max(times) == pytest.approx(data.time, abs=1e-9)
    with pytest.raises(RuntimeError, match="closed"):
        viewer.sync()


def test_bad_input_is_refused(humanoid):
    model, data = humanoid
    other = pliant.Model.from_xml_string("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
    with pytest.raises(ValueError):
        pliant.viewer.launch_passive(model, pliant.Data(other))
    with pytest.raises(NotImplementedError, match="key_callback"):
        pliant.viewer.launch_passive(model, data, key_callback=print)


def test_mujoco_face_has_the_viewer(humanoid):
    import pliant.mujoco as mujoco  # noqa: PLC0415
    model, data = humanoid
    viewer = mujoco.viewer.launch_passive(model, data)
    try:
        mujoco.mj_step(model, data)
        viewer.sync()
        assert wait_for(viewer.shows_last_sync)
    finally:
        viewer.close()



def test_window_frames_a_data_the_script_has_not_forwarded(humanoid, tmp_path):
    # A fresh Data has every body at the origin until a forward: the camera
    # must frame the scene as for a forwarded one, not that point. The box
    # pyramid's floor is infinite, so the boxes alone set the distance.
    from conftest import ROOT  # noqa: PLC0415
    model = pliant.Model.from_xml_path(os.path.join(ROOT, "samples", "scenes", "box_pyramid.xml"))
    distances = {}
    for name in ("fresh", "forwarded"):
        data = pliant.Data(model)
        if name == "forwarded":
            pliant.forward(model, data)
        log = tmp_path / (name + ".jsonl")
        with pliant.viewer.launch_passive(model, data, state_log=str(log), width=320,
                                          height=240) as viewer:
            assert wait_for(lambda: viewer.frames() > 0)
        distances[name] = json.loads(log.read_text().splitlines()[0])["distance"]
    assert distances["forwarded"] > 1.0  # a pyramid about a metre wide
    assert distances["fresh"] == pytest.approx(distances["forwarded"], rel=1e-9)
