#include "viewer/app.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/ray.h"
#include "pliant/state.h"
#include "pliant/step.h"
#include "viewer/contact_inspector.h"
#include "viewer/help_panel.h"
#include "viewer/offscreen.h"
#include "viewer/overlays.h"
#include "viewer/panel_layout.h"
#include "viewer/panels.h"
#include "viewer/passive.h"
#include "viewer/plots.h"
#include "viewer/renderer.h"
#include "viewer/screenshot_info.h"
#include "viewer/sensor_panel.h"
#include "viewer/shortcuts.h"
#include "viewer/state.h"
#include "viewer/view_capture.h"

namespace pliant::viewer {
namespace {

constexpr double kDoubleClickSeconds = 0.35;
constexpr double kFrameSeconds = 1.0 / kRecordingFps;  // simulated per headless frame

static_assert(kGroupCount == kRayGeomGroups, "the view's geom groups filter the picking ray");

// What lies under a pixel: the geom (-1: nothing) and the world point hit.
struct PickResult {
  int geom = -1;
  Vector3d point{0, 0, 0};
};

class App {
 public:
  App(GlContext& context, const ViewOptions& options)
      : window_(context.window()), samples_(context.samples()), options_(options) {}

  int run();

 private:
  // Setup and model management.
  void init_imgui();
  void load(const std::string& path);
  // Passive mode: the model and first state from the link, then each frame
  // the latest synced state.
  void start_passive();
  void follow_passive();
  void apply_start_options();
  void handle_requests();

  // Simulation.
  void simulate();
  void simulate_frame();
  void step_once();
  void follow_selected_contact();
  void log_state();
  void resync_clock();

  // Drawing.
  void view_rectangle(int& x, int& y, int& width, int& height) const;
  ViewRectangle view_pixels(int fb_width, int fb_height) const;
  CameraView current_view() const;
  std::vector<DrawItem> build_items(bool with_overlays) const;
  void draw_scene(GLuint framebuffer, int fb_width, int fb_height);
  void draw_ui(GLuint framebuffer, int fb_width, int fb_height);
  // Scene, screenshot and recording of it, panels; the time it took goes to
  // state_.frame_ms. Returns the milliseconds the scene (with captures) took.
  double draw_frame(GLuint framebuffer, int fb_width, int fb_height, const PixelReader& read,
                    double now);

  // Headless: frames offscreen, then the screenshot, its sidecar and the timing.
  int run_headless();
  bool write_info(Framebuffer& target, int fb_width, int fb_height);

  // Input.
  static App& from(GLFWwindow* window);
  void on_mouse_button(int button, int action, int mods);
  void on_cursor(double x, double y);
  void on_scroll(double dy);
  void on_key(int key, int action, int mods);
  void on_drop(int count, const char** paths);
  PickResult pick_at(double x, double y);
  void select_at(double x, double y);

  GLFWwindow* window_;
  int samples_;  // anti-aliasing samples per pixel of the context (0: none)
  ViewOptions options_;
  std::unique_ptr<Renderer> renderer_;
  ViewerState state_;
  ViewCapture capture_;
  std::string loaded_path_;  // the file the running model came from
  FileWatcher watcher_;
  double last_watch_poll_ = 0;
  // The sync the passive window pulled for the frame being drawn; it counts
  // as shown once that frame is on screen (PassiveLink::shown).
  std::uint64_t pulled_version_ = 0;
  double pulled_time_ = -1;
  std::ofstream state_log_;

  // Real-time pacing: simulated time sync_sim_ corresponded to wall time
  // sync_wall_; the simulation catches up with (wall - sync_wall) * speed.
  double sync_wall_ = 0, sync_sim_ = 0, last_speed_ = 1;
  double rtf_wall_ = 0, rtf_sim_ = 0;

