// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's parts: what each kind of work netpmu's programs do costs, one
 * program per part on softirq_entry (once per datagram in the worst case),
 * so that each part's ns per run minus part_empty's is that part alone.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct part_slot {
	__u64 count;
	__u64 sum;
	__u8 pad[48];	/* a cache line each */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct part_slot);
} part_cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct part_slot);
} part_local SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 16);
} part_ring SEC(".maps");

SEC("tp_btf/softirq_entry")
int BPF_PROG(part_empty)
{
	return 0;
}

/* One bpf_ktime_get_ns(): what the softirq, IRQ and poll-time hooks read at each end. */
SEC("tp_btf/softirq_entry")
int BPF_PROG(part_clock)
{
	volatile __u64 now = bpf_ktime_get_ns();

	(void)now;
	return 0;
}

/* This CPU's slot of an array (inlined lookup) and a plain add: the softirq hooks' state. */
SEC("tp_btf/softirq_entry")
int BPF_PROG(part_cpu_slot)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct part_slot *s = bpf_map_lookup_elem(&part_cpus, &cpu);

	if (s)
		s->count++;
	return 0;
}

/* A per-CPU array's slot and a plain add: the per-CPU context napi_poll reads. */
SEC("tp_btf/softirq_entry")
int BPF_PROG(part_percpu_slot)
{
	__u32 zero = 0;
	struct part_slot *s = bpf_map_lookup_elem(&part_local, &zero);

	if (s)
		s->count++;
	return 0;
}

/* The same slot with a locked add, as counters shared between CPUs need. */
SEC("tp_btf/softirq_entry")
int BPF_PROG(part_locked_add)
{
	__u32 zero = 0;
	struct part_slot *s = bpf_map_lookup_elem(&part_local, &zero);

	if (s)
		__sync_fetch_and_add(&s->sum, 1);
	return 0;
}

/* A ring buffer reservation, discarded: what a per-poll record costs besides its contents. */
SEC("tp_btf/softirq_entry")
int BPF_PROG(part_ring_reserve)
{
	__u64 *rec = bpf_ringbuf_reserve(&part_ring, 256, 0);

	if (rec)
		bpf_ringbuf_discard(rec, BPF_RB_NO_WAKEUP);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
