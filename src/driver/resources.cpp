#include "driver/resources.h"

#include "common/error.h"
#include "driver/options.h"

namespace tessera::driver {

Resource& ResourceTable::get(pipe::ResourceId id, const char* what) {
  if (id == pipe::kNoResource || id > resources_.size())
    throw Error(std::string(what) + ": resource " + std::to_string(id) + " does not exist");
  return resources_[id - 1];
}

Resource& ResourceTable::get(pipe::ResourceId id, ResourceKind kind, const char* what) {
  Resource& r = get(id, what);
  if (r.kind != kind)
    throw Error(std::string(what) + ": resource " + std::to_string(id) + " has the wrong kind");
  return r;
}

void ResourceTable::releaseAll() {
  for (Resource& r : resources_) {
    for (gpu::GpuAddress bo :
         {r.view ? gpu::GpuAddress{0} : r.address, r.positionOnly, r.sampleAddress})
      if (bo != 0) memory_.release(bo);
    r = Resource{};
    r.kind = ResourceKind::Destroyed;
  }
}

RenderMode parseRenderMode(std::string_view name) {
  for (RenderMode m :
       {RenderMode::Sysmem, RenderMode::Naive, RenderMode::Binning, RenderMode::Auto})
    if (renderModeName(m) == name) return m;
  throw Error("unknown mode '" + std::string(name) + "'; modes: sysmem, naive, binning, auto");
}

}  // namespace tessera::driver
