#include "viewer/model_files.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace pliant::viewer {
namespace fs = std::filesystem;
namespace {

fs::file_time_type modification_time(const std::string& file) {
  std::error_code error;
  const fs::file_time_type time = fs::last_write_time(file, error);
  return error ? fs::file_time_type::min() : time;
}

// Follows <include file="..."/> elements. MJCF resolves include paths
// against the main model's directory; a path relative to the including
// file is accepted as well.
void collect_includes(const fs::path& file, const fs::path& model_dir,
                      std::vector<std::string>& out, int depth) {
  if (depth > 32) return;
  std::ifstream in(file);
  if (!in) return;
  std::stringstream text;
  text << in.rdbuf();
  static const std::regex kInclude(R"(<include\s+file\s*=\s*["']([^"']+)["'])");
  const std::string content = text.str();
  for (auto it = std::sregex_iterator(content.begin(), content.end(), kInclude);
       it != std::sregex_iterator(); ++it) {
    fs::path included = (*it)[1].str();
    if (included.is_relative()) {
      const fs::path from_model = model_dir / included;
      included = fs::exists(from_model) ? from_model : file.parent_path() / included;
    }
    const std::string name = included.lexically_normal().string();
    if (std::find(out.begin(), out.end(), name) != out.end()) continue;
    out.push_back(name);
    collect_includes(included, model_dir, out, depth + 1);
  }
}

}  // namespace

std::vector<std::string> model_source_files(const std::string& path, const Model* model) {
  std::vector<std::string> files{fs::path(path).lexically_normal().string()};
  collect_includes(path, fs::path(path).parent_path(), files, 0);
  if (model != nullptr) {
    for (const std::vector<std::string>* list : {&model->meshes.file, &model->textures.file}) {
      for (const std::string& file : *list) {
        if (!file.empty() && fs::exists(file)) files.push_back(file);
      }
    }
  }
  return files;
}

void FileWatcher::watch(std::vector<std::string> files) {
  files_ = std::move(files);
  times_.clear();
  for (const std::string& file : files_) times_.push_back(modification_time(file));
}

bool FileWatcher::changed() {
  bool any = false;
  for (size_t i = 0; i < files_.size(); ++i) {
    const fs::file_time_type now = modification_time(files_[i]);
    if (now != times_[i]) {
      times_[i] = now;
      any = true;
    }
  }
  return any;
}

fs::path config_file(const std::string& name) {
  const char* config = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  if (config != nullptr && *config != '\0') return fs::path(config) / "pliant" / name;
  if (home != nullptr && *home != '\0') return fs::path(home) / ".config" / "pliant" / name;
  return {};
}

RecentFiles::RecentFiles() {
  store_ = config_file("recent");
  if (store_.empty()) return;
  std::ifstream in(store_);
  std::string line;
  while (std::getline(in, line) && static_cast<int>(paths_.size()) < kMaxRecent) {
    if (!line.empty()) paths_.push_back(line);
  }
}

void RecentFiles::add(const std::string& path) {
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  const std::string name = error ? path : absolute.lexically_normal().string();
  paths_.erase(std::remove(paths_.begin(), paths_.end(), name), paths_.end());
  paths_.insert(paths_.begin(), name);
  if (static_cast<int>(paths_.size()) > kMaxRecent) paths_.resize(kMaxRecent);
  save();
}

void RecentFiles::save() const {
  if (store_.empty()) return;
  std::error_code error;
  fs::create_directories(store_.parent_path(), error);
  std::ofstream out(store_);
  for (const std::string& path : paths_) out << path << '\n';
}

}  // namespace pliant::viewer
