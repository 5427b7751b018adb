// app_state.hpp — everything the app knows: the inputs (one occupancy request, the same struct the
// CLI and JSON API use, plus the Memory, Advisor and Roofline tabs' inputs), view flags, and the
// results derived from the inputs by occ::core. Views draw from here and keep no state of their own.
//
// [SECTION] Inputs and flags: what a scenario stores
// [SECTION] Derived: what occ::core computed from the inputs (recomputed only when they change)
// [SECTION] AppState + the few functions that change it outside widgets
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "occ/advisor.hpp"
#include "occ/banks.hpp"
#include "occ/cluster.hpp"
#include "occ/coalescing.hpp"
#include "occ/io/advice_view.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/ncu.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/io/table.hpp"
#include "occ/occupancy.hpp"
#include "occ/roofline.hpp"
#include "occ/smem_shapes.hpp"
#include "occ/sweep.hpp"
#include "occ/waves.hpp"

namespace occ::ui {

// [SECTION] Inputs and flags

// named: a catalogue GPU (NVIDIA, or AMD when AppState::amd); cc: a bare compute capability; custom:
// edited limits; amd_target: a bare AMD target (gfx942), one CU or WGP.
enum class DeviceKind : int { named = 0, cc = 1, custom = 2, amd_target = 3 };
// The GPU list's vendor filter (picker scratch, not part of the scenario).
enum class Vendor : int { all = 0, nvidia = 1, amd = 2 };
enum class Tab : int { occupancy = 0, memory = 1, advisor = 2, roofline = 3 };

struct ViewFlags {
    bool sm = true;       // the SM picture
    bool plots = true;    // occupancy vs block size / registers / shared memory
    bool heatmap = true;  // block size x registers
    bool hints = true;
};

// The memory view's access: one pattern drawn both as a global access (sectors) and as a shared
// access (banks); its scenario form is a coalesce request (occ::io::read_memory_request). Default:
// a warp reading a column of a 32 x 32 float tile, the classic transpose case (uncoalesced in
// global memory, a 32-way bank conflict in shared memory).
struct MemoryInputs {
    AccessPattern pattern = [] {
        AccessPattern p;
        p.kind = PatternKind::index_2d;
        p.block[0] = 32;
        p.block[1] = 32;
        p.order = IndexOrder::column;
        return p;
    }();
    int warp = 0;  // which warp of the block the pictures show (a ui field, not part of the request)
    // Expression mode (pattern expr, occ/expr.hpp): the kernel's own subscript, evaluated for `warp`
    // of block `block_idx`, with pattern.block as blockDim and pattern's base, offset, lanes and op.
    bool use_expr = false;
    std::string expr = "tile[threadIdx.x][threadIdx.y]", array = "float tile[32][32]", consts;
    std::array<int, 3> block_idx{0, 0, 0};
};

// The Memory tab's shared-memory tile (view_memory_tile.cpp, pattern tile of occ banks): the tile,
// its layout and the accesses made to it; its scenario form (ui.memory_tile) is a banks request of
// pattern tile without the device. Default: a 64 x 64 half tile read by ldmatrix.x4, 8-way.
struct MemoryTileInputs {
    int rows = 64, cols = 64, elem_bytes = 2, access_bytes = 16;
    bool ldmatrix = true, trans = false, row = true, cp_async = false, column = false;
    int matrices = 2;  // 0: .x1, 1: .x2, 2: .x4
    int layout = 0;    // 0 row-major, 1 padded, 2 CuTe Swizzle<B,M,S>, 3 TMA mode, 4 col ^ row, 5 rotation
    int pad = 8;       // 1..1024 (padded); pad 0 is row-major
    int cute[3] = {3, 3, 3};
    int tma = 3;                   // TmaSwizzle 1..6: 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B
    int rotate = 8;                // rotation: elements per rotated chunk
    std::int64_t global_base = 0;  // cp.async: byte address of the global source (its 32-byte alignment counts)
    bool operator==(const MemoryTileInputs&) const = default;
};

// The Advisor tab's inputs: the advise request's own fields (occ::io::fields), on top of the
// scenario's device and launch.
struct AdvisorInputs {
    std::int64_t smem_per_thread = 0;  // dynamic smem that grows with the block, on top of smem_dynamic
    int block_size_limit = 0;          // 0 = the device's maximum
    int target_blocks = 0;             // 0 = the current blocks per SM (the request leaves it out)
    int cluster_size = 2;
    bool non_portable = false;
};

// The Roofline tab's inputs: the roofline request's fields (occ::io::fields), one value per preset op.
struct RooflineInputs {
    std::string gpu;      // "" = follow the scenario's GPU
    std::string compare;  // "" = none
    Precision dtype = Precision::fp16;
    std::int64_t m = 4096, n = 4096, k = 4096;
    std::int64_t seq_len = 4096, head_dim = 128;
    std::int64_t elements = std::int64_t{16} << 20;
    std::int64_t rows = 4096, cols = 4096;
    double measured_ms = 0;  // for the matmul point; 0 = none
};

// The tile's counts and the swizzle solver's answer (occ/smem_shapes.hpp), recounted only when
// the tile's inputs change; `error` when the inputs do not make a usable tile.
struct MemoryTileDerived {
    MemoryTileInputs in;  // the inputs counted
    bool counted = false;
    std::string error;
    TileLayout layout;
    std::vector<TileAccess> accesses;
    std::vector<TileBankTotals> totals;
    SwizzleSolution solution;
};

struct MemoryDerived {
    std::string error;               // the pattern is refused (check_pattern)
    std::string global_unsupported;  // the device is below the global model's range
    std::string banks_unsupported;
    GlobalBlockResult global;
    BankBlockResult banks;
    WarpAccess warp_access;  // the shown warp's lanes
};

// [SECTION] Derived
// What to change next (from occ::core's advisor; see state.cpp).
struct Hints {
    bool valid = false;  // false when no block fits
    int regs_now = 0;
    int regs_max_same = -1;       // the most regs/thread that keep blocks_per_sm
    bool regs_unbounded = false;  // registers never cost a block up to the maximum
    int regs_to_gain = -1;        // the most regs/thread that fit one more block; -1 = none
    int regs_gain_blocks = 0;     // blocks/SM at regs_to_gain
    double regs_gain_occupancy = 0;
    std::string regs_note;            // why no register cut helps
    std::int64_t smem_max_same = -1;  // the most dynamic smem that keeps blocks_per_sm
    std::int64_t smem_to_gain = -1;   // the most dynamic smem that fits one more block; -1 = none
    int smem_gain_blocks = 0;
    int best_block = 0;  // cudaOccupancyMaxPotentialBlockSize's choice (largest on ties)
    double best_occupancy = 0;
    std::vector<int> best_threads;  // every multiple of 32 reaching best_occupancy (from the sweep)
};

// The Advisor tab's numbers (occ::core's advisor, waves and clusters).
struct AdvisorDerived {
    // Either vendor's advice for the scenario and the Advisor's inputs (io::advice_view: what `occ
    // advise` prints); its `answer` is the advise kind's JSON for the same request.
    io::AdviceView view;
    // The pasted compiler log through io::answer_ptxas (what `occ occupancy --ptxas` shows), with
    // the scenario's device and launch; neither a value nor an error when nothing is pasted.
    Result<io::PtxasAnswer> ptxas;
    // The dropped binaries' kernels through io::answer_kernels (what `occ kernels` shows), with the
    // scenario's device and launch; neither a value nor an error when nothing is dropped.
    Result<io::KernelsAnswer> kernels;
};

// One preset operation on the roofline.
struct RooflineOp {
    const char* label;
    Operation op;
    RooflinePoint point;
};

struct RooflineDerived {
    RooflineDevice device;         // the device drawn: the picked one, else the scenario's GPU
    bool follows_scenario = true;  // no device picked
    std::string note;              // why the device drawn is not the scenario's GPU
    bool has_compare = false;
    RooflineDevice compare;
    std::vector<RooflineOp> points, compare_points;
};

// A pasted Nsight Compute report through occ::io::answer_ncu: each kernel's measured values next to
// occ's prediction. Recomputed only when the pasted text changes (it does not depend on the scenario).
struct NcuDerived {
    std::string text;   // the text `answer` was computed from
    std::string error;  // the request was refused
    io::NcuAnswer answer;
};

// [SECTION] Recompute: the parts of `derived`, each computed when a view on screen needs it
// A part is computed only while something shows it and only when its inputs changed: the graphs keep
// their curve while the input they sweep changes, the heatmap while the block size and registers
// change, and the other tabs' parts wait until their tab opens. A part's first run (cold code) waits
// for the next frame once this frame has spent `budget_ms`, and its panel says so; a part that ran
// before is computed in the frame that shows it.
enum class Part : int {
    result,
    sweep_threads,
    sweep_regs,
    sweep_smem,
    heatmap,
    heatmap_limiters,
    hints,
    memory,
    memory_tile,
    advisor,
    roofline,
    ncu
};
inline constexpr int kPartCount = 12;
const char* part_title(Part p);  // "result", "block-size graph", ... (the menu bar's tooltip)

struct PartLog {
    std::uint64_t generation = 0;    // the input generation it is up to date with (0 = never computed)
    std::uint64_t computed_for = 0;  // the generation its last computation was for
    std::string key;                 // the inputs it was computed from (parts that outlive some changes)
    double ms = 0;                   // how long its last computation took
    int runs = 0;                    // how many times it was computed (a kept part adds nothing)
    int waited_frame = 0;            // the last frame in which it waited for a later one (Recompute::frames + 1 then)
};

struct Recompute {
    std::array<PartLog, kPartCount> parts;
    double budget_ms = 2;       // first runs stop once a frame has spent this long (0: one first run a frame)
    double frame_ms = 0;        // spent computing in this frame
    int frame_parts = 0;        // parts computed in this frame
    bool waiting = false;       // a part shown this frame waits for the next one
    int frames = 0;             // frames drawn
    double first_frame_ms = 0;  // recompute_ms() at the end of the first frame
    int settled_frame = 0;      // the frame since which nothing waits (0: a part waits now)
    double settled_at_ms = 0;   // the steady clock at its end, in ms (in the page: since navigation start)
    PartLog& operator[](Part p) { return parts[static_cast<std::size_t>(p)]; }
    const PartLog& operator[](Part p) const { return parts[static_cast<std::size_t>(p)]; }
};

// Occupancy over block (workgroup) size x registers (VGPRs) per thread (lane), filled by the
// vendor's refresh (refresh_heatmap in state.cpp, refresh_amd_heatmap in amd_state.cpp) with the
// target's words and its two launch fields; one view draws it (view_heatmap.cpp).
struct AppState;
struct Heatmap {
    int cols = 0, rows = 0;
    int col_threads = 32;                                // threads per column: the warp (NVIDIA) or wave (AMD) size
    int max_regs = 0;                                    // the rows above are more than a thread may use (shaded)
    std::vector<float> occupancy;                        // cols x rows, in %
    std::vector<std::uint8_t> count;                     // cols x rows, blocks (workgroups) per SM (CU, WGP); 0: none fits
    std::vector<std::uint8_t> limiters;                  // cols x rows, limiter bits (NVIDIA: Part::heatmap_limiters)
    std::string (*limited_by)(unsigned bits) = nullptr;  // "registers and shared memory"
    const char* title = "";                              // "Block size x registers"
    const char* x_label = "";                            // "threads per block"
    const char* y_label = "";                            // "registers per thread"
    const char* regs = "";                               // "registers"
    const char* count_unit = "";                         // "blocks per SM"
    const char* none_fits = "";                          // "no block fits"
    int (*threads)(const AppState&) = nullptr;           // the current inputs (the marker)
    int (*regs_of)(const AppState&) = nullptr;
    void (*use)(AppState&, int threads, int regs) = nullptr;  // a click: set both inputs
};

struct Derived {
    OccupancyResult result;
    // Either vendor's answer as the faces print it (io::occupancy_view): the result panel draws its
    // headline and rows, the page's Markdown/CSV export formats the rows, so both word the numbers
    // like the CLI.
    io::OccupancyView view;
    std::vector<SweepPoint> by_threads, by_regs, by_smem;
    // The same sweeps as plot series (x in the input's unit, y = occupancy in %).
    std::vector<float> threads_x, threads_y, regs_x, regs_y, smem_x, smem_y;
    std::vector<unsigned> threads_lim, regs_lim, smem_lim;  // limiter bits per point (line colour)
    // NVIDIA: blocks per SM for every block size 1..1024 x registers 0..255, as occupancy_grid
    // fills it (the heatmap's cells are sampled from it).
    std::vector<std::uint8_t> grid_full;
    Heatmap heatmap;
    // An AMD scenario's answer (AppState::amd), which `view` shows.
    io::AmdAnswer amd;
    Hints hints;
    WaveResult waves;
    MemoryDerived memory;
    MemoryTileDerived memory_tile;
    AdvisorDerived advisor;
    RooflineDerived roofline;
    NcuDerived ncu;
    Recompute recompute;
};

// [SECTION] AppState
struct AppState {
    // Inputs: exactly what occ::io reads and writes, so a scenario is a CLI --json request.
    io::OccupancyRequest req;
    // An AMD GPU or target is picked: the scenario is `amd_req` (occ/io/amd.hpp), and `req` keeps the
    // NVIDIA inputs for when an NVIDIA GPU is picked again.
    bool amd = false;
    io::AmdRequest amd_req;
    DeviceKind device_kind = DeviceKind::named;
    bool block_3d = false;

