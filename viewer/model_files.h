#pragma once

// The files behind a model, for reloading when any of them changes on disk,
// and the list of recently opened models.

#include <filesystem>
#include <string>
#include <vector>

#include "pliant/model.h"

namespace pliant::viewer {

// The model file, the files it includes (recursively), and the mesh and
// texture files the loaded model read, when they exist.
std::vector<std::string> model_source_files(const std::string& path, const Model* model);

// Polls modification times of a set of files.
class FileWatcher {
 public:
  void watch(std::vector<std::string> files);
  // True once after any watched file changed (or appeared or vanished).
  bool changed();
  const std::vector<std::string>& files() const { return files_; }

 private:
  std::vector<std::string> files_;
  std::vector<std::filesystem::file_time_type> times_;
};

// $XDG_CONFIG_HOME/pliant/<name> (or ~/.config/pliant/<name>); empty when
// neither variable is set.
std::filesystem::path config_file(const std::string& name);

// Most recent first, at most kMaxRecent, kept in
// $XDG_CONFIG_HOME/pliant/recent (or ~/.config/pliant/recent).
class RecentFiles {
 public:
  static constexpr int kMaxRecent = 10;
  RecentFiles();
  void add(const std::string& path);
  const std::vector<std::string>& list() const { return paths_; }

 private:
  void save() const;
  std::filesystem::path store_;
  std::vector<std::string> paths_;
};

}  // namespace pliant::viewer
