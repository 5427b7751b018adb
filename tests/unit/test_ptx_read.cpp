// test_ptx_read.cpp — the PTX reader (occ/io/ptx.hpp) on nvcc 13 output (tests/fixtures/ptx/
// kernels.cu compiled for sm_80 and sm_90), on Triton-style text, on syntax corners, and on hostile
// or truncated text (an error naming the line, never a crash).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "occ/io/ptx.hpp"

namespace {

std::string read_fixture(const std::string& name) {
    std::ifstream f(std::string(OCC_SOURCE_DIR) + "/tests/fixtures/ptx/" + name, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

const occ::ptx::Instruction* find_op(const occ::ptx::Entry& e, const std::string& opcode) {
    for (const auto& in : e.instructions)
        if (in.opcode == opcode) return &in;
    return nullptr;
}

}  // namespace

TEST_CASE("ptx: nvcc 13 module, entries, params, registers, labels") {
    const auto r = occ::io::read_ptx(read_fixture("kernels_sm80.ptx"));
    REQUIRE_MESSAGE(r, r.error);
    CHECK(r->version == "9.0");
    CHECK(r->target == "sm_80");
    CHECK(r->address_size == 64);
    CHECK(r->entries.size() == 9);  // the nine kernels of kernels.cu
    CHECK(r->diagnostics.empty());
    REQUIRE(r->files.size() == 3);  // kernels.cu, cuda_pipeline.h and its helper header
    CHECK(r->file_path(1).find("kernels.cu") != std::string::npos);

    const auto* e = r->find_entry("copy_f32");
    REQUIRE(e);
    CHECK(e->is_kernel);
    CHECK(e->visible);
    REQUIRE(e->params.size() == 3);
    CHECK(e->params[0].name == "copy_f32_param_0");
    CHECK(e->params[0].size == 8);
    CHECK(e->params[2].type == "u32");
    CHECK(e->params[2].size == 4);
    REQUIRE(e->regs.size() == 4);  // %p<2>, %f<2>, %r<6>, %rd<8>
    CHECK(e->regs[2].name == "%r");
    CHECK(e->regs[2].count == 6);
    CHECK(e->regs[0].type == "pred");
    // "$L__BB0_2:" comes before the 17th instruction (ret).
    CHECK(e->label_target("$L__BB0_2") == 16);
    CHECK(e->instructions[16].opcode == "ret");

    const auto* ld = find_op(*e, "ld.global.nc.f32");
    REQUIRE(ld);
    CHECK(ld->base == "ld");
    CHECK(ld->mods == std::vector<std::string>{"global", "nc", "f32"});
    REQUIRE(ld->operands.size() == 2);
    CHECK(ld->operands[0].kind == occ::ptx::OperandKind::reg);
    CHECK(ld->operands[1].kind == occ::ptx::OperandKind::address);
    CHECK(ld->operands[1].name == "%rd5");
    CHECK(ld->operands[1].base_is_reg);
    CHECK(ld->loc.file == 1);
    CHECK(ld->loc.line == 8);  // "if (i < n) out[i] = in[i];"
    CHECK(occ::ptx::space_of(*ld) == occ::ptx::Space::global);

    const auto* bra = find_op(*e, "bra");
    REQUIRE(bra);
    CHECK(bra->guard == "%p1");
    CHECK_FALSE(bra->guard_negated);
    CHECK(bra->operands[0].kind == occ::ptx::OperandKind::symbol);

    const auto* mov = find_op(*e, "mov.u32");
    REQUIRE(mov);
    CHECK(mov->operands[1].kind == occ::ptx::OperandKind::special);
    CHECK(mov->operands[1].name == "%ctaid.x");
}

TEST_CASE("ptx: .shared variables, vectors and .loc inlined_at") {
    const auto r = occ::io::read_ptx(read_fixture("kernels_sm90.ptx"));
    REQUIRE_MESSAGE(r, r.error);
    CHECK(r->target == "sm_90");
    const auto* naive = r->find_entry("transpose_naive");
    const auto* padded = r->find_entry("transpose_padded");
    REQUIRE((naive && padded));
    REQUIRE(naive->shared.size() == 1);
    CHECK(naive->shared[0].name == "_ZZ15transpose_naiveE4tile");
    CHECK(naive->shared[0].align == 4);
    CHECK(naive->shared[0].bytes == 32 * 32 * 4);
    CHECK(padded->shared[0].bytes == 32 * 33 * 4);  // 4224: one float of padding per row

    const auto* f4 = r->find_entry("copy_f4");
    REQUIRE(f4);
    const auto* v4 = find_op(*f4, "ld.global.v4.u32");
    REQUIRE(v4);
    CHECK(occ::ptx::vector_count(*v4) == 4);
    REQUIRE(v4->operands[0].kind == occ::ptx::OperandKind::vector);
    CHECK(v4->operands[0].elems.size() == 4);
    CHECK(v4->operands[0].elems[3].name == "%r8");

    // load_twice is inlined: its line (63) is the innermost position, the call (66) the outer one.
    const auto* inl = r->find_entry("inlined_load");
    REQUIRE(inl);
    const auto* ld = find_op(*inl, "ld.global.f32");
    REQUIRE(ld);
    CHECK(ld->loc.line == 63);
    CHECK(ld->outer.line == 66);
    // cp.async sits three headers deep (kernels.cu:73 -> cuda_pipeline.h -> helpers): the chain of
    // inlined_at tails leads back to kernels.cu line 73.
    const auto* ac = r->find_entry("async_copy");
    REQUIRE(ac);
    const auto* cp = find_op(*ac, "cp.async.cg.shared.global");
    REQUIRE(cp);
    CHECK(cp->loc.file == 3);
    CHECK(cp->loc.line == 203);
    CHECK(cp->outer == occ::ptx::SourceLoc{1, 73, 5});
    CHECK(occ::ptx::classify(*cp) == occ::ptx::InstrClass::async_copy);
    CHECK(cp->operands[2].kind == occ::ptx::OperandKind::imm);
    CHECK(cp->operands[2].value == 16);
}

TEST_CASE("ptx: Triton 3.x layout (ptr params, reqntid, inline asm, debug sections)") {
    const auto r = occ::io::read_ptx(read_fixture("triton_add_sm90a.ptx"));
    REQUIRE_MESSAGE(r, r.error);
    CHECK(r->target == "sm_90a");
    REQUIRE(r->entries.size() == 1);  // the .section blocks are skipped, not read as entries
    const auto& e = r->entries[0];
    CHECK(e.name == "add_kernel");
    REQUIRE(e.params.size() == 4);
    CHECK(e.params[0].pointer);
    CHECK(e.params[0].align == 1);
    CHECK(e.params[0].type == "u64");
    CHECK_FALSE(e.params[3].pointer);
    CHECK(e.maxntid[0] == 128);
    CHECK(r->file_path(1) == "/tmp/kernels/add.py");
    const auto* ld = find_op(e, "ld.global.v4.b32");
    REQUIRE(ld);
    CHECK(ld->guard == "%p1");
    CHECK(ld->operands[1].name == "%rd1");  // "[ %rd1 + 0 ]"
    CHECK(ld->operands[1].value == 0);
    CHECK(ld->loc == occ::ptx::SourceLoc{1, 49, 16});
    const auto* st = find_op(e, "st.global.v4.b32");
    REQUIRE(st);
    CHECK(st->operands[0].kind == occ::ptx::OperandKind::address);
    CHECK(st->operands[1].elems.size() == 4);
}

TEST_CASE("ptx: asynchronous and descriptor instructions are recognised by name") {
    const auto r = occ::io::read_ptx(read_fixture("triton_async_sm100a.ptx"));
    REQUIRE_MESSAGE(r, r.error);
    REQUIRE(r->shared.size() == 1);
    CHECK(r->shared[0].name == "global_smem");
    CHECK(r->shared[0].is_extern);
    CHECK(r->shared[0].bytes == 0);
    CHECK(r->shared[0].align == 16);
    const auto& e = r->entries[0];
    using occ::ptx::InstrClass;
    const std::pair<const char*, InstrClass> expect[] = {
        {"cp.async.cg.shared.global", InstrClass::async_copy},
        {"cp.async.commit_group", InstrClass::barrier},
        {"cp.async.wait_group", InstrClass::barrier},
        {"ldmatrix.sync.aligned.m8n8.x4.shared.b16", InstrClass::matrix},
        {"cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes", InstrClass::tensor_copy},
        {"mbarrier.init.shared::cta.b64", InstrClass::barrier},
        {"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", InstrClass::mma},
        {"tcgen05.ld.sync.aligned.32x32b.x2.b32", InstrClass::mma},
        {"shfl.sync.idx.b32", InstrClass::other},
    };
    for (const auto& row : expect) {
        const char* op = row.first;  // (not a structured binding: clang 14 cannot capture one)
        const InstrClass cls = row.second;
        const auto* in = find_op(e, op);
        REQUIRE_MESSAGE(in, op);
        CHECK_MESSAGE(occ::ptx::classify(*in) == cls, op);
    }
    const auto* tma = find_op(e, "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes");
    CHECK(tma->has_mod("shared::cluster"));
    CHECK(tma->operands[1].has_tensor);  // [ %rd9, { %r1, %r1 } ]
    CHECK(tma->operands[1].name == "%rd9");
    CHECK(occ::ptx::space_of(*tma) == occ::ptx::Space::shared);
}

TEST_CASE("ptx: operand and statement corners") {
    const std::string text = R"(.version 8.0
.target sm_80
.address_size 64
/* a block
   comment */
.visible .func (.param .b32 func_retval0) helper(.param .b32 helper_param_0)
{
	ret;
}
.visible .entry k(.param .align 8 .b8 k_param_0[16], .param .u32 k_param_1) .maxntid 256, 1, 1
{
	.reg .pred %p<3>; .reg .b32 %r<9>; .reg .b64 %rd<4>;
	.reg .b32 scalar_a, scalar_b;
	ld.u32 %r1, [%rd1+-4];
	ld.u32 %r2, [%rd1-8];
	setp.lt.s32 %p1|%p2, %r1, %r2;
	@!%p1 bra $L__end;
	mov.b32 %r3, 0xFFFFFFFF;
	mov.f32 %r4, 0f3F800000;
	mov.u32 %r5, 010;
	{
	.reg .pred p;
	setp.ne.b32 p, %r5, 0;
	}
	call.uni (%r6), helper, (%r5);
	st.shared.u32 [tile+12], %r3; // trailing comment
$L__end :
	ret;
}
)";
    const auto r = occ::io::read_ptx(text);
    REQUIRE_MESSAGE(r, r.error);
    REQUIRE(r->entries.size() == 2);
    CHECK_FALSE(r->entries[0].is_kernel);
    CHECK(r->entries[0].name == "helper");
    const auto& k = r->entries[1];
    CHECK(k.maxntid[0] == 256);
    REQUIRE(k.params.size() == 2);
    CHECK(k.params[0].size == 16);
    CHECK(k.params[0].align == 8);
    REQUIRE(k.regs.size() == 6);  // %p<3>, %r<9>, %rd<4>, scalar_a, scalar_b, and p of the nested scope
    CHECK(k.regs[4].name == "scalar_b");
    CHECK(k.regs[5].name == "p");
    const auto& in = k.instructions;
    REQUIRE(in.size() == 11);
    CHECK(in[0].operands[1].value == -4);
    CHECK(in[1].operands[1].value == -8);
    CHECK(in[2].operands[0].name == "%p1");
    CHECK(in[2].operands[0].elems.at(0).name == "%p2");
    CHECK(in[3].guard_negated);
    CHECK(in[4].operands[1].value == 0xFFFFFFFFll);
    CHECK(in[5].operands[1].float_imm);
    CHECK(in[5].operands[1].value == 0x3F800000);
    CHECK(in[6].operands[1].value == 8);   // octal 010
    CHECK(in[7].opcode == "setp.ne.b32");  // inside the nested scope
    CHECK(in[8].operands.size() == 3);     // call (ret), helper, (args)
    CHECK(in[9].operands[0].name == "tile");
    CHECK(in[9].operands[0].value == 12);
    CHECK_FALSE(in[9].operands[0].base_is_reg);
    CHECK(k.label_target("$L__end") == 10);
    CHECK(in[10].ptx_line == 28);  // ret, after the label line
}

TEST_CASE("ptx: hostile and truncated text is an error naming the line, never a crash") {
    auto fails_with_line = [](const std::string& t) {
        const auto r = occ::io::read_ptx(t);
        return !r && r.error.rfind("line ", 0) == 0;
    };
    CHECK(fails_with_line(".version 8.0\n.visible .entry k()\n{\n  ld.global.u32 %r1, [%rd1;\n}\n"));
    CHECK(fails_with_line(".version 8.0\n/* never closed\n.visible .entry k() { ret; }\n"));
    CHECK(fails_with_line("}\n"));
    CHECK(fails_with_line("{ ret; }\n"));
    CHECK(fails_with_line(".visible .entry k()\n{\n  .reg .b32 %r<99999999999>;\n}\n"));
    CHECK(fails_with_line(".visible .entry k()\n{\n  add.s32 %r1, %r2, 99999999999999999999999;\n}\n"));
    CHECK(fails_with_line(".visible .entry k()\n{\n  @ bra L;\n}\n"));
    CHECK(fails_with_line(".visible .entry k()\n{\n  ret;\n"));  // no closing brace
    CHECK(fails_with_line(std::string(".visible .entry k()\n{\n") + std::string(300, '{') + "\n"));
    CHECK(fails_with_line(std::string("ret\0;", 5)));
    {
        occ::io::PtxLimits small;
        small.max_bytes = 10;
        const auto r = occ::io::read_ptx(".version 8.0\n", small);
        CHECK_FALSE(r);
        CHECK(r.error.find("over the limit") != std::string::npos);
    }
    // Every prefix of a real module: either read or refused with a line, never a crash.
    const std::string full = read_fixture("kernels_sm80.ptx") + read_fixture("triton_async_sm100a.ptx");
    REQUIRE(full.size() > 1000);
    int refused = 0, read = 0;
    for (std::size_t n = 0; n < full.size(); n += 61) {
        const auto r = occ::io::read_ptx(std::string_view(full).substr(0, n));
        if (r) {
            ++read;
        } else {
            ++refused;
            CHECK_MESSAGE(r.error.rfind("line ", 0) == 0, r.error);
        }
    }
    CHECK(refused > 100);
    CHECK(read > 0);
    // Bytes flipped at random positions (a fixed generator): no crash, and an error is worded.
    std::uint64_t s = 12345;
    for (int k = 0; k < 300; ++k) {
        std::string t = full.substr(0, 3000);
        for (int j = 0; j < 8; ++j) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            t[static_cast<std::size_t>((s >> 33) % t.size())] = static_cast<char>((s >> 17) & 0xff);
        }
        const auto r = occ::io::read_ptx(t);
        if (!r) CHECK(r.error.rfind("line ", 0) == 0);
    }
}
