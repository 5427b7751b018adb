// occ/io/binding.hpp — a field's description (occ/io/schema.hpp) tied to the member of the typed
// request it fills.
//
// One table of bindings per request part (the occupancy launch: launch_bindings(), api.hpp) is
// what every face iterates: the JSON reader (read_bound), the canonical echo (echo_bound), the
// --batch fast reader (batch.cpp), the kinds' field lists and so the CLI flags, Python keywords,
// the page's requests and the docs check. A plain field is one line of that table:
//
//     bind<&OccupancyRequest::kernel, &KernelResources::barriers>(fields::barriers, Fast::query),
//
// Plain values (integers, sizes, booleans, choices) travel as an int64: a boolean as 0/1, a
// choice as its index in FieldSpec::choices, so an enum whose values are in that order (CacheConfig
// and "none,shared,l1,equal") needs no name table of its own.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "occ/io/fields.hpp"
#include "occ/io/schema.hpp"

namespace occ::io {

// When the echo writes a field: always, or only when it differs from the default (so answers
// without it keep their bytes: grid, max_dynamic_smem, virtual_resources).
enum class Echo : std::uint8_t { always, unless_default };
// Who supplies the value: the request, or the compiled kernel where one is read (a compiler log
// or a binary gives registers, static shared memory and barriers; the request may not).
enum class From : std::uint8_t { request, artefact };
// Which fast path takes the field (occ/prepared.hpp): the prepared device's tables are built for it
// (carveout, cache config, partitioned caching), a prepared query takes it as an argument (registers,
// shared memory, opt-in, barriers, virtual resources), it never changes the block count (grid,
// Tensor Memory columns: effective limits only), or only the full rules take it (max_threads,
// max_dynamic_smem): a request that gives such a field leaves the prepared path
// (prepared_takes, api.hpp). Every binding says which, so a new field cannot be forgotten there.
enum class Fast : std::uint8_t { general, device, query, no_count };

template <typename Req>
struct FieldBinding {
    const FieldSpec* spec;
    std::int64_t (*get)(const Req&);
    void (*set)(Req&, std::int64_t);
    Echo echo = Echo::always;
    From from = From::request;
    Fast fast = Fast::general;
    std::int64_t def = 0;  // default_value(*spec), worked out when the table is built
};

namespace detail {
template <auto First, auto... Rest, typename T>
constexpr auto& member(T& obj) {
    if constexpr (sizeof...(Rest) == 0) return obj.*First;
    else return member<Rest...>(obj.*First);
}
template <typename V>
constexpr std::int64_t to_value(V v) {
    if constexpr (std::is_enum_v<V>) return static_cast<std::int64_t>(static_cast<std::underlying_type_t<V>>(v));
    else return static_cast<std::int64_t>(v);
}
template <typename V>
constexpr V from_value(std::int64_t v) {
    if constexpr (std::is_same_v<V, bool>) return v != 0;
    else if constexpr (std::is_enum_v<V>) return static_cast<V>(static_cast<std::underlying_type_t<V>>(v));
    else return static_cast<V>(v);
}
template <typename Req, auto... Path>
using member_t = std::remove_cvref_t<decltype(member<Path...>(std::declval<Req&>()))>;

template <typename T>
struct owner_of;
template <typename C, typename M>
struct owner_of<M C::*> {
    using type = C;
};
}  // namespace detail

// [SECTION] Values
// The `i`th of a choice field's spellings ("" when out of range), and the index of `word` (-1).
constexpr std::string_view choice_name(const FieldSpec& s, std::int64_t i) {
    std::size_t b = 0;
    for (std::int64_t n = 0; b <= s.choices.size(); ++n) {
        std::size_t e = s.choices.find(',', b);
        if (e == std::string_view::npos) e = s.choices.size();
        if (n == i) return s.choices.substr(b, e - b);
        b = e + 1;
    }
    return {};
}
constexpr std::int64_t choice_index(const FieldSpec& s, std::string_view word) {
    for (std::int64_t i = 0;; ++i) {
        const std::string_view c = choice_name(s, i);
        if (c.empty()) return -1;
        if (c == word) return i;
    }
}
// The field's default as a plain value.
constexpr std::int64_t default_value(const FieldSpec& s) {
    switch (s.type) {
        case FieldType::boolean: return s.def == "true";
        case FieldType::choice: return choice_index(s, s.def);
        default: return s.int_default;
    }
}
// The binding of `spec` to the member at the end of a chain of member pointers
// (&OccupancyRequest::kernel, &KernelResources::regs_per_thread).
template <auto First, auto... Rest>
constexpr auto bind(const FieldSpec& spec, Fast fast, Echo echo = Echo::always, From from = From::request) {
    using Owner = typename detail::owner_of<decltype(First)>::type;
    using V = detail::member_t<Owner, First, Rest...>;
    return FieldBinding<Owner>{&spec,
                               [](const Owner& r) { return detail::to_value(detail::member<First, Rest...>(r)); },
                               [](Owner& r, std::int64_t v) { detail::member<First, Rest...>(r) = detail::from_value<V>(v); },
                               echo,
                               from,
                               fast,
                               default_value(spec)};
}

// A list field's integers (absent: empty), each in s.lo..s.hi, at most max_items of them; throws
// RequestError naming the field otherwise. JSON numbers or numeric strings (the CLI's "24,240").
std::vector<int> read_int_list(FieldReader& f, const FieldSpec& s, std::size_t max_items);
// The same list typed as text ("24, 240,240"; empty = no list); nullopt when an entry fails the
// spec's range or predicate or there are more than max_items (what the app's list inputs use).
std::optional<std::vector<int>> parse_int_list(std::string_view text, const FieldSpec& s, std::size_t max_items);
// The value of a plain field in `f` (its default when absent); throws RequestError when out of range.
std::int64_t read_value(FieldReader& f, const FieldSpec& s);
// A plain field typed as text (the page's and the desktop's number fields), read exactly as the CLI
// reads its flag: the same reader, so the same forms ("48K", "48KiB", "0x100") and the same message
// ("smem_dynamic: ..."; blank text is refused as the CLI refuses --smem-dynamic "").
Result<std::int64_t> read_typed(const FieldSpec& s, std::string_view text);

template <typename Req>
void read_bound(FieldReader& f, std::span<const FieldBinding<Req>> bindings, Req& r) {
    for (const FieldBinding<Req>& b : bindings) b.set(r, read_value(f, *b.spec));
}

// Writes each bound field with W's field(key, value) (occupancy_emit.hpp's writers).
template <typename W, typename Req>
void echo_bound(W& w, std::span<const FieldBinding<Req>> bindings, const Req& r) {
    for (const FieldBinding<Req>& b : bindings) {
        const std::int64_t v = b.get(r);
        if (b.echo == Echo::unless_default && v == b.def) continue;
        switch (b.spec->type) {
            case FieldType::boolean: w.field(b.spec->key, v != 0); break;
            case FieldType::choice: w.field(b.spec->key, choice_name(*b.spec, v)); break;
            default: w.field(b.spec->key, v); break;
        }
    }
}

}  // namespace occ::io
