# SPDX-License-Identifier: GPL-2.0
#
# netpmu: `make` builds the loader, the BPF objects and the kernel module into
# $(OUTPUT); `make check` runs every test; `make demo` shows it in a guest.
# `make V=1` prints the commands.

OUTPUT ?= $(CURDIR)/.output
HOST_ARCH := $(shell uname -m)
# The BPF target arch and the vmlinux/ directory are named as the kernel names them.
SRCARCH := $(patsubst x86_64,x86,$(patsubst aarch64,arm64,$(HOST_ARCH)))

# The module is built for the kernel the guest bench boots unless told otherwise.
GUEST_ARCH ?= x86_64
GUEST_KVER ?= $(shell tests/vm/guest-kernel $(GUEST_ARCH) 2>/dev/null)
KDIR ?= /usr/src/linux-headers-$(GUEST_KVER)

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
	  -DNETPMU_VERSION='"$(NETPMU_VERSION)"' \
	  -I$(OUTPUT)/bpf -Ibpf -Iuser
# Static so that one binary runs on this machine and inside any guest.
LDLIBS := -static $(shell pkg-config --static --libs libbpf 2>/dev/null || echo -lbpf -lelf -lz)

BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(SRCARCH) \
	      -Ivmlinux/$(SRCARCH) -Ibpf -Wall -Werror

# Every bpf/*.bpf.c (one concern each) is linked into one object, one skeleton.
# state.bpf.c defines the shared maps: libbpf 1.1's linker needs it first.
BPF_SRCS := bpf/state.bpf.c $(filter-out bpf/state.bpf.c,$(wildcard bpf/*.bpf.c))
BPF_PARTS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/bpf/%.o,$(BPF_SRCS))
BPF_OBJS := $(OUTPUT)/bpf/netpmu.bpf.o
BPF_SKELS := $(OUTPUT)/bpf/netpmu.skel.h

USER_SRCS := $(wildcard user/*.c)
USER_OBJS := $(patsubst user/%.c,$(OUTPUT)/user/%.o,$(USER_SRCS))

KMOD_SRCS := $(wildcard kmod/*.c kmod/*.h) kmod/Kbuild

.PHONY: all deps deps-check netpmu bpf kmod check demo bench clean FORCE
.DEFAULT_GOAL := all

all: deps-check netpmu bpf kmod

# Installs what is missing; a no-op costing one dpkg query when all is there.
deps:
	$(Q)scripts/install-deps
deps-check:
	$(Q)scripts/install-deps --check || scripts/install-deps

netpmu: $(OUTPUT)/netpmu
bpf: $(BPF_OBJS) $(BPF_SKELS)
kmod: $(OUTPUT)/kmod/netpmu.ko

$(OUTPUT)/bpf/%.o: bpf/%.bpf.c $(wildcard bpf/*.h) | $(OUTPUT)/bpf
	$(msg) BPF $@
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BPF_OBJS): $(BPF_PARTS)
	$(msg) BPFLINK $@
	$(Q)$(BPFTOOL) gen object $@ $^

$(BPF_SKELS): $(BPF_OBJS)
	$(msg) SKEL $@
	$(Q)$(BPFTOOL) gen skeleton $< name netpmu_bpf > $@.tmp && mv $@.tmp $@

$(OUTPUT)/user/%.o: user/%.c $(wildcard user/*.h bpf/*.h) $(BPF_SKELS) | $(OUTPUT)/user
	$(msg) CC $@
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

# main.o carries the version string: rebuild it when `git describe` changes.
$(OUTPUT)/user/version.stamp: FORCE | $(OUTPUT)/user
	$(Q)echo '$(NETPMU_VERSION)' | cmp -s - $@ || echo '$(NETPMU_VERSION)' > $@
$(OUTPUT)/user/main.o: $(OUTPUT)/user/version.stamp

$(OUTPUT)/netpmu: $(USER_OBJS)
	$(msg) LINK $@
	$(Q)$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

# Kbuild builds in the module's directory; sources are linked into $(OUTPUT)/kmod
# so that no build product lands in the source tree.
$(OUTPUT)/kmod/netpmu.ko: $(KMOD_SRCS) | $(OUTPUT)/kmod
	@test -d "$(KDIR)" || { echo "kmod: no kernel headers at KDIR=$(KDIR) (run: make deps, or set KDIR)" >&2; exit 1; }
	$(msg) KMOD $@
	$(Q)ln -sf $(addprefix $(CURDIR)/,$(KMOD_SRCS)) $(OUTPUT)/kmod/
	$(Q)$(MAKE) -C $(KDIR) M=$(OUTPUT)/kmod $(if $(filter 1,$(V)),V=1) modules \
		$(if $(filter 1,$(V)),,>$(OUTPUT)/kmod/build.log 2>&1 || { cat $(OUTPUT)/kmod/build.log >&2; exit 1; })

# The bench's flood sender and receiver (tests/bench/*.c).
$(OUTPUT)/bench/%: tests/bench/%.c | $(OUTPUT)/bench
	$(msg) CC $@
	$(Q)$(CC) $(CFLAGS) $< -o $@

# A stand-in module holding the HNS3 PMU's name, for the guest test that
# netpmu.ko refuses to load beside an already registered PMU.
DUP_PMU_SRCS := tests/guest/hns3_dup_pmu/hns3_dup_pmu.c tests/guest/hns3_dup_pmu/Kbuild
DUP_PMU_KO := $(OUTPUT)/tests/hns3_dup_pmu/hns3_dup_pmu.ko

kmod: $(DUP_PMU_KO)

$(DUP_PMU_KO): $(DUP_PMU_SRCS) | $(OUTPUT)/tests/hns3_dup_pmu
	@test -d "$(KDIR)" || { echo "kmod: no kernel headers at KDIR=$(KDIR) (run: make deps, or set KDIR)" >&2; exit 1; }
	$(msg) KMOD $@
	$(Q)ln -sf $(addprefix $(CURDIR)/,$(DUP_PMU_SRCS)) $(OUTPUT)/tests/hns3_dup_pmu/
	$(Q)$(MAKE) -C $(KDIR) M=$(OUTPUT)/tests/hns3_dup_pmu $(if $(filter 1,$(V)),V=1) modules \
		$(if $(filter 1,$(V)),,>$(OUTPUT)/tests/hns3_dup_pmu/build.log 2>&1 || { cat $(OUTPUT)/tests/hns3_dup_pmu/build.log >&2; exit 1; })

$(OUTPUT)/bpf $(OUTPUT)/user $(OUTPUT)/kmod $(OUTPUT)/bench $(OUTPUT)/tests/hns3_dup_pmu:
	$(Q)mkdir -p $@

check: all
	$(Q)tests/run

demo: all
	$(Q)tests/vm/run -- tests/demo

bench: all
	$(Q)tests/bench/run

clean:
	$(Q)rm -rf $(OUTPUT)
