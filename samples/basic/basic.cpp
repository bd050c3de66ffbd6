// The smallest Pliant program: load a model, step it, read a body's position
// and the penetration depth of a contact.
//
//   basic [MODEL.xml] [BODY]
#include <pliant/pliant.h>

#include <cstdio>
#include <string>

#include "pliant/step.h"

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : PLIANT_DEFAULT_SCENE;
  const std::string body_name = argc > 2 ? argv[2] : "ball";
  try {
    const pliant::Model model = pliant::load_model(path);  // throws pliant::LoadError
    pliant::Data data(model);
    for (int i = 0; i < 1000; ++i) pliant::step(model, data);
    const int body = model.id(pliant::ObjectType::kBody, body_name);
    if (body < 0) return std::fprintf(stderr, "no body '%s'\n", body_name.c_str()), 2;
    const pliant::Vector3d& p = data.xpos[body];
    std::printf("Pliant %s\n", pliant::version());
    std::printf("t = %.3f s: %s at (%.4f, %.4f, %.4f) m\n", data.time, body_name.c_str(), p.x(),
                p.y(), p.z());
    if (!data.contacts.empty() && data.contacts[0].efc_address >= 0) {
      const pliant::Contact& c = data.contacts[0];
      std::printf("contact 0 (geoms %d, %d): depth %.3g m\n", c.geom1, c.geom2, -c.dist);
    }
    return 0;
  } catch (const pliant::LoadError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
