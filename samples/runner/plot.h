#pragma once

#include <string>

#include "samples/runner/run.h"

namespace pliant::runner {

// Writes the recorded series as a PNG: one panel per series (at most 8),
// stacked, each with its own value range, time along x. Panels are numbered
// in recording order; their minimum and maximum values and the time span are
// printed on the axes. Returns false when the file cannot be written.
bool write_plot_png(const RunResult& result, const std::string& path);

}  // namespace pliant::runner
