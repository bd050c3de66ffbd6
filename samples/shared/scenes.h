#pragma once

// Scenes built in code, as MJCF text, for the tests, the benchmarks and the
// command line: one home, so that a pile means the same everywhere.

#include <string>

namespace pliant::scenes {

// MJCF of `count` free 10 cm boxes dropped in layers over a plane, each box
// shifted and turned a little (deterministically) so that they fall into a
// pile instead of a neat stack: the benchmarks' pile (`pliant bench
// --box-pile`, side_by_side). With `fixed_rows` > 0 the file also sizes the
// contact and constraint-row buffers of engines that preallocate them
// (<size nconmax njmax>); Pliant's buffers grow as needed and ignore it.
std::string box_pile_xml(int count, int fixed_rows = 0);

// A regular stack of free cubes over a plane: box i sits in layer
// i / per_layer, row (i % per_layer) / per_row, column i % per_row. Lengths
// in m, angles in degrees (MJCF's default).
struct BoxStack {
  int count = 1;
  int per_row = 1;        // boxes along x in a row
  int per_layer = 1;      // boxes in a layer
  double half = 0.1;      // half side of each cube
  double pitch_x = 0.21;  // between columns
  double pitch_y = 0.21;  // between rows
  double layer_height = 0.21;
  double bottom = 0.1;       // centre height of the first layer
  double layer_shift_x = 0;  // each layer's offset along x
  double layer_shift_y = 0;  // each layer's offset along y
  double tilt = 0;           // rotation about x of every box
  double yaw_step = 0;       // box i turns by i * yaw_step about z
  double plane = 5;          // half side of the ground plane
  std::string header;        // MJCF elements before the worldbody (<size>, <option>)
  std::string extra_bodies;  // MJCF bodies added after the boxes
};
std::string box_stack_xml(const BoxStack& stack);

// Twelve cubes of 20 cm in two rows of six, the upper row resting on the
// lower one 3 cm aside: nv = 72, boxes touching each other (the tests'
// small pile: sparse rows, one island).
BoxStack two_layers_of_six();

}  // namespace pliant::scenes
