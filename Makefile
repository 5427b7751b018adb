# occ — the two commands: `make run` (serve the calculator) and `make test` (everything CI runs).
# Each target installs what is missing first (scripts/bootstrap.sh, quiet when all is present).
SHELL := /bin/bash
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
PORT  ?= 8000
NATIVE := build/native
WEB    := build/web
# Debian's Emscripten needs its acorn from here; its system libraries ship prebuilt (frozen cache).
EMENV  := NODE_PATH=/usr/share/nodejs
CMAKE_NATIVE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release -DOCC_BUILD_TESTS=ON -DOCC_BUILD_CLI=ON -DOCC_BUILD_GUI=ON -DOCC_BUILD_PYTHON=ON

.PHONY: all bootstrap native web test-web test run bench clean help check-sanitize fuzz fuzz-short format format-check
.PHONY: _ctest-native _e2e-web _sanitize-build _sanitize-ctest _fuzz-run
.PHONY: validate validate-quick validate-bundle

all: native

help:
	@echo "make run     build the web calculator and serve it on http://127.0.0.1:$(PORT)"
	@echo "make test    install what is missing, build everything, run every test suite"
	@echo "make bench   run the benchmarks and print the figures (see docs/PERFORMANCE.md)"
	@echo "make native  build the CLI and native tests into $(NATIVE)/bin"
	@echo "make validate [QUICK=1]  check occ's predictions on this machine's NVIDIA GPU (cuda_validation/README.md)"
	@echo "make validate-bundle  build occ-validate here for a bare GPU machine: build/validate-bundle (needs nvcc, no GPU)"
	@echo "make web     build the web calculator (Emscripten) into $(WEB)/dist"
	@echo "make check-sanitize  every native test under ASan+UBSan (clang, build/sanitize; part of make test)"
	@echo "make fuzz    build the sanitize tree (it holds the libFuzzer targets) and fuzz each target FUZZ_SECONDS (20)"
	@echo "make format  clang-format the tracked C++/CUDA sources; make format-check: only check (make test's first stage)"

# make test runs bootstrap once, as its own stage, and tells the steps after it (OCC_BOOTSTRAPPED=1).
bootstrap:
	@$(if $(OCC_BOOTSTRAPPED),true,scripts/bootstrap.sh)

native: bootstrap
	@cmake -S . -B $(NATIVE) $(CMAKE_NATIVE_FLAGS) >/dev/null
	@cmake --build $(NATIVE) -j$(JOBS)

web: bootstrap
	@$(EMENV) emcmake cmake -S . -B $(WEB) -DOCC_BUILD_GUI=ON >/dev/null
	@$(EMENV) cmake --build $(WEB) -j$(JOBS)

# Browser e2e (tests/web): headless Chromium against $(WEB)/dist, compared with the native CLI.
test-web: native web
	@$(MAKE) --no-print-directory _e2e-web

_e2e-web:
	@OCC_BIN=$(CURDIR)/$(NATIVE)/bin/occ OCC_WEB_DIST=$(CURDIR)/$(WEB)/dist node --test tests/web/

_ctest-native:
	@cd $(NATIVE) && ctest --output-on-failure -j$(JOBS)

# Every suite, one timed stage after another (scripts/stage.sh); the table of stage times is printed
# at the end, and when a stage fails, after its output. The stages' make targets work on their own too.
STAGE := scripts/stage.sh
STEP  := $(MAKE) --no-print-directory OCC_BOOTSTRAPPED=1
test:
	@$(STAGE) --reset
	@$(STAGE) bootstrap      -- scripts/bootstrap.sh
	@$(STAGE) format-check   -- scripts/format.sh --check
	@$(STAGE) native-build   -- $(STEP) native
	@$(STAGE) web-build      -- $(STEP) web
	@$(STAGE) native-ctest   -- $(STEP) _ctest-native
	@$(STAGE) web-e2e        -- $(STEP) _e2e-web
	@$(STAGE) sanitize-build -- $(STEP) _sanitize-build
	@$(STAGE) sanitize-ctest -- $(STEP) _sanitize-ctest
	@$(STAGE) fuzz-run       -- $(STEP) _fuzz-run
	@$(STAGE) --summary

# clang-format (Debian's clang-format 14, .clang-format) over the tracked C/C++/CUDA files, third_party/ excluded.
format: bootstrap
	@scripts/format.sh

format-check: bootstrap
	@scripts/format.sh --check

