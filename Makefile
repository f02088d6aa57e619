# Convenience targets for developers; ./gomoku.sh does the work.
#
#   make                build (installs missing packages first)
#   make run ARGS='--port 9000 --board-size 16'
#   make test           every test, plain and under ASan + UBSan
#   make format         clang-format -i the C sources
#   make format-check   fail when a C source is not formatted
#   make clean          remove the build directories (CMakePresets.json's
#                       build/, build-asan/, build-bench/, build-fuzz/,
#                       and tests/engine/bench.sh's build-bench-engine/)

FORMAT_DIRS := core core/engine server server/pbrain tests/unit tests/fuzz \
	       tests/load tests/engine tests/renju
FORMAT_FILES = $(wildcard $(addsuffix /*.c,$(FORMAT_DIRS)) \
			  $(addsuffix /*.h,$(FORMAT_DIRS)))

.PHONY: all build run test bench deps format format-check clean help

all: build

build:
	./gomoku.sh build

run:
	./gomoku.sh run $(ARGS)

test:
	./gomoku.sh test

bench:
	./gomoku.sh bench

deps:
	./gomoku.sh deps

format:
	$(if $(FORMAT_FILES),clang-format -i --style=file $(FORMAT_FILES),@echo 'no C sources yet')

format-check:
	$(if $(FORMAT_FILES),clang-format --dry-run --Werror --style=file $(FORMAT_FILES),@echo 'no C sources yet')

clean:
	rm -rf build build-asan build-bench build-fuzz build-bench-engine

help:
	./gomoku.sh help
