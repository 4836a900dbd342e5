// PNG round trips (every colour type the reader converts) and image comparison.
#include <gtest/gtest.h>
#include <png.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "common/image.h"
#include "common/image_compare.h"

namespace tessera {
namespace {

namespace fs = std::filesystem;

class ImageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("tessera-image-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

Image gradient(uint32_t w, uint32_t h) {
  Image img = Image::blank(w, h);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      uint8_t* p = img.pixel(x, y);
      p[0] = uint8_t(x * 7), p[1] = uint8_t(y * 13), p[2] = uint8_t(x ^ y), p[3] = uint8_t(255 - x);
    }
  }
  return img;
}

// Writes a PNG of an arbitrary colour type and depth with libpng directly, so the reader's
// conversions are checked against files it did not write. `rows` holds packed samples.
bool writeRawPng(const std::string& file, uint32_t w, uint32_t h, int depth, int colorType,
                 const std::vector<std::vector<uint8_t>>& rows, const png_color* palette,
                 int paletteSize, const uint8_t* trns, int trnsCount, bool interlace) {
  std::FILE* f = std::fopen(file.c_str(), "wb");
  if (!f) return false;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    std::fclose(f);
    return false;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, w, h, depth, colorType,
               interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  if (palette) png_set_PLTE(png, info, palette, paletteSize);
  if (trns) png_set_tRNS(png, info, trns, trnsCount, nullptr);
  png_write_info(png, info);
  png_set_interlace_handling(png);
  std::vector<png_bytep> pointers;
  for (const auto& r : rows) pointers.push_back(const_cast<png_bytep>(r.data()));
  png_write_image(png, pointers.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  std::fclose(f);
  return true;
}

TEST_F(ImageTest, RoundTripKeepsEveryByteAndLeavesNoTempFile) {
  const Image img = gradient(37, 19);
  writePng(img, path("a.png"));
  EXPECT_FALSE(fs::exists(path("a.png.tmp")));
  const Image back = readPng(path("a.png"));
  EXPECT_EQ(back.width, 37u);
  EXPECT_EQ(back.height, 19u);
  EXPECT_EQ(back, img);
}

TEST_F(ImageTest, ReadsGreyPaletteSixteenBitAndInterlaced) {
  // 8-bit grey, 3x2.
  ASSERT_TRUE(writeRawPng(path("grey.png"), 3, 2, 8, PNG_COLOR_TYPE_GRAY,
                          {{0, 100, 255}, {1, 2, 3}}, nullptr, 0, nullptr, 0, false));
  Image g = readPng(path("grey.png"));
  ASSERT_EQ(g.width, 3u);
  EXPECT_EQ(g.pixel(1, 0)[0], 100);
  EXPECT_EQ(g.pixel(1, 0)[2], 100);
  EXPECT_EQ(g.pixel(1, 0)[3], 255);
  EXPECT_EQ(g.pixel(2, 1)[1], 3);

  // 2-bit palette with a transparent entry.
  const png_color pal[3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
  const uint8_t trns[3] = {255, 128, 0};
  // Pixels 0,1,2,1 packed MSB first at 2 bits each: 00 01 10 01.
  ASSERT_TRUE(writeRawPng(path("pal.png"), 4, 1, 2, PNG_COLOR_TYPE_PALETTE, {{0x19}}, pal, 3, trns,
                          3, false));
  Image p = readPng(path("pal.png"));
  ASSERT_EQ(p.width, 4u);
  const uint8_t want1[4] = {0, 255, 0, 128}, want2[4] = {0, 0, 255, 0};
  EXPECT_TRUE(std::equal(want1, want1 + 4, p.pixel(1, 0)));
  EXPECT_TRUE(std::equal(want2, want2 + 4, p.pixel(2, 0)));

  // 16-bit RGB: v * 257 must read back as v.
  std::vector<uint8_t> row16;
  for (int v : {10, 200, 77, 255, 0, 128}) {
    row16.push_back(uint8_t(v)), row16.push_back(uint8_t(v));
  }
  ASSERT_TRUE(writeRawPng(path("rgb16.png"), 2, 1, 16, PNG_COLOR_TYPE_RGB, {row16}, nullptr, 0,
                          nullptr, 0, false));
  Image c = readPng(path("rgb16.png"));
  const uint8_t want16[8] = {10, 200, 77, 255, 255, 0, 128, 255};
  EXPECT_TRUE(std::equal(want16, want16 + 8, c.rgba.data()));

  // Interlaced grey+alpha, big enough for all Adam7 passes.
  std::vector<std::vector<uint8_t>> rows;
  for (uint32_t y = 0; y < 9; ++y) {
    std::vector<uint8_t> r;
    for (uint32_t x = 0; x < 10; ++x)
      r.push_back(uint8_t(x * 20 + y)), r.push_back(uint8_t(y * 25));
    rows.push_back(r);
  }
  ASSERT_TRUE(writeRawPng(path("ilace.png"), 10, 9, 8, PNG_COLOR_TYPE_GRAY_ALPHA, rows, nullptr, 0,
                          nullptr, 0, true));
  Image il = readPng(path("ilace.png"));
  ASSERT_EQ(il.height, 9u);
  for (uint32_t y = 0; y < 9; ++y) {
    for (uint32_t x = 0; x < 10; ++x) {
      ASSERT_EQ(il.pixel(x, y)[0], x * 20 + y) << x << "," << y;
      ASSERT_EQ(il.pixel(x, y)[3], y * 25) << x << "," << y;
    }
  }
}

TEST_F(ImageTest, MissingCorruptAndTruncatedFilesThrowNamingThePath) {
  EXPECT_THROW(
      {
        try {
          readPng(path("nope.png"));
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("nope.png"), std::string::npos);
          throw;
        }
      },
      Error);
  std::ofstream(path("text.png")) << "this is not a png at all";
  EXPECT_THROW(readPng(path("text.png")), Error);

  writePng(gradient(64, 64), path("full.png"));
  const auto size = fs::file_size(path("full.png"));
  fs::copy_file(path("full.png"), path("cut.png"));
  fs::resize_file(path("cut.png"), size / 2);
  try {
    readPng(path("cut.png"));
    FAIL() << "truncated PNG was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cut.png"), std::string::npos) << e.what();
  }
  // A flipped byte in the image data breaks its CRC.
  std::fstream f(path("full.png"), std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(size / 2));
  f.put('\x5a');
  f.close();
  EXPECT_THROW(readPng(path("full.png")), Error);
}

