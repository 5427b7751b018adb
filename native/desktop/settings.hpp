// settings.hpp — what the desktop app remembers between runs: the last scenario and the window
// geometry, in $XDG_CONFIG_HOME/occ/settings.json (or ~/.config/occ/settings.json).
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace occ::desktop {

struct Settings {
    int x = -1, y = -1;  // window position; -1 = let the window manager choose
    int width = 1440, height = 900;
    bool size_saved = false;  // width/height came from the file (already in screen units)
    std::string scenario;     // occ::ui::App::scenario_json(); empty = defaults
};

std::filesystem::path settings_path();
// Missing or unreadable file, or corrupt JSON: the defaults, with a message in `warning`.
Settings load_settings(const std::filesystem::path& path, std::string* warning);
// Written to a temporary file in the same directory, then renamed over the old one, so a crash
// never leaves a half-written file.
bool save_settings(const std::filesystem::path& path, const Settings& s, std::string* error);

}  // namespace occ::desktop