  // Mouse.
  double mouse_x_ = 0, mouse_y_ = 0;
  bool left_ = false, right_ = false, middle_ = false;
  int last_click_button_ = -1;
  double last_click_time_ = -1, last_click_x_ = 0, last_click_y_ = 0;
  int perturb_button_ = -1;
};

App& App::from(GLFWwindow* window) { return *static_cast<App*>(glfwGetWindowUserPointer(window)); }

void App::init_imgui() {
  // Our callbacks first: the ImGui backend chains to them.
  glfwSetWindowUserPointer(window_, this);
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int button, int action, int mods) {
    from(w).on_mouse_button(button, action, mods);
  });
  glfwSetCursorPosCallback(window_,
                           [](GLFWwindow* w, double x, double y) { from(w).on_cursor(x, y); });
  glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double dy) { from(w).on_scroll(dy); });
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int mods) {
    from(w).on_key(key, action, mods);
  });
  glfwSetDropCallback(
      window_, [](GLFWwindow* w, int count, const char** paths) { from(w).on_drop(count, paths); });
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (std::filesystem::exists(font)) io.Fonts->AddFontFromFileTTF(font, 14.0f);
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 0;
  style.FrameRounding = 2;
  style.ItemSpacing = ImVec2(6, 4);
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

void App::load(const std::string& path) {
  const bool same_file = state_.model != nullptr && path == loaded_path_;
  try {
    auto model = std::make_unique<Model>(load_model(path));
    auto data = std::make_unique<Data>(*model);
    forward(*model, *data);
    if (state_.data) end_perturbation(state_.perturbation, *state_.data);
    state_.model = std::move(model);
    state_.data = std::move(data);
    renderer_->set_model(*state_.model);
    state_.bounds = scene_bounds(*state_.model, *state_.data);
    const Model& m = *state_.model;
    if (!same_file) {
      reset_camera(state_.camera, state_.bounds);
      state_.highlight = Highlight{};
      state_.keyframe = 0;
    } else {
      // Keep the view; drop selections the new model does not have.
      if (state_.highlight.body >= m.body_count()) state_.highlight.body = -1;
      if (state_.highlight.geom >= m.geoms.count()) state_.highlight.geom = -1;
      state_.highlight.contact = -1;
      if (state_.camera.track_body >= m.body_count() ||
          state_.camera.fixed_camera >= m.cameras.count()) {
        state_.camera.mode = CameraMode::kFree;
      }
    }
    if (same_file) std::cout << "pliant view: reloaded " << path << std::endl;
    loaded_path_ = path;
    state_.path = path;
    state_.load_error.reset();
    state_.recent.add(path);
    state_.watched_files = model_source_files(path, state_.model.get());
    state_.history.clear();
    // A reload keeps the plotted sensors; another model starts with none.
    if (!same_file) state_.plotted_sensors.clear();
    resync_clock();
  } catch (const LoadError& e) {
    state_.load_error = LoadFailure{e.file(), e.line(), e.message()};
    state_.path = path;
    state_.watched_files = model_source_files(path, nullptr);
    std::cerr << "pliant view: " << e.what() << "\n";
  } catch (const std::exception& e) {
    state_.load_error = LoadFailure{path, 0, e.what()};
    state_.path = path;
    state_.watched_files = model_source_files(path, nullptr);
    std::cerr << "pliant view: " << path << ": " << e.what() << "\n";
  }
  watcher_.watch(state_.watched_files);
}

void App::apply_start_options() {
  state_.running = !options_.paused;
  state_.show_panels = !options_.hide_panels;
  // Headless pictures do not depend on the user's remembered layout.
  if (!options_.headless()) load_panel_layout(state_);
  VisualOptions& v = state_.visual;
  for (const std::string& name : options_.show) {
    const bool all = name == "all";
    if (name == "plots") state_.show_plots = true;
    if (name == "sensors") state_.show_sensors = true;
    if (name == "help") state_.show_help = true;
    if (all || name == "contacts") v.contact_points = true;
    if (all || name == "forces") v.contact_forces = true;
    if (all || name == "cones") v.friction_cones = true;
    if (all || name == "frames") v.body_frames = true;
    if (all || name == "joints") v.joint_axes = true;
    if (all || name == "com") v.center_of_mass = true;
    if (all || name == "inertia") v.inertia_boxes = true;
    if (all || name == "violations") v.violations = true;
    if (name == "transparent") v.transparent = true;
  }
  if (state_.model == nullptr) return;
  const Model& m = *state_.model;
  if (!options_.select_body.empty()) {
    const int body = m.id(ObjectType::kBody, options_.select_body);
    if (body > 0) {
      state_.highlight.body = body;
      state_.highlight.geom = m.bodies.geom_count[body] > 0 ? m.bodies.geom_adr[body] : -1;
    } else {
      std::cerr << "pliant view: no body named '" << options_.select_body << "'\n";
    }
  }
  for (const std::string& name : options_.plot_sensors) {
    const int sensor = m.id(ObjectType::kSensor, name);
    if (sensor < 0) {
      std::cerr << "pliant view: no sensor named '" << name << "'\n";
      continue;
    }
    state_.plotted_sensors.resize(m.sensors.count(), false);
    state_.plotted_sensors[sensor] = true;
    state_.show_sensors = true;
  }
  if (!options_.camera.empty()) {
    const int camera = m.id(ObjectType::kCamera, options_.camera);
    if (camera >= 0) {
      state_.camera.mode = CameraMode::kFixed;
      state_.camera.fixed_camera = camera;
    } else {
      std::cerr << "pliant view: no camera named '" << options_.camera << "'\n";
    }
  }
}

