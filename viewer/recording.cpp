#include "viewer/recording.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace pliant::viewer {
namespace fs = std::filesystem;

std::string numbered_path(const std::string& stem, const std::string& extension) {
  for (int n = 1;; ++n) {
    char number[16];
    std::snprintf(number, sizeof(number), "-%04d", n);
    const std::string candidate = stem + number + extension;
    std::error_code ignored;
    if (!fs::exists(candidate, ignored)) return candidate;
  }
}

bool ffmpeg_available() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/ffmpeg";
    if (::access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::string default_recording_path() {
  return ffmpeg_available() ? numbered_path("pliant-recording", ".mp4")
                            : numbered_path("pliant-recording", "");
}

VideoRecorder::~VideoRecorder() {
  std::string ignored;
  stop(&ignored);
}

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The path in single quotes for the shell.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

bool VideoRecorder::start(const std::string& path, int width, int height, std::string* error) {
  std::string ignored;
  stop(&ignored);
  if (width <= 0 || height <= 0 || width % 2 != 0 || height % 2 != 0) {
    *error = "cannot record a view of " + std::to_string(width) + "x" + std::to_string(height) +
             " pixels (needs an even, non-zero size)";
    return false;
  }
  if (ends_with(path, ".mp4")) {
    if (!ffmpeg_available()) {
      *error = "recording to " + path + " needs ffmpeg on PATH (or give a directory for PNGs)";
      return false;
    }
    // A dead ffmpeg must not kill the viewer with SIGPIPE: writes then fail
    // with EPIPE and the recording stops with a message.
    std::signal(SIGPIPE, SIG_IGN);
    const std::string command = "ffmpeg -y -loglevel error -f rawvideo -pix_fmt rgb24 -s " +
                                std::to_string(width) + "x" + std::to_string(height) + " -r " +
                                std::to_string(kRecordingFps) + " -i - -an -pix_fmt yuv420p " +
                                shell_quoted(path);
    pipe_ = ::popen(command.c_str(), "w");
    if (pipe_ == nullptr) {
      *error = "cannot start ffmpeg";
      return false;
    }
  } else {
    std::error_code code;
    fs::create_directories(path, code);
    if (code || !fs::is_directory(path)) {
      *error = "cannot make the directory " + path + " for the recording";
      return false;
    }
  }
  path_ = path;
  last_png_.clear();
  width_ = width;
  height_ = height;
  frames_ = 0;
  active_ = true;
  return true;
}

bool VideoRecorder::add(const Image& frame, int copies, std::string* error) {
  if (!active_) return false;
  if (frame.width != width_ || frame.height != height_) {
    *error = "the frame size changed during the recording";
    std::string ignored;
    stop(&ignored);
    return false;
  }
  for (int k = 0; k < copies; ++k) {
    bool written = true;
    if (pipe_ != nullptr) {
      written = std::fwrite(frame.rgb.data(), 1, frame.rgb.size(), pipe_) == frame.rgb.size();
      if (!written) *error = "ffmpeg stopped taking frames";
    } else {
      char name[32];
      std::snprintf(name, sizeof(name), "frame-%05d.png", frames_);
      const std::string file = (fs::path(path_) / name).string();
      // A repeated frame is the same picture: copy the file, do not encode again.
      if (k > 0 && !last_png_.empty()) {
        std::error_code code;
        written = fs::copy_file(last_png_, file, fs::copy_options::overwrite_existing, code);
        if (!written) *error = "cannot write " + file;
      } else {
        written = write_png(file, frame, error);
      }
      last_png_ = file;
    }
    if (!written) {
      std::string ignored;
      stop(&ignored);
      return false;
    }
    ++frames_;
  }
  return true;
}

bool VideoRecorder::stop(std::string* error) {
  if (!active_) return true;
  active_ = false;
  if (pipe_ == nullptr) return true;
  const int status = ::pclose(pipe_);
  pipe_ = nullptr;
  if (status != 0) {
    *error = "ffmpeg failed writing " + path_ + " (exit status " + std::to_string(status) + ")";
    return false;
  }
  return true;
}

}  // namespace pliant::viewer
