#pragma once

// Rendering without a visible window: an OpenGL 3.3 core context from GLFW
// (a hidden window; under Xvfb this works on machines without a screen), a
// framebuffer object to draw into, read-back to an RGB image, and PNG
// output. The headless runner renders pictures of a Model + Data with
// OffscreenRenderer; the viewer's --screenshot uses the same framebuffer.

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

// A GLFW window with a current OpenGL 3.3 core context.
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
  ~GlContext();
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;

  GLFWwindow* window() const { return window_; }
  // The samples per pixel chosen (for the window and offscreen framebuffers).
  int samples() const { return samples_; }

 private:
  GlContext(GLFWwindow* window, int samples);
  GLFWwindow* window_ = nullptr;
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

 private:
  int width_, height_;
  GLuint fbo_ = 0, color_ = 0, depth_ = 0;
  GLuint resolve_fbo_ = 0, resolve_color_ = 0;
};

// Everything needed to render pictures of a model headless.
class OffscreenRenderer {
 public:
  // nullptr with a sentence in *error when no OpenGL context is available.
  static std::unique_ptr<OffscreenRenderer> create(int width, int height, std::string* error);
  ~OffscreenRenderer();

  // Call once per model before rendering it.
  void set_model(const Model& model);
  Image render(const Model& model, const Data& data, const Camera& camera,
               const VisualOptions& options, const Highlight& highlight = {});

 private:
  OffscreenRenderer() = default;
  std::unique_ptr<GlContext> context_;
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<Framebuffer> framebuffer_;
};

}  // namespace pliant::viewer