void App::handle_requests() {
  if (options_.passive) {
    state_.open_requested.clear();
    state_.reload_requested = false;
  }
  if (!state_.open_requested.empty()) {
    const std::string path = state_.open_requested;
    state_.open_requested.clear();
    load(path);
  }
  if (state_.reload_requested) {
    state_.reload_requested = false;
    if (!state_.path.empty()) load(state_.path);
  }
  if (state_.camera_reset_requested) {
    state_.camera_reset_requested = false;
    if (state_.data) state_.bounds = scene_bounds(*state_.model, *state_.data);
    reset_camera(state_.camera, state_.bounds);
  }
  // The script owns the passive window's model and time: opening files,
  // reset, keyframes and steps are its to do.
  if (state_.model == nullptr || options_.passive) {
    state_.reset_requested = state_.step_requested = state_.keyframe_requested = false;
    return;
  }
  Model& model = *state_.model;
  Data& data = *state_.data;
  if (state_.reset_requested) {
    state_.reset_requested = false;
    end_perturbation(state_.perturbation, data);
    reset_data(model, data);
    forward(model, data);
    state_.history.clear();
    resync_clock();
  }
  if (state_.keyframe_requested) {
    state_.keyframe_requested = false;
    if (state_.keyframe >= 0 && state_.keyframe < model.keyframes.count()) {
      end_perturbation(state_.perturbation, data);
      reset_to_keyframe(model, data, state_.keyframe);
      forward(model, data);
      state_.history.clear();
      resync_clock();
    }
  }
  if (state_.step_requested) {
    state_.step_requested = false;
    state_.running = false;
    step_once();
  }
}

void App::resync_clock() {
  sync_wall_ = glfwGetTime();
  sync_sim_ = state_.data ? state_.data->time : 0;
  rtf_wall_ = sync_wall_;
  rtf_sim_ = sync_sim_;
}

void App::step_once() {
  Model& model = *state_.model;
  Data& data = *state_.data;
  // The energy plot needs the energy flag (a reload restores the file's
  // flags); it adds the energy computation and changes nothing else.
  if (state_.show_plots) model.options.flags.energy = true;
  apply_perturbation(state_.perturbation, model, data);
  data.threads = state_.threads;
  step(model, data);
  state_.history.record(model, data);
  follow_selected_contact();
}

// One JSON line per frame for --state-log: what the user's input changed
// (selection, camera, the selected body's position, the side columns and the
// 3-D view's place), so that tests driving the mouse can check it.
void App::log_state() {
  if (!state_log_.is_open() || state_.model == nullptr) return;
  const Model& model = *state_.model;
  const Camera& camera = state_.camera;
  const CameraView view = current_view();
  const int body = state_.highlight.body;
  int vx = 0, vy = 0, vw = 0, vh = 0;
  view_rectangle(vx, vy, vw, vh);
  char line[700];
  const Vector3d right = view.rotation.col(0), up = view.rotation.col(1);
  const Vector3d pos = body > 0 ? state_.data->xpos[body] : Vector3d::Zero();
  std::snprintf(line, sizeof(line),
                "{\"time\": %.6f, \"selected\": \"%s\", \"perturbing\": %s, "
                "\"azimuth\": %.6f, \"elevation\": %.6f, \"distance\": %.6f, "
                "\"right\": [%.6f, %.6f, %.6f], \"up\": [%.6f, %.6f, %.6f], "
                "\"selected_pos\": [%.6f, %.6f, %.6f], \"left_panel\": %s, "
                "\"right_panel\": %s, \"view_x\": %d, \"view_width\": %d}",
                state_.data->time, body > 0 ? model.name(ObjectType::kBody, body).c_str() : "",
                state_.perturbation.mode != PerturbMode::kNone ? "true" : "false", camera.azimuth,
                camera.elevation, camera.distance, right.x(), right.y(), right.z(), up.x(), up.y(),
                up.z(), pos.x(), pos.y(), pos.z(),
                state_.show_panels && state_.left_panel_open ? "true" : "false",
                state_.show_panels && state_.right_panel_open ? "true" : "false", vx, vw);
  state_log_ << line << std::endl;
}

