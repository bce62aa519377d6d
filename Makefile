# SPDX-License-Identifier: GPL-2.0
# memaccel entry points. `make demo` and `make test` do all the set-up.
SHELL := /bin/bash
TOP := $(CURDIR)
FLAVOR ?= test
# The harness's Python packages (pytest, virtme-ng) live in a venv (setup.sh).
export PATH := $(TOP)/build/venv/bin:$(PATH)

.PHONY: all help lint demo test test-full setup kernel-tree kernel tools selftests \
	check-series export-patches bisect-check bench-phases vm-shell \
	host-tests clean

all: tools

## This list: every target with its "##" comment from this Makefile.
help:
	@awk '/^## /{d = d (d ? " " : "") substr($$0, 4); next} \
		/^[a-z][a-z-]*:/ && d {sub(/:.*/, ""); printf "  %-14s %s\n", $$0, d} \
		{d = ""}' $(firstword $(MAKEFILE_LIST))

## Set-up, build, boot, benchmark, results under results/.
demo:
	@scripts/demo.sh

## Set-up, build, every test; one summary line; non-zero on any failure.
test:
	@scripts/test.sh

## make test plus what does not fit its hour: split_huge_page_test, 300 s storms, every mm selftest category under mtcopy-1/2 and dcbm-1/8.
test-full:
	@MEMACCEL_TEST_FULL=1 scripts/test.sh

## Install the Debian packages and the Python venv (build/venv).
setup:
	@scripts/setup.sh

## Unpack the pinned 6.12 source to build/linux and apply the series.
kernel-tree: setup
	@scripts/kernel-tree.sh

## Build the kernel for the VM (FLAVOR=test adds debug checks; bench does not).
kernel: kernel-tree
	@scripts/build-kernel.sh $(FLAVOR)

## Build the C tools (migbench, migcheck) in tools/.
tools:
	@$(MAKE) -s -C tools

## Upstream mm selftests from build/linux, installed to build/kselftest.
selftests: kernel-tree
	@scripts/build-selftests.sh

## Time per phase of a migration batch, per engine and folio size (benchmark).
bench-phases:
	@scripts/bench-phases.sh

## Write kernel/patches and kernel/series from build/linux.
export-patches:
	@scripts/series.sh export

## Series applies to the pristine base, matches the tree, checkpatch --strict.
check-series:
	@scripts/series.sh check

## Build the kernel at every patch of the series (bisectability).
bisect-check: kernel-tree
	@scripts/bisect-check.sh

## The host tests (pytest, no VM); e.g. make host-tests T=tests/host/test_ktap.py.
host-tests: setup tools
	@python3 -m pytest -q $(or $(T),tests/host)

## shellcheck on every shell script, ruff on every Python file; fails on any finding.
lint: setup
	@scripts/lint.sh

## Interactive shell in the 2-node VM (TOPOLOGY=2node-4cpu, 4node or 4node-tiered for the others).
vm-shell:
	@scripts/vm-run --shell --kernel build/kbuild-$(FLAVOR) --topology $(or $(TOPOLOGY),2node)

## Remove kernel builds, VM scratch and test output (keeps build/linux, the venv, ccache).
clean:
	rm -rf build/kbuild-* build/kselftest* build/vm.* build/test-out
	$(MAKE) -s -C tools clean
