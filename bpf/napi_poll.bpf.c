// SPDX-License-Identifier: GPL-2.0
/*
 * Per-poll records: every NAPI poll, with the NIC PMU counters read at that
 * moment, pushed through a ring buffer.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "netpmu_records.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load. */
const volatile __u32 nr_cpus = 1;
const volatile __u32 nr_counters;

/*
 * Counter i opened on CPU c sits at index i * nr_cpus + c. A CPU-bound event
 * sits only at its counting CPU's index; elsewhere the read finds no entry.
 * The loader sizes it to NETPMU_MAX_COUNTERS * nr_cpus.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} pmu_counters SEC(".maps");

/*
 * 1 MiB holds about 3,000 records: several hundred milliseconds of polls at
 * the highest rate a guest reaches, far more than the loader's poll interval.
 */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} records SEC(".maps");

/* Records lost because the ring buffer was full; the loader reports them. */
__u64 ringbuf_drops;

static __always_inline void emit_poll(struct napi_struct *napi, int work, int budget)
{
	struct netpmu_poll_record *rec;
	struct net_device *dev;
	__u32 cpu = bpf_get_smp_processor_id();
	__u32 i;

	rec = bpf_ringbuf_reserve(&records, sizeof(*rec), 0);
	if (!rec) {
		__sync_fetch_and_add(&ringbuf_drops, 1);
		return;
	}
	rec->kind = NETPMU_RECORD_POLL;
	rec->cpu = cpu;
	rec->ts_ns = bpf_ktime_get_ns();
	rec->napi_id = BPF_CORE_READ(napi, napi_id);
	dev = BPF_CORE_READ(napi, dev);
	rec->ifindex = BPF_CORE_READ(dev, ifindex);
	bpf_probe_read_kernel_str(rec->ifname, sizeof(rec->ifname), &dev->name);
	rec->work = work;
	rec->budget = budget;
	rec->nr_counters = nr_counters;
	rec->reserved = 0;
	for (i = 0; i < NETPMU_MAX_COUNTERS; i++) {
		struct netpmu_counter_read *c = &rec->counters[i];
		struct bpf_perf_event_value v = {};

		if (i < nr_counters) {
			c->err = bpf_perf_event_read_value(&pmu_counters,
							   (__u64)i * nr_cpus + cpu,
							   &v, sizeof(v));
		} else {
			c->err = 0;
		}
		c->value = v.counter;
		c->enabled_ns = v.enabled;
		c->running_ns = v.running;
		c->reserved = 0;
	}
	bpf_ringbuf_submit(rec, 0);
}

/* BTF-typed tracepoint: typed arguments, no tracefs needed. */
SEC("tp_btf/napi_poll")
int BPF_PROG(napi_poll, struct napi_struct *napi, int work, int budget)
{
	emit_poll(napi, work, budget);
	return 0;
}
