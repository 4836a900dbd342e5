// PNG encode/decode through libpng's low-level interface. libpng reports errors by longjmp, so
// each libpng session lives in one small function whose frame holds only trivially destructible
// locals: a longjmp out of it skips no destructor.
#include "common/image.h"

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "common/error.h"

namespace tessera {
namespace {

constexpr size_t kMessageSize = 256;
constexpr uint32_t kMaxDimension = 16384;

struct PngSession {
  char message[kMessageSize] = {};
};

[[noreturn]] void onPngError(png_structp png, png_const_charp msg) {
  auto* session = static_cast<PngSession*>(png_get_error_ptr(png));
  std::snprintf(session->message, kMessageSize, "%s", msg ? msg : "unknown libpng error");
  png_longjmp(png, 1);
}

void onPngWarning(png_structp, png_const_charp) {
}  // warnings (e.g. bad CRC in ancillary chunk) are not fatal

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

void onPngWrite(png_structp png, png_bytep data, size_t size) {
  auto* bytes = static_cast<std::vector<uint8_t>*>(png_get_io_ptr(png));
  bytes->insert(bytes->end(), data, data + size);
}

void onPngFlush(png_structp) {}

// Encodes into `file`, or into `bytes` when it is not null. Returns false with session.message
// set on failure.
bool encode(std::FILE* file, std::vector<uint8_t>* bytes, const Image& image, PngSession& session) {
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &session, onPngError, onPngWarning);
  if (!png) {
    std::snprintf(session.message, kMessageSize, "out of memory");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    if (!info) std::snprintf(session.message, kMessageSize, "out of memory");
    png_destroy_write_struct(&png, &info);
    return false;
  }
  if (bytes)
    png_set_write_fn(png, bytes, onPngWrite, onPngFlush);
  else
    png_init_io(png, file);
  png_set_IHDR(png, info, image.width, image.height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t y = 0; y < image.height; ++y) png_write_row(png, image.pixel(0, y));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

// Decodes into `out`, converting every colour type and depth to RGBA8.
bool decode(std::FILE* file, Image& out, PngSession& session) {
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &session, onPngError, onPngWarning);
  if (!png) {
    std::snprintf(session.message, kMessageSize, "out of memory");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    if (!info) std::snprintf(session.message, kMessageSize, "out of memory");
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_init_io(png, file);
  // Far larger than any frame Tessera renders; stops a corrupt header from asking for terabytes.
  png_set_user_limits(png, kMaxDimension, kMaxDimension);
  png_read_info(png, info);
  const png_byte colorType = png_get_color_type(png, info);
  png_set_expand(png);    // palette -> RGB, grey < 8 bits -> 8 bits, tRNS -> alpha
  png_set_scale_16(png);  // 16 -> 8 bits, rounded
  if (colorType == PNG_COLOR_TYPE_GRAY || colorType == PNG_COLOR_TYPE_GRAY_ALPHA) {
    png_set_gray_to_rgb(png);
  }
  if (!(colorType & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) {
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
  }
  const int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != size_t{png_get_image_width(png, info)} * 4) {
    png_error(png, "unexpected row size after conversion to RGBA8");
  }
  out.width = png_get_image_width(png, info);
  out.height = png_get_image_height(png, info);
  out.rgba.assign(size_t{out.width} * out.height * 4, 0);
  // Interlaced images are read pass by pass into the same rows; libpng merges each pass.
  for (int pass = 0; pass < passes; ++pass) {
    for (uint32_t y = 0; y < out.height; ++y) png_read_row(png, out.pixel(0, y), nullptr);
  }
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

}  // namespace

bool consistent(const Image& image) {
  return image.width != 0 && image.height != 0 &&
         image.rgba.size() == size_t{image.width} * image.height * 4;
}

std::vector<uint8_t> encodePng(const Image& image) {
  if (!consistent(image))
    throw Error("cannot encode a " + std::to_string(image.width) + "x" +
                std::to_string(image.height) + " image as PNG: empty or inconsistent size");
  std::vector<uint8_t> bytes;
  PngSession session;
  if (!encode(nullptr, &bytes, image, session))
    throw Error(std::string("cannot encode PNG: ") + session.message);
  return bytes;
}

void writePng(const Image& image, const std::string& path) {
  if (!consistent(image)) {
    throw Error("cannot write PNG '" + path + "': image is empty or its size is inconsistent");
  }
  const std::string tmp = path + ".tmp";
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(tmp.c_str(), "wb"));
  if (!file) {
    throw Error("cannot write PNG '" + path + "': " + std::strerror(errno));
  }
  PngSession session;
  bool ok = encode(file.get(), nullptr, image, session);
  if (ok && std::fflush(file.get()) != 0) {
    std::snprintf(session.message, kMessageSize, "%s", std::strerror(errno));
    ok = false;
  }
  std::FILE* raw = file.release();
  if (std::fclose(raw) != 0 && ok) {
    std::snprintf(session.message, kMessageSize, "%s", std::strerror(errno));
    ok = false;
  }
  std::error_code ec;
  if (ok) {
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
      std::snprintf(session.message, kMessageSize, "%s", ec.message().c_str());
      ok = false;
    }
  }
  if (!ok) {
    std::filesystem::remove(tmp, ec);
    throw Error("cannot write PNG '" + path + "': " + session.message);
  }
}

Image readPng(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    throw Error("cannot read PNG '" + path + "': " + std::strerror(errno));
  }
  png_byte signature[8] = {};
  if (std::fread(signature, 1, sizeof signature, file.get()) != sizeof signature ||
      png_sig_cmp(signature, 0, sizeof signature) != 0) {
    throw Error("cannot read PNG '" + path + "': not a PNG file");
  }
  std::rewind(file.get());
  Image image;
  PngSession session;
  if (!decode(file.get(), image, session)) {
    throw Error("cannot read PNG '" + path + "': corrupt or truncated (" + session.message + ")");
  }
  return image;
}

}  // namespace tessera
