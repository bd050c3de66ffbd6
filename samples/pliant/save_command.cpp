// `pliant save MODEL.xml OUT.xml`: load a model and write it back as MJCF,
// compiled (pliant/save_xml.h): every value explicit, no default classes,
// meshes and height fields inline, angles in radians. Loading OUT.xml gives
// the same model.

#include <iostream>
#include <string>

#include "pliant/load.h"
#include "pliant/save_xml.h"
#include "samples/pliant/commands.h"

namespace pliant::cli {

void add_save_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("save",
                         "Write a model back as compiled MJCF that loads to the same model (as "
                         "MuJoCo's mj_saveLastXML)");
  static std::string model_path, out_path;
  cmd->add_option("model", model_path, "MJCF model file")->required();
  cmd->add_option("out", out_path, "MJCF file to write (replaced if it exists)")->required();
  cmd->callback([] {
    try {
      const Model model = load_model(model_path);
      save_xml(model, out_path);
      std::cout << "wrote " << out_path << "\n";
    } catch (const LoadError& e) {
      std::cerr << "error: " << e.what() << "\n";
      set_exit_code(kExitBadInput);
    }
  });
}

}  // namespace pliant::cli