# The whole native suite under AddressSanitizer + UndefinedBehaviorSanitizer and the libFuzzer targets,
# from ONE clang tree (preset `sanitize`, build/sanitize): occ::core and occ::io are compiled once,
# with ASan+UBSan and libFuzzer's coverage, for the unit tests, the CLI and every fuzzer
# (docs/FUZZING.md). make test fuzzes each target FUZZ_SECONDS (20); make fuzz FUZZ_SECONDS=300 longer.
SANITIZE := build/sanitize
FUZZ_SECONDS ?= 20
SANITIZE_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
_sanitize-build:
	@cmake --preset sanitize -DOCC_FUZZ_SECONDS=$(FUZZ_SECONDS) >/dev/null
	@cmake --build $(SANITIZE) -j$(JOBS)

# The nvcc build and the install/find_package consumer test compile no sanitized project code: skipped
# here, as are the fuzzing runs (their own stage). OCC_DIFF_VARIANTS=1: the differential test samples
# 1 variant per point instead of 2 (both runs cover every architecture, block size and register count;
# the native suite runs the full sample). OCC_AMD_PER_BATCH=50: the AMD llc sweep compiles 50 kernels
# per target and mode instead of 200 (the time is llc's; the sanitized code is occ-amd-probe).
_sanitize-ctest:
	@cd $(SANITIZE) && OCC_DIFF_VARIANTS=1 OCC_AMD_PER_BATCH=50 $(SANITIZE_ENV) \
	  ctest --output-on-failure -j$(JOBS) -LE '^fuzzing$$' -E '^(web|desktop|consumer|validation.nvcc_build)'

_fuzz-run:
	@cd $(SANITIZE) && ctest --output-on-failure -j$(JOBS) -L '^fuzzing$$'

check-sanitize: bootstrap
	@$(MAKE) --no-print-directory _sanitize-build
	@$(MAKE) --no-print-directory _sanitize-ctest

# Builds the sanitize tree (fuzzers included), then fuzzes each target FUZZ_SECONDS.
fuzz: bootstrap
	@$(MAKE) --no-print-directory _sanitize-build
	@$(MAKE) --no-print-directory _fuzz-run

fuzz-short:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=20

run: web
	@echo "occ: serving $(WEB)/dist at http://127.0.0.1:$(PORT)/  (Ctrl+C stops)"
	@cd $(WEB)/dist && exec python3 -m http.server $(PORT) --bind 127.0.0.1

bench: bootstrap
	@cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release -DOCC_BUILD_TESTS=OFF -DOCC_BUILD_BENCH=ON >/dev/null
	@cmake --build build/bench -j$(JOBS)
	@build/bench/bin/occ-bench --benchmark_min_time=0.2
	@python3 bench/batch_bench.py build/bench/bin/occ

clean:
	rm -rf build

# Hardware validation (cuda_validation/README.md): needs nvcc and an NVIDIA GPU; Nsight Compute (ncu)
# for exact memory counters. QUICK=1 (or make validate-quick) is the < 3 minute subset.
# CUDA_ARCHS=native by default (CMake >= 3.24); VALIDATE_ARGS passes options to occ-validate.
CUDA_BUILD ?= build/cuda
CUDA_ARCHS ?= native
validate:
	@cmake -S . -B $(CUDA_BUILD) -DCMAKE_BUILD_TYPE=Release -DOCC_CORE_ONLY=ON -DOCC_BUILD_TESTS=OFF -DOCC_BUILD_CLI=OFF \
	  -DOCC_BUILD_CUDA_VALIDATION=ON -DOCC_CUDA_ARCHS="$(CUDA_ARCHS)" >/dev/null
	@cmake --build $(CUDA_BUILD) --target occ-validate -j$(JOBS)
	@$(CUDA_BUILD)/bin/occ-validate $(if $(QUICK),--quick) $(VALIDATE_ARGS)

validate-quick:
	@$(MAKE) --no-print-directory validate QUICK=1

# The same harness as a folder that runs on a GPU machine with only the NVIDIA driver: SASS for sm_80,
# 86, 89, 90, 100 and 120 plus PTX of the newest, static CUDA runtime, CUPTI and NVPerf beside it
# (rpath $ORIGIN), run.sh; at most 60 MiB. cuda_validation/README.md gives the device command.
validate-bundle:
	@env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL cuda_validation/bundle/build_bundle.sh --jobs $(JOBS)