    // Picker scratch (not part of the scenario).
    char gpu_search[64] = {};
    Vendor vendor = Vendor::all;

    MemoryInputs memory;
    MemoryTileInputs memory_tile;
    AdvisorInputs advisor;
    RooflineInputs roofline;
    std::string ptxas_log;  // compiler output pasted into the Advisor tab (too large for the link)
    std::string ncu_text;   // an Nsight Compute report pasted or dropped (too large for the link)
    // Binaries dropped on the window (cubins, fatbins, objects, libraries, executables, Triton's
    // .cubin + .json), read when dropped (io::read_binaries; their bytes are not kept). Not part of
    // the scenario.
    std::vector<io::BinaryRead> binaries;
    int binaries_skipped = 0;  // other files dropped with them (Triton's IR stages and group files)
    // Text or files just dropped or pasted: the Advisor tab opens that import section and scrolls to it.
    // It stays revealed until its place in the tab holds for a few frames (the tables above it
    // settle their widths, and so their heights, a frame or two after the tab opens).
    enum class Reveal : int { none, ptxas, ncu, binaries } reveal = Reveal::none;
    float reveal_y = -1;    // where the revealed section's header was drawn last frame
    int reveal_steady = 0;  // frames it has been drawn there

    ViewFlags views;
    Tab tab = Tab::occupancy;
    Tab shown_tab = Tab::occupancy;  // the tab the tab bar shows (a scenario may ask for another)
    bool dark = true;
    float content_scale = 1.0f;
    std::vector<unsigned char> font_ttf;  // optional UI font (the platform may hand one in)
    bool fonts_built = false;
    bool focused_once = false;  // the app window got keyboard focus at start

