#pragma once

// A stable counting sort by group, shared by the constraint islands and the
// block factor's thread tasks.

#include <vector>

namespace pliant {

// Items 0..n-1 by group (groups 0..count-1; items of group -1 are left out),
// each group's items in ascending order: group g's are order[start[g] ..
// start[g + 1]) (start has count + 1 entries). `next` is scratch.
inline void sort_by_group(const std::vector<int>& group_of, int n, int count,
                          std::vector<int>& order, std::vector<int>& start,
                          std::vector<int>& next) {
  start.assign(count + 1, 0);
  for (int i = 0; i < n; ++i) {
    if (group_of[i] >= 0) ++start[group_of[i] + 1];
  }
  for (int g = 0; g < count; ++g) start[g + 1] += start[g];
  order.resize(start[count]);
  next.assign(start.begin(), start.end() - 1);
  for (int i = 0; i < n; ++i) {
    if (group_of[i] >= 0) order[next[group_of[i]]++] = i;
  }
}

}  // namespace pliant
