// counters_stub.cpp — counters.hpp for builds without CUPTI (its headers or libcupti not found by
// CMake): every session fails with one line that says so, and the harness falls back to ncu or to
// the timing estimates.
#include "counters.hpp"

namespace occv {

namespace {
const char* kWhy = "occ-validate was built without CUPTI (cupti_range_profiler.h / libcupti not found at build time)";
}

CuptiInfo cupti_info() {
    CuptiInfo i;
    i.error = kWhy;
    return i;
}

std::vector<std::string> loaded_counter_libraries() { return {}; }

HostPlan plan_on_chip(const std::string&, const std::vector<std::string>&) {
    HostPlan p;
    p.error = kWhy;
    return p;
}

struct CounterSession::Impl {};

CounterSession::CounterSession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CounterSession::~CounterSession() = default;

std::unique_ptr<CounterSession> CounterSession::open(int, const std::vector<std::string>&, std::size_t, CounterSetup& setup) {
    setup = CounterSetup{};
    setup.error = kWhy;
    return nullptr;
}

bool CounterSession::run(const std::function<void()>&, std::string& err) {
    err = kWhy;
    return false;
}
void CounterSession::push(const std::string&) {}
void CounterSession::pop() {}
bool CounterSession::collect(std::vector<occ::validation::CounterRange>&, std::string& err) {
    err = kWhy;
    return false;
}
std::size_t CounterSession::passes_run() const { return 0; }

void counters_shutdown() {}

}  // namespace occv
