#include "python/render.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "python/arrays.h"

#if PLIANT_PYTHON_RENDER
#include "viewer/camera.h"
#include "viewer/offscreen.h"
#include "viewer/passive.h"
#include "viewer/scene.h"
#endif

namespace pliant::python {

#if PLIANT_PYTHON_RENDER
namespace {

using ModelPtr = std::shared_ptr<Model>;
using viewer::Camera;
using viewer::CameraMode;

// The camera of one picture, resolved by the Python side: mode 0 free,
// 1 tracking, 2 fixed (MuJoCo's mjtCamera).
Camera make_camera(const Model& model, int mode, const std::array<double, 3>& lookat,
                   double distance, double azimuth, double elevation, int fixed, int track) {
  Camera camera;
  camera.lookat = Vector3d(lookat[0], lookat[1], lookat[2]);
  camera.distance = distance;
  camera.azimuth = azimuth;
  camera.elevation = elevation;
  if (mode == 2) {
    if (fixed < 0 || fixed >= model.cameras.count())
      throw py::index_error("camera id " + std::to_string(fixed) + " out of range; the model has " +
                            std::to_string(model.cameras.count()) + " cameras");
    camera.mode = CameraMode::kFixed;
    camera.fixed_camera = fixed;
  } else if (mode == 1) {
    if (track < 0 || track >= model.body_count())
      throw py::index_error("tracked body id " + std::to_string(track) + " out of range");
    camera.mode = CameraMode::kTracking;
    camera.track_body = track;
  } else if (mode != 0) {
    throw py::value_error("camera type " + std::to_string(mode) +
                          " is not one of 0 (free), 1 (tracking), 2 (fixed)");
  }
  return camera;
}

viewer::VisualOptions make_options(const std::array<bool, 6>& geomgroup,
                                   const std::array<bool, 6>& sitegroup) {
  viewer::VisualOptions options;
  for (int g = 0; g < viewer::kGroupCount; ++g) {
    options.geom_groups[g] = geomgroup[g];
    options.site_groups[g] = sitegroup[g];
  }
  return options;
}

struct PyRenderer {
  PyRenderer(ModelPtr m, int height, int width) : model(std::move(m)) {
    std::string error;
    renderer = viewer::OffscreenRenderer::create(width, height, &error);
    if (!renderer) throw std::runtime_error("pliant.Renderer: " + error);
    renderer->set_model(*model);
  }
  ModelPtr model;
  std::unique_ptr<viewer::OffscreenRenderer> renderer;
};

// The tracked body is followed from where the camera looks now.
py::object render(PyRenderer& self, const PyData& data, const std::string& kind, int mode,
                  const std::array<double, 3>& lookat, double distance, double azimuth,
                  double elevation, int fixed, int track, const std::array<bool, 6>& geomgroup,
                  const std::array<bool, 6>& sitegroup) {
  check_same_model(self.model, data);
  const Model& model = *self.model;
  Camera camera = make_camera(model, mode, lookat, distance, azimuth, elevation, fixed, track);
  if (camera.mode == CameraMode::kTracking) camera.lookat = data.data.xpos[track];
  const viewer::VisualOptions options = make_options(geomgroup, sitegroup);
  const long h = self.renderer->height(), w = self.renderer->width();
  if (kind == "rgb") {
    viewer::Image image;
    {
      py::gil_scoped_release release;
      image = self.renderer->render(model, data.data, camera, options);
    }
    py::array_t<unsigned char> out({h, w, 3L});
    std::copy(image.rgb.begin(), image.rgb.end(), out.mutable_data());
    return out;
  }
  if (kind == "depth") {
    std::vector<float> depth;
    {
      py::gil_scoped_release release;
      depth = self.renderer->render_depth(model, data.data, camera, options);
    }
    py::array_t<float> out({h, w});
    std::copy(depth.begin(), depth.end(), out.mutable_data());
    return out;
  }
  if (kind == "segmentation") {
    std::vector<viewer::PixelObject> objects;
    {
      py::gil_scoped_release release;
      objects = self.renderer->render_segmentation(model, data.data, camera, options);
    }
    py::array_t<int> out({h, w, 2L});
    int* values = out.mutable_data();
    for (size_t p = 0; p < objects.size(); ++p) {
      values[2 * p] = objects[p].id;
      values[2 * p + 1] = objects[p].type;
    }
    return out;
  }
  throw py::value_error("picture kind '" + kind + "'; accepted: rgb, depth, segmentation");
}

py::dict last_view(const PyRenderer& self) {
  const viewer::CameraView& view = self.renderer->last_view();
  py::array_t<double> eye(3), rotation({3, 3});
  for (int i = 0; i < 3; ++i) {
    eye.mutable_at(i) = view.eye[i];
    for (int j = 0; j < 3; ++j) rotation.mutable_at(i, j) = view.rotation(i, j);
  }
  py::dict out;
  out["eye"] = eye;
  out["rotation"] = rotation;
  out["fovy"] = view.fovy;
  out["znear"] = view.znear;
  out["zfar"] = view.zfar;
  return out;
}

struct PyPassive {
  ModelPtr model;
  std::unique_ptr<viewer::PassiveViewer> window;
  viewer::PassiveViewer& open() {
    if (!window) throw std::runtime_error("the passive viewer is closed");
    return *window;
  }
};

}  // namespace

void def_render(py::module_& mod) {
  mod.attr("_render_available") = true;
  py::class_<PyRenderer>(mod, "_Renderer")
      .def(py::init<ModelPtr, int, int>(), py::arg("model").none(false), py::arg("height"),
           py::arg("width"))
      .def("render", &render)
      .def("last_view", &last_view)
      .def_property_readonly("backend",
                             [](const PyRenderer& r) { return std::string(r.renderer->backend()); })
      .def("close", [](PyRenderer& r) { r.renderer.reset(); });
  // (close leaves the object; the Python side refuses to use it after.)
  py::class_<PyPassive>(mod, "_PassiveViewer")
      .def(py::init([](ModelPtr model, PyData& data, int width, int height, bool hide_panels,
                       const std::string& state_log) {
             check_same_model(model, data);
             viewer::PassiveOptions options;
             options.width = width;
             options.height = height;
             options.hide_panels = hide_panels;
             options.state_log = state_log;
             data.push();
             std::string error;
             auto window = viewer::PassiveViewer::launch(*model, data.data, options, &error);
             if (!window) throw std::runtime_error("pliant.viewer.launch_passive: " + error);
             return PyPassive{std::move(model), std::move(window)};
           }),
           py::arg("model").none(false), py::arg("data"), py::arg("width"), py::arg("height"),
           py::arg("hide_panels"), py::arg("state_log"))
      .def("sync",
           [](PyPassive& self, PyData& data) {
             check_same_model(self.model, data);
             data.push();
             self.open().sync(*self.model, data.data);
             data.pull();
           })
      .def("is_running",
           [](const PyPassive& self) { return self.window && self.window->is_running(); })
      .def("close",
           [](PyPassive& self) {
             py::gil_scoped_release release;
             self.window.reset();  // closes the window and joins its thread
           })
      .def("shown_time", [](PyPassive& self) { return self.open().shown_time(); })
      .def("shows_last_sync", [](PyPassive& self) { return self.open().shows_last_sync(); })
      .def("frames", [](PyPassive& self) { return self.open().frames(); });
}

#else

void def_render(py::module_& mod) { mod.attr("_render_available") = false; }

#endif

}  // namespace pliant::python
