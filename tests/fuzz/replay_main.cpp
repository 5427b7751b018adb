// replay_main.cpp — runs a fuzz target over files and directories without libFuzzer, so every
// build (g++, the ASan+UBSan preset) replays the seed corpora and the saved crash reproducers.
// Usage: occ-fuzz-replay-<target> PATH...   (a directory means every file in it)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int run_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", p.string().c_str());
        return 1;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t n = 0;
    int bad = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path p(argv[i]);
        if (std::filesystem::is_directory(p)) {
            std::vector<std::filesystem::path> files;
            for (const auto& e : std::filesystem::directory_iterator(p))
                if (e.is_regular_file()) files.push_back(e.path());
            std::sort(files.begin(), files.end());
            for (const auto& f : files) {
                bad += run_file(f);
                ++n;
            }
        } else {
            bad += run_file(p);
            ++n;
        }
    }
    std::printf("replayed %zu inputs, %d unreadable\n", n, bad);
    return bad == 0 && n > 0 ? 0 : 1;
}
