// png.cpp — screenshots through stb_image_write (Debian libstb-dev): deflate-compressed PNG.
#include "png.hpp"

#include <stb/stb_image_write.h>

namespace occ::desktop {

bool write_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgb) {
    if (width <= 0 || height <= 0 || rgb.size() < static_cast<std::size_t>(width) * height * 3) return false;
    // Filter type 0 (None) on every row: the app's flat colours compress smaller that way than
    // with stb's per-row filter choice (about 12 % on the roofline and occupancy tabs), and
    // tests/ui/desktop_smoke.py reads the pixels back with zlib alone.
    stbi_write_force_png_filter = 0;
    return stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3) != 0;
}

}  // namespace occ::desktop
