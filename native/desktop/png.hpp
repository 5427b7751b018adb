// png.hpp — the desktop app's screenshot writer (8-bit RGB PNG).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace occ::desktop {

// `rgb` holds height rows of width*3 bytes, top row first. Returns false if the file cannot be written.
bool write_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgb);

}  // namespace occ::desktop
