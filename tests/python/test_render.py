"""pliant.Renderer: pictures without a display (EGL), as mujoco.Renderer.

The segmentation picture is checked against the geometry: through the
centre of each pixel deep inside a geom's area a ray is cast with
pliant.ray (the same query as mj_ray), and the first geom it hits must be
the geom the picture shows there. The depth picture must match that ray's
distance along the view axis.
"""
import os

import numpy as np
import pytest

import pliant

GEOM, SITE = 5, 6


@pytest.fixture
def humanoid(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    data = pliant.Data(model)
    pliant.reset(model, data)
    data.qpos[2] = 1.2
    pliant.forward(model, data)
    return model, data


@pytest.fixture
def renderer(humanoid):
    if not getattr(pliant._pliant, "_render_available", False):
        pytest.skip("this build has no viewer library")
    r = pliant.Renderer(humanoid[0], height=480, width=640)
    yield r
    r.close()


def pixel_rays(view, height, width, rows, cols):
    """World directions (unit) through the centres of pixels (rows, cols)."""
    right, up, back = view["rotation"][:, 0], view["rotation"][:, 1], view["rotation"][:, 2]
    half = np.tan(np.radians(view["fovy"]) / 2)
    sx = (2 * (cols + 0.5) / width - 1) * half * width / height
    sy = (1 - 2 * (rows + 0.5) / height) * half
    d = -back[None, :] + sx[:, None] * right[None, :] + sy[:, None] * up[None, :]
    return d / np.linalg.norm(d, axis=1)[:, None]


def interior(ids, margin):
    """Pixels whose (2 margin + 1)^2 neighbourhood shows one object only."""
    h, w = ids.shape
    ok = np.ones((h, w), dtype=bool)
    ok[:margin, :] = ok[-margin:, :] = ok[:, :margin] = ok[:, -margin:] = False
    for dy in range(-margin, margin + 1):
        for dx in range(-margin, margin + 1):
            shifted = np.roll(np.roll(ids, dy, axis=0), dx, axis=1)
            ok &= shifted == ids
    return ok


def test_humanoid_rgb_headless(renderer, humanoid):
    model, data = humanoid
    renderer.update_scene(data)
    rgb = renderer.render()
    assert rgb.shape == (480, 640, 3) and rgb.dtype == np.uint8
    # Something is drawn over a background: many distinct colours.
    assert len(np.unique(rgb.reshape(-1, 3), axis=0)) > 100
    if "PLIANT_PICTURES" in os.environ:  # for looking at it
        from PIL import Image  # noqa: PLC0415
        Image.fromarray(rgb).save(os.path.join(os.environ["PLIANT_PICTURES"], "humanoid.png"))


def test_segmentation_ids_are_the_geoms_in_view(renderer, humanoid):
    model, data = humanoid
    renderer.update_scene(data, camera=-1)
    renderer.enable_segmentation_rendering()
    seg = renderer.render()
    renderer.disable_segmentation_rendering()
    assert seg.shape == (480, 640, 2) and seg.dtype == np.int32
    ids, types = seg[..., 0], seg[..., 1]
    assert set(np.unique(types)) <= {-1, GEOM, SITE}
    assert np.all((ids == -1) == (types == -1))
    geoms = set(np.unique(ids[types == GEOM]))
    assert geoms <= set(range(model.ngeom))
    floor = model._name2id(GEOM, "floor")
    assert floor in geoms
    assert len(geoms) >= 10, "most of the humanoid's geoms are in view"

    # Pixels well inside each geom's area: the ray through each hits that geom.
    view = renderer.camera_view()
    code = np.where(types == GEOM, ids, -2)
    inside = interior(code, 3) & (code >= 0)
    rows, cols = sample_per_object(code, inside, 60)
    dirs = pixel_rays(view, 480, 640, rows, cols)
    groups = np.array([1, 1, 1, 0, 0, 0])
    hits = np.array([pliant.ray(model, data, view["eye"], d, groups, True, -1)[1] for d in dirs])
    shown = ids[rows, cols]
    bad = [(int(r), int(c), int(p), int(h)) for r, c, p, h in zip(rows, cols, shown, hits) if p != h]
    # Round geoms are drawn as tessellated polygons: a pixel just inside a
    # polygon's edge can lie just outside the true surface. 3 pixels from
    # any edge, that leaves under 1% of pixels.
    assert len(bad) <= 0.01 * len(rows), "pixels that disagree (row, col, picture, ray): %s" % bad
    # Every geom with pixels of its own is found by the rays through them.
    assert set(np.unique(shown)) <= set(hits[hits == shown])
    assert len(set(np.unique(shown))) >= 10


def sample_per_object(code, mask, per_object):
    """Up to per_object pixels of each object's masked area, spread evenly."""
    rows, cols = [], []
    for obj in np.unique(code[mask]):
        r, c = np.nonzero(mask & (code == obj))
        pick = np.linspace(0, len(r) - 1, min(per_object, len(r))).astype(int)
        rows.extend(r[pick])
        cols.extend(c[pick])
    return np.array(rows), np.array(cols)


def test_depth_is_the_distance_along_the_view_axis(renderer, humanoid):
    model, data = humanoid
    renderer.update_scene(data)
    renderer.enable_depth_rendering()
    depth = renderer.render()
    renderer.disable_depth_rendering()
    assert depth.shape == (480, 640) and depth.dtype == np.float32
    renderer.enable_segmentation_rendering()
    seg = renderer.render()
    view = renderer.camera_view()
    code = np.where(seg[..., 1] == GEOM, seg[..., 0], -2)
    inside = interior(code, 3) & (code >= 0)
    rows, cols = sample_per_object(code, inside, 40)
    dirs = pixel_rays(view, 480, 640, rows, cols)
    back = view["rotation"][:, 2]
    errors = []
    for r, c, d in zip(rows, cols, dirs):
        dist, geom = pliant.ray(model, data, view["eye"], d, np.array([1, 1, 1, 0, 0, 0]), True, -1)
        if geom != code[r, c]:
            continue
        errors.append(abs(depth[r, c] - dist * np.dot(d, -back)))
    errors = np.array(errors)
    assert len(errors) > 200
    # Tessellated spheres and capsules sit up to ~1 mm inside the true
    # surface at the humanoid's sizes; 24-bit depth is far finer here.
    assert np.median(errors) < 2e-3 and np.max(errors) < 1e-2, errors.max()
    # Nothing drawn: the far plane.
    assert np.all(depth[seg[..., 0] == -1] > 10)


def test_model_camera_by_name_and_id(renderer, humanoid):
    model, data = humanoid
    renderer.update_scene(data, camera="side")
    side = renderer.render()
    renderer.update_scene(data, camera=model._name2id(7, "side"))
    assert np.array_equal(renderer.render(), side)
    renderer.update_scene(data, camera=-1)
    assert not np.array_equal(renderer.render(), side)


def test_bad_input_is_refused(renderer, humanoid):
    model, data = humanoid
    with pytest.raises(ValueError, match="no camera named 'nope'"):
        renderer.update_scene(data, camera="nope")
    with pytest.raises(ValueError, match="out of range"):
        renderer.update_scene(data, camera=99)
    with pytest.raises(ValueError, match="positive integer"):
        pliant.Renderer(model, height=0, width=10)
    other = pliant.Model.from_xml_string("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
    renderer.update_scene(pliant.Data(other))
    with pytest.raises(ValueError):
        renderer.render()


def test_mujoco_face_renders_the_same(renderer, humanoid):
    import pliant.mujoco as mujoco  # noqa: PLC0415
    model, data = humanoid
    with mujoco.Renderer(model, 120, 160) as small:
        small.update_scene(data, camera="back")
        assert small.render().shape == (120, 160, 3)
    cam = mujoco.MjvCamera()
    mujoco.mjv_defaultFreeCamera(model, cam)
    renderer.update_scene(data, camera=cam)
    a = renderer.render()
    renderer.update_scene(data, camera=-1)
    assert np.array_equal(a, renderer.render())
