#include "engine/workspace.h"

#include <memory>

#include "pliant/data.h"

namespace pliant {

WorkspaceHandle::WorkspaceHandle() : workspace_(std::make_unique<Workspace>()) {}
WorkspaceHandle::WorkspaceHandle(const WorkspaceHandle& other)
    : workspace_(std::make_unique<Workspace>(*other.workspace_)) {}
WorkspaceHandle::WorkspaceHandle(WorkspaceHandle&& other) noexcept = default;
// Assigns into the workspace in place: its buffers keep their capacity, so
// a reset Data (reset_data assigns a fresh one) steps without growing them
// again.
WorkspaceHandle& WorkspaceHandle::operator=(const WorkspaceHandle& other) {
  if (this == &other) return *this;
  if (workspace_) {
    *workspace_ = *other.workspace_;
  } else {  // moved from
    workspace_ = std::make_unique<Workspace>(*other.workspace_);
  }
  return *this;
}
WorkspaceHandle& WorkspaceHandle::operator=(WorkspaceHandle&& other) noexcept = default;
WorkspaceHandle::~WorkspaceHandle() = default;

Workspace& workspace(Data& data) { return data.workspace_.get(); }

}  // namespace pliant
