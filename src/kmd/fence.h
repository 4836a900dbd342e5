// A fence on a context's timestamp: signalled when that timestamp retires (or when the context
// is lost, after which nothing of it will ever run). The object behind EGL_KHR_fence_sync: it
// keeps its context's state alive, so it outlives destroyContext(); not its kmd::Device.
#pragma once
#include <chrono>
#include <memory>

#include "kmd/types.h"

namespace tessera::kmd {

class Device;
struct ContextState;

class Fence final {
 public:
  Fence() = default;  // an empty fence: valid() is false, every other call throws tessera::Error

  bool valid() const { return device_ != nullptr; }
  ContextId context() const;
  Timestamp timestamp() const { return timestamp_; }

  // True once the timestamp retired or the context was lost.
  bool signaled() const;
  WaitResult wait(std::chrono::nanoseconds timeout) const;

 private:
  friend class Device;
  Fence(Device* device, std::shared_ptr<const ContextState> context, Timestamp ts)
      : device_(device), context_(std::move(context)), timestamp_(ts) {}

  Device* device_ = nullptr;
  std::shared_ptr<const ContextState> context_;
  Timestamp timestamp_ = 0;
};

}  // namespace tessera::kmd
