#pragma once

// Field-by-field comparison of Pliant against MuJoCo 2.2.2, recording the
// worst error per field so each test can print a table of them.
//
// Error measure: |ours - theirs| / max(largest |value| of the field in the
// model, 1e-300 floor). Normalising by the field's magnitude rather than by
// each entry keeps exact zeros (a centred geom, an unused size slot) from
// turning round-off into infinite relative error, while staying a relative
// measure for fields of any unit and scale.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace pliant::conformance {

class FieldReport {
 public:
  explicit FieldReport(std::string model) : model_(std::move(model)) {}

  // Integer fields must match exactly.
  void ints(const std::string& field, const std::vector<int>& ours,
            const std::vector<int>& theirs) {
    ASSERT_EQ(ours.size(), theirs.size()) << model_ << " " << field << ": length";
    int mismatches = 0;
    for (size_t i = 0; i < ours.size(); ++i) {
      if (ours[i] != theirs[i]) {
        if (mismatches++ < 5) {
          ADD_FAILURE() << model_ << " " << field << "[" << i << "]: Pliant " << ours[i]
                        << ", MuJoCo " << theirs[i];
        }
      }
    }
    record(field, mismatches, 0);
  }

  // Real fields within `tolerance` of the field's magnitude. `group` > 1
  // names entries in rows (for messages).
  void reals(const std::string& field, const std::vector<double>& ours,
             const std::vector<double>& theirs, double tolerance) {
    ASSERT_EQ(ours.size(), theirs.size()) << model_ << " " << field << ": length";
    double scale = 0;
    for (double v : theirs) scale = std::max(scale, std::abs(v));
    for (double v : ours) scale = std::max(scale, std::abs(v));
    scale = std::max(scale, 1e-300);
    double worst = 0;
    int reported = 0;
    for (size_t i = 0; i < ours.size(); ++i) {
      const double error = std::abs(ours[i] - theirs[i]) / scale;
      if (!(error <= tolerance) && reported++ < 5) {
        ADD_FAILURE() << model_ << " " << field << "[" << i << "]: Pliant " << std::setprecision(17)
                      << ours[i] << ", MuJoCo " << theirs[i] << " (relative error " << error
                      << " > " << tolerance << ")";
      }
      worst = std::max(worst, std::isnan(error) ? INFINITY : error);
    }
    record(field, worst, tolerance);
  }

  // Quaternions (w, x, y, z rows) equal up to sign.
  void quats(const std::string& field, const std::vector<double>& ours,
             const std::vector<double>& theirs, double tolerance) {
    ASSERT_EQ(ours.size(), theirs.size()) << model_ << " " << field << ": length";
    std::vector<double> aligned = ours;
    for (size_t q = 0; q + 3 < ours.size(); q += 4) {
      double same = 0, flipped = 0;
      for (int k = 0; k < 4; ++k) {
        same += std::abs(ours[q + k] - theirs[q + k]);
        flipped += std::abs(ours[q + k] + theirs[q + k]);
      }
      if (flipped < same) {
        for (int k = 0; k < 4; ++k) aligned[q + k] = -ours[q + k];
      }
    }
    reals(field, aligned, theirs, tolerance);
  }

  void print() const {
    std::cout << "worst error per field for " << model_ << ":\n";
    for (const auto& [field, entry] : worst_) {
      std::cout << "  " << std::left << std::setw(24) << field << std::setprecision(3)
                << entry.first;
      std::cout << (entry.second == 0 ? "  (mismatches, exact)" : "") << "\n";
    }
  }

 private:
  void record(const std::string& field, double worst, double tolerance) {
    auto& entry = worst_[field];
    entry.first = std::max(entry.first, worst);
    entry.second = tolerance;
  }

  std::string model_;
  std::map<std::string, std::pair<double, double>> worst_;
};

}  // namespace pliant::conformance
