// The doctest runner for every tests/unit/test_*.cpp file.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
