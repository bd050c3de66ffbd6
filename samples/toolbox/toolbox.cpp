// The toolbox in one program: names and ids, a site's Jacobian, inverse
// dynamics, the step's derivatives (an LQR-ready A and B), saving and
// restoring a state, randomising the model's parameters, and writing the
// model back as MJCF. Run: toolbox [MODEL.xml] (default: the humanoid).

#include <pliant/pliant.h>

#include <cstdio>
#include <filesystem>
#include <vector>

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : PLIANT_TOOLBOX_MODEL;
  pliant::Model model = pliant::load_model(path);  // throws pliant::LoadError
  pliant::Data data(model);
  for (int i = 0; i < 100; ++i) pliant::step(model, data);

  // Names and ids, for every object type.
  const int torso = model.id(pliant::ObjectType::kBody, "torso");
  std::printf("body %d is '%s'\n", torso, model.name(pliant::ObjectType::kBody, torso).c_str());

  // The Jacobian of the torso's origin: 3 x nv, translation (m per dof unit)
  // and rotation (rad per dof unit), row-major.
  std::vector<double> jacp(3 * model.nv), jacr(3 * model.nv);
  pliant::jacobian_body(model, data, jacp.data(), jacr.data(), torso);
  std::printf("d(torso x)/d(qvel[0]) = %.6f m/(m/s)\n", jacp[0]);

  // Inverse dynamics: the force (N or N m per dof) that gives this qacc.
  pliant::forward(model, data);
  pliant::inverse(model, data);
  std::printf("qfrc_inverse[2] = %.6f N (applied + actuators: %.6f N)\n", data.qfrc_inverse[2],
              data.qfrc_applied[2] + data.qfrc_actuator[2]);

  // The step's derivatives: x' = A x + B u, x = (qpos tangent, qvel, act).
  const pliant::TransitionDerivatives d = pliant::transition_derivatives(model, data);
  std::printf("A is %ldx%ld, B is %ldx%ld, |A| = %.6f\n", static_cast<long>(d.A.rows()),
              static_cast<long>(d.A.cols()), static_cast<long>(d.B.rows()),
              static_cast<long>(d.B.cols()), d.A.norm());

  // Save the state, step on, restore: the same steps again, bit for bit.
  std::vector<double> state(pliant::state_size(model, pliant::kStateIntegration));
  pliant::get_state(model, data, state.data(), pliant::kStateIntegration);
  for (int i = 0; i < 10; ++i) pliant::step(model, data);
  const double first = data.qpos[2];
  pliant::set_state(model, data, state.data(), pliant::kStateIntegration);
  for (int i = 0; i < 10; ++i) pliant::step(model, data);
  std::printf("restored and stepped again: %s\n", data.qpos[2] == first ? "identical" : "differs");

  // Domain randomisation: a heavier torso, then the constants at qpos0.
  const int mass = pliant::find_model_field("body_mass");
  std::vector<double> masses = pliant::read_model_field(model, mass);
  masses[torso] *= 1.2;
  pliant::edit_model_field(model, mass, masses.data(), static_cast<long>(masses.size()));
  pliant::set_const(model);
  std::printf("subtree mass of the root: %.6f kg\n", model.bodies.subtree_mass[1]);

  // The edited model as MJCF, which loads back the same.
  const std::string out = (std::filesystem::temp_directory_path() / "toolbox_model.xml").string();
  pliant::save_xml(model, out);
  const pliant::Model again = pliant::load_model(out);
  std::printf("saved to %s; reloaded torso mass %.6f kg\n", out.c_str(), again.bodies.mass[torso]);
  return 0;
}
