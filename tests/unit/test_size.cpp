// Size strings (occ/io/size.hpp) and number formatting (occ/format.hpp).
#include <doctest/doctest.h>

#include <cstdint>

#include "occ/format.hpp"
#include "occ/io/size.hpp"

using occ::io::parse_size;

TEST_CASE("sizes as users type them") {
    CHECK(*parse_size("48K") == 49152);
    CHECK(*parse_size("48KiB") == 49152);
    CHECK(*parse_size("48kb") == 49152);
    CHECK(*parse_size("49152") == 49152);
    CHECK(*parse_size(" 1.5K ") == 1536);
    CHECK(*parse_size("2M") == 2 * 1024 * 1024);
    CHECK(*parse_size("0x400") == 1024);
    CHECK(*parse_size("0") == 0);
}

TEST_CASE("bad sizes name the field and say what is allowed") {
    auto neg = parse_size("-5", "smem_dynamic");
    CHECK_FALSE(neg);
    CHECK(neg.error.find("smem_dynamic: size must be >= 0") == 0);
    CHECK_FALSE(parse_size("abc"));
    CHECK_FALSE(parse_size(""));
    CHECK_FALSE(parse_size("48Q"));
    CHECK_FALSE(parse_size("1.3"));  // not a whole number of bytes
    CHECK_FALSE(parse_size("99999999999999999999"));
    CHECK(parse_size("12X", "smem_static").error.find("unknown unit") != std::string::npos);
}

TEST_CASE("formatting is shared by every face") {
    CHECK(occ::format_bytes(49152) == "48 KiB");
    CHECK(occ::format_bytes(50176) == "49 KiB");
    CHECK(occ::format_bytes(1000) == "1,000 B");
    CHECK(occ::format_bytes(1 << 20) == "1 MiB");
    CHECK(occ::format_percent(0.5) == "50%");
    CHECK(occ::format_percent(0.375) == "37.5%");
    CHECK(occ::format_count(262144) == "262,144");
    CHECK(occ::format_number(156.0) == "156");
}

// Integers as strtoll / strtoull read them with base 0 (C17 7.22.1.4): decimal, 0x hex, 0 octal.
TEST_CASE("integers in the C spellings: decimal, hex, octal, signs, overflow") {
    using occ::io::parse_integer;
    using occ::io::parse_unsigned;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    CHECK((parse_integer("42", i) && i == 42));
    CHECK((parse_integer("-42", i) && i == -42));
    CHECK((parse_integer("+7", i) && i == 7));
    CHECK((parse_integer("0x2A", i) && i == 42));
    CHECK((parse_integer("052", i) && i == 42));  // octal, as strtoll base 0
    CHECK((parse_integer("0", i) && i == 0));
    CHECK((parse_integer("-9223372036854775808", i) && i == INT64_MIN));
    CHECK_FALSE(parse_integer("9223372036854775808", i));
    CHECK_FALSE(parse_integer("", i));
    CHECK_FALSE(parse_integer("-", i));
    CHECK_FALSE(parse_integer("--1", i));
    CHECK_FALSE(parse_integer("0x", i));
    CHECK_FALSE(parse_integer("08", i));  // not octal
    CHECK_FALSE(parse_integer("12abc", i));
    CHECK_FALSE(parse_integer(" 1", i));
    CHECK((parse_unsigned("0xffffffffffffffff", u) && u == UINT64_MAX));
    CHECK((parse_unsigned("4096", u) && u == 4096));
    CHECK_FALSE(parse_unsigned("18446744073709551616", u));
    CHECK_FALSE(parse_unsigned("-1", u));
    CHECK_FALSE(parse_unsigned("+1", u));
    CHECK_FALSE(parse_unsigned("0x-1", u));
}
