#include "viewer/offscreen.h"

#define GLFW_INCLUDE_NONE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLFW/glfw3.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
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

// The EGL display and context of a window-less GlContext.
struct GlContext::Egl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  ~Egl() {
    if (display == EGL_NO_DISPLAY) return;
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
    eglTerminate(display);
  }
};

namespace {

std::string egl_error(const char* what) {
  char code[16];
  std::snprintf(code, sizeof(code), "0x%04x", static_cast<unsigned>(eglGetError()));
  return std::string(what) + " failed (EGL error " + code + ")";
}

// An OpenGL 3.3 core context on Mesa's surfaceless platform, current on
// this thread; nullptr with the reason in *error.
std::unique_ptr<GlContext::Egl> make_egl_context(std::string* error) {
  const char* extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (extensions == nullptr ||
      std::strstr(extensions, "EGL_MESA_platform_surfaceless") == nullptr) {
    *error = "EGL has no surfaceless platform (EGL_MESA_platform_surfaceless)";
    return nullptr;
  }
  auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (get_platform_display == nullptr) {
    *error = "EGL lacks eglGetPlatformDisplayEXT";
    return nullptr;
  }
  auto egl = std::make_unique<GlContext::Egl>();
  egl->display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  EGLint major = 0, minor = 0;
  if (egl->display == EGL_NO_DISPLAY || !eglInitialize(egl->display, &major, &minor)) {
    egl->display = EGL_NO_DISPLAY;
    *error = egl_error("eglInitialize");
    return nullptr;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    *error = egl_error("eglBindAPI(OpenGL)");
    return nullptr;
  }
  // A pbuffer-capable OpenGL config (the surface type defaults to windows,
  // which a surfaceless display has none of), else no config at all where
  // the display allows it (EGL_KHR_no_config_context): the picture goes to
  // framebuffer objects either way.
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  if (!eglChooseConfig(egl->display, config_attributes, &config, 1, &configs) || configs < 1) {
    const char* display_extensions = eglQueryString(egl->display, EGL_EXTENSIONS);
    if (display_extensions == nullptr ||
        std::strstr(display_extensions, "EGL_KHR_no_config_context") == nullptr) {
      *error = "EGL offers no OpenGL configuration on the surfaceless platform";
      return nullptr;
    }
    config = EGL_NO_CONFIG_KHR;
  }
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                       3,
                                       EGL_CONTEXT_MINOR_VERSION,
                                       3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_NONE};
  egl->context = eglCreateContext(egl->display, config, EGL_NO_CONTEXT, context_attributes);
  if (egl->context == EGL_NO_CONTEXT) {
    *error = egl_error("eglCreateContext(OpenGL 3.3 core)");
    return nullptr;
  }
  if (!eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl->context)) {
    *error = egl_error("eglMakeCurrent without a surface");
    return nullptr;
  }
  return egl;
}

std::string current_renderer_name() {
  const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return name != nullptr ? name : "";
}

}  // namespace

std::unique_ptr<GlContext> GlContext::create_headless(std::string* error, int samples) {
  const char* choice = std::getenv("PLIANT_GL");
  const std::string way = choice != nullptr ? choice : "";
  if (!way.empty() && way != "egl" && way != "glfw") {
    *error = "PLIANT_GL is '" + way + "'; accepted: egl, glfw (or unset: EGL, then GLFW)";
    return nullptr;
  }
  std::string egl_reason;
  if (way != "glfw") {
    if (auto egl = make_egl_context(&egl_reason)) {
      if (samples < 0) samples = is_software_renderer(current_renderer_name()) ? 0 : 4;
      std::unique_ptr<GlContext> out(new GlContext(nullptr, samples));
      out->egl_ = std::move(egl);
      return out;
    }
    if (way == "egl") {
      *error = "cannot make an EGL context: " + egl_reason;
      return nullptr;
    }
  }
  auto out = create(16, 16, false, "pliant offscreen", error, samples);
  if (!out && !egl_reason.empty()) *error = "EGL: " + egl_reason + "; GLFW: " + *error;
  return out;
}

GlContext::GlContext(GLFWwindow* window, int samples) : window_(window), samples_(samples) {}

GlContext::~GlContext() {
  if (egl_) return;  // Egl's destructor releases it
  glfwDestroyWindow(window_);
  if (--g_context_count == 0) glfwTerminate();
}

void GlContext::make_current() const {
  if (egl_) {
    eglMakeCurrent(egl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl_->context);
  } else {
    glfwMakeContextCurrent(window_);
  }
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
  glGenRenderbuffers(1, &resolve_depth_);
  glBindRenderbuffer(GL_RENDERBUFFER, resolve_color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, resolve_depth_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolve_color_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, resolve_depth_);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (!complete) throw std::runtime_error("the offscreen framebuffer is incomplete");
}

Framebuffer::~Framebuffer() {
  glDeleteFramebuffers(1, &fbo_);
  glDeleteFramebuffers(1, &resolve_fbo_);
  glDeleteRenderbuffers(1, &color_);
  glDeleteRenderbuffers(1, &depth_);
  glDeleteRenderbuffers(1, &resolve_color_);
  glDeleteRenderbuffers(1, &resolve_depth_);
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

std::vector<float> Framebuffer::read_depth() {
  // Depth is resolved by taking one sample per pixel (the only blit OpenGL
  // allows for depth).
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_fbo_);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_fbo_);
  std::vector<float> rows(static_cast<size_t>(width_) * height_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_DEPTH_COMPONENT, GL_FLOAT, rows.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  std::vector<float> depth(rows.size());
  for (int row = 0; row < height_; ++row) {
    std::copy_n(rows.begin() + static_cast<size_t>(height_ - 1 - row) * width_, width_,
                depth.begin() + static_cast<size_t>(row) * width_);
  }
  return depth;
}

