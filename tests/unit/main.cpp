// The doctest runner for every doctest binary (tests/unit/test_*.cpp, tests/validation/test_*.cpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