// A selected body without a selected contact: the contact inspector takes
// the body's first contact as soon as it touches something, so an impact
// can be inspected while it happens.
void App::follow_selected_contact() {
  Highlight& highlight = state_.highlight;
  if (highlight.body < 0 || highlight.contact >= 0) return;
  const Model& model = *state_.model;
  const auto& contacts = state_.data->contacts;
  for (int c = 0; c < static_cast<int>(contacts.size()); ++c) {
    if (model.geoms.body[contacts[c].geom1] == highlight.body ||
        model.geoms.body[contacts[c].geom2] == highlight.body) {
      highlight.contact = c;
      return;
    }
  }
}

void App::start_passive() {
  PassiveLink& link = *options_.passive;
  std::lock_guard<std::mutex> lock(link.mutex);
  state_.model = std::make_unique<Model>(*link.model);
  state_.data = std::make_unique<Data>(*state_.model);
  copy_data(*state_.model, *state_.data, *link.latest);
  // A script often launches on a fresh Data whose positions it has not
  // computed yet (all bodies at the origin): the camera frames the scene
  // from the window's own forwarded copy, which the first sync replaces.
  forward(*state_.model, *state_.data);
  renderer_->set_model(*state_.model);
  state_.bounds = scene_bounds(*state_.model, *state_.data);
  reset_camera(state_.camera, state_.bounds);
  state_.path = "(passive: synced from the script)";
  state_.passive = true;
}

void App::follow_passive() {
  PassiveLink& link = *options_.passive;
  std::lock_guard<std::mutex> lock(link.mutex);
  Data& data = *state_.data;
  if (pulled_version_ != link.version) {
    copy_data(*state_.model, data, *link.latest);
    pulled_version_ = link.version;
    pulled_time_ = data.time;
    state_.history.record(*state_.model, data);
  }
  // The pull the user makes is applied to the script's data at its next
  // sync; here it only updates the drawn arrow.
  apply_perturbation(state_.perturbation, *state_.model, data);
  link.perturbation = state_.perturbation;
}

void App::simulate() {
  if (state_.model == nullptr) return;
  if (options_.passive) {
    follow_passive();
    return;
  }
  Data& data = *state_.data;
  if (!state_.running) {
    // Paused: keep derived quantities current (edited options, controls).
    forward(*state_.model, data);
    resync_clock();
    return;
  }
  const double now = glfwGetTime();
  if (state_.speed != last_speed_ || data.time < sync_sim_) {
    last_speed_ = state_.speed;
    resync_clock();
  }
  const double target = sync_sim_ + (now - sync_wall_) * state_.speed;
  // Spend at most a frame's budget; when the simulation cannot keep up,
  // drop the backlog instead of spiralling.
  while (data.time < target) {
    const double before = data.time;
    step_once();
    if (data.time <= before) break;  // reset after a bad state
    if (glfwGetTime() - now > 1.0 / 30) {
      sync_wall_ = glfwGetTime();
      sync_sim_ = data.time;
      break;
    }
  }
  const double wall = glfwGetTime() - rtf_wall_;
  if (wall > 0.5) {
    state_.real_time_factor = std::max(0.0, data.time - rtf_sim_) / wall;
    rtf_wall_ += wall;
    rtf_sim_ = data.time;
  }
}

void App::simulate_frame() {
  if (state_.model == nullptr) return;
  if (!state_.running) {
    forward(*state_.model, *state_.data);
    return;
  }
  const int steps =
      std::max(1, static_cast<int>(std::lround(kFrameSeconds / state_.model->options.timestep)));
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < steps; ++k) step_once();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (wall > 0) state_.real_time_factor = steps * state_.model->options.timestep / wall;
}

void App::view_rectangle(int& x, int& y, int& width, int& height) const {
  // In window coordinates (y down): the strip between the side panels.
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  const SideWidths sides = side_widths(state_, static_cast<float>(w));
  x = static_cast<int>(sides.left);
  y = 0;
  width = std::max(1, w - static_cast<int>(sides.left) - static_cast<int>(sides.right));
  height = std::max(1, h);
}

