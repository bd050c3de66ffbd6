#include "viewer/panels.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "pliant/forward.h"

namespace pliant::viewer {
namespace {

const char* kJointTypeNames[] = {"free", "ball", "slide", "hinge"};
const char* kWarningNames[] = {"bad qpos (state reset)", "bad qvel (state reset)",
                               "bad qacc (state reset)", "solver iteration limit",
                               "parameter clamped"};

bool input_double(const char* label, double* value, const char* format = "%.6g") {
  return ImGui::InputDouble(label, value, 0, 0, format, ImGuiInputTextFlags_EnterReturnsTrue);
}

// The path box with Open, Reload and the drop hint.
void model_file_controls(ViewerState& state) {
  static char path[1024] = "";
  ImGui::SetNextItemWidth(-60);
  const bool entered =
      ImGui::InputText("##open", path, sizeof(path), ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Open") || entered) && path[0] != '\0') state.open_requested = path;
  if (ImGui::Button("Reload (Ctrl+L)")) state.reload_requested = true;
  ImGui::SameLine();
  ImGui::TextDisabled("drop a file to open it");
}

void file_section(ViewerState& state) {
  if (!ImGui::CollapsingHeader("File", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextWrapped("%s", state.path.empty() ? "(no model)" : state.path.c_str());
  // The script owns a passive window's model: opening or reloading a file
  // here would leave it stepping another, so those controls are absent.
  if (state.passive) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("the script owns the model: no opening or reloading here");
    ImGui::PopTextWrapPos();
  } else {
    model_file_controls(state);
  }
  if (ImGui::Button("Screenshot (Ctrl+P)")) state.screenshot_requested = true;
  ImGui::SameLine();
  if (ImGui::Button(state.recording_path.empty() ? "Record (Ctrl+R)" : "Stop recording")) {
    state.record_toggle_requested = true;
  }
  ImGui::Checkbox("Plots (F2)", &state.show_plots);
  ImGui::SameLine();
  ImGui::Checkbox("Sensors (F3)", &state.show_sensors);
  ImGui::SameLine();
  ImGui::Checkbox("Help (F1)", &state.show_help);
  if (!state.passive && !state.recent.list().empty() && ImGui::TreeNode("Recent files")) {
    for (const std::string& file : state.recent.list()) {
      if (ImGui::Selectable(file.c_str())) state.open_requested = file;
    }
    ImGui::TreePop();
  }
  if (ImGui::TreeNode("Watched for changes")) {
    for (const std::string& file : state.watched_files) ImGui::TextUnformatted(file.c_str());
    ImGui::TreePop();
  }
}

void simulation_section(ViewerState& state) {
  if (!ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (state.passive) {
    // The script steps, resets and paces the data; the window only shows it.
    ImGui::TextDisabled("stepped by the script (passive viewer)");
    if (state.data) ImGui::Text("time %.3f s   step %ld", state.data->time, state.data->step_count);
    return;
  }
  if (ImGui::Button(state.running ? "Pause (space)" : "Run (space)")) {
    state.running = !state.running;
  }
  ImGui::SameLine();
  if (ImGui::Button("Step (->)")) state.step_requested = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset (bksp)")) state.reset_requested = true;
  ImGui::SetNextItemWidth(150);
  float speed = static_cast<float>(state.speed);
  if (ImGui::SliderFloat("speed (-/=)", &speed, 1.0f / 64, 16, "%.3gx",
                         ImGuiSliderFlags_Logarithmic)) {
    state.speed = speed;
  }
  if (state.data) {
    ImGui::Text("time %.3f s   step %ld", state.data->time, state.data->step_count);
    ImGui::Text("real-time factor %.2f (asked %.3g)", state.real_time_factor, state.speed);
  }
  const Model* model = state.model.get();
  if (model != nullptr && model->keyframes.count() > 0) {
    ImGui::SetNextItemWidth(150);
    const int last = model->keyframes.count() - 1;
    ImGui::SliderInt("keyframe", &state.keyframe, 0, last);
    state.keyframe = std::clamp(state.keyframe, 0, last);
    ImGui::SameLine();
    if (ImGui::Button("Load")) state.keyframe_requested = true;
  }
}

void rendering_section(ViewerState& state) {
  if (!ImGui::CollapsingHeader("Rendering", ImGuiTreeNodeFlags_DefaultOpen)) return;
  VisualOptions& v = state.visual;
  ImGui::Checkbox("Contact points (C)", &v.contact_points);
  ImGui::SameLine(180);
  ImGui::Checkbox("Forces (F)", &v.contact_forces);
  ImGui::Checkbox("Friction cones (K)", &v.friction_cones);
  ImGui::SameLine(180);
  ImGui::Checkbox("Violations (V)", &v.violations);
  ImGui::Checkbox("Body frames (B)", &v.body_frames);
  ImGui::SameLine(180);
  ImGui::Checkbox("Joint axes (J)", &v.joint_axes);
  ImGui::Checkbox("Centre of mass (M)", &v.center_of_mass);
  ImGui::SameLine(180);
  ImGui::Checkbox("Inertia (I)", &v.inertia_boxes);
  ImGui::Checkbox("Perturbation", &v.perturbation);
  ImGui::SameLine(180);
  ImGui::Checkbox("Transparent (T)", &v.transparent);
  ImGui::Checkbox("Shadows (S)", &v.shadows);
  ImGui::SameLine(180);
  ImGui::Checkbox("Headlight", &v.headlight);
  ImGui::Checkbox("Model lights", &v.model_lights);
  ImGui::SameLine(180);
  ImGui::Checkbox("Sites", &v.sites);
  ImGui::TextUnformatted("Geom groups (0-5)");
  for (int g = 0; g < kGroupCount; ++g) {
    ImGui::SameLine();
    ImGui::PushID(g);
    bool on = v.geom_groups[g];
    if (ImGui::Checkbox("##geom", &on)) v.geom_groups[g] = on;
    ImGui::PopID();
  }
  ImGui::TextUnformatted("Site groups (0-5)");
  for (int g = 0; g < kGroupCount; ++g) {
    ImGui::SameLine();
    ImGui::PushID(100 + g);
    bool on = v.site_groups[g];
    if (ImGui::Checkbox("##site", &on)) v.site_groups[g] = on;
    ImGui::PopID();
  }
  float force_scale = static_cast<float>(v.force_scale);
  ImGui::SetNextItemWidth(150);
  if (ImGui::SliderFloat("force scale m/N", &force_scale, 0, 1, force_scale == 0 ? "auto" : "%.4g",
                         ImGuiSliderFlags_Logarithmic)) {
    v.force_scale = force_scale;
  }
}

void camera_section(ViewerState& state) {
  if (!ImGui::CollapsingHeader("Camera")) return;
  Camera& camera = state.camera;
  const Model* model = state.model.get();
  std::string current = "free";
  if (camera.mode == CameraMode::kTracking && model != nullptr) {
    current = "tracking " + entity_label(*model, ObjectType::kBody, camera.track_body);
  } else if (camera.mode == CameraMode::kFixed && model != nullptr) {
    current = "model camera " + entity_label(*model, ObjectType::kCamera, camera.fixed_camera);
  }
  if (ImGui::BeginCombo("view", current.c_str())) {
    if (ImGui::Selectable("free")) camera.mode = CameraMode::kFree;
    if (model != nullptr && state.highlight.body > 0 &&
        ImGui::Selectable("track the selected body")) {
      camera.mode = CameraMode::kTracking;
      camera.track_body = state.highlight.body;
      camera.track_offset = camera.lookat - state.data->subtree_com[camera.track_body];
    }
    for (int c = 0; model != nullptr && c < model->cameras.count(); ++c) {
      const std::string label = "model camera " + entity_label(*model, ObjectType::kCamera, c);
      if (ImGui::Selectable(label.c_str())) {
        camera.mode = CameraMode::kFixed;
        camera.fixed_camera = c;
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::Button("Reset view (Esc)")) state.camera_reset_requested = true;
  ImGui::TextDisabled("left drag: orbit   right drag: pan   wheel: zoom");
  ImGui::TextDisabled("double-click: select   right double-click: look at");
  ImGui::TextDisabled("Ctrl+right drag: pull   Ctrl+left drag: turn");
  ImGui::TextDisabled("[ ]: model cameras   Tab: hide panels   F1: all keys");
}

void options_section(ViewerState& state) {
  if (state.model == nullptr || !ImGui::CollapsingHeader("Physics options")) return;
  Options& o = state.model->options;
  ImGui::PushItemWidth(140);
  input_double("timestep (s)", &o.timestep);
  o.timestep = std::clamp(o.timestep, 1e-6, 1.0);
  int integrator = static_cast<int>(o.integrator);
  if (ImGui::Combo("integrator", &integrator, "Euler\0RK4\0implicit\0implicitfast\0")) {
    o.integrator = static_cast<Integrator>(integrator);
  }
  int solver = static_cast<int>(o.solver);
  if (ImGui::Combo("solver", &solver, "PGS\0CG\0Newton\0")) {
    o.solver = static_cast<SolverType>(solver);
  }
  ImGui::InputInt("iterations", &o.iterations);
  o.iterations = std::max(o.iterations, 1);
  input_double("tolerance", &o.tolerance, "%.2e");
  int cone = static_cast<int>(o.cone);
  if (ImGui::Combo("cone", &cone, "pyramidal\0elliptic\0")) o.cone = static_cast<Cone>(cone);
  input_double("impratio", &o.impratio);
  o.impratio = std::max(o.impratio, 1e-4);
  ImGui::InputScalarN("gravity", ImGuiDataType_Double, o.gravity.data(), 3, nullptr, nullptr,
                      "%.3g");
  // Not an option of the model: threads the viewer's steps share (large
  // scenes step faster; the motion is the same).
  int threads = state.threads;
  if (ImGui::InputInt("threads", &threads)) state.threads = std::clamp(threads, 1, 64);
  ImGui::PopItemWidth();
  if (ImGui::TreeNode("Flags (on = enabled)")) {
    OptionFlags& f = o.flags;
    const std::pair<const char*, bool*> flags[] = {{"constraint", &f.constraint},
                                                   {"equality", &f.equality},
                                                   {"frictionloss", &f.frictionloss},
                                                   {"limit", &f.limit},
                                                   {"contact", &f.contact},
                                                   {"spring", &f.spring},
                                                   {"damper", &f.damper},
                                                   {"gravity", &f.gravity},
                                                   {"clampctrl", &f.clampctrl},
                                                   {"warmstart", &f.warmstart},
                                                   {"filterparent", &f.filterparent},
                                                   {"actuation", &f.actuation},
                                                   {"refsafe", &f.refsafe},
                                                   {"sensor", &f.sensor},
                                                   {"override", &f.override_contacts},
                                                   {"energy", &f.energy},
                                                   {"multiccd", &f.multiccd}};
    int column = 0;
    for (const auto& [name, value] : flags) {
      if (column++ % 2 == 1) ImGui::SameLine(160);
      ImGui::Checkbox(name, value);
    }
    ImGui::TreePop();
  }
  ImGui::TextDisabled("Edits apply to the viewer's copy; reload restores the file.");
}

void actuator_section(ViewerState& state) {
  const Model* model = state.model.get();
  if (model == nullptr || model->nu == 0) return;
  if (!ImGui::CollapsingHeader("Actuators", ImGuiTreeNodeFlags_DefaultOpen)) return;
  Data& data = *state.data;
  if (ImGui::Button("Zero all")) data.ctrl.setZero();
  ImGui::PushItemWidth(170);
  for (int u = 0; u < model->nu; ++u) {
    const Vector2d range =
        model->actuators.ctrl_limited[u] ? model->actuators.ctrl_range[u] : Vector2d(-1, 1);
    ImGui::SliderScalar(entity_label(*model, ObjectType::kActuator, u).c_str(),
                        ImGuiDataType_Double, &data.ctrl[u], &range.x(), &range.y(), "%.3f");
  }
  ImGui::PopItemWidth();
}

void warnings_section(ViewerState& state) {
  const Model* model = state.model.get();
  int active = 0;
  if (state.data) {
    for (const Warning& w : state.data->warnings) active += w.count > 0 ? 1 : 0;
  }
  if (model != nullptr) active += static_cast<int>(model->warnings.size());
  char header[64];
  std::snprintf(header, sizeof(header), "Warnings (%d)###warnings", active);
  if (!ImGui::CollapsingHeader(header, active > 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) return;
  if (state.data) {
    for (int k = 0; k < static_cast<int>(WarningKind::kCount); ++k) {
      const Warning& w = state.data->warnings[k];
      if (w.count == 0) continue;
      ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1), "%s: %d times, last at step %d (index %d)",
                         kWarningNames[k], w.count, w.last_step, w.last_index);
    }
  }
  if (model != nullptr) {
    for (const std::string& w : model->warnings) ImGui::TextWrapped("model: %s", w.c_str());
  }
  if (active == 0) ImGui::TextDisabled("none");
}

void body_info(ViewerState& state) {
  const Model& model = *state.model;
  const Data& data = *state.data;
  const int b = state.highlight.body;
  ImGui::Text("Body %s (id %d)", entity_label(model, ObjectType::kBody, b).c_str(), b);
  ImGui::Text("mass %.4g kg, subtree %.4g kg", model.bodies.mass[b], model.bodies.subtree_mass[b]);
  ImGui::Text("position  %.3f %.3f %.3f", data.xpos[b].x(), data.xpos[b].y(), data.xpos[b].z());
  ImGui::Text("com       %.3f %.3f %.3f", data.xipos[b].x(), data.xipos[b].y(), data.xipos[b].z());
  const Vector6d& v = data.cvel[b];
  ImGui::Text("angular v %.3f %.3f %.3f", v[0], v[1], v[2]);
  ImGui::Text("linear v  %.3f %.3f %.3f (at the tree com)", v[3], v[4], v[5]);
  const Vector6d& f = data.xfrc_applied[b];
  ImGui::Text("applied force  %.3g %.3g %.3g N", f[3], f[4], f[5]);
  ImGui::Text("applied torque %.3g %.3g %.3g N m", f[0], f[1], f[2]);
  int contacts = 0;
  for (const Contact& c : data.contacts) {
    if (model.geoms.body[c.geom1] == b || model.geoms.body[c.geom2] == b) ++contacts;
  }
  ImGui::Text("contacts %d", contacts);
  if (ImGui::Button("Track")) {
    state.camera.mode = CameraMode::kTracking;
    state.camera.track_body = b;
    state.camera.track_offset = state.camera.lookat - data.subtree_com[b];
  }
  ImGui::SameLine();
  if (ImGui::Button("Deselect")) state.highlight = Highlight{};
}

void geom_details(const Model& model, int g) {
  const Geoms& geoms = model.geoms;
  ImGui::Text("type %s  size %.4g %.4g %.4g", geom_type_name(geoms.type[g]), geoms.size[g].x(),
              geoms.size[g].y(), geoms.size[g].z());
  ImGui::Text("friction %.3g %.3g %.3g  condim %d", geoms.friction[g].x(), geoms.friction[g].y(),
              geoms.friction[g].z(), geoms.condim[g]);
  ImGui::Text("solref %.4g %.4g", geoms.solref[g].timeconst, geoms.solref[g].dampratio);
  const SolImp& si = geoms.solimp[g];
  ImGui::Text("solimp %.4g %.4g %.4g %.4g %.4g", si.dmin, si.dmax, si.width, si.midpoint, si.power);
  ImGui::Text("contype %d conaffinity %d group %d margin %.3g", geoms.contype[g],
              geoms.conaffinity[g], geoms.group[g], geoms.margin[g]);
}

void model_tree(ViewerState& state) {
  const Model& model = *state.model;
  std::vector<std::vector<int>> children(model.body_count());
  for (int b = 1; b < model.body_count(); ++b) children[model.bodies.parent[b]].push_back(b);
  std::function<void(int)> body_node = [&](int b) {
    ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow;
    if (b == state.highlight.body) flags |= ImGuiTreeNodeFlags_Selected;
    if (b == 0) flags |= ImGuiTreeNodeFlags_DefaultOpen;
    const std::string label = entity_label(model, ObjectType::kBody, b);
    const bool open = ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<intptr_t>(b)), flags,
                                        "%s", label.c_str());
    if (ImGui::IsItemClicked() && b > 0) {
      state.highlight.body = b;
      state.highlight.geom = -1;
    }
    if (!open) return;
    ImGui::TextDisabled("mass %.4g kg  inertia %.3g %.3g %.3g", model.bodies.mass[b],
                        model.bodies.inertia[b].x(), model.bodies.inertia[b].y(),
                        model.bodies.inertia[b].z());
    for (int j = model.bodies.joint_adr[b];
         j < model.bodies.joint_adr[b] + model.bodies.joint_count[b]; ++j) {
      const Joints& joints = model.joints;
      const int dof = joints.dof_adr[j];
      ImGui::BulletText("joint %s: %s%s", entity_label(model, ObjectType::kJoint, j).c_str(),
                        kJointTypeNames[static_cast<int>(joints.type[j])],
                        joints.limited[j] ? " limited" : "");
      if (joints.limited[j]) {
        ImGui::TextDisabled("    range %.3g %.3g", joints.range[j].x(), joints.range[j].y());
      }
      ImGui::TextDisabled("    damping %.3g armature %.3g stiffness %.3g", model.dofs.damping[dof],
                          model.dofs.armature[dof], joints.stiffness[j]);
    }
    for (int g = model.bodies.geom_adr[b];
         g < model.bodies.geom_adr[b] + model.bodies.geom_count[b]; ++g) {
      const std::string geom_label = "geom " + entity_label(model, ObjectType::kGeom, g) + " (" +
                                     geom_type_name(model.geoms.type[g]) + ")";
      ImGui::PushID(g + 1000000);
      if (ImGui::Selectable(geom_label.c_str(), g == state.highlight.geom)) {
        state.highlight.body = b;
        state.highlight.geom = g;
        state.highlight.contact = -1;
      }
      ImGui::PopID();
    }
    for (int child : children[b]) body_node(child);
    ImGui::TreePop();
  };
  body_node(0);
}

}  // namespace

std::string entity_label(const Model& model, ObjectType type, int id) {
  const std::string& name = model.name(type, id);
  if (!name.empty()) return name;
  const char* kind = type == ObjectType::kBody       ? "body"
                     : type == ObjectType::kGeom     ? "geom"
                     : type == ObjectType::kJoint    ? "joint"
                     : type == ObjectType::kActuator ? "actuator"
                     : type == ObjectType::kCamera   ? "camera"
                                                     : "object";
  return std::string(kind) + " #" + std::to_string(id);
}

void draw_control_panel(ViewerState& state) {
  if (!state.left_panel_open) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float width = side_widths(state, io.DisplaySize.x).left;
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("Pliant", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
  collapse_button(state, true);
  file_section(state);
  simulation_section(state);
  rendering_section(state);
  camera_section(state);
  options_section(state);
  actuator_section(state);
  warnings_section(state);
  ImGui::End();
}

void draw_model_panel(ViewerState& state) {
  if (state.model == nullptr || !state.right_panel_open) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float width = side_widths(state, io.DisplaySize.x).right;
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - width, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y * 0.45f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("Model", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
  collapse_button(state, false);
  ImGui::SameLine();
  const Model& model = *state.model;
  ImGui::Text("%s: %d bodies, %d joints, %d geoms, %d actuators",
              model.model_name.empty() ? "model" : model.model_name.c_str(), model.body_count(),
              model.joints.count(), model.geoms.count(), model.nu);
  if (ImGui::CollapsingHeader("Selection", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (state.highlight.body > 0 && state.highlight.body < model.body_count()) {
      body_info(state);
      if (state.highlight.geom >= 0 && state.highlight.geom < model.geoms.count()) {
        ImGui::Separator();
        ImGui::Text("Geom %s",
                    entity_label(model, ObjectType::kGeom, state.highlight.geom).c_str());
        geom_details(model, state.highlight.geom);
      }
    } else {
      ImGui::TextDisabled("double-click a body to select it");
    }
  }
  if (ImGui::CollapsingHeader("Model tree")) model_tree(state);
  ImGui::End();
}

void draw_status_line(const ViewerState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x / 2, 6), ImGuiCond_Always, ImVec2(0.5f, 0));
  ImGui::SetNextWindowBgAlpha(0.5f);
  ImGui::Begin("status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings);
  if (state.data && state.passive) {
    ImGui::Text("synced  t = %.3f s  contacts %d", state.data->time,
                static_cast<int>(state.data->contacts.size()));
  } else if (state.data) {
    ImGui::Text("%s  t = %.3f s  x%.3g  real-time factor %.2f  contacts %d",
                state.running ? "running" : "paused", state.data->time, state.speed,
                state.real_time_factor, static_cast<int>(state.data->contacts.size()));
  } else {
    ImGui::TextUnformatted("no model loaded: drop an MJCF file here");
  }
  if (!state.recording_path.empty()) {
    ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "REC %d frames to %s", state.recorded_frames,
                       state.recording_path.c_str());
  }
  if (!state.message.empty() && std::chrono::steady_clock::now() < state.message_until) {
    ImGui::TextUnformatted(state.message.c_str());
  }
  if (!state.shortcuts_enabled) ImGui::TextDisabled("keyboard shortcuts off (F1)");
  ImGui::End();
}

void draw_load_error(ViewerState& state) {
  if (!state.load_error) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x / 2, io.DisplaySize.y - 12), ImGuiCond_Always,
                          ImVec2(0.5f, 1));
  ImGui::SetNextWindowSize(ImVec2(std::min(640.0f, io.DisplaySize.x - 40), 0), ImGuiCond_Always);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.35f, 0.05f, 0.05f, 0.95f));
  ImGui::Begin("Load error", nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
  const LoadFailure& e = *state.load_error;
  if (e.line > 0) {
    ImGui::TextWrapped("%s:%d", e.file.c_str(), e.line);
  } else {
    ImGui::TextWrapped("%s", e.file.c_str());
  }
  ImGui::TextWrapped("%s", e.message.c_str());
  ImGui::TextDisabled(state.model ? "The previous model keeps running; fix the file to reload."
                                  : "Fix the file: it reloads when saved.");
  if (ImGui::Button("Dismiss")) state.load_error.reset();
  ImGui::End();
  ImGui::PopStyleColor();
}

}  // namespace pliant::viewer
