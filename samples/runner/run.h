#pragma once

// Running a scenario: load its model, step it while applying the timed
// actions, evaluate the checks, record what was asked for, compare with the
// golden trajectory. The verdict and every measured value go in RunResult.

#include <functional>
#include <string>
#include <vector>

#include "pliant/data.h"
#include "samples/runner/scenario.h"

namespace pliant::runner {

struct CheckResult {
  int line = 0;
  std::string description;  // what was checked, readable
  std::string measured;     // the measured value, readable
  std::string expected;     // the expected value or limit, readable
  double error = 0;         // |measured - expected| or the measured excess
  bool pass = false;
};

// A recorded quantity: name and one value per recorded step.
struct Series {
  std::string name;
  std::vector<double> values;
};

struct RunOptions {
  bool update_golden = false;
  std::vector<std::string> record;  // quantities to record (see README: body.NAME.z, ...)
  bool progress = false;            // draw a progress bar on stderr
  // Called once with the final state, after the last step (e.g. to render it).
  std::function<void(const Model&, const Data&)> at_end;
};

struct RunResult {
  std::string scenario, model;
  long steps = 0;
  double simulated = 0;  // s
  double wall = 0;       // s
  std::vector<CheckResult> checks;
  std::vector<double> times;   // recorded times, s
  std::vector<Series> series;  // recorded quantities
  std::string golden_note;     // what happened with the golden file
  bool passed() const;
};

// Throws LoadError for a bad model or a check naming something the model
// does not have.
RunResult run_scenario(const Scenario& scenario, const RunOptions& options);

// The readable report and the one-object JSON form.
std::string format_report(const RunResult& result);
std::string format_json(const RunResult& result);

// CSV with a header naming each column: time, then each series.
void write_csv(const RunResult& result, const std::string& path);

}  // namespace pliant::runner
