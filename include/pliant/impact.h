#pragma once

// One normal impact, stepped as the engine steps it, and the contact design
// that meets a restitution, a resting depth and a maximum penetration at an
// impact speed (docs/physics.md §2.3, `pliant tune --impact-speed`).
//
// Along the normal of a single contact carrying a free body, the solver
// reaches a = (1 - d') a0 + d' aref with a0 = -g, aref = -B v - K d x (x the
// signed distance, negative inside) while aref > a0, and a = a0 once aref
// falls below (the contact cannot pull). d is the impedance at x; d' = d for
// elliptic cones and condim 1, and for pyramidal cones
// d' = 1 / (1 + c (1 - d) / d), c = f^2 (1 + f^2) / (2 impratio), from the
// edges' regulariser 2 mu^2 R (c = 1 at MuJoCo's default friction 1).
// Semi-implicit Euler then takes v += h a, x += h v.

#include <string>
#include <vector>

#include "pliant/solver_params.h"

namespace pliant {

struct ContactCone {
  bool pyramidal = true;
  double friction = 1;  // sliding friction of the pair
  double impratio = 1;
};

// The normal impedance the solver realises for impedance d (see above).
double effective_impedance(double d, const ContactCone& cone);

struct ImpactPrediction {
  double restitution = 0;      // rebound speed / impact speed, as the body passes
                               // back through the height of first touch
  double max_penetration = 0;  // m
  double contact_time = 0;     // s, first contact step to the step that leaves
  bool rebounded = false;      // left the surface within 10 s
};

// A body reaching the surface at `speed` (m/s, > 0). `phase` in [0, 1) says
// where in a step the surface is crossed: the first step in contact starts
// phase * speed * timestep deep (at least 1 nm: a body exactly touching is
// not yet in contact).
ImpactPrediction simulate_impact(const SolRef& solref, const SolImp& solimp, double timestep,
                                 double gravity, double speed, double phase = 0,
                                 const ContactCone& cone = {});

// The depth where the contact carries gravity: d(x)^2 K x = (1 - d'(x)) g,
// found by bisection (exactly: d' d K x = (1 - d') g; the left side grows with
// depth, the right side shrinks). Infinity when nothing carries the load
// within 1e6 m (a contact without stiffness).
double resting_depth(const SolRef& solref, const SolImp& solimp, double timestep, double gravity,
                     const ContactCone& cone = {}, bool refsafe = true);

struct ImpactTarget {
  double restitution = 0.5;    // at the impact speed, 0..1
  double depth = 0.002;        // m, resting depth under gravity
  double speed = 1;            // m/s, impact speed
  double max_penetration = 0;  // m; 0 for no bound
  double timestep = 0.002;     // s
  double gravity = 9.81;       // m/s^2
  ContactCone cone;
};

struct ImpactDesign {
  SolRef solref;
  SolImp solimp;
  ImpactPrediction at_speed;  // phase 0: the surface crossed at a step's start
  double resting_depth = 0;   // m
  // Over 8 phases in [0, 1): what a drop that reaches the surface mid-step
  // does at the impact speed.
  double restitution_low = 0, restitution_high = 0, penetration_worst = 0;
  std::vector<std::string> gave_way;  // targets not met, each with by how much
};

// Searches solref (timeconst, dampratio; timeconst >= 2 timestep, so MuJoCo's
// refsafe rule never changes it) and the whole solimp for the design that
// meets the restitution at phase 0 exactly, rests at the depth exactly and
// stays under the maximum penetration with a 5 % margin, and, among those,
// the one whose worst phase is best (restitution error relative to 5 % of
// the target, penetration relative to the bound). Throws
// std::invalid_argument with a sentence for bad targets (restitution outside
// [0, 1], a penetration bound at or below the resting depth, a timestep too
// coarse for the speed and the bound).
ImpactDesign design_impact(const ImpactTarget& target);

}  // namespace pliant
