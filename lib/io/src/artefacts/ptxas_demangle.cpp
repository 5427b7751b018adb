// ptxas_demangle.cpp — kernel names as c++filt prints them, from the C++ runtime's own Itanium
// demangler (abi::__cxa_demangle: libstdc++ natively, libc++abi under Emscripten).
#include <cxxabi.h>

#include <cstdlib>
#include <memory>

#include "occ/io/ptxas.hpp"

namespace occ::io {

std::string demangle(std::string_view mangled) {
    // Only function and variable names (Itanium C++ ABI §5.1.2 "<mangled-name> ::= _Z <encoding>"):
    // __cxa_demangle also reads bare type codes, which would turn an extern "C" kernel named `i` into
    // "int". The length cap bounds the runtime's recursion on pasted junk; an embedded NUL would cut
    // the C string the runtime reads, so such a name is left mangled.
    if (mangled.size() < 3 || mangled.size() > 4096 || mangled.substr(0, 2) != "_Z") return {};
    if (mangled.find('\0') != std::string_view::npos) return {};
    // A clone suffix (".constprop.0", ".isra.0") marks a compiler's copy of the same function; the
    // runtimes spell it differently ("[clone .constprop.0]" / "(.constprop.0)"), so the name is
    // read without it and reads the same in every face.
    const std::string c_name(mangled.substr(0, mangled.find('.')));
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(c_name.c_str(), nullptr, nullptr, &status), &std::free);
    if (status != 0 || !out) return {};
    return out.get();
}

}  // namespace occ::io
