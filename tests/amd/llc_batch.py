"""Compile many generated amdgpu kernels with one llc call and read back what llc reports for each.

Each kernel is pinned to one workgroup size ("amdgpu-flat-work-group-size"="W,W") and made to use
chosen registers and LDS: an inline-asm clobber of v(N-1) / a(N-1) / s(N-1) marks those registers used
(the register allocator counts the highest one clobbered), and a volatile store into its own
addrspace(3) array of L bytes allocates L bytes of LDS. llc then prints, per kernel, the comments
AMDGPUAsmPrinter writes ("; NumSgprs: 47", "; TotalNumVgprs: 118", "; LDSByteSize: 1000 bytes/workgroup",
"; Occupancy: 4", ...), which this module parses.
"""
import re
import subprocess
from dataclasses import dataclass, field

# The printed comments (AMDGPUAsmPrinter::emitFunctionBody / EmitProgramInfoSI) read back per kernel.
_FIELDS = {
    "NumSgprs": "sgprs",
    "NumVgprs": "vgprs",
    "NumAgprs": "agprs",
    "TotalNumVgprs": "total_vgprs",
    "NumSGPRsForWavesPerEU": "sgprs_for_waves",
    "NumVGPRsForWavesPerEU": "vgprs_for_waves",
    "Occupancy": "occupancy",
    "ScratchSize": "scratch",
}
_LINE = re.compile(r"^; (\w+): (\d+)")
_LDS = re.compile(r"^; LDSByteSize: (\d+) bytes/workgroup")
_LABEL = re.compile(r"^(k\d+):")


@dataclass
class Kernel:
    wg: int  # threads per workgroup (flat-work-group-size min = max)
    vgpr: int = 0  # highest VGPR clobbered + 1 (0 = none)
    agpr: int = 0  # highest AGPR clobbered + 1 (0 = none; gfx908/gfx90a/gfx94x/gfx950 only)
    sgpr: int = 0  # highest SGPR clobbered + 1 (0 = none)
    lds: int = 0  # bytes of LDS the kernel allocates
    waves_per_eu: str = ""  # optional "amdgpu-waves-per-eu" attribute
    report: dict = field(default_factory=dict)  # what llc printed


def module_text(kernels):
    out = []
    for i, k in enumerate(kernels):
        if k.lds:
            out.append(f"@lds{i} = internal addrspace(3) global [{k.lds} x i8] undef, align 4")
    for i, k in enumerate(kernels):
        clob = []
        if k.vgpr:
            clob.append(f"~{{v{k.vgpr - 1}}}")
        if k.agpr:
            clob.append(f"~{{a{k.agpr - 1}}}")
        if k.sgpr:
            clob.append(f"~{{s{k.sgpr - 1}}}")
        out.append(f"define amdgpu_kernel void @k{i}() #{i} {{")
        if clob:
            out.append(f'  call void asm sideeffect "", "{",".join(clob)}"()')
        if k.lds:
            out.append(
                f"  store volatile i8 1, i8 addrspace(3)* getelementptr ([{k.lds} x i8], [{k.lds} x i8] addrspace(3)* @lds{i}, i32 0, i32 {k.lds - 1})"
            )
        out.append("  ret void\n}")
    for i, k in enumerate(kernels):
        attrs = f'"amdgpu-flat-work-group-size"="{k.wg},{k.wg}"'
        if k.waves_per_eu:
            attrs += f' "amdgpu-waves-per-eu"="{k.waves_per_eu}"'
        out.append(f"attributes #{i} = {{ {attrs} }}")
    return "\n".join(out) + "\n"


def run(llc, cpu, mattr, kernels):
    """Compiles all kernels in one llc call; fills each Kernel.report. Returns llc's stderr."""
    cmd = [llc, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O1", "-o", "-"]
    if mattr:
        cmd.append(f"-mattr={mattr}")
    p = subprocess.run(cmd, input=module_text(kernels), capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {p.stderr[:2000]}")
    cur = None
    for line in p.stdout.splitlines():
        m = _LABEL.match(line)
        if m:
            cur = kernels[int(m.group(1)[1:])].report
            continue
        if cur is None:
            continue
        m = _LDS.match(line)
        if m:
            cur["lds"] = int(m.group(1))
            continue
        m = _LINE.match(line)
        if m and m.group(1) in _FIELDS:
            cur[_FIELDS[m.group(1)]] = int(m.group(2))
    return p.stderr
