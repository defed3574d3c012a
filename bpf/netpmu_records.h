/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Record layouts shared by the BPF programs (bpf/) and the loader (user/).
 * Only fixed-width types: both sides must agree byte for byte.
 */
#ifndef NETPMU_RECORDS_H
#define NETPMU_RECORDS_H

/* A PMU has 8 hardware counters; netpmu never opens more per PMU. */
#define NETPMU_MAX_COUNTERS	8
#define NETPMU_IFNAMSIZ		16

enum netpmu_record_kind {
	NETPMU_RECORD_POLL = 1,	/* one NAPI poll, with the counters read then */
};

/*
 * One counter as bpf_perf_event_read_value() saw it. err is 0 or the helper's
 * negative errno: -ENOENT when the counter is not readable on the CPU the
 * program ran on (a CPU-bound uncore event), which the loader reports as such.
 */
struct netpmu_counter_read {
	__u64 value;
	__u64 enabled_ns;
	__u64 running_ns;
	__s32 err;
	__u32 reserved;
};

struct netpmu_poll_record {
	__u32 kind;		/* NETPMU_RECORD_POLL */
	__u32 cpu;
	__u64 ts_ns;		/* bpf_ktime_get_ns() at the end of the poll */
	__u32 napi_id;
	__s32 ifindex;
	__s32 work;		/* packets processed by this poll */
	__s32 budget;
	char ifname[NETPMU_IFNAMSIZ];
	__u32 nr_counters;
	__u32 reserved;
	struct netpmu_counter_read counters[NETPMU_MAX_COUNTERS];
};

#endif /* NETPMU_RECORDS_H */
