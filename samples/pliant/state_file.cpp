#include "samples/pliant/state_file.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "pliant/load_error.h"

namespace pliant::cli {

void read_state_file(const std::string& path, const Model& m, Data& d) {
  using nlohmann::json;
  std::ifstream in(path);
  if (!in) throw LoadError(path, 0, "cannot open the state file");
  json state;
  try {
    state = json::parse(in);
  } catch (const json::exception& e) {
    throw LoadError(path, 0, std::string("not JSON: ") + e.what());
  }
  struct Part {
    const char* name;
    VectorXd* target;
    const char* size;
    bool required;
  };
  const Part parts[] = {{"qpos", &d.qpos, "nq", true},
                        {"qvel", &d.qvel, "nv", true},
                        {"act", &d.act, "na", false},
                        {"ctrl", &d.ctrl, "nu", false},
                        {"qacc_warmstart", &d.qacc_warmstart, "nv", false}};
  std::vector<std::pair<VectorXd*, VectorXd>> values;
  for (const Part& part : parts) {
    if (!state.contains(part.name) && !part.required) continue;
    const json& list = state.contains(part.name) ? state[part.name] : json();
    const long size = part.target->size();
    bool ok = list.is_array() && static_cast<long>(list.size()) == size;
    for (size_t i = 0; ok && i < list.size(); ++i) ok = list[i].is_number();
    if (!ok) {
      throw LoadError(path, 0,
                      std::string("needs \"") + part.name + "\": a list of " +
                          std::to_string(size) + " numbers (" + part.size + " of " + m.file + ")" +
                          (part.required ? "" : ", or no such key"));
    }
    VectorXd v(size);
    for (long i = 0; i < size; ++i) v[i] = list[i].get<double>();
    values.emplace_back(part.target, std::move(v));
  }
  for (auto& [target, v] : values) *target = std::move(v);
}

}  // namespace pliant::cli
