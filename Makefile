# SPDX-License-Identifier: GPL-2.0
#
# netpmu: `make` builds the loader, the BPF objects and the kernel module into
# $(OUTPUT); `make check` runs every test; `make demo` shows it in a guest.
# `make V=1` prints the commands.

OUTPUT ?= $(CURDIR)/.output
# Architectures are named as Debian's cells name them: x86_64, arm64.
HOST_ARCH := $(patsubst aarch64,arm64,$(shell uname -m))
# The loader is built for both; arm64 is cross-built on an x86_64 machine.
ARCHES ?= x86_64 arm64
# The cells whose modules `make kmod` builds (tests/vm/cells PATTERN...);
# KDIR=DIR builds one module against that kernel tree instead.
CELLS ?=

CC ?= gcc
CLANG ?= clang
BPFTOOL ?= $(or $(shell command -v bpftool 2>/dev/null),/usr/sbin/bpftool)

ifeq ($(V),1)
Q :=
msg := @true
else
Q := @
msg = @printf '  %-8s %s\n'
MAKEFLAGS += --no-print-directory
endif

NETPMU_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE \
	  -DNETPMU_VERSION='"$(NETPMU_VERSION)"' -Ibpf -Iuser

# Every bpf/*.bpf.c (one concern each) is linked into one object, one skeleton.
# state.bpf.c defines the shared maps: libbpf 1.1's linker needs it first.
BPF_SRCS := bpf/state.bpf.c $(filter-out bpf/state.bpf.c,$(wildcard bpf/*.bpf.c))
USER_SRCS := $(wildcard user/*/*.c)
# Two programs: netpmu, and netpmu-serve, the exporter, which `netpmu serve`
# runs (user/cmd/serve_exec.c): only it links the HTTP, YAML and bcrypt libraries.
SERVE_ONLY_SRCS := $(wildcard user/serve/*.c) \
	$(foreach f,cmd_serve serve_counters serve_plan serve_main,user/cmd/$(f).c)
NETPMU_SRCS := $(filter-out $(SERVE_ONLY_SRCS),$(USER_SRCS))
SERVE_PROGRAM_SRCS := $(filter-out user/cmd/main.c user/cmd/serve_exec.c,$(USER_SRCS))
# What tests/unit/queue_map_dump.c links: the queue map and what it reads with.
QUEUE_MAP_DUMP_OBJS := $(patsubst user/%.c,%,$(wildcard user/queue/*.c)) \
	$(foreach f,netdev_netlink netdev_nl_parse pci_address pci_sysfs sysfs_read,sys/$(f)) \
	lib/parse_number lib/why_line
# What tests/unit/serve_config_dump.c links: serve's two config files.
SERVE_CONFIG_DUMP_OBJS := serve/config_yaml serve/serve_config serve/web_config \
	lib/parse_number lib/why_line
# What tests/unit/serve_pairs_dump.c links: serve's -e events, their series, the event parser.
SERVE_PAIRS_DUMP_OBJS := $(patsubst user/%.c,%,$(wildcard user/event/*.c user/pmu/*.c user/lib/*.c)) \
	$(filter-out lib/%,$(QUEUE_MAP_DUMP_OBJS)) sys/perf_counter session/counter_binding \
	$(foreach f,serve_events serve_pairs serve_records metric_store metric_families exposition,serve/$(f))
# What tests/unit/trace_query_dump.c links: trace's --where, --agg, --hist and --by.
TRACE_QUERY_DUMP_OBJS := $(foreach f,query_lexer predicate record_ref aggregation aggregation_print \
	record_groups trace_query,trace/$(f)) record/record_view lib/why_line
# What tests/unit/btf_funcs_dump.c links: the loader's reader of the kernel's BTF.
BTF_FUNCS_DUMP_OBJS := session/kernel_btf_funcs
# What tests/unit/doctor_dump.c links: doctor's diagnosis and output.
DOCTOR_DUMP_OBJS := $(patsubst user/%.c,%,$(wildcard user/doctor/*.c)) lib/json_writer lib/why_line
KMOD_SRCS := $(wildcard kmod/*.c kmod/*.h kmod/*/*.c kmod/*/*.h) kmod/Kbuild
# A stand-in module holding the HNS3 PMU's name, for the guest test that
# netpmu.ko's model leaves a registered PMU's name alone.
DUP_PMU_SRCS := tests/guest/hns3_dup_pmu/hns3_dup_pmu.c tests/guest/hns3_dup_pmu/Kbuild
# upstream's drivers/perf/hisilicon/{hns3_pmu,hisi_pcie_pmu}.c of each cell's
# kernel (unpacked by tests/vm/cell-assets), built to be loaded beside ours
UPSTREAM_PMU_KBUILD := tests/guest/upstream_pmu/Kbuild

# Per architecture: the compiler, the loader's link line, the BPF target
# and vmlinux.h (named as the kernel names the arch), into $(OUTPUT)/ARCH/.
kernel_arch_x86_64 := x86
kernel_arch_arm64 := arm64
triplet_x86_64 := x86_64-linux-gnu
triplet_arm64 := aarch64-linux-gnu
cc_for = $(if $(filter $(1),$(HOST_ARCH)),$(CC),$(triplet_$(1))-gcc)
pkgconfig_for = PKG_CONFIG_LIBDIR=/usr/lib/$(triplet_$(1))/pkgconfig:/usr/share/pkgconfig pkg-config

# libbpf; and netpmu-serve's HTTP server, --config and --web-config YAML, bcrypt checks.
LOADER_LIBS := libbpf
SERVE_LIBS := libbpf libmicrohttpd yaml-0.1 libxcrypt

define arch_rules
$(1)_OUT := $(OUTPUT)/$(1)
$(1)_BPF_PARTS := $$(patsubst bpf/%.bpf.c,$$($(1)_OUT)/bpf/%.o,$(BPF_SRCS))
$(1)_NETPMU_OBJS := $$(patsubst user/%.c,$$($(1)_OUT)/user/%.o,$(NETPMU_SRCS))
$(1)_SERVE_OBJS := $$(patsubst user/%.c,$$($(1)_OUT)/user/%.o,$(SERVE_PROGRAM_SRCS))

$$($(1)_OUT)/bpf/%.o: bpf/%.bpf.c $$(wildcard bpf/*.h) vmlinux/$(kernel_arch_$(1))/vmlinux.h
	@mkdir -p $$(@D)
	$$(msg) BPF $$@
	$$(Q)$$(CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(kernel_arch_$(1)) \
		-Ivmlinux/$(kernel_arch_$(1)) -Ibpf -Wall -Werror -c $$< -o $$@

$$($(1)_OUT)/bpf/netpmu.bpf.o: $$($(1)_BPF_PARTS)
	$$(msg) BPFLINK $$@
	$$(Q)$$(BPFTOOL) gen object $$@ $$^

$$($(1)_OUT)/bpf/netpmu.skel.h: $$($(1)_OUT)/bpf/netpmu.bpf.o
	$$(msg) SKEL $$@
	$$(Q)$$(BPFTOOL) gen skeleton $$< name netpmu_bpf > $$@.tmp && mv $$@.tmp $$@

$$($(1)_OUT)/user/%.o: user/%.c $$(wildcard user/*/*.h bpf/*.h) $$($(1)_OUT)/bpf/netpmu.skel.h
	@mkdir -p $$(@D)
	$$(msg) CC $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) -I$$($(1)_OUT)/bpf -c $$< -o $$@

# main.o and cmd_serve.o (netpmu_build_info) carry the version string:
# rebuild them when `git describe` changes.
$$($(1)_OUT)/user/cmd/main.o $$($(1)_OUT)/user/cmd/cmd_serve.o: $(OUTPUT)/version.stamp

# The queue map's test driver (tests/unit/queue_map-live.sh), also run in
# the guests, which have no compiler.
$$($(1)_OUT)/tests/queue_map_dump: tests/unit/queue_map_dump.c \
		$$(patsubst %,$$($(1)_OUT)/user/%.o,$(QUEUE_MAP_DUMP_OBJS))
	@mkdir -p $$(@D)
	$$(msg) CC $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) -static $$^ -o $$@

# The PMU fuzzer (tests/guest/pmu_fuzz.sh), static: the arm64 guest root's
# shared libraries are not to be relied on.
$$($(1)_OUT)/tests/pmu_fuzz: $(wildcard tests/kfuzz/*.c tests/kfuzz/*.h)
	@mkdir -p $$(@D)
	$$(msg) CC $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) -static $$(filter %.c,$$^) -o $$@

# The tests' known UDP flows (tests/lib/udp_flow.c), static like pmu_fuzz.
$$($(1)_OUT)/tests/udp_flow: tests/lib/udp_flow.c
	@mkdir -p $$(@D)
	$$(msg) CC $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) -static -pthread $$< -o $$@

# make bench's flood sender and receiver for the guests (static, like pmu_fuzz).
$$($(1)_OUT)/bench/flood_%: tests/bench/flood_%.c
	@mkdir -p $$(@D)
	$$(msg) CC $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) -static $$< -o $$@

# serve's config files, parsed and printed (tests/unit/serve-config.sh).
$$($(1)_OUT)/tests/serve_config_dump: tests/unit/serve_config_dump.c \
		$$(patsubst %,$$($(1)_OUT)/user/%.o,$(SERVE_CONFIG_DUMP_OBJS))
	@mkdir -p $$(@D)
	$$(msg) CC $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) $$^ -static \
		$$$$($$(call pkgconfig_for,$(1)) --static --libs yaml-0.1 libxcrypt) -o $$@

# trace's queries over records given as text (tests/unit/trace-query.sh).
$$($(1)_OUT)/tests/trace_query_dump: tests/unit/trace_query_dump.c \
		$$(patsubst %,$$($(1)_OUT)/user/%.o,$(TRACE_QUERY_DUMP_OBJS))
	@mkdir -p $$(@D)
	$$(msg) CC $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) -I$$($(1)_OUT)/bpf $$^ -o $$@

# The kernel-function lookup over a BTF file (tests/unit/kernel-btf-funcs.sh).
$$($(1)_OUT)/tests/btf_funcs_dump: tests/unit/btf_funcs_dump.c \
		$$(patsubst %,$$($(1)_OUT)/user/%.o,$(BTF_FUNCS_DUMP_OBJS))
	@mkdir -p $$(@D)
	$$(msg) CC $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) $$^ -o $$@

# doctor's findings over measured totals given as text (tests/unit/doctor.sh).
$$($(1)_OUT)/tests/doctor_dump: tests/unit/doctor_dump.c \
		$$(patsubst %,$$($(1)_OUT)/user/%.o,$(DOCTOR_DUMP_OBJS))
	@mkdir -p $$(@D)
	$$(msg) CC $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) -I$$($(1)_OUT)/bpf $$^ -o $$@

# serve's -e events as what their pairs mean (tests/unit/serve-pairs.sh).
$$($(1)_OUT)/tests/serve_pairs_dump: tests/unit/serve_pairs_dump.c \
		$$(patsubst %,$$($(1)_OUT)/user/%.o,$(SERVE_PAIRS_DUMP_OBJS))
	@mkdir -p $$(@D)
	$$(msg) CC $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) -I$$($(1)_OUT)/bpf $$^ -o $$@

# Dynamic: serve's TLS (GnuTLS, under libmicrohttpd) has no static archive in
# Debian (p11-kit, libunistring). The guests run them from this machine's root
# (x86_64) or from the arm64 root, which carries the same libraries.
$$($(1)_OUT)/netpmu: $$($(1)_NETPMU_OBJS) $$($(1)_OUT)/netpmu-serve
	$$(msg) LINK $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) $(LDFLAGS) $$(filter %.o,$$^) \
		$$$$($$(call pkgconfig_for,$(1)) --libs $(LOADER_LIBS)) -o $$@

$$($(1)_OUT)/netpmu-serve: $$($(1)_SERVE_OBJS)
	$$(msg) LINK $$@
	$$(Q)$$(call cc_for,$(1)) $$(CFLAGS) $(LDFLAGS) $$^ \
		$$$$($$(call pkgconfig_for,$(1)) --libs $(SERVE_LIBS)) -o $$@
endef
$(foreach arch,$(ARCHES),$(eval $(call arch_rules,$(arch))))

$(OUTPUT)/version.stamp: FORCE
	@mkdir -p $(@D)
	$(Q)echo '$(NETPMU_VERSION)' | cmp -s - $@ || echo '$(NETPMU_VERSION)' > $@

# The module's MODULE_VERSION: kmod/Kbuild reads a VERSION file beside the
# sources (build-module links this one there; the packages write their own).
$(OUTPUT)/module-version/VERSION: FORCE
	@mkdir -p $(@D)
	$(Q)echo '$(NETPMU_VERSION)' | cmp -s - $@ || echo '$(NETPMU_VERSION)' > $@

.PHONY: all deps deps-check netpmu loaders kmod cells check demo bench clean FORCE
.DEFAULT_GOAL := all

all: deps-check loaders kmod

# Installs what is missing; a no-op costing one dpkg query when all is there.
deps:
	$(Q)scripts/install-deps
deps-check:
	$(Q)scripts/install-deps --check || scripts/install-deps

# `netpmu` is this machine's loader, at $(OUTPUT)/netpmu too; `loaders`
# builds it for every arch.
netpmu: $(OUTPUT)/$(HOST_ARCH)/netpmu
	$(Q)ln -sfn $(HOST_ARCH)/netpmu $(OUTPUT)/netpmu
loaders: netpmu $(foreach arch,$(ARCHES),$(OUTPUT)/$(arch)/netpmu $(OUTPUT)/$(arch)/tests/queue_map_dump $(OUTPUT)/$(arch)/tests/pmu_fuzz $(OUTPUT)/$(arch)/tests/udp_flow)

# What each cell needs beyond installed packages (arm64 root and headers,
# each cell's perf), unpacked from Debian's packages.
cells:
	$(Q)tests/vm/cell-assets

# One folder per cell, $(OUTPUT)/kmod/ARCH-KVER/: netpmu.ko and the test's
# stand-in module. Kbuild decides what is stale, so it always runs.
build_module = scripts/build-module $(if $(filter 1,$(V)),-v) $(1) $(2) $(3) $(4)
ifdef KDIR
kmod: $(OUTPUT)/module-version/VERSION
	$(Q)kver=$$(cat $(KDIR)/include/config/kernel.release) && \
	$(call build_module,$(HOST_ARCH),$(KDIR),$(OUTPUT)/kmod/$(HOST_ARCH)-$$kver,$(KMOD_SRCS) $<)
else
kmod: cells $(OUTPUT)/module-version/VERSION
	$(Q)tests/vm/cells $(CELLS) | while read -r arch kver kdir; do \
		$(call build_module,$$arch,$$kdir,$(OUTPUT)/kmod/$$arch-$$kver,$(KMOD_SRCS) \
			$(OUTPUT)/module-version/VERSION) && \
		$(call build_module,$$arch,$$kdir,$(OUTPUT)/kmod/$$arch-$$kver/hns3_dup_pmu,$(DUP_PMU_SRCS)) && \
		$(call build_module,$$arch,$$kdir,$(OUTPUT)/kmod/$$arch-$$kver/upstream,$(UPSTREAM_PMU_KBUILD) \
			$(OUTPUT)/upstream/$$(echo $$kver | cut -d. -f1,2)/*.c) || exit 1; \
	done
endif

# The bench's flood sender and receiver (tests/bench/*.c).
$(OUTPUT)/bench/%: tests/bench/%.c
	@mkdir -p $(@D)
	$(msg) CC $@
	$(Q)$(CC) $(CFLAGS) $< -o $@

# Its floor (empty programs on netpmu's hooks), its parts (one kind of work
# per program) and their loader.
$(OUTPUT)/bench/%.bpf.o: tests/bench/%.bpf.c vmlinux/$(kernel_arch_$(HOST_ARCH))/vmlinux.h
	@mkdir -p $(@D)
	$(msg) BPF $@
	$(Q)$(CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(kernel_arch_$(HOST_ARCH)) \
		-Ivmlinux/$(kernel_arch_$(HOST_ARCH)) -Wall -Werror -c $< -o $@

$(OUTPUT)/bench/floor: tests/bench/floor.c
	@mkdir -p $(@D)
	$(msg) CC $@
	$(Q)$(CC) $(CFLAGS) $< -o $@ $$(pkg-config --libs libbpf)

check: all
	$(Q)CELLS="$(CELLS)" tests/run

# The debug-kernel cell (tests/vm/debug-kernel: KASAN, lockdep, kmemleak,
# UBSAN, ...): built once under $(OUTPUT)/debug-kernel, then the guest suite
# (the PMU fuzz with it) on it, with timeouts DEBUG_TIMEOUT_SCALE (8) times
# longer: the suite's whole boot gets 8 x 2400 s (a script takes about 1 min
# alone on 2 cores, about 4 beside another guest). Any report of the kernel's
# fails it (tests/vm/run). Not in `check`. DEBUG_PART=I/N boots for every Nth script
# from the Ith only (tests/guest/run-all --part): N boots make the suite,
# each with its own kernel-report check, each short enough for one sitting.
DEBUG_TIMEOUT_SCALE ?= 8
DEBUG_PART ?=
.PHONY: check-debug debug-kernel
debug-kernel:
	$(Q)tests/vm/debug-kernel >/dev/null
check-debug: deps-check loaders debug-kernel
	$(Q)$(MAKE) kmod CELLS=x86_64-debug
	$(Q)NETPMU_TIMEOUT_SCALE=$(DEBUG_TIMEOUT_SCALE) tests/run guest --cell x86_64-debug $(if $(DEBUG_PART),--part $(DEBUG_PART))

demo: all
	$(Q)tests/vm/run -- tests/demo

bench: all
	$(Q)tests/bench/run

# The PMU fuzzer (tests/guest/pmu_fuzz.sh) at issue 16's size on every cell,
# or those CELLS names: PMU_FUZZ_ITERATIONS attrs a cell, 6 to 28 min each
# under TCG here, so not in make check (which runs 20,000).
PMU_FUZZ_ITERATIONS ?= 1000000
.PHONY: fuzz-kernel
fuzz-kernel: all
	$(Q)tests/vm/cells $(CELLS) | while read -r arch kver _; do \
		echo "fuzz-kernel: $$arch $$kver: $(PMU_FUZZ_ITERATIONS) attrs"; \
		tests/vm/run --arch $$arch --kernel $$kver --timeout 10800 -- \
			env PMU_FUZZ_ITERATIONS=$(PMU_FUZZ_ITERATIONS) tests/lib/tap_run tests/guest/pmu_fuzz.sh || exit 1; \
	done

# libFuzzer harnesses and an ASan+UBSan loader (tests/fuzz/Makefile): `make
# fuzz` runs each harness FUZZ_SECONDS (60) s, `make fuzz-quick` a short pass,
# `make asan` builds $(OUTPUT)/asan/netpmu and netpmu-serve. netpmu first: its skeleton header.
.PHONY: fuzz fuzz-build fuzz-quick asan
fuzz fuzz-build fuzz-quick asan: netpmu
	$(Q)$(MAKE) -f tests/fuzz/Makefile OUTPUT=$(OUTPUT) HOST_ARCH=$(HOST_ARCH) CLANG=$(CLANG) \
		QUEUE_MAP_DUMP_OBJS="$(QUEUE_MAP_DUMP_OBJS)" NETPMU_SRCS="$(NETPMU_SRCS)" \
		SERVE_PROGRAM_SRCS="$(SERVE_PROGRAM_SRCS)" $@

clean:
	$(Q)rm -rf $(OUTPUT)

include packaging.mk
