#pragma once

// The models every conformance test runs over: third_party/models and the
// rigid sample models that Debian's libmujoco-samples installs.

#include <string>
#include <vector>

namespace pliant::conformance {

inline std::vector<std::string> conformance_models() {
  const std::string test_models = PLIANT_TEST_MODELS;
  const std::string samples = PLIANT_MUJOCO_MODELS;
  std::vector<std::string> models;
  for (const char* name : {"acrobot", "ball_in_cup", "cartpole", "cheetah", "finger", "fish",
                           "hopper", "humanoid", "humanoid_CMU", "lqr", "manipulator", "pendulum",
                           "point_mass", "quadruped", "reacher", "stacker", "swimmer", "walker"}) {
    models.push_back(test_models + "/dm_control/" + name + ".xml");
  }
  for (const char* name : {"robotiq_2f85/2f85.xml", "robotiq_2f85/scene.xml",
                           "wonik_allegro/left_hand.xml", "wonik_allegro/right_hand.xml",
                           "wonik_allegro/scene_left.xml", "wonik_allegro/scene_right.xml"}) {
    models.push_back(test_models + "/menagerie/" + name);
  }
  for (const char* name :
       {"humanoid/humanoid.xml", "humanoid/22_humanoids.xml", "humanoid100/humanoid100.xml",
        "slider_crank/slider_crank.xml", "tendon_arm/arm26.xml", "mug/mug.xml"}) {
    models.push_back(samples + "/" + name);
  }
  return models;
}

// A readable test name from a model path: parent folder and file stem.
inline std::string model_test_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const size_t folder = path.find_last_of('/', slash - 1);
  std::string name = path.substr(folder + 1, path.size() - folder - 5);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace pliant::conformance