CameraView App::current_view() const {
  return camera_view(state_.camera, *state_.model, *state_.data, state_.bounds);
}

std::vector<DrawItem> App::build_items(bool with_overlays) const {
  std::vector<DrawItem> items;
  const OverlayScale scale = overlay_scale(*state_.model, state_.bounds, state_.visual);
  add_model_items(*state_.model, *state_.data, state_.visual, state_.highlight, scale, items);
  if (with_overlays) {
    add_overlay_items(*state_.model, *state_.data, state_.visual, state_.highlight, scale,
                      state_.perturbation, items);
  }
  return items;
}

ViewRectangle App::view_pixels(int fb_width, int fb_height) const {
  // The view rectangle in framebuffer pixels (which differ from window
  // coordinates on high-density screens), top-down.
  int x, y, w, h, win_w, win_h;
  view_rectangle(x, y, w, h);
  glfwGetWindowSize(window_, &win_w, &win_h);
  const double sx = static_cast<double>(fb_width) / std::max(win_w, 1);
  const double sy = static_cast<double>(fb_height) / std::max(win_h, 1);
  ViewRectangle rect;
  rect.left = static_cast<int>(x * sx);
  rect.top = static_cast<int>(y * sy);
  rect.width = std::min(static_cast<int>(w * sx), fb_width - rect.left);
  rect.height = std::min(static_cast<int>(h * sy), fb_height - rect.top);
  return rect;
}

void App::draw_scene(GLuint framebuffer, int fb_width, int fb_height) {
  const ViewRectangle rect = view_pixels(fb_width, fb_height);
  if (state_.model != nullptr && rect.width > 0 && rect.height > 0) {
    update_camera(state_.camera, *state_.model, *state_.data);
    renderer_->render(*state_.model, *state_.data, current_view(), state_.bounds, state_.visual,
                      build_items(true), framebuffer, rect.left, rect.bottom(fb_height), rect.width,
                      rect.height);
  } else {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, fb_width, fb_height);
    glClearColor(0.12f, 0.13f, 0.16f, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  }
}

void App::draw_ui(GLuint framebuffer, int fb_width, int fb_height) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  const bool left_open = state_.left_panel_open, right_open = state_.right_panel_open;
  if (state_.show_panels) {
    draw_side_toolbars(state_);
    draw_control_panel(state_);
    draw_model_panel(state_);
    draw_contact_inspector(state_);
  }
  // Interactive viewers remember the columns' state for the next session.
  const bool layout_changed =
      left_open != state_.left_panel_open || right_open != state_.right_panel_open;
  if (layout_changed && !options_.headless()) save_panel_layout(state_);
  draw_plots_panel(state_);
  draw_sensor_panel(state_);
  draw_help_panel(state_);
  draw_status_line(state_);
  draw_load_error(state_);
  ImGui::Render();
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glViewport(0, 0, fb_width, fb_height);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

double App::draw_frame(GLuint framebuffer, int fb_width, int fb_height, const PixelReader& read,
                       double now) {
  // glFinish waits for the GPU, so that times are the drawing's, not the
  // submission's.
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  draw_scene(framebuffer, fb_width, fb_height);
  // Pictures of the scene alone, before the panels cover it.
  if (state_.model != nullptr) {
    const ViewRectangle rect = view_pixels(fb_width, fb_height);
    capture_.after_render(state_, read, rect.left, rect.bottom(fb_height), rect.width, rect.height,
                          now);
  }
  glFinish();
  const auto scene_done = Clock::now();
  draw_ui(framebuffer, fb_width, fb_height);
  glFinish();
  const auto end = Clock::now();
  state_.frame_ms.add(
      static_cast<float>(std::chrono::duration<double, std::milli>(end - start).count()));
  return std::chrono::duration<double, std::milli>(scene_done - start).count();
}

