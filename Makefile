# occ — the two commands: `make run` (serve the calculator) and `make test` (everything CI runs).
# Each target installs what is missing first (scripts/bootstrap.sh, quiet when all is present).
SHELL := /bin/bash
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
PORT  ?= 8000
NATIVE := build/native
CMAKE_NATIVE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release -DOCC_BUILD_TESTS=ON -DOCC_BUILD_CLI=ON

.PHONY: all bootstrap native test run bench clean help

all: native

help:
	@echo "make run     build the web calculator and serve it on http://127.0.0.1:$(PORT)"
	@echo "make test    install what is missing, build everything, run every test suite"
	@echo "make bench   run the benchmarks and print the figures (see docs/PERFORMANCE.md)"
	@echo "make native  build the CLI and native tests into $(NATIVE)/bin"

bootstrap:
	@scripts/bootstrap.sh

native: bootstrap
	@cmake -S . -B $(NATIVE) $(CMAKE_NATIVE_FLAGS) >/dev/null
	@cmake --build $(NATIVE) -j$(JOBS)

test: native
	@cd $(NATIVE) && ctest --output-on-failure -j$(JOBS)

run: native
	@$(NATIVE)/bin/occ occupancy --gpu A100-SXM4-80GB --threads 256 --regs 64 --smem-dynamic 48K --optin

bench: bootstrap
	@cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release -DOCC_BUILD_TESTS=OFF -DOCC_BUILD_BENCH=ON >/dev/null
	@cmake --build build/bench -j$(JOBS)
	@build/bench/bin/occ-bench --benchmark_min_time=0.2

clean:
	rm -rf build
