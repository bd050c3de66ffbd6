#pragma once

namespace pliant {

// solref: how a soft constraint's reference acceleration is made.
// Positive form (timeconst > 0): a mass-spring-damper with time constant
// `timeconst` (s) and damping ratio `dampratio`. Direct form (both <= 0):
// -stiffness and -damping. See docs/physics.md §2.
struct SolRef {
  double timeconst = 0.02;
  double dampratio = 1;

  bool operator==(const SolRef&) const = default;
};

// solimp: the impedance d(r) in (0, 1), rising from dmin at r = 0 to dmax at
// |r| >= width (m), through a sigmoid with the given midpoint and power.
struct SolImp {
  double dmin = 0.9;
  double dmax = 0.95;
  double width = 0.001;
  double midpoint = 0.5;
  double power = 2;

  bool operator==(const SolImp&) const = default;
};

}  // namespace pliant