int App::run_headless() {
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(window_, &fb_w, &fb_h);
  Framebuffer target(fb_w, fb_h, samples_);
  const PixelReader read_target = [&target](int x, int y, int w, int h) {
    return target.read(x, y, w, h);
  };
  int exit_code = 0;
  if (!options_.record.empty()) {
    const ViewRectangle rect = view_pixels(fb_w, fb_h);
    if (!capture_.start_recording(state_, options_.record, rect.width, rect.height, 0)) {
      exit_code = 2;
    }
  }
  // A few frames at least, so that the panels have settled their sizes.
  // Each frame is 1/60 s of simulation, and one frame of a recording.
  const int frames = std::max(options_.frames, 3);
  // The first frames build fonts, textures and shader variants: the timing
  // leaves them out when there are enough frames.
  const int warm_up = frames > 10 ? 3 : 0;
  double draw_ms = 0, scene_ms = 0, simulate_ms = 0;
  for (int f = 0; f < frames; ++f) {
    glfwPollEvents();
    handle_requests();
    const auto start = std::chrono::steady_clock::now();
    simulate_frame();
    const auto simulated = std::chrono::steady_clock::now();
    const double scene =
        draw_frame(target.id(), fb_w, fb_h, read_target, (f + 0.5) / kRecordingFps);
    if (f >= warm_up) {
      scene_ms += scene;
      simulate_ms += std::chrono::duration<double, std::milli>(simulated - start).count();
      draw_ms += state_.frame_ms.last();
    }
  }
  capture_.stop_recording(state_);
  const int timed = frames - warm_up;
  std::printf(
      "rendered %d frames of %dx%d (%s, %dx MSAA): render + UI %.2f ms/frame (%.1f fps; scene "
      "%.2f ms, UI %.2f ms), simulation %.2f ms/frame\n",
      timed, fb_w, fb_h, state_.show_panels ? "panels on" : "no panels", samples_, draw_ms / timed,
      draw_ms > 0 ? 1000 * timed / draw_ms : 0.0, scene_ms / timed, (draw_ms - scene_ms) / timed,
      simulate_ms / timed);
  if (!options_.screenshot.empty()) {
    std::string error;
    if (!write_png(options_.screenshot, target.read(), &error)) {
      std::cerr << "pliant view: " << error << "\n";
      exit_code = 2;
    } else {
      std::cout << "wrote " << options_.screenshot << " (" << fb_w << "x" << fb_h
                << ", t = " << (state_.data ? state_.data->time : 0.0) << " s)\n";
    }
  }
  if (!options_.screenshot_info.empty() && !write_info(target, fb_w, fb_h)) exit_code = 2;
  if (state_.load_error) exit_code = 2;
  return exit_code;
}

bool App::write_info(Framebuffer& target, int fb_width, int fb_height) {
  if (state_.model == nullptr) {
    std::cerr << "pliant view: no model, no screenshot information\n";
    return false;
  }
  // The same view with nothing in it gives the background behind each geom.
  const ViewRectangle rect = view_pixels(fb_width, fb_height);
  const CameraView view = current_view();
  renderer_->render(*state_.model, *state_.data, view, state_.bounds, state_.visual, {},
                    target.id(), rect.left, rect.bottom(fb_height), rect.width, rect.height);
  std::string error;
  if (!write_screenshot_info(options_.screenshot_info, *state_.model, *state_.data,
                             build_items(false), view, rect, target.read(), &error)) {
    std::cerr << "pliant view: " << error << "\n";
    return false;
  }
  std::cout << "wrote " << options_.screenshot_info << "\n";
  return true;
}

// The geom under a pixel: a ray from the eye through it, cast as the
// rangefinder casts (cast_ray), seeing the geom groups the view shows.
PickResult App::pick_at(double mx, double my) {
  PickResult none;
  if (state_.model == nullptr) return none;
  int x, y, w, h;
  view_rectangle(x, y, w, h);
  const double px = mx - x, py = my - y;
  if (px < 0 || py < 0 || px >= w || py >= h) return none;
  const Ray ray = pixel_ray(current_view(), px, py, w, h);
  RayFilter filter;
  filter.geom_groups = state_.visual.geom_groups.data();
  const RayHit hit = cast_ray(*state_.model, *state_.data, ray.origin, ray.direction, filter);
  if (hit.geom < 0) return none;
  return {hit.geom, ray.origin + hit.distance * ray.direction};
}

