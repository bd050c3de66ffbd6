#include "viewer/contact_inspector.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/body_motion.h"
#include "pliant/impact.h"
#include "pliant/impedance.h"
#include "viewer/contact_forces.h"
#include "viewer/panels.h"

namespace pliant::viewer {
namespace {

// Which geoms an edit writes to.
enum EditTarget : int { kEditGeom1 = 0, kEditGeom2 = 1, kEditBoth = 2 };

// The impedance curve d(r) on [0, r_max] with dmin/dmax guides and the
// current violation marked.
void plot_impedance(const SolImp& raw, double violation, bool has_violation) {
  const SolImp solimp = sanitize(raw);
  const double r_now = std::abs(violation);
  const double r_max = std::max({1.5 * solimp.width, has_violation ? 1.3 * r_now : 0.0, 1e-6});
  const ImVec2 size(ImGui::GetContentRegionAvail().x, 150);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float left = 34, bottom = 18;
  const ImVec2 lo(origin.x + left, origin.y + 4),
      hi(origin.x + size.x - 6, origin.y + size.y - bottom);
  auto to_screen = [&](double r, double d) {
    return ImVec2(lo.x + static_cast<float>(r / r_max) * (hi.x - lo.x),
                  hi.y - static_cast<float>(d) * (hi.y - lo.y));
  };
  draw->AddRectFilled(lo, hi, IM_COL32(25, 28, 36, 255));
  for (double d : {0.25, 0.5, 0.75}) {
    draw->AddLine(to_screen(0, d), to_screen(r_max, d), IM_COL32(60, 64, 76, 255));
  }
  const ImU32 guide = IM_COL32(140, 140, 150, 255);
  draw->AddLine(to_screen(0, solimp.dmin), to_screen(r_max, solimp.dmin), guide);
  draw->AddLine(to_screen(0, solimp.dmax), to_screen(r_max, solimp.dmax), guide);
  if (solimp.width <= r_max) {
    draw->AddLine(to_screen(solimp.width, 0), to_screen(solimp.width, 1),
                  IM_COL32(90, 90, 110, 255));
  }
  constexpr int kSamples = 160;
  ImVec2 points[kSamples + 1];
  for (int i = 0; i <= kSamples; ++i) {
    const double r = r_max * i / kSamples;
    points[i] = to_screen(r, impedance(solimp, r).d);
  }
  draw->AddPolyline(points, kSamples + 1, IM_COL32(90, 200, 255, 255), 0, 2.0f);
  if (has_violation) {
    const double d = impedance(solimp, r_now).d;
    draw->AddLine(to_screen(r_now, 0), to_screen(r_now, 1), IM_COL32(255, 120, 60, 200));
    draw->AddCircleFilled(to_screen(r_now, d), 4.5f, IM_COL32(255, 120, 60, 255));
  }
  char text[64];
  draw->AddText(ImVec2(origin.x, to_screen(0, 1).y - 6), guide, "1");
  draw->AddText(ImVec2(origin.x, to_screen(0, 0).y - 8), guide, "0");
  std::snprintf(text, sizeof(text), "d(r), r in mm up to %.3g", 1000 * r_max);
  draw->AddText(ImVec2(lo.x, hi.y + 2), guide, text);
  ImGui::Dummy(size);
}

// The cone a contact's normal row sees (impact.h): pyramidal cones with
// condim > 1 rescale the normal impedance by friction and impratio.
ContactCone cone_of(const Model& model, int condim, double friction) {
  return {model.options.cone == Cone::kPyramidal && condim > 1, friction, model.options.impratio};
}

// Numbers derived from solref/solimp: reference spring and resting depth.
void derived_numbers(const Model& model, const SolRef& solref, const SolImp& raw_solimp,
                     double violation, bool has_violation, const ContactCone& cone) {
  const Options& o = model.options;
  const SolImp solimp = sanitize(raw_solimp);
  const SpringDamper spring =
      reference_spring(sanitize(solref), solimp.dmax, o.timestep, o.flags.refsafe);
  const double r_now = std::abs(violation);
  const ImpedanceValue now = impedance(solimp, r_now);
  if (has_violation) {
    ImGui::Text("violation r = %.4g mm  ->  d = %.4f, d' = %.4g /m", 1000 * violation, now.d,
                now.derivative);
  }
  ImGui::Text("reference spring: K = %.5g 1/s^2, B = %.5g 1/s", spring.K, spring.B);
  if (solref.timeconst > 0) {
    const double tc =
        o.flags.refsafe ? std::max(solref.timeconst, 2 * o.timestep) : solref.timeconst;
    if (tc != solref.timeconst) {
      ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1),
                         "timeconst raised to 2 timestep = %.4g s (refsafe)", tc);
    }
  }
  const double g = model.options.gravity.norm();
  const double depth = resting_depth(solref, raw_solimp, o.timestep, g, cone, o.flags.refsafe);
  ImGui::Text("predicted resting depth %.4g mm (g = %.3g)", 1000 * depth, g);
  ImGui::TextDisabled("  one contact carrying a body: d' d K r = (1 - d') g, d = d(r)");
}

