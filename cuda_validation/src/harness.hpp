// harness.hpp — the host side of occ-validate (compiled by the host compiler, not nvcc).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "occ/device.hpp"
#include "occ/validation/report.hpp"
#include "occ/validation/tiles.hpp"

namespace occv {

struct Options {
    bool quick = false;
    bool list_cases = false;
    bool memory_run = false;  // internal: launch the memory cases once (what ncu profiles)
    bool dry_run = false;     // list the plan, probe CUPTI and the device, measure nothing
    bool use_ncu = true;
    bool use_cupti = true;                                                  // counters through CUPTI's range profiler (counters.hpp)
    bool device = true, occupancy = true, coalescing = true, banks = true;  // --only
    int device_index = 0;
    int spin_us = 0;        // 0 = default (300 quick, 500 full)
    std::string out_dir;    // where <gpu>.json and <gpu>.md go
    std::string ncu;        // path ("" = search)
    std::string cuobjdump;  // path ("" = search)
    std::string self;       // this executable (for ncu and cuobjdump)
    std::string raw_dir;    // --raw DIR: keep ncu's CSV and cuobjdump's SASS there for audit
};

struct Context {
    Options opt;
    cudaDeviceProp prop{};
    occ::Device model_device;     // occ's view of this GPU
    bool named = false;           // model_device came from occ's named-GPU table
    std::string counters_denied;  // set once CUPTI reported CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (the line printed)
    bool device_stuck = false;    // a launch never completed (run_regpool.cpp): no further CUDA call, leave with _Exit
};

// Exit statuses of occ-validate (README "Commands").
inline constexpr int kExitOk = 0, kExitMismatch = 1, kExitUsage = 2, kExitCudaError = 3, kExitNoDevice = 4,
                     kExitStuck = 6;  // the watchdog ended a process stuck in a CUDA call (run_regpool.cpp)

// A readable "file:line: call failed: message" and exit(3) on a CUDA error that ends the run.
void check_cuda(cudaError_t e, const char* what);
// Writes text to DIR/name when DIR is not empty (best effort).
void save_raw(const std::string& dir, const std::string& name, const std::string& text);
// Runs a shell command, returns its exit status and everything it printed (stdout + stderr).
int run_command(const std::string& cmd, std::string& output);
// First executable found: explicit path, $ENV, PATH, CUDA locations. "" when none.
std::string find_tool(const std::string& explicit_path, const char* env, const char* name);

void run_device_constants(Context& ctx, std::vector<occ::validation::Case>& out);
// Appends occupancy cases (and, when CUPTI reads counters, two device cases from the SM's peak rates).
void run_occupancy(Context& ctx, std::vector<occ::validation::Case>& out, occ::validation::json& tools);
// Appends coalescing and bank cases; records in `tools` how they were measured.
void run_memory(Context& ctx, std::vector<occ::validation::Case>& out, occ::validation::json& tools);
// Appends the tile cases (ldmatrix / stmatrix / cp.async of occ's tile layouts, run_tiles.cpp) of the
// selected kinds (banks: ldmatrix/stmatrix, coalescing: cp.async); records their counters in `tools`.
void run_tiles(Context& ctx, std::vector<occ::validation::Case>& out, occ::validation::json& tools);
// Appends the setmaxnreg plan cases (cc 9.0) and the Tensor Memory cases (cc 10.0); on other GPUs
// occ's answers only, marked as needing that GPU. Runs LAST (a plan that does not fit may leave the
// device stuck: run_regpool.cpp's hang guard); `checkpoint` writes the report before that launch.
void run_regpool(Context& ctx, std::vector<occ::validation::Case>& out, occ::validation::json& tools,
                 const std::function<void()>& checkpoint);
// The tile cases of the kinds --only selects (quick or full).
std::vector<occ::validation::TileCase> selected_tile_cases(const Options& o);
// --memory-run: launch every memory case once, print nothing (ncu profiles this process).
int memory_run(const Options& opt);
// --list-cases: case counts, no GPU needed.
int list_cases(const Options& opt);
// --dry-run: every case it would run, the counter plan per chip (CUPTI host API, no GPU), the tools
// found, and whether a CUDA device is there. Exit: 0 device found, 4 no CUDA device, 1 plan problem.
int dry_run(const Options& opt);
// Prints the one line for CUPTI_ERROR_INSUFFICIENT_PRIVILEGES once per process and remembers it.
void note_counters_denied(Context& ctx, const std::string& why);

}  // namespace occv
