// occ/ptx_program.hpp — a kernel's PTX as plain data: what lib/io's reader (occ/io/ptx.hpp) fills
// and what the warp interpreter (occ/warp_interp.hpp) runs.
//
// [SECTION] Operands: register, immediate, special register, symbol, address, vector
// [SECTION] Instructions: guard, opcode split into base and modifiers, .loc source position
// [SECTION] Declarations: params, registers, .shared variables, entries, the module
// [SECTION] Helpers: type widths, vector counts, state spaces, instruction classes
//
// Names follow the PTX ISA document (sections "Instruction Statements", "Operand Types",
// "Debugging Directives"). Nothing here reads text; everything is a value.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occ::ptx {

// [SECTION] Operands
enum class OperandKind : std::uint8_t {
    reg,      // %r1, %rd4, %p1 (also a negated predicate !%p1: negated = true)
    imm,      // 4, -1, 0x10, 0f3F800000 (float bits), 0d... (double bits)
    special,  // %tid.x, %ntid.y, %ctaid.z, %laneid, %warpid, ...
    symbol,   // a variable or label name: tile, $L__BB0_2, copy_f32_param_0
    address,  // [base], [base+off], [off]; base is a register or a symbol (or empty)
    vector,   // {%r1, %r2, %r3, %r4}; "_" is the sink
};

struct Operand {
    OperandKind kind = OperandKind::reg;
    std::string name;            // reg / special / symbol; address: its base ("" when absolute)
    std::int64_t value = 0;      // imm: its bits; address: the byte offset
    bool negated = false;        // !%p
    bool base_is_reg = false;    // address: the base is a register (else a symbol or none)
    bool has_tensor = false;     // address with coordinates: [tensorMap, {c0, c1}] (TMA)
    bool float_imm = false;      // imm written as 0f/0d bits or a decimal with a point
    std::vector<Operand> elems;  // vector elements (regs, imms or "_" as a symbol)
};

// [SECTION] Instructions
struct SourceLoc {
    int file = 0;  // index into Program::files (0 = none)
    int line = 0;
    int column = 0;
    bool operator==(const SourceLoc&) const = default;
};

struct Instruction {
    std::string opcode;             // as written: "ld.global.nc.v4.f32"
    std::string base;               // "ld"
    std::vector<std::string> mods;  // {"global", "nc", "v4", "f32"} (":" kept: "shared::cta")
    std::vector<Operand> operands;
    std::string guard;           // "%p1" for "@%p1", "" when unguarded
    bool guard_negated = false;  // "@!%p1"
    int ptx_line = 0;            // 1-based line in the PTX text
    SourceLoc loc;               // the last .loc before it (the innermost, inlined, position)
    SourceLoc outer;             // the outermost caller when .loc had inlined_at; else == loc

    bool has_mod(std::string_view m) const;
};

// [SECTION] Declarations
struct Param {
    std::string name;
    std::string type;      // "u64", "b32", "b8" (for an array: the element)
    int size = 0;          // bytes (element size x array count)
    int align = 0;         // .align, 0 = natural
    bool pointer = false;  // Triton's ".ptr" attribute
};

struct RegDecl {
    std::string type;  // "b32", "pred", ...
    std::string name;  // "%r" for %r<12>, else the full name
    int count = 0;     // %r<12> -> 12 (names %r0 .. %r11); 0 = one register called `name`
};

struct SharedVar {
    std::string name;
    std::string type;        // element type: "b8", "f32"
    int align = 0;           // .align, 0 = the element size
    std::int64_t bytes = 0;  // element size x every dimension; 0 for an unsized extern array
    bool is_extern = false;  // .extern .shared ... name[] : dynamic shared memory
};

struct Entry {
    std::string name;
    bool is_kernel = true;  // .entry (a .func with a body is read too, is_kernel = false)
    bool visible = false;
    std::vector<Param> params;
    std::vector<RegDecl> regs;
    std::vector<SharedVar> shared;  // declared inside the body
    std::vector<Instruction> instructions;
    std::vector<std::pair<std::string, int>> labels;  // name -> index of the next instruction
    int maxntid[3] = {0, 0, 0};                       // .maxntid / .reqntid when present
    int decl_line = 0;

    // Index of the instruction a label names, or -1.
    int label_target(std::string_view label) const;
    const Param* find_param(std::string_view name) const;
};

struct FileEntry {
    int index = 0;
    std::string path;
};

struct Program {
    std::string version;  // "9.0"
    std::string target;   // "sm_80" (first word of .target)
    int address_size = 64;
    std::vector<FileEntry> files;
    std::vector<SharedVar> shared;  // module scope
    std::vector<Entry> entries;
    std::vector<std::string> diagnostics;  // "line 12: skipped directive .global"

    const Entry* find_entry(std::string_view name) const;
    // The path of .file `index`, or "" when it was not declared.
    std::string file_path(int index) const;
};

// [SECTION] Helpers
// Bytes of a PTX fundamental type name without the dot ("u32" -> 4, "pred" -> 0, "b128" -> 16),
// or 0 when the name is not a type.
int type_bytes(std::string_view t);
bool is_type_name(std::string_view t);
bool is_signed_type(std::string_view t);
bool is_float_type(std::string_view t);

// The vector count from .v2/.v4/.v8 modifiers (1 when none).
int vector_count(const Instruction& in);

// The last modifier that is a type ("ld.global.v4.f32" -> "f32"), or "" when none.
std::string_view last_type(const Instruction& in);

enum class Space : std::uint8_t { none, global, shared, local, param, constant, generic };
const char* space_name(Space s);
// The state space an ld/st/atom/red/cp names: "shared::cta" and "shared::cluster" are shared.
Space space_of(const Instruction& in);

// What kind of instruction this is, for listing and for the interpreter's dispatch.
enum class InstrClass : std::uint8_t {
    alu,          // integer / float arithmetic, logic, moves, conversions
    memory,       // ld / st / atom / red (any space)
    async_copy,   // cp.async (non-bulk): both sides per lane
    bulk_copy,    // cp.async.bulk (one thread, a byte count): listed, not costed
    tensor_copy,  // cp.async.bulk.tensor / cp.reduce.async.bulk.tensor (TMA descriptor)
    matrix,       // ldmatrix / stmatrix (shared side)
    mma,          // mma / wgmma / tcgen05 (descriptor or register operands)
    barrier,      // bar / barrier / mbarrier / fence / membar / cp.async.wait_* / commit
    control,      // bra / ret / exit / call / brx
    other,        // anything else (shfl, vote, tex, ...)
};
const char* instr_class_name(InstrClass c);
InstrClass classify(const Instruction& in);

// True for a name like %tid.x, %ntid, %laneid that PTX defines as a special register.
bool is_special_register(std::string_view name);

}  // namespace occ::ptx
