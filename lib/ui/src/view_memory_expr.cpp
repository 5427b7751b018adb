// view_memory_expr.cpp — the Memory tab's Expression mode: the access typed as the kernel writes it
// (pattern expr, occ/expr.hpp). state.cpp's refresh_memory evaluates it for the chosen warp; the
// pictures of view_memory.cpp draw that warp.
#include <algorithm>
#include <string>

#include "occ/io/schema.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// A one-line box over a std::string, the panel's full width, with its label above it.
bool text_box(const char* label, const char* id, const char* hint, const char* tip, std::string& text) {
    ImGui::TextUnformatted(label);
    item_tooltip(tip);
    ImGui::SetNextItemWidth(-1.0f);
    return input_text_hint(id, hint, text);
}

struct Example {
    const char* name;
    const char* expr;
    const char* array;
    const char* consts;
    int block[3];
};
// The transpose tile (NVIDIA blog "An Efficient Matrix Transpose in CUDA C/C++"), its two fixes,
// and a strided global load.
constexpr Example kExamples[] = {
    {"Column of tile[32][32]", "tile[threadIdx.x][threadIdx.y]", "float tile[32][32]", "", {32, 32, 1}},
    {"Padded tile[32][33]", "tile[threadIdx.x][threadIdx.y]", "float tile[32][33]", "", {32, 32, 1}},
    {"XOR-swizzled column", "tile[threadIdx.x][threadIdx.y ^ threadIdx.x]", "float tile[32][32]", "", {32, 32, 1}},
    {"Strided global load", "A[(blockIdx.x * blockDim.x + threadIdx.x) * S]", "const float* A", "S = 2", {256, 1, 1}},
};

}  // namespace

void memory_expr_inputs(AppState& s) {
    MemoryInputs& m = s.memory;
    AccessPattern& p = m.pattern;
    bool changed = false;
    changed |= text_box("Index expression", "##expr", "tile[threadIdx.y][threadIdx.x]",
                        "What the kernel writes: A[i] or tile[i][j] (one subscript per dimension), with CUDA C++'s integer rules "
                        "(threadIdx etc. are unsigned int; / and % truncate toward zero).",
                        m.expr);
    changed |= text_box("Array declaration", "##array", "float tile[32][33]",
                        "The element type gives the bytes each lane moves; [] or * = no bound. Empty: a 1-D float array.", m.array);
    changed |= text_box("Named values", "##consts", "N=1024, LD=N+1",
                        "NAME=EXPR separated by commas; each may use threadIdx, blockIdx, ... and the names before it.", m.consts);

    if (ImGui::BeginTable("mem_expr_inputs", 2, ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, em(8.5f));
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        input_row("Block", "blockDim.x, y, z: lanes are numbered threadIdx.x fastest.");
        int b3[3] = {p.block[0], p.block[1], p.block[2]};
        if (ImGui::InputInt3("##eblock", b3)) {
            const int most = static_cast<int>(io::fields::mem_block.hi);
            p.block[0] = std::clamp(b3[0], 1, most);
            p.block[1] = std::clamp(b3[1], 1, std::max(1, most / p.block[0]));
            p.block[2] = std::clamp(b3[2], 1, std::max(1, most / (p.block[0] * p.block[1])));
            changed = true;
        }
        input_row("Block index", "blockIdx of the block evaluated (gridDim is taken as blockIdx + 1).");
        int bi[3] = {m.block_idx[0], m.block_idx[1], m.block_idx[2]};
        if (ImGui::InputInt3("##eblock_idx", bi)) {
            for (std::size_t i = 0; i < 3; ++i) m.block_idx[i] = std::clamp(bi[i], 0, i == 0 ? 1 << 30 : 65534);
            changed = true;
        }
        input_row("Warp", "The warp of the block the expression is evaluated for (threads 32*warp ..).");
        int w = m.warp;
        if (ImGui::SliderInt("##ewarp", &w, 0, std::max(0, p.warps() - 1), "warp %d")) {
            m.warp = w;
            changed = true;
        }
        input_row("Examples", "Fill the boxes with a known case.");
        int pick = -1;
        std::string names;
        for (const Example& e : kExamples) names += std::string(e.name) + '\0';
        ImGui::SetNextItemWidth(-1.0f);
        if (ImGui::Combo("##eexample", &pick, names.c_str())) {
            const Example& e = kExamples[static_cast<std::size_t>(pick)];
            m.expr = e.expr;
            m.array = e.array;
            m.consts = e.consts;
            std::copy(std::begin(e.block), std::end(e.block), p.block);
            m.warp = 0;
            changed = true;
        }
        ImGui::EndTable();
    }
    if (changed) mark_changed(s);
}

}  // namespace occ::ui
