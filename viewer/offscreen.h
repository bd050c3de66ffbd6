#pragma once

// Rendering without a visible window: an OpenGL 3.3 core context (EGL with
// no display, or a hidden GLFW window, under Xvfb on machines without a
// screen), a framebuffer object to draw into, read-back to an RGB image or a
// depth map, and PNG output. OffscreenRenderer renders pictures of a
// Model + Data (Python's pliant.Renderer); the viewer's --screenshot uses the
// same framebuffer.

#include <memory>
#include <string>
#include <vector>

#include "viewer/camera.h"
#include "viewer/gl.h"
#include "viewer/scene.h"

struct GLFWwindow;

namespace pliant::viewer {

class Renderer;

// RGB, 8 bits per channel, rows top to bottom.
struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
};

// Writes a PNG; false with a sentence in *error on failure.
bool write_png(const std::string& path, const Image& image, std::string* error);

// A rectangle (x, y: lower-left corner, pixels) of the current window's back
// buffer, as drawn before the buffers are swapped.
Image read_window_pixels(int x, int y, int width, int height);

// A current OpenGL 3.3 core context: a GLFW window (visible or hidden), or,
// for pictures without a window, an EGL context with no surface at all.
class GlContext {
 public:
  // nullptr with a sentence in *error when no context can be made (no
  // display, no OpenGL 3.3). `samples` is the anti-aliasing (MSAA) samples
  // per pixel, 0 for none, or kAutoSamples: 4, or none on a software
  // rasterizer (llvmpipe, softpipe), where 4 samples cost about half of a
  // frame.
  static constexpr int kAutoSamples = -1;
  static std::unique_ptr<GlContext> create(int width, int height, bool visible,
                                           const std::string& title, std::string* error,
                                           int samples = kAutoSamples);
  // A context for offscreen framebuffers only. The environment variable
  // PLIANT_GL picks the way: "egl" (Mesa's surfaceless EGL platform: no
  // display, no X server), "glfw" (a hidden GLFW window: needs a display,
  // Xvfb headless); unset tries EGL first, then GLFW.
  static std::unique_ptr<GlContext> create_headless(std::string* error, int samples = kAutoSamples);
  ~GlContext();
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;

  // The GLFW window, nullptr for an EGL context.
  GLFWwindow* window() const { return window_; }
  // Makes the context current on the calling thread.
  void make_current() const;
  // The samples per pixel chosen (for the window and offscreen framebuffers).
  int samples() const { return samples_; }
  // "egl" or "glfw".
  const char* backend() const { return egl_ ? "egl" : "glfw"; }

  struct Egl;  // the EGL display and context (offscreen.cpp)

 private:
  GlContext(GLFWwindow* window, int samples);
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<Egl> egl_;
  int samples_ = 0;
};

// A multisampled colour + depth framebuffer with a single-sampled copy
// for reading back.
class Framebuffer {
 public:
  Framebuffer(int width, int height, int samples);
  ~Framebuffer();
  Framebuffer(const Framebuffer&) = delete;
  Framebuffer& operator=(const Framebuffer&) = delete;

  GLuint id() const { return fbo_; }
  int width() const { return width_; }
  int height() const { return height_; }
  Image read();
  // A rectangle of it (x, y: lower-left corner, pixels).
  Image read(int x, int y, int width, int height);
  // The depth buffer, rows top to bottom, as OpenGL stores it (0 at the
  // near plane, 1 at the far plane).
  std::vector<float> read_depth();

 private:
  int width_, height_;
  GLuint fbo_ = 0, color_ = 0, depth_ = 0;
  GLuint resolve_fbo_ = 0, resolve_color_ = 0, resolve_depth_ = 0;
};

// What a segmentation picture holds per pixel: the object drawn there.
struct PixelObject {
  int id = -1;    // geom or site id; -1 for the background
  int type = -1;  // ObjectType::kGeom or kSite as an int; -1 for the background
};

// Everything needed to render pictures of a model headless.
class OffscreenRenderer {
 public:
  // nullptr with a sentence in *error when no OpenGL context is available.
  static std::unique_ptr<OffscreenRenderer> create(int width, int height, std::string* error);
  ~OffscreenRenderer();

  int width() const { return framebuffer_->width(); }
  int height() const { return framebuffer_->height(); }
  // "egl" or "glfw": how the context was made.
  const char* backend() const { return context_->backend(); }

  // Call once per model before rendering it.
  void set_model(const Model& model);
  Image render(const Model& model, const Data& data, const Camera& camera,
               const VisualOptions& options, const Highlight& highlight = {});
  // Per pixel (rows top to bottom), the distance in metres from the camera
  // plane to the surface drawn there; the far clipping plane where nothing is.
  std::vector<float> render_depth(const Model& model, const Data& data, const Camera& camera,
                                  const VisualOptions& options);
  // Per pixel (rows top to bottom), the geom or site drawn there: every
  // item in one flat colour that encodes it, without lights, shadows,
  // textures, transparency, anti-aliasing or overlays.
  std::vector<PixelObject> render_segmentation(const Model& model, const Data& data,
                                               const Camera& camera, const VisualOptions& options);
  // The camera's pose and lens in the last picture.
  const CameraView& last_view() const { return view_; }

 private:
  OffscreenRenderer() = default;
  // Draws the items of the model (and, unless segmenting, the overlays)
  // into `target`.
  void draw(const Model& model, const Data& data, const Camera& camera,
            const VisualOptions& options, const Highlight& highlight, Framebuffer& target);
  std::unique_ptr<GlContext> context_;
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<Framebuffer> framebuffer_;
  std::unique_ptr<Framebuffer> flat_framebuffer_;  // no samples: exact colours for ids
  CameraView view_{};
};

}  // namespace pliant::viewer
