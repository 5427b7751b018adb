// bundle_compat.cpp — linked into the bundle build only (OCC_VALIDATE_BUNDLE). The static libstdc++ of
// GCC 12 pulls in std::random_device (through cow-string-inst.o) and with it glibc 2.36's arc4random,
// which would make the bundle refuse to start on glibc 2.34/2.35 systems (Ubuntu 22.04, RHEL 9).
// occ-validate never asks for random numbers; this definition satisfies the reference at link time
// with getrandom(2) (glibc 2.25), so the newest glibc symbol version the bundle needs is 2.34.
#include <sys/random.h>

#include <cstdint>

extern "C" std::uint32_t arc4random(void) {
    std::uint32_t v = 0;
    while (getrandom(&v, sizeof v, 0) != static_cast<long>(sizeof v)) {}
    return v;
}
