#pragma once

// A viewer window following a Data that another thread steps (Python's
// pliant.viewer.launch_passive, as mujoco.viewer.launch_passive): the
// window runs on a thread of its own with its own copies of the model and
// data. sync() hands it the caller's state and hands the caller the force of
// a mouse perturbation; the caller's model and data are touched only there.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "pliant/data.h"
#include "viewer/perturbation.h"

namespace pliant::viewer {

// What the window thread and the caller share, under `mutex`.
struct PassiveLink {
  std::mutex mutex;
  std::unique_ptr<Model> model;  // the window's copy, taken at launch
  std::unique_ptr<Data> latest;  // the state of the last sync
  std::uint64_t version = 0;     // counts syncs
  Perturbation perturbation;     // the window's mouse perturbation
  bool close_requested = false;
  std::string error;        // why the window could not open
  double shown_time = -1;   // data.time of the state last drawn
  std::uint64_t shown = 0;  // version of the state last drawn
  long frames = 0;          // frames drawn
  std::atomic<bool> running{false};
  std::atomic<bool> finished{false};  // the window thread has returned
};

struct PassiveOptions {
  int width = 1280, height = 800;
  bool hide_panels = false;
  std::string state_log;  // one JSON line per frame (ViewOptions::state_log)
};

class PassiveViewer {
 public:
  // Opens the window (waits until it shows or fails); nullptr with the
  // reason in *error when it cannot (no display, no OpenGL 3.3).
  static std::unique_ptr<PassiveViewer> launch(const Model& model, const Data& data,
                                               const PassiveOptions& options, std::string* error);
  ~PassiveViewer();  // closes the window and joins its thread
  PassiveViewer(const PassiveViewer&) = delete;
  PassiveViewer& operator=(const PassiveViewer&) = delete;

  // The window shows a copy of `data`; a body the user pulls with the mouse
  // gets its spring force in data.xfrc_applied (zeroed when released).
  void sync(const Model& model, Data& data);
  // False once the user closed the window or close() was called.
  bool is_running() const { return link_->running.load(); }
  void close();
  // data.time of the state the window drew last (-1 before the first), and
  // whether that was the state of the last sync.
  double shown_time();
  bool shows_last_sync();
  long frames();

 private:
  PassiveViewer() = default;
  std::shared_ptr<PassiveLink> link_;
  std::thread thread_;
  int perturbed_body_ = -1;  // the body whose xfrc_applied the last sync wrote
};

}  // namespace pliant::viewer