    std::string notice;  // shown at the top until dismissed
    bool scenario_changed = false;

    std::uint64_t input_generation = 1;  // bumped by every input change (derived.recompute says what is up to date)
    Derived derived;
};

// The defaults a fresh app shows: A100, 256 threads, 32 registers, and every tab's default inputs.
void reset_inputs(AppState& s);
// Call after any input change (widgets do it; tests and scenario loading too).
void mark_changed(AppState& s);
// The tile panel's accesses as tile_access names (occ::parse_tile_access), in the panel's order.
std::vector<std::string> tile_access_names(const MemoryTileInputs& in);
// Brings every part of `derived` up to date with the inputs now (tests, exports). Cheap when nothing changed.
void refresh(AppState& s);
// The start of a frame: the result (the occupancy, its table and waves) when the inputs changed, and
// a fresh frame budget. Views then ask for the other parts with `ready`.
void begin_frame(AppState& s);
// Whether part `p` is up to date, computing it first when the frame's budget allows (always when
// `now`). Views draw a part only when it is ready, and say it is coming otherwise.
bool ready(AppState& s, Part p, bool now = false);
// The time spent computing what is shown for the current inputs: the parts computed for them, over
// however many frames (a part kept from earlier inputs costs nothing).
double recompute_ms(const AppState& s);
// Keeps launch.threads and block[] consistent after either changed.
void sync_block(AppState& s);
// The scenario as an occupancy request of its target's vendor (what `occ occupancy --batch` reads),
// and the name of its GPU or AMD target.
io::json scenario_request(const AppState& s);
std::string scenario_device_name(const AppState& s);
// The Advisor's "Use this block size": the scenario's block becomes `threads` x 1 x 1, and its dynamic
// shared memory (LDS) `smem` where that is not -1.
void use_block_size(AppState& s, int threads, std::int64_t smem);
// Text dropped on the window or pasted outside a text box: an Nsight Compute report when it reads as
// one, else compiler output (ptxas -v). Opens the Advisor tab with the import shown.
void take_dropped_text(AppState& s, std::string text);
// Files dropped on the window, as bytes. When one is a binary (io::looks_binary, or named .cubin,
// .fatbin, .o, .so or .json), the binaries and Triton metadata among them are read for their
// kernels (the other files are skipped) and the Advisor tab opens with them; otherwise the first
// file is text for take_dropped_text.
void take_dropped_files(AppState& s, std::vector<io::NamedBytes> files);

}  // namespace occ::ui
