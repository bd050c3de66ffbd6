"""Pictures of a model without a window: `pliant.Renderer`, as `mujoco.Renderer`.

    renderer = pliant.Renderer(model, height=480, width=640)
    renderer.update_scene(data, camera="track")   # a model camera (name or id), -1: free
    rgb = renderer.render()                        # (480, 640, 3) uint8
    renderer.enable_depth_rendering()
    depth = renderer.render()                      # (480, 640) float32, metres
    renderer.enable_segmentation_rendering()
    ids = renderer.render()                        # (480, 640, 2) int32: object id, object type

The OpenGL context is EGL's surfaceless platform (no display, no X server)
or, where EGL cannot make one, a hidden GLFW window (under Xvfb on machines
without a screen). `PLIANT_GL=egl` or `PLIANT_GL=glfw` picks one;
`renderer.backend` says which was made.
"""
import numpy as np

from . import _pliant

_FREE, _TRACKING, _FIXED = 0, 1, 2
_CAMERA_OBJECT = 7  # mjOBJ_CAMERA


class FreeCamera:
    """A camera orbiting a point, as MuJoCo's MjvCamera: `type` 0 free, 1
    tracking `trackbodyid`, 2 the model camera `fixedcamid`."""

    def __init__(self):
        self.type = _FREE
        self.lookat = np.zeros(3)
        self.distance = 2.0
        self.azimuth = 90.0
        self.elevation = -45.0
        self.fixedcamid = -1
        self.trackbodyid = -1


def default_free_camera(model, camera=None):
    """MuJoCo's default free camera: looking at the model's centre from 1.5
    extents away, azimuth 90 and elevation -45 degrees."""
    camera = camera if camera is not None else FreeCamera()
    camera.type = _FREE
    camera.lookat = np.array(model.stat_center, dtype=float)
    camera.distance = 1.5 * float(model.stat_extent)
    camera.azimuth = 90.0
    camera.elevation = -45.0
    return camera


class _SceneOptions:
    def __init__(self):
        self.geomgroup = np.array([1, 1, 1, 0, 0, 0], dtype=np.uint8)
        self.sitegroup = np.array([1, 1, 1, 0, 0, 0], dtype=np.uint8)


class Renderer:
    """Renders a model's state to numpy arrays, headless."""

    def __init__(self, model, height=240, width=320, max_geom=10000):
        del max_geom  # Pliant's scene has no fixed capacity
        if not getattr(_pliant, "_render_available", False):
            raise NotImplementedError(
                "pliant.Renderer: this build of Pliant has no viewer library (it needs GLFW, "
                "OpenGL, EGL and Dear ImGui at build time: bash .ci/install-deps)")
        for name, value in (("height", height), ("width", width)):
            if int(value) != value or value < 1:
                raise ValueError("Renderer %s must be a positive integer, got %r" % (name, value))
        self._model = model
        self._height, self._width = int(height), int(width)
        self._impl = _pliant._Renderer(model, self._height, self._width)
        self._kind = "rgb"
        self._data = None
        self._camera = default_free_camera(model)
        self._options = _SceneOptions()

    # -- what mujoco.Renderer offers --------------------------------------
    @property
    def model(self):
        return self._model

    @property
    def height(self):
        return self._height

    @property
    def width(self):
        return self._width

    @property
    def backend(self):
        """"egl" or "glfw": how the OpenGL context was made."""
        return self._impl.backend

    def enable_depth_rendering(self):
        self._kind = "depth"

    def disable_depth_rendering(self):
        self._kind = "rgb"

    def enable_segmentation_rendering(self):
        self._kind = "segmentation"

    def disable_segmentation_rendering(self):
        self._kind = "rgb"

    def update_scene(self, data, camera=-1, scene_option=None):
        """The state to draw and the camera: -1 (the default free camera), a
        model camera's name or id, or a camera object (FreeCamera or
        mujoco.MjvCamera-like: type, lookat, distance, azimuth, elevation,
        fixedcamid, trackbodyid)."""
        if isinstance(camera, str):
            camid = self._model._name2id(_CAMERA_OBJECT, camera)
            if camid < 0:
                names = [self._model._id2name(_CAMERA_OBJECT, i) for i in range(self._model.ncam)]
                raise ValueError("no camera named %r; the model's cameras: %s"
                                 % (camera, ", ".join(names) or "none"))
            camera = camid
        if isinstance(camera, (int, np.integer)):
            if camera == -1:
                camera = default_free_camera(self._model)
            elif not 0 <= camera < self._model.ncam:
                raise ValueError("camera id %d out of range [-1, %d)" % (camera, self._model.ncam))
            else:
                fixed = FreeCamera()
                fixed.type, fixed.fixedcamid = _FIXED, int(camera)
                camera = fixed
        for attribute in ("type", "lookat", "distance", "azimuth", "elevation"):
            if not hasattr(camera, attribute):
                raise TypeError("camera must be -1, a camera name or id, or an object with "
                                "type, lookat, distance, azimuth and elevation")
        self._data = data
        self._camera = camera
        if scene_option is not None:
            self._options = scene_option

    def render(self, out=None):
        if self._data is None:
            raise RuntimeError("Renderer.render: call update_scene(data, camera) first")
        camera = self._camera
        groups = [np.asarray(getattr(self._options, name), dtype=bool).ravel()[:6]
                  for name in ("geomgroup", "sitegroup")]
        picture = self._impl.render(
            self._data, self._kind, int(camera.type),
            [float(x) for x in np.asarray(camera.lookat, dtype=float)],
            float(camera.distance), float(camera.azimuth), float(camera.elevation),
            int(getattr(camera, "fixedcamid", -1)), int(getattr(camera, "trackbodyid", -1)),
            list(groups[0]), list(groups[1]))
        if out is None:
            return picture
        if out.shape != picture.shape or out.dtype != picture.dtype:
            raise ValueError("out must have shape %s and dtype %s, got %s %s"
                             % (picture.shape, picture.dtype, out.shape, out.dtype))
        out[...] = picture
        return out

    def camera_view(self):
        """The last picture's camera: eye (3), rotation (3 x 3, columns right,
        up, backward), fovy (degrees), znear and zfar (m)."""
        return self._impl.last_view()

    def close(self):
        self._impl.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
