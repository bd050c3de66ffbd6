#pragma once

// The test corpus as the constraint tests walk it: every dm_control model and
// the two Menagerie scenes of third_party/models, each named.

#include <string>
#include <utility>
#include <vector>

#include "pliant/load.h"

namespace pliant {

inline std::vector<std::pair<std::string, Model>> constraint_test_corpus() {
  const std::string models = PLIANT_TEST_MODELS;
  std::vector<std::pair<std::string, Model>> cases;
  for (const char* name : {"acrobot", "ball_in_cup", "cartpole", "cheetah", "finger", "fish",
                           "hopper", "humanoid", "humanoid_CMU", "manipulator", "pendulum",
                           "point_mass", "quadruped", "reacher", "stacker", "swimmer", "walker"}) {
    cases.emplace_back(name, load_model(models + "/dm_control/" + name + ".xml"));
  }
  for (const char* name : {"robotiq_2f85/scene.xml", "wonik_allegro/scene_right.xml"}) {
    cases.emplace_back(name, load_model(models + "/menagerie/" + name));
  }
  return cases;
}

}  // namespace pliant