void App::select_at(double mx, double my) {
  const PickResult hit = pick_at(mx, my);
  Highlight& highlight = state_.highlight;
  if (hit.geom < 0) {
    highlight = Highlight{};
    return;
  }
  const int body = state_.model->geoms.body[hit.geom];
  highlight.body = body > 0 ? body : -1;
  highlight.geom = hit.geom;
  // A contact close to the clicked point is selected too.
  highlight.contact = -1;
  const double reach = 3 * overlay_scale(*state_.model, state_.bounds, state_.visual).size + 1e-9;
  double best = reach;
  const auto& contacts = state_.data->contacts;
  for (int c = 0; c < static_cast<int>(contacts.size()); ++c) {
    const double d = (contacts[c].pos - hit.point).norm();
    if (d < best) {
      best = d;
      highlight.contact = c;
    }
  }
}

void App::on_mouse_button(int button, int action, int mods) {
  const bool pressed = action == GLFW_PRESS;
  if (pressed && ImGui::GetIO().WantCaptureMouse) return;
  if (button == GLFW_MOUSE_BUTTON_LEFT) left_ = pressed;
  if (button == GLFW_MOUSE_BUTTON_RIGHT) right_ = pressed;
  if (button == GLFW_MOUSE_BUTTON_MIDDLE) middle_ = pressed;
  if (!pressed) {
    if (button == perturb_button_ && state_.data) {
      end_perturbation(state_.perturbation, *state_.data);
      perturb_button_ = -1;
    }
    return;
  }
  if (state_.model == nullptr) return;
  const double now = glfwGetTime();
  const bool double_click =
      button == last_click_button_ && now - last_click_time_ < kDoubleClickSeconds &&
      std::abs(mouse_x_ - last_click_x_) < 5 && std::abs(mouse_y_ - last_click_y_) < 5;
  last_click_button_ = button;
  last_click_time_ = double_click ? -1 : now;
  last_click_x_ = mouse_x_;
  last_click_y_ = mouse_y_;
  const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0;
  if (double_click && button == GLFW_MOUSE_BUTTON_LEFT) {
    select_at(mouse_x_, mouse_y_);
    return;
  }
  if (double_click && button == GLFW_MOUSE_BUTTON_RIGHT) {
    // Look at the clicked point; with Ctrl, follow its body.
    const PickResult hit = pick_at(mouse_x_, mouse_y_);
    if (hit.geom < 0) return;
    Camera& camera = state_.camera;
    const CameraView view = current_view();
    if (camera.mode == CameraMode::kFixed) {
      camera.mode = CameraMode::kFree;
      camera.distance = (hit.point - view.eye).norm();
    }
    camera.lookat = hit.point;
    const int body = state_.model->geoms.body[hit.geom];
    if (ctrl && body > 0) {
      camera.mode = CameraMode::kTracking;
      camera.track_body = body;
      camera.track_offset = hit.point - state_.data->subtree_com[body];
    }
    return;
  }
  if (ctrl && (button == GLFW_MOUSE_BUTTON_LEFT || button == GLFW_MOUSE_BUTTON_RIGHT)) {
    // Grab the body under the cursor, or the selected body at its centre.
    const PickResult hit = pick_at(mouse_x_, mouse_y_);
    int body = hit.geom >= 0 ? state_.model->geoms.body[hit.geom] : -1;
    Vector3d grab = hit.point;
    if (body <= 0 && state_.highlight.body > 0) {
      body = state_.highlight.body;
      grab = state_.data->xipos[body];
    }
    if (body <= 0) return;
    state_.highlight.body = body;
    const PerturbMode mode =
        button == GLFW_MOUSE_BUTTON_RIGHT ? PerturbMode::kTranslate : PerturbMode::kRotate;
    begin_perturbation(state_.perturbation, mode, body, grab, *state_.data);
    perturb_button_ = button;
  }
}

void App::on_cursor(double x, double y) {
  const double dx = x - mouse_x_, dy = y - mouse_y_;
  mouse_x_ = x;
  mouse_y_ = y;
  if (state_.model == nullptr || !(left_ || right_ || middle_)) return;
  int vx, vy, w, h;
  view_rectangle(vx, vy, w, h);
  const double fx = dx / h, fy = dy / h;
  if (state_.perturbation.mode != PerturbMode::kNone) {
    move_perturbation(state_.perturbation, current_view(), fx, fy);
    return;
  }
  Camera& camera = state_.camera;
  if (camera.mode == CameraMode::kFixed) {
    // Leave the model camera for a free camera where it was.
    const CameraView view = current_view();
    camera.mode = CameraMode::kFree;
    camera.distance = std::max(0.5 * state_.bounds.extent, 0.1);
    const Vector3d forward = -view.rotation.col(2);
    camera.lookat = view.eye + camera.distance * forward;
    camera.azimuth = std::atan2(forward.y(), forward.x()) * 180 / M_PI;
    camera.elevation = std::asin(std::clamp(forward.z(), -1.0, 1.0)) * 180 / M_PI;
  }
  if (left_) {
    orbit(camera, fx, fy);
  } else if (right_) {
    pan(camera, current_view(), fx, fy);
  } else if (middle_) {
    zoom(camera, -4 * fy);
  }
}