// Normal velocity of geom2 relative to geom1 at the contact point (m/s,
// negative when they approach).
double normal_speed(const Model& model, const Data& data, const Contact& contact) {
  auto point_velocity = [&](int geom) {
    const Vector6d v = object_velocity(model, data, ObjectType::kGeom, geom, false);
    const Vector3d origin = object_frame(model, data, ObjectType::kGeom, geom).pos;
    return Vector3d(v.tail<3>() + v.head<3>().cross(contact.pos - origin));
  };
  const Vector3d n = contact.frame.row(0).transpose();
  return n.dot(point_velocity(contact.geom2) - point_velocity(contact.geom1));
}

// What this contact would do to a body hitting it at the current normal
// speed: the stepped one-contact prediction of `pliant tune`.
void predicted_impact(const Model& model, const Data& data, const Contact& contact,
                      const ContactCone& cone) {
  const double speed = -normal_speed(model, data, contact);
  const double g = model.options.gravity.norm();
  if (!(speed > 1e-3)) {
    ImGui::Text("normal speed %.3g m/s: not approaching", -speed);
    return;
  }
  const ImpactPrediction p =
      simulate_impact(contact.solref, contact.solimp, model.options.timestep, g, speed, 0, cone);
  ImGui::Text("impact at %.3g m/s: restitution %.3f", speed, p.restitution);
  ImGui::Text("  sinks %.3g mm", 1000 * p.max_penetration);
  ImGui::TextDisabled("  predicted: one contact, stepped (pliant tune)");
}

// Editors for solref and solimp; true when a value changed.
bool edit_parameters(SolRef& solref, SolImp& solimp) {
  bool changed = false;
  ImGui::PushItemWidth(200);
  double ref[2] = {solref.timeconst, solref.dampratio};
  if (ImGui::InputScalarN("solref", ImGuiDataType_Double, ref, 2, nullptr, nullptr, "%.4g",
                          ImGuiInputTextFlags_EnterReturnsTrue)) {
    solref = SolRef{ref[0], ref[1]};
    changed = true;
  }
  double imp[5] = {solimp.dmin, solimp.dmax, solimp.width, solimp.midpoint, solimp.power};
  const double lo = 0, hi = 1;
  if (ImGui::SliderScalarN("dmin, dmax", ImGuiDataType_Double, imp, 2, &lo, &hi, "%.4f")) {
    changed = true;
  }
  if (ImGui::InputScalar("width (m)", ImGuiDataType_Double, &imp[2], nullptr, nullptr, "%.4g",
                         ImGuiInputTextFlags_EnterReturnsTrue)) {
    changed = true;
  }
  if (ImGui::SliderScalar("midpoint", ImGuiDataType_Double, &imp[3], &lo, &hi, "%.3f")) {
    changed = true;
  }
  const double power_lo = 1, power_hi = 10;
  if (ImGui::SliderScalar("power", ImGuiDataType_Double, &imp[4], &power_lo, &power_hi, "%.2f")) {
    changed = true;
  }
  ImGui::PopItemWidth();
  if (changed) solimp = SolImp{imp[0], imp[1], std::max(imp[2], 0.0), imp[3], imp[4]};
  return changed;
}

