#pragma once

// Pictures of the view on disk: numbered file names for screenshots, and a
// recorder that turns a stream of frames into an MP4 through ffmpeg (when
// it is on PATH) or into a directory of numbered PNGs.

#include <cstdio>
#include <string>

#include "viewer/offscreen.h"

namespace pliant::viewer {

// Frames per second of a recording (real time).
constexpr int kRecordingFps = 60;

// The first name stem-0001<extension>, stem-0002<extension>, ... that does
// not exist yet in the working directory (extension with its dot, or empty
// for a directory).
std::string numbered_path(const std::string& stem, const std::string& extension);

// True when an executable `ffmpeg` is on PATH.
bool ffmpeg_available();

// Where Ctrl+R records: an MP4 when ffmpeg is there, else a PNG directory.
std::string default_recording_path();

class VideoRecorder {
 public:
  VideoRecorder() = default;
  ~VideoRecorder();
  VideoRecorder(const VideoRecorder&) = delete;
  VideoRecorder& operator=(const VideoRecorder&) = delete;

  // Starts a recording of frames of width x height pixels (both even, as
  // the H.264 encoder wants). A path ending in .mp4 is encoded by ffmpeg;
  // any other path is a directory that receives frame-00000.png, ...
  // False with a sentence in *error when it cannot start.
  bool start(const std::string& path, int width, int height, std::string* error);
  // Appends `copies` copies of a frame of the recording's size (copies
  // keep a slow frame on screen for its real duration). False with a
  // sentence in *error when the frame cannot be written; the recording
  // then stops.
  bool add(const Image& frame, int copies, std::string* error);
  // Finishes the file. False with a sentence in *error when ffmpeg failed.
  bool stop(std::string* error);

  bool active() const { return active_; }
  int width() const { return width_; }
  int height() const { return height_; }
  int frames() const { return frames_; }
  const std::string& path() const { return path_; }

 private:
  bool active_ = false;
  FILE* pipe_ = nullptr;  // ffmpeg's standard input, or null for PNGs
  std::string path_;
  std::string last_png_;  // the last PNG written, copied for repeated frames
  int width_ = 0, height_ = 0, frames_ = 0;
};

}  // namespace pliant::viewer
