#include <gtest/gtest.h>

#include "pliant/derivatives.h"
#include "pliant/load.h"
#include "pliant/step.h"

namespace pliant {
namespace {

// Transition derivatives with their position columns on threads (each on a
// copy of the data): the same matrices as on one thread; run under
// ThreadSanitizer by the tsan preset.
TEST(Derivatives, PositionColumnsOnThreads) {
  const Model model = load_model(std::string(PLIANT_SCENES) + "/default.xml");
  Data data(model);
  for (int i = 0; i < 50; ++i) step(model, data);
  DifferenceOptions one;
  one.linearise_solve = true;
  DifferenceOptions two = one;
  two.threads = 2;
  const TransitionDerivatives a = transition_derivatives(model, data, one);
  const TransitionDerivatives b = transition_derivatives(model, data, two);
  EXPECT_TRUE(a.A == b.A);
  EXPECT_TRUE(a.B == b.B);
  EXPECT_TRUE(a.C == b.C);
}

}  // namespace
}  // namespace pliant
