// occ/result.hpp — a value or a readable error (C++20 has no std::expected yet).
#pragma once
#include <optional>
#include <string>
#include <utility>

namespace occ {

template <typename T>
struct Result {
    std::optional<T> value;
    std::string error;

    static Result ok(T v) { return Result{std::move(v), {}}; }
    static Result fail(std::string msg) { return Result{std::nullopt, std::move(msg)}; }
    explicit operator bool() const { return value.has_value(); }
    const T& operator*() const { return *value; }
    T& operator*() { return *value; }
    const T* operator->() const { return &*value; }
};

}  // namespace occ
