// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's floor: an empty program on each hook netpmu top, trace
 * --per-poll and serve attach (the host bench checks that the set is the
 * same), so that a configuration's cost can be read as a multiple of what
 * merely running BPF on those hooks costs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("tp_btf/napi_poll")
int BPF_PROG(floor_napi_poll)
{
	return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(floor_irq_entry)
{
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(floor_irq_exit)
{
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(floor_softirq_entry)
{
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(floor_softirq_exit)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
