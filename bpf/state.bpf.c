// SPDX-License-Identifier: GPL-2.0
/* Defines the maps and settings every netpmu BPF program shares. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#define NETPMU_STATE_DEFINE
#include "netpmu_state.bpf.h"

char LICENSE[] SEC("license") = "GPL";
