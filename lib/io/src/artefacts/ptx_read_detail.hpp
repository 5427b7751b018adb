// ptx_read_detail.hpp — the pieces of the PTX reader (ptx_read.cpp) that read one statement:
// numbers, operands and instructions (ptx_operands.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "occ/io/ptx.hpp"
#include "occ/ptx_program.hpp"

namespace occ::io::ptx_detail {

std::string_view trim(std::string_view s);
bool ident_start(char c);  // a letter, '_', '$', '%' or '.'  (PTX ISA "Identifiers")
bool ident_char(char c);   // ident_start or a digit

// A PTX integer literal: decimal, 0x hex, 0b binary, 0 octal, optional leading '-' and a 'U'
// suffix (PTX ISA "Constants"). False on anything else or on overflow of 64 bits.
bool parse_int(std::string_view s, std::int64_t& out);

// One instruction statement (without its ';'): "@!%p1 ld.global.v4.b32 {%r1, %r2}, [%rd1+8]".
// Empty string on success, else the reason (the caller adds the line).
std::string parse_instruction(std::string_view text, const PtxLimits& limits, ptx::Instruction& out);

}  // namespace occ::io::ptx_detail
