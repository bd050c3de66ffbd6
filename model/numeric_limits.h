#pragma once

// The two numeric bounds used throughout Pliant, as MuJoCo's mjMINVAL and
// mjMAXVAL.

namespace pliant {

// Guard against division by (near) zero: lengths, masses, denominators below
// this count as zero.
inline constexpr double kMinValue = 1e-15;

// The largest magnitude a value may have: a state entry beyond it counts as
// diverged (the step warns and resets), and a number in a model file beyond
// it is refused by the loader as no physical quantity.
inline constexpr double kMaxValue = 1e10;

}  // namespace pliant