TEST_F(ImageTest, WriteFailuresThrowAndLeaveNothingBehind) {
  EXPECT_THROW(writePng(gradient(4, 4), path("no/such/dir/x.png")), Error);
  EXPECT_THROW(writePng(Image{}, path("empty.png")), Error);
  Image bad = Image::blank(4, 4);
  bad.rgba.resize(7);
  EXPECT_THROW(writePng(bad, path("bad.png")), Error);
  EXPECT_FALSE(fs::exists(path("bad.png")));
  EXPECT_FALSE(fs::exists(path("bad.png.tmp")));
}

TEST(ImageCompareTest, CountsWithinToleranceAndOrdersWorstPixels) {
  Image a = Image::blank(4, 3), b = Image::blank(4, 3);
  b.pixel(1, 0)[0] = 5;  // diff 5
  b.pixel(3, 2)[2] = 9;  // diff 9
  b.pixel(0, 2)[3] = 5;  // diff 5, later in row-major order than (1,0)
  b.pixel(2, 1)[1] = 2;  // diff 2 (within tolerance 2)
  const CompareResult r = compareImages(a, b, 2, 3);
  EXPECT_EQ(r.pixels, 12u);
  EXPECT_EQ(r.within, 9u);
  EXPECT_EQ(r.maxDiff, 9);
  EXPECT_DOUBLE_EQ(r.fractionWithin, 9.0 / 12.0);
  ASSERT_EQ(r.worst.size(), 3u);
  EXPECT_EQ(r.worst[0].x, 3u);
  EXPECT_EQ(r.worst[0].y, 2u);
  EXPECT_EQ(r.worst[0].b[2], 9);
  EXPECT_EQ(r.worst[1].x, 1u);  // tie at 5: earlier position first
  EXPECT_EQ(r.worst[2].y, 2u);
  EXPECT_NE(r.summary().find("max channel difference 9"), std::string::npos) << r.summary();
  EXPECT_NE(r.summary().find("(3,2)"), std::string::npos);

  const CompareResult same = compareImages(a, a, 0);
  EXPECT_EQ(same.within, 12u);
  EXPECT_TRUE(same.worst.empty());
  EXPECT_THROW(compareImages(a, Image::blank(3, 4), 0), Error);
}

TEST(ImageCompareTest, DiffImageMarksOnlyDifferingPixelsRed) {
  Image a = Image::blank(2, 1), b = Image::blank(2, 1);
  a.pixel(0, 0)[0] = a.pixel(0, 0)[1] = a.pixel(0, 0)[2] = 240;
  b.rgba = a.rgba;
  b.pixel(1, 0)[1] = 1;
  const Image d = diffImage(a, b);
  EXPECT_LT(d.pixel(0, 0)[0], 100);  // equal: dim grey
  EXPECT_EQ(d.pixel(0, 0)[0], d.pixel(0, 0)[1]);
  EXPECT_GE(d.pixel(1, 0)[0], 128);  // differing, even by 1: red
  EXPECT_EQ(d.pixel(1, 0)[1], 0);
  EXPECT_THROW(diffImage(a, Image::blank(1, 1)), Error);
}

}  // namespace
}  // namespace tessera
