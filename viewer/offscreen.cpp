#include "viewer/offscreen.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <stb_image_write.h>

#include <algorithm>
#include <stdexcept>

#include "viewer/overlays.h"
#include "viewer/renderer.h"

namespace pliant::viewer {
namespace {

std::string g_glfw_error;  // the last message GLFW reported
int g_context_count = 0;   // live contexts; GLFW is terminated with the last

void remember_glfw_error(int code, const char* description) {
  g_glfw_error = std::string(description) + " (GLFW error " + std::to_string(code) + ")";
}

void set_context_hints(bool visible, int samples) {
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_SAMPLES, samples);
}

// GL_RENDERER of a small hidden context, made and dropped; empty when none
// can be made (the real context then reports why).
std::string probe_renderer_name() {
  set_context_hints(false, 0);
  GLFWwindow* probe = glfwCreateWindow(16, 16, "pliant probe", nullptr, nullptr);
  if (probe == nullptr) return "";
  glfwMakeContextCurrent(probe);
  const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  std::string result = name != nullptr ? name : "";
  glfwMakeContextCurrent(nullptr);
  glfwDestroyWindow(probe);
  return result;
}

// Whether GL_RENDERER names a software rasterizer.
bool is_software_renderer(const std::string& renderer_name) {
  for (const char* software : {"llvmpipe", "softpipe", "Software Rasterizer", "SWR"}) {
    if (renderer_name.find(software) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

bool write_png(const std::string& path, const Image& image, std::string* error) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgb.size() != static_cast<size_t>(3 * image.width * image.height)) {
    if (error != nullptr) *error = "the image to write is empty";
    return false;
  }
  if (stbi_write_png(path.c_str(), image.width, image.height, 3, image.rgb.data(),
                     3 * image.width) == 0) {
    if (error != nullptr) *error = "cannot write the PNG file " + path;
    return false;
  }
  return true;
}

std::unique_ptr<GlContext> GlContext::create(int width, int height, bool visible,
                                             const std::string& title, std::string* error,
                                             int samples) {
  glfwSetErrorCallback(remember_glfw_error);
  g_glfw_error.clear();
  if (g_context_count == 0 && !glfwInit()) {
    *error = "cannot initialise GLFW: " +
             (g_glfw_error.empty() ? std::string("unknown reason") : g_glfw_error) +
             ". Is there a display? Headless, run under Xvfb: xvfb-run -a -s \"-screen 0 "
             "1280x800x24\" pliant view ...";
    return nullptr;
  }
  if (samples < 0) samples = is_software_renderer(probe_renderer_name()) ? 0 : 4;
  set_context_hints(visible, samples);
  GLFWwindow* window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (window == nullptr) {
    *error = "cannot create an OpenGL 3.3 core context: " +
             (g_glfw_error.empty() ? std::string("unknown reason") : g_glfw_error);
    if (g_context_count == 0) glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  ++g_context_count;
  return std::unique_ptr<GlContext>(new GlContext(window, samples));
}

GlContext::GlContext(GLFWwindow* window, int samples) : window_(window), samples_(samples) {}

GlContext::~GlContext() {
  glfwDestroyWindow(window_);
  if (--g_context_count == 0) glfwTerminate();
}

Framebuffer::Framebuffer(int width, int height, int samples) : width_(width), height_(height) {
  glGenFramebuffers(1, &fbo_);
  glGenRenderbuffers(1, &color_);
  glGenRenderbuffers(1, &depth_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_);
  const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glGenFramebuffers(1, &resolve_fbo_);
  glGenRenderbuffers(1, &resolve_color_);
  glBindRenderbuffer(GL_RENDERBUFFER, resolve_color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolve_color_);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (!complete) throw std::runtime_error("the offscreen framebuffer is incomplete");
}

Framebuffer::~Framebuffer() {
  glDeleteFramebuffers(1, &fbo_);
  glDeleteFramebuffers(1, &resolve_fbo_);
  glDeleteRenderbuffers(1, &color_);
  glDeleteRenderbuffers(1, &depth_);
  glDeleteRenderbuffers(1, &resolve_color_);
}

namespace {

// Reads a rectangle (lower-left x, y) of the bound read framebuffer; OpenGL
// gives rows bottom-up, the image wants them top-down.
Image read_bound_pixels(int x, int y, int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  std::vector<unsigned char> rows(3 * width * height);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x, y, width, height, GL_RGB, GL_UNSIGNED_BYTE, rows.data());
  image.rgb.resize(rows.size());
  const size_t stride = 3 * width;
  for (int row = 0; row < height; ++row) {
    std::copy_n(rows.begin() + (height - 1 - row) * stride, stride,
                image.rgb.begin() + row * stride);
  }
  return image;
}

}  // namespace

Image Framebuffer::read() { return read(0, 0, width_, height_); }

Image Framebuffer::read(int x, int y, int width, int height) {
  // Resolve the samples, then read the rectangle.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_fbo_);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_fbo_);
  Image image = read_bound_pixels(x, y, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return image;
}

Image read_window_pixels(int x, int y, int width, int height) {
  // The default framebuffer resolves its samples on read.
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  return read_bound_pixels(x, y, width, height);
}

std::unique_ptr<OffscreenRenderer> OffscreenRenderer::create(int width, int height,
                                                             std::string* error) {
  std::unique_ptr<OffscreenRenderer> out(new OffscreenRenderer());
  out->context_ = GlContext::create(width, height, false, "pliant offscreen", error);
  if (!out->context_) return nullptr;
  try {
    out->renderer_ = std::make_unique<Renderer>();
    out->framebuffer_ = std::make_unique<Framebuffer>(width, height, out->context_->samples());
  } catch (const std::exception& e) {
    *error = e.what();
    return nullptr;
  }
  return out;
}

OffscreenRenderer::~OffscreenRenderer() {
  // GL objects go before their context.
  if (context_) glfwMakeContextCurrent(context_->window());
  framebuffer_.reset();
  renderer_.reset();
}

void OffscreenRenderer::set_model(const Model& model) {
  glfwMakeContextCurrent(context_->window());
  renderer_->set_model(model);
}

Image OffscreenRenderer::render(const Model& model, const Data& data, const Camera& camera,
                                const VisualOptions& options, const Highlight& highlight) {
  glfwMakeContextCurrent(context_->window());
  const SceneBounds bounds = scene_bounds(model, data);
  const CameraView view = camera_view(camera, model, data, bounds);
  const OverlayScale scale = overlay_scale(model, bounds, options);
  std::vector<DrawItem> items;
  add_model_items(model, data, options, highlight, scale, items);
  add_overlay_items(model, data, options, highlight, scale, Perturbation{}, items);
  renderer_->render(model, data, view, bounds, options, items, framebuffer_->id(), 0, 0,
                    framebuffer_->width(), framebuffer_->height());
  return framebuffer_->read();
}

}  // namespace pliant::viewer