Image read_window_pixels(int x, int y, int width, int height) {
  // The default framebuffer resolves its samples on read.
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  return read_bound_pixels(x, y, width, height);
}

std::unique_ptr<OffscreenRenderer> OffscreenRenderer::create(int width, int height,
                                                             std::string* error) {
  if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
    *error = "the picture size " + std::to_string(width) + " x " + std::to_string(height) +
             " is out of range; accepted: 1 to 16384 pixels each way";
    return nullptr;
  }
  std::unique_ptr<OffscreenRenderer> out(new OffscreenRenderer());
  out->context_ = GlContext::create_headless(error);
  if (!out->context_) return nullptr;
  try {
    out->renderer_ = std::make_unique<Renderer>();
    out->framebuffer_ = std::make_unique<Framebuffer>(width, height, out->context_->samples());
    out->flat_framebuffer_ = std::make_unique<Framebuffer>(width, height, 0);
  } catch (const std::exception& e) {
    *error = e.what();
    return nullptr;
  }
  return out;
}

OffscreenRenderer::~OffscreenRenderer() {
  // GL objects go before their context.
  if (context_) context_->make_current();
  flat_framebuffer_.reset();
  framebuffer_.reset();
  renderer_.reset();
}

void OffscreenRenderer::set_model(const Model& model) {
  context_->make_current();
  renderer_->set_model(model);
}

void OffscreenRenderer::draw(const Model& model, const Data& data, const Camera& camera,
                             const VisualOptions& options, const Highlight& highlight,
                             Framebuffer& target) {
  context_->make_current();
  const SceneBounds bounds = scene_bounds(model, data);
  view_ = camera_view(camera, model, data, bounds);
  const OverlayScale scale = overlay_scale(model, bounds, options);
  std::vector<DrawItem> items;
  add_model_items(model, data, options, highlight, scale, items);
  if (options.segmentation) {
    // One flat colour per object: 1 + geom id, or 1 + ngeom + site id, in
    // 24 bits of red, green, blue; black is the background.
    const int ngeom = model.geoms.count();
    std::vector<DrawItem> flat;
    flat.reserve(items.size());
    for (DrawItem item : items) {
      if ((item.geom < 0 && item.site < 0) || item.color.w() <= 0) continue;
      const int code = 1 + (item.geom >= 0 ? item.geom : ngeom + item.site);
      item.color = Eigen::Vector4f((code & 0xff) / 255.0f, ((code >> 8) & 0xff) / 255.0f,
                                   ((code >> 16) & 0xff) / 255.0f, 1);
      item.lit = false;
      item.cast_shadow = false;
      item.texture_mode = TextureMode::kNone;
      item.emission = 0;
      flat.push_back(item);
    }
    items.swap(flat);
  } else {
    add_overlay_items(model, data, options, highlight, scale, Perturbation{}, items);
  }
  renderer_->render(model, data, view_, bounds, options, items, target.id(), 0, 0, target.width(),
                    target.height());
}

Image OffscreenRenderer::render(const Model& model, const Data& data, const Camera& camera,
                                const VisualOptions& options, const Highlight& highlight) {
  VisualOptions colour = options;
  colour.segmentation = false;
  draw(model, data, camera, colour, highlight, *framebuffer_);
  return framebuffer_->read();
}

std::vector<float> OffscreenRenderer::render_depth(const Model& model, const Data& data,
                                                   const Camera& camera,
                                                   const VisualOptions& options) {
  VisualOptions colour = options;
  colour.segmentation = false;
  draw(model, data, camera, colour, Highlight{}, *flat_framebuffer_);
  std::vector<float> depth = flat_framebuffer_->read_depth();
  // Window depth d in [0, 1] back to the distance along the view axis for
  // projection_matrix's frustum.
  const double n = view_.znear, f = view_.zfar;
  for (float& d : depth) {
    const double ndc = 2.0 * d - 1.0;
    d = static_cast<float>(2 * f * n / ((f + n) - ndc * (f - n)));
  }
  return depth;
}

std::vector<PixelObject> OffscreenRenderer::render_segmentation(const Model& model,
                                                                const Data& data,
                                                                const Camera& camera,
                                                                const VisualOptions& options) {
  VisualOptions flat = options;
  flat.segmentation = true;
  draw(model, data, camera, flat, Highlight{}, *flat_framebuffer_);
  const Image image = flat_framebuffer_->read();
  const int ngeom = model.geoms.count();
  std::vector<PixelObject> out(static_cast<size_t>(image.width) * image.height);
  for (size_t p = 0; p < out.size(); ++p) {
    const unsigned char* rgb = &image.rgb[3 * p];
    const int code = rgb[0] | (rgb[1] << 8) | (rgb[2] << 16);
    if (code == 0) continue;
    const int index = code - 1;
    out[p] = index < ngeom ? PixelObject{index, static_cast<int>(ObjectType::kGeom)}
                           : PixelObject{index - ngeom, static_cast<int>(ObjectType::kSite)};
  }
  return out;
}

}  // namespace pliant::viewer
