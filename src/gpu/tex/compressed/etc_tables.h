// Texture unit (tex/): the constant tables of ETC1/ETC2 and EAC (OpenGL ES 3.0 Annex C), shared
// by the block decoder (etc.cpp) and the encoder (etc_encode.cpp).
#pragma once
#include <array>
#include <cstdint>

namespace tessera::gpu::tex::etc {

// Table C.12: intensity modifiers (a, b) of the individual and differential modes; pixel index
// bits (msb, lsb) 00 -> +a, 01 -> +b, 10 -> -a, 11 -> -b.
inline constexpr std::array<std::array<int32_t, 2>, 8> kIntensity = {
    {{2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183}}};
// Table C.14: the distance of the T and H modes.
inline constexpr std::array<int32_t, 8> kDistance = {3, 6, 11, 16, 23, 32, 41, 64};
// Table C.18: EAC modifiers, eight per table.
inline constexpr std::array<std::array<int32_t, 8>, 16> kEacModifiers = {{
    {-3, -6, -9, -15, 2, 5, 8, 14},
    {-3, -7, -10, -13, 2, 6, 9, 12},
    {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12},
    {-3, -6, -8, -12, 2, 5, 7, 11},
    {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10},
    {-3, -5, -8, -11, 2, 4, 7, 10},
    {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},
    {-2, -4, -8, -10, 1, 3, 7, 9},
    {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},
    {-1, -2, -3, -10, 0, 1, 2, 9},
    {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8},
}};

}  // namespace tessera::gpu::tex::etc
