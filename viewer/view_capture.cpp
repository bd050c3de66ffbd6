#include "viewer/view_capture.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace pliant::viewer {
namespace {

// Status line and stdout: a script driving the viewer sees it too.
void report(ViewerState& state, const std::string& text) {
  std::cout << "pliant view: " << text << std::endl;
  show_message(state, text);
}

std::string absolute(const std::string& path) {
  std::error_code ignored;
  return std::filesystem::absolute(path, ignored).string();
}

// Frames held back by a stall of more than half a second (a minimised
// window, a slow step) are dropped rather than written all at once.
constexpr int kMaxRepeats = 30;

}  // namespace

void ViewCapture::after_render(ViewerState& state, const PixelReader& read, int x, int y, int width,
                               int height, double now) {
  if (state.screenshot_requested) {
    state.screenshot_requested = false;
    screenshot(state, read, x, y, width, height);
  }
  if (state.record_toggle_requested) {
    state.record_toggle_requested = false;
    if (recorder_.active()) {
      stop_recording(state);
    } else {
      start_recording(state, default_recording_path(), width, height, now);
    }
  }
  if (recorder_.active()) record(state, read, x, y, width, height, now);
}

void ViewCapture::screenshot(ViewerState& state, const PixelReader& read, int x, int y, int width,
                             int height) {
  if (width <= 0 || height <= 0) return;
  const std::string path = numbered_path("pliant-screenshot", ".png");
  std::string error;
  if (write_png(path, read(x, y, width, height), &error)) {
    report(state, "wrote " + absolute(path) + " (" + std::to_string(width) + "x" +
                      std::to_string(height) + ")");
  } else {
    report(state, error);
  }
}

bool ViewCapture::start_recording(ViewerState& state, const std::string& path, int width,
                                  int height, double now) {
  std::string error;
  if (!recorder_.start(path, width & ~1, height & ~1, &error)) {
    report(state, error);
    return false;
  }
  start_ = now;
  state.recording_path = absolute(path);
  state.recorded_frames = 0;
  report(state, "recording " + std::to_string(recorder_.width()) + "x" +
                    std::to_string(recorder_.height()) + " to " + state.recording_path +
                    " (Ctrl+R stops)");
  return true;
}

void ViewCapture::stop_recording(ViewerState& state, const std::string& why) {
  if (!recorder_.active()) return;
  std::string error;
  const bool finished = recorder_.stop(&error);
  std::string text = why.empty() ? std::string() : "recording stopped: " + why + "; ";
  if (finished) {
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%.2f s",
                  recorder_.frames() / static_cast<double>(kRecordingFps));
    text += "wrote " + std::to_string(recorder_.frames()) + " frames (" + seconds + " at " +
            std::to_string(kRecordingFps) + " fps) to " + state.recording_path;
  } else {
    text += error;
  }
  report(state, text);
  state.recording_path.clear();
}

void ViewCapture::record(ViewerState& state, const PixelReader& read, int x, int y, int width,
                         int height, double now) {
  const int w = width & ~1, h = height & ~1;
  if (w != recorder_.width() || h != recorder_.height()) {
    // A video has one size: a resized window or toggled panels end it.
    stop_recording(state,
                   "the view changed size to " + std::to_string(w) + "x" + std::to_string(h));
    return;
  }
  const int due =
      static_cast<int>(std::floor((now - start_) * kRecordingFps)) + 1 - recorder_.frames();
  if (due <= 0) return;
  int copies = due;
  if (copies > kMaxRepeats) {
    start_ += static_cast<double>(copies - kMaxRepeats) / kRecordingFps;
    copies = kMaxRepeats;
  }
  std::string error;
  if (!recorder_.add(read(x, y, w, h), copies, &error)) {
    // The recorder has closed itself; what it wrote so far stays.
    report(state, "recording stopped: " + error + "; " + std::to_string(recorder_.frames()) +
                      " frames in " + state.recording_path);
    state.recording_path.clear();
    return;
  }
  state.recorded_frames = recorder_.frames();
}

}  // namespace pliant::viewer
