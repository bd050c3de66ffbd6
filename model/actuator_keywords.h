#pragma once

// The MJCF words of an actuator's dynamics, gain and bias types: read by the
// parser (<general dyntype="...">) and written by save_xml, from one table
// each so the two cannot drift apart.

#include <span>
#include <utility>

#include "pliant/model.h"

namespace pliant {

template <class T>
using KeywordTable = std::span<const std::pair<const char*, T>>;

inline constexpr std::pair<const char*, DynamicsType> kDynamicsKeywords[] = {
    {"none", DynamicsType::kNone},
    {"integrator", DynamicsType::kIntegrator},
    {"filter", DynamicsType::kFilter},
    {"filterexact", DynamicsType::kFilterExact},
    {"muscle", DynamicsType::kMuscle}};
inline constexpr std::pair<const char*, GainType> kGainKeywords[] = {
    {"fixed", GainType::kFixed}, {"affine", GainType::kAffine}, {"muscle", GainType::kMuscle}};
inline constexpr std::pair<const char*, BiasType> kBiasKeywords[] = {
    {"none", BiasType::kNone}, {"affine", BiasType::kAffine}, {"muscle", BiasType::kMuscle}};

// The word of `code` in `table` (the table's first word when absent).
template <class T>
const char* keyword_of(KeywordTable<T> table, T code) {
  for (const auto& [word, value] : table) {
    if (value == code) return word;
  }
  return table.front().first;
}

}  // namespace pliant
