// settings.cpp — see settings.hpp.
#include "settings.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include <unistd.h>
#include <nlohmann/json.hpp>

namespace occ::desktop {

namespace fs = std::filesystem;
using json = nlohmann::json;

fs::path settings_path() {
    // XDG Base Directory Specification: $XDG_CONFIG_HOME if set and absolute, else ~/.config.
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg == '/') return fs::path(xdg) / "occ" / "settings.json";
    const char* home = std::getenv("HOME");
    return fs::path(home && *home ? home : ".") / ".config" / "occ" / "settings.json";
}

Settings load_settings(const fs::path& path, std::string* warning) {
    Settings s;
    std::ifstream in(path);
    if (!in) return s;  // first run
    std::stringstream ss;
    ss << in.rdbuf();
    const json j = json::parse(ss.str(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        if (warning) *warning = "settings file " + path.string() + " is corrupt; using defaults";
        return s;
    }
    // Each field on its own: one bad value loses only that value.
    auto get_int = [&](const char* k, int& v, int lo, int hi) {
        if (j.contains("window") && j["window"].is_object() && j["window"].contains(k) && j["window"][k].is_number_integer()) {
            const auto n = j["window"][k].get<long long>();
            if (n >= lo && n <= hi) v = static_cast<int>(n);
        }
    };
    get_int("x", s.x, -100000, 100000);
    get_int("y", s.y, -100000, 100000);
    get_int("width", s.width, 320, 16384);
    get_int("height", s.height, 240, 16384);
    s.size_saved = j.contains("window") && j["window"].is_object() && j["window"].contains("width");
    if (j.contains("scenario") && j["scenario"].is_object()) s.scenario = j["scenario"].dump();
    return s;
}

bool save_settings(const fs::path& path, const Settings& s, std::string* error) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    json j;
    j["window"] = {{"x", s.x}, {"y", s.y}, {"width", s.width}, {"height", s.height}};
    if (!s.scenario.empty()) {
        json sc = json::parse(s.scenario, nullptr, false);
        if (!sc.is_discarded()) j["scenario"] = sc;
    }
    const fs::path tmp = path.parent_path() / (path.filename().string() + ".tmp." + std::to_string(::getpid()));
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << j.dump(2) << '\n';
        out.flush();
        if (!out) {
            if (error) *error = "cannot write " + tmp.string();
            fs::remove(tmp, ec);
            return false;
        }
    }
    fs::rename(tmp, path, ec);  // atomic on POSIX when both are in one directory
    if (ec) {
        if (error) *error = "cannot replace " + path.string() + ": " + ec.message();
        fs::remove(tmp, ec);
        return false;
    }
    return true;
}

}  // namespace occ::desktop
