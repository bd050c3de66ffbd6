// `pliant jacobian MODEL.xml [--state FILE]`: every body's, geom's and
// site's Jacobians at a state, as one JSON object, for comparing them with
// MuJoCo's mj_jac* from the shell (tests/reference3/compare_jacobians.py).

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pliant/forward.h"
#include "pliant/jacobian.h"
#include "pliant/load.h"
#include "samples/pliant/commands.h"
#include "samples/pliant/state_file.h"

namespace pliant::cli {
namespace {

using nlohmann::json;

json jacobians(const Model& m, const Data& d) {
  const int n = 3 * m.nv;
  std::vector<double> jacp(n), jacr(n);
  const auto pair = [&] { return json::array({jacp, jacr}); };
  json out = {{"body", json::array()},        {"body_com", json::array()},
              {"subtree_com", json::array()}, {"body_dot", json::array()},
              {"geom", json::array()},        {"site", json::array()}};
  for (int b = 0; b < m.body_count(); ++b) {
    jacobian_body(m, d, jacp.data(), jacr.data(), b);
    out["body"].push_back(pair());
    jacobian_body_com(m, d, jacp.data(), jacr.data(), b);
    out["body_com"].push_back(pair());
    jacobian_subtree_com(m, d, jacp.data(), b);
    out["subtree_com"].push_back(jacp);
    jacobian_dot(m, d, jacp.data(), jacr.data(), d.xpos[b], b);
    out["body_dot"].push_back(pair());
  }
  for (int g = 0; g < m.geoms.count(); ++g) {
    jacobian_geom(m, d, jacp.data(), jacr.data(), g);
    out["geom"].push_back(pair());
  }
  for (int s = 0; s < m.sites.count(); ++s) {
    jacobian_site(m, d, jacp.data(), jacr.data(), s);
    out["site"].push_back(pair());
  }
  return out;
}

}  // namespace

void add_jacobian_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "jacobian", "Print every body's, geom's and site's Jacobians at a state (JSON)");
  static std::string path, state;
  command->add_option("model", path, "MJCF model file")->required();
  command->add_option("--state", state, "JSON file with qpos and qvel (default: qpos0, rest)");
  command->callback([] {
    try {
      const Model model = load_model(path);
      Data data(model);
      if (!state.empty()) read_state_file(state, model, data);
      forward(model, data);
      std::cout << jacobians(model, data).dump(-1, ' ', false, json::error_handler_t::strict)
                << "\n";
    } catch (const LoadError& e) {
      std::cerr << "error: " << e.what() << "\n";
      set_exit_code(kExitBadInput);
    }
  });
}

}  // namespace pliant::cli
