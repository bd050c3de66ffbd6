#include "pliant/load.h"

#include "engine/model_constants.h"
#include "model/loader.h"

namespace pliant {

Model load_model(const std::string& path) {
  Model model = compile_model_file(path);
  compute_model_constants(model);
  return model;
}

Model load_model_from_string(const std::string& xml, const std::string& directory,
                             const std::string& name) {
  Model model = compile_model_string(xml, directory, name);
  compute_model_constants(model);
  return model;
}

}  // namespace pliant