void contact_list(ViewerState& state) {
  const Model& model = *state.model;
  const Data& data = *state.data;
  const int count = static_cast<int>(data.contacts.size());
  ImGui::Text("%d contacts", count);
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("contacts", 4, flags, ImVec2(0, 110))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn("geoms", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("dist mm");
  ImGui::TableSetupColumn("fn N");
  ImGui::TableHeadersRow();
  for (int c = 0; c < std::min(count, 500); ++c) {
    const Contact& contact = data.contacts[c];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    char label[16];
    std::snprintf(label, sizeof(label), "%d", c);
    if (ImGui::Selectable(label, c == state.highlight.contact,
                          ImGuiSelectableFlags_SpanAllColumns)) {
      state.highlight.contact = c;
    }
    ImGui::TableNextColumn();
    ImGui::Text("%s / %s", entity_label(model, ObjectType::kGeom, contact.geom1).c_str(),
                entity_label(model, ObjectType::kGeom, contact.geom2).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", 1000 * contact.dist);
    ImGui::TableNextColumn();
    Vector6d force;
    if (contact_force(data, c, force)) {
      ImGui::Text("%.3g", force[0]);
    } else {
      ImGui::TextDisabled("-");
    }
  }
  ImGui::EndTable();
}

void write_geom_parameters(Model& model, int geom, const SolRef& solref, const SolImp& solimp) {
  if (geom < 0 || geom >= model.geoms.count()) return;
  model.geoms.solref[geom] = solref;
  model.geoms.solimp[geom] = solimp;
}

void inspect_contact(ViewerState& state, int c) {
  Model& model = *state.model;
  const Contact contact = state.data->contacts[c];
  ImGui::Text("contact %d: %s / %s", c,
              entity_label(model, ObjectType::kGeom, contact.geom1).c_str(),
              entity_label(model, ObjectType::kGeom, contact.geom2).c_str());
  const Vector3d n = contact.frame.row(0).transpose();
  ImGui::Text("dist %.4g mm  margin %.3g mm  condim %d  mu %.3g", 1000 * contact.dist,
              1000 * contact.includemargin, contact.dim,
              contact.mu > 0 ? contact.mu : contact.friction[0]);
  ImGui::Text("normal %.3f %.3f %.3f", n.x(), n.y(), n.z());
  Vector6d force;
  if (contact_force(*state.data, c, force)) {
    ImGui::Text("force: normal %.4g N, friction %.4g %.4g N", force[0], force[1], force[2]);
  } else {
    ImGui::TextDisabled("no solver force for this contact (yet)");
  }
  const double violation = contact_violation(contact);
  ImGui::Text("solref %.4g %.4g   solimp %.3g %.3g %.3g %.3g %.3g", contact.solref.timeconst,
              contact.solref.dampratio, contact.solimp.dmin, contact.solimp.dmax,
              contact.solimp.width, contact.solimp.midpoint, contact.solimp.power);
  plot_impedance(contact.solimp, violation, true);
  const ContactCone cone = cone_of(model, contact.dim, contact.friction[0]);
  derived_numbers(model, contact.solref, contact.solimp, violation, true, cone);
  predicted_impact(model, *state.data, contact, cone);
  ImGui::Separator();
  static int target = kEditBoth;
  ImGui::TextUnformatted("edit:");
  ImGui::SameLine();
  ImGui::RadioButton("geom 1", &target, kEditGeom1);
  ImGui::SameLine();
  ImGui::RadioButton("geom 2", &target, kEditGeom2);
  ImGui::SameLine();
  ImGui::RadioButton("both", &target, kEditBoth);
  const int source = target == kEditGeom2 ? contact.geom2 : contact.geom1;
  SolRef solref = target == kEditBoth ? contact.solref : model.geoms.solref[source];
  SolImp solimp = target == kEditBoth ? contact.solimp : model.geoms.solimp[source];
  if (edit_parameters(solref, solimp)) {
    if (target != kEditGeom2) write_geom_parameters(model, contact.geom1, solref, solimp);
    if (target != kEditGeom1) write_geom_parameters(model, contact.geom2, solref, solimp);
  }
  ImGui::TextDisabled("Contacts mix the two geoms' values; editing both sets them exactly.");
}

void inspect_geom(ViewerState& state, int g) {
  Model& model = *state.model;
  const Data& data = *state.data;
  ImGui::Text("geom %s", entity_label(model, ObjectType::kGeom, g).c_str());
  // The deepest contact of this geom marks the curve.
  bool has_violation = false;
  double violation = 0;
  for (const Contact& contact : data.contacts) {
    if (contact.geom1 != g && contact.geom2 != g) continue;
    const double r = contact_violation(contact);
    if (!has_violation || r < violation) violation = r;
    has_violation = true;
  }
  plot_impedance(model.geoms.solimp[g], violation, has_violation);
  derived_numbers(model, model.geoms.solref[g], model.geoms.solimp[g], violation, has_violation,
                  cone_of(model, model.geoms.condim[g], model.geoms.friction[g][0]));
  SolRef solref = model.geoms.solref[g];
  SolImp solimp = model.geoms.solimp[g];
  if (edit_parameters(solref, solimp)) write_geom_parameters(model, g, solref, solimp);
}

}  // namespace

void draw_contact_inspector(ViewerState& state) {
  if (state.model == nullptr || !state.right_panel_open) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float top = io.DisplaySize.y * 0.45f;
  const float width = side_widths(state, io.DisplaySize.x).right;
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - width, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y - top), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("Contact inspector", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
  contact_list(state);
  const int c = state.highlight.contact;
  if (c >= static_cast<int>(state.data->contacts.size())) state.highlight.contact = -1;
  if (state.highlight.contact >= 0) {
    inspect_contact(state, state.highlight.contact);
  } else if (state.highlight.geom >= 0 && state.highlight.geom < state.model->geoms.count()) {
    inspect_geom(state, state.highlight.geom);
  } else {
    ImGui::TextDisabled("select a contact above, or a geom (double-click or the model tree)");
  }
  ImGui::End();
}

}  // namespace pliant::viewer