void App::on_scroll(double dy) {
  if (ImGui::GetIO().WantCaptureMouse || state_.model == nullptr) return;
  if (state_.camera.mode == CameraMode::kFixed) return;
  zoom(state_.camera, 0.1 * dy);
}

void App::on_key(int key, int action, int mods) {
  // Held keys repeat only for stepping and speed; a held Ctrl+R must not
  // start and stop a recording.
  const bool repeats = key == GLFW_KEY_RIGHT || key == GLFW_KEY_MINUS || key == GLFW_KEY_EQUAL;
  if (action == GLFW_RELEASE || (action == GLFW_REPEAT && !repeats)) return;
  if (ImGui::GetIO().WantCaptureKeyboard) return;
  dispatch_shortcut(state_, key, mods);
}

void App::on_drop(int count, const char** paths) {
  if (count > 0) state_.open_requested = paths[0];
}

int App::run() {
  try {
    renderer_ = std::make_unique<Renderer>();
  } catch (const std::exception& e) {
    std::cerr << "pliant view: cannot set up the renderer: " << e.what() << "\n";
    return 2;
  }
  init_imgui();
  if (options_.passive) {
    start_passive();
  } else if (!options_.model_path.empty()) {
    load(options_.model_path);
  }
  apply_start_options();

  int exit_code = 0;
  if (options_.headless()) {
    exit_code = run_headless();
  } else {
    glfwSwapInterval(options_.passive ? 0 : 1);
    resync_clock();
    if (!options_.state_log.empty()) {
      state_log_.open(options_.state_log);
      if (!state_log_) std::cerr << "pliant view: cannot write " << options_.state_log << "\n";
    }
    const PixelReader read_window = [](int x, int y, int w, int h) {
      return read_window_pixels(x, y, w, h);
    };
    if (options_.passive) options_.passive->running = true;
    while (!glfwWindowShouldClose(window_)) {
      glfwPollEvents();
      if (options_.passive) {
        std::lock_guard<std::mutex> lock(options_.passive->mutex);
        if (options_.passive->close_requested) break;
      }
      const double now = glfwGetTime();
      if (now - last_watch_poll_ > 0.5) {
        last_watch_poll_ = now;
        if (watcher_.changed()) state_.reload_requested = true;
      }
      handle_requests();
      simulate();
      // A minimised window has a 0 x 0 framebuffer: nothing to draw into.
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window_, &fb_w, &fb_h);
      if (fb_w <= 0 || fb_h <= 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      draw_frame(0, fb_w, fb_h, read_window, glfwGetTime());
      glfwSwapBuffers(window_);
      log_state();
      if (options_.passive) {
        {
          // Marked only now that the frame is on screen, so a script that
          // sees shows_last_sync() also sees the frame that drew it.
          PassiveLink& link = *options_.passive;
          std::lock_guard<std::mutex> lock(link.mutex);
          link.shown = pulled_version_;
          link.shown_time = pulled_time_;
          ++link.frames;
        }
        // At most 60 frames a second: the script's thread needs the cores.
        const double rest = 1.0 / 60 - (glfwGetTime() - now);
        if (rest > 0) std::this_thread::sleep_for(std::chrono::duration<double>(rest));
      }
    }
    if (options_.passive) options_.passive->running = false;
    capture_.stop_recording(state_);
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  renderer_.reset();
  return exit_code;
}

}  // namespace

int run_viewer(const ViewOptions& options) {
  std::string error;
  std::unique_ptr<GlContext> context = GlContext::create(
      options.width, options.height, !options.headless(), "Pliant", &error, options.msaa);
  if (!context) {
    std::cerr << "pliant view: " << error << "\n";
    if (options.passive) {
      std::lock_guard<std::mutex> lock(options.passive->mutex);
      options.passive->error = error;
    }
    return 2;
  }
  App app(*context, options);
  return app.run();
}

}  // namespace pliant::viewer
