#include "viewer/passive.h"

#include <chrono>

#include "pliant/state.h"
#include "viewer/app.h"

namespace pliant::viewer {

std::unique_ptr<PassiveViewer> PassiveViewer::launch(const Model& model, const Data& data,
                                                     const PassiveOptions& options,
                                                     std::string* error) {
  std::unique_ptr<PassiveViewer> out(new PassiveViewer());
  out->link_ = std::make_shared<PassiveLink>();
  PassiveLink& link = *out->link_;
  link.model = std::make_unique<Model>(model);
  link.latest = std::make_unique<Data>(*link.model);
  copy_data(*link.model, *link.latest, data);
  link.version = 1;
  ViewOptions view;
  view.width = options.width;
  view.height = options.height;
  view.hide_panels = options.hide_panels;
  view.state_log = options.state_log;
  view.passive = out->link_;
  out->thread_ = std::thread([view]() {
    const int code = run_viewer(view);
    PassiveLink& shared = *view.passive;
    std::lock_guard<std::mutex> lock(shared.mutex);
    if (code != 0 && shared.error.empty())
      shared.error = "the viewer stopped (exit code " + std::to_string(code) + ")";
    shared.running = false;
    shared.finished = true;
  });
  // Wait for the window to open or fail.
  while (!link.running && !link.finished) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!link.running) {
    out->thread_.join();
    std::lock_guard<std::mutex> lock(link.mutex);
    *error = link.error;
    return nullptr;
  }
  return out;
}

PassiveViewer::~PassiveViewer() {
  close();
  if (thread_.joinable()) thread_.join();
}

void PassiveViewer::close() {
  std::lock_guard<std::mutex> lock(link_->mutex);
  link_->close_requested = true;
}

void PassiveViewer::sync(const Model& model, Data& data) {
  Perturbation perturbation;
  {
    std::lock_guard<std::mutex> lock(link_->mutex);
    copy_data(*link_->model, *link_->latest, data);
    ++link_->version;
    perturbation = link_->perturbation;
  }
  if (perturbed_body_ >= 0 && perturbed_body_ != perturbation.body) {
    data.xfrc_applied[perturbed_body_].setZero();
    perturbed_body_ = -1;
  }
  if (perturbation.mode != PerturbMode::kNone) {
    apply_perturbation(perturbation, model, data);
    perturbed_body_ = perturbation.body;
  } else if (perturbed_body_ >= 0) {
    data.xfrc_applied[perturbed_body_].setZero();
    perturbed_body_ = -1;
  }
}

double PassiveViewer::shown_time() {
  std::lock_guard<std::mutex> lock(link_->mutex);
  return link_->shown_time;
}

bool PassiveViewer::shows_last_sync() {
  std::lock_guard<std::mutex> lock(link_->mutex);
  return link_->shown == link_->version;
}

long PassiveViewer::frames() {
  std::lock_guard<std::mutex> lock(link_->mutex);
  return link_->frames;
}

}  // namespace pliant::viewer
