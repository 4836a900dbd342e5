// Images inlined into a self-contained page: PNG bytes in memory, as a base64 `data:` URI, so an
// HTML report needs no file beside it and no network.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/image.h"

namespace tessera::report {

// RFC 4648 base64 with padding.
std::string base64(std::span<const uint8_t> bytes);

// "data:image/png;base64,..." of the image.
std::string pngDataUri(const Image& image);

}  // namespace tessera::report
