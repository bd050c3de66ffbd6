#pragma once

// Screenshots (Ctrl+P) and recordings (Ctrl+R) of the 3-D view. The app
// renders the scene, then hands over where the view lies in the
// framebuffer and how to read pixels back, before the panels are drawn over
// it: pictures and videos show the scene only. Results and failures go to
// the status line and to stdout.

#include <functional>
#include <string>

#include "viewer/recording.h"
#include "viewer/state.h"

namespace pliant::viewer {

// Reads a rectangle (x, y: lower-left corner, framebuffer pixels).
using PixelReader = std::function<Image(int x, int y, int width, int height)>;

class ViewCapture {
 public:
  // Acts on the screenshot and recording requests of `state`, and adds the
  // frames a running recording is due: recordings run in real time, so at
  // `now` seconds (wall clock, or simulated time when headless) the video
  // holds now * kRecordingFps frames, a slow frame repeated as needed.
  // The view is the rectangle (x, y, width, height) of the framebuffer.
  void after_render(ViewerState& state, const PixelReader& read, int x, int y, int width,
                    int height, double now);

  // Starts recording the view to `path` (.mp4 through ffmpeg, or a PNG
  // directory); the size is rounded down to even numbers.
  bool start_recording(ViewerState& state, const std::string& path, int width, int height,
                       double now);
  // Finishes the recording, saying why when `why` is not empty.
  void stop_recording(ViewerState& state, const std::string& why = "");

  bool recording() const { return recorder_.active(); }

 private:
  void screenshot(ViewerState& state, const PixelReader& read, int x, int y, int width, int height);
  void record(ViewerState& state, const PixelReader& read, int x, int y, int width, int height,
              double now);

  VideoRecorder recorder_;
  double start_ = 0;  // `now` when the recording started
};

}  // namespace pliant::viewer
