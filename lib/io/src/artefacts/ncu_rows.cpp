// ncu_rows.cpp — a kernel's ncu-versus-occ comparison as text rows (occ/io/ncu.hpp), so `occ ncu`
// and the app's import table word every value the same way.
#include <cmath>

#include "occ/format.hpp"
#include "occ/io/ncu.hpp"

namespace occ::io {
namespace {

// occ's value in the unit the key has: sizes in bytes, occupancy in %, counts whole.
std::string predicted_text(const std::string& key, const std::optional<double>& v) {
    if (!v) return "-";
    if (key.find("shared_memory") != std::string::npos) return format_bytes(static_cast<std::int64_t>(*v));
    if (key.find("occupancy") != std::string::npos) return format_number(*v, 4) + " %";
    if (key == "waves_per_sm" || key == "achieved_active_warps_per_sm") return format_number(*v, 3);
    return format_count(static_cast<std::int64_t>(std::llround(*v)));
}

}  // namespace

const char* NcuRow::mark() const {
    if (difference) {
        switch (difference->status) {
            case NcuStatus::explained: return "~";
            case NcuStatus::contradiction: return "!";
            case NcuStatus::mismatch: break;
        }
        return "<";
    }
    if (not_compared) return "n/c";
    if (measured && predicts) return bound ? "ok" : "=";
    return "";
}

std::vector<NcuRow> ncu_rows(const NcuKernelAnswer& k) {
    std::vector<NcuRow> rows;
    for (const auto& [key, p] : k.predicted) {
        NcuRow r;
        r.key = key;
        const NcuValue* m = k.measured.get(key);
        r.measured = m != nullptr;
        r.printed = m ? m->printed + (m->unit.empty() ? "" : " " + m->unit) : "-";
        r.predicts = p.has_value();
        r.bound = key.rfind("achieved_", 0) == 0;
        r.predicted = (r.bound && p ? "<= " : "") + predicted_text(key, p);
        for (const NcuDifference& d : k.differences)
            if (d.field == key && !r.difference) r.difference = &d;
        for (const NcuNotCompared& n : k.not_compared)
            if (n.field == key && !r.difference && !r.not_compared) r.not_compared = &n;
        rows.push_back(std::move(r));
    }
    return rows;
}

}  // namespace occ::io
