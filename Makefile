# SPDX-License-Identifier: GPL-2.0
# memaccel entry points. `make demo` and `make test` do all the set-up.
SHELL := /bin/bash
TOP := $(CURDIR)
FLAVOR ?= test
# The harness's Python packages (pytest, virtme-ng) live in a venv (setup.sh).
export PATH := $(TOP)/build/venv/bin:$(PATH)

.PHONY: all demo test setup kernel-tree kernel tools selftests \
	check-series export-patches bisect-check bench-phases vm-shell \
	host-tests clean

all: tools

## Set-up, build, boot, benchmark, results under results/.
demo:
	@scripts/demo.sh

## Set-up, build, every test; one summary line; non-zero on any failure.
test:
	@scripts/test.sh

setup:
	@scripts/setup.sh

kernel-tree: setup
	@scripts/kernel-tree.sh

## Build the kernel for the VM (FLAVOR=test adds debug checks; bench does not).
kernel: kernel-tree
	@scripts/build-kernel.sh $(FLAVOR)

tools:
	@$(MAKE) -s -C tools

## Upstream mm selftests from build/linux, installed to build/kselftest.
selftests: kernel-tree
	@scripts/build-selftests.sh

## Time per phase of a migration batch, per engine and folio size (benchmark).
bench-phases:
	@scripts/bench-phases.sh

export-patches:
	@scripts/series.sh export

## Series applies to the pristine base, matches the tree, checkpatch --strict.
check-series:
	@scripts/series.sh check

## Build the kernel at every patch of the series (bisectability).
bisect-check: kernel-tree
	@scripts/bisect-check.sh

host-tests: setup tools
	@python3 -m pytest -q tests/host

## Interactive shell in the 2-node VM (TOPOLOGY=4node for the other one).
vm-shell:
	@scripts/vm-run --shell --kernel build/kbuild-$(FLAVOR) --topology $(or $(TOPOLOGY),2node)

clean:
	rm -rf build/kbuild-* build/kselftest* build/vm.* build/test-out
	$(MAKE) -s -C tools clean
