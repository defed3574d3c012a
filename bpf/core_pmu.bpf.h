/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the core PMU's counters (cycles, instructions, ...) of the CPU a
 * program runs on, and the changes between two readings, for the programs
 * that measure a stretch of that CPU's time: NAPI polls, NET_RX softirqs and
 * the per-CPU core tick.
 */
#ifndef NETPMU_CORE_PMU_BPF_H
#define NETPMU_CORE_PMU_BPF_H

#include "netpmu_state.bpf.h"

static __always_inline struct cpu_core *this_cpu_core(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_core, &zero);
}

/* Core event I's counter on this CPU; one map per event, indexed by CPU. */
static __always_inline long read_core_counter(__u32 i, struct bpf_perf_event_value *v)
{
	switch (i) {
	case 0:
		return bpf_perf_event_read_value(&core_counters_0, BPF_F_CURRENT_CPU, v, sizeof(*v));
	case 1:
		return bpf_perf_event_read_value(&core_counters_1, BPF_F_CURRENT_CPU, v, sizeof(*v));
	case 2:
		return bpf_perf_event_read_value(&core_counters_2, BPF_F_CURRENT_CPU, v, sizeof(*v));
	default:
		return bpf_perf_event_read_value(&core_counters_3, BPF_F_CURRENT_CPU, v, sizeof(*v));
	}
}

/* Reads every core counter of this CPU into AT. */
static __always_inline void read_core_counters(struct core_reading *at)
{
	struct bpf_perf_event_value v;
	__u32 i;

	for (i = 0; i < NETPMU_MAX_CORE_EVENTS; i++) {
		if (i >= nr_core_events)
			break;
		long err;

		v = (struct bpf_perf_event_value){};
		err = read_core_counter(i, &v);
		at[i] = (struct core_reading){
			.value = v.counter,
			.enabled_ns = v.enabled,
			.running_ns = v.running,
			.err = err,
		};
	}
}

/* OUT = the change from FROM to the counters now: one measured stretch, or the error. */
static __always_inline void core_change_since(const struct core_reading *from,
					      struct netpmu_core_delta *out)
{
	/* Zeroed: LLVM may spill elements never read, which the verifier refuses if undefined. */
	struct core_reading now[NETPMU_MAX_CORE_EVENTS] = {};
	__u32 i;

	read_core_counters(now);
	for (i = 0; i < NETPMU_MAX_CORE_EVENTS; i++) {
		if (i >= nr_core_events)
			break;
		out[i].err = from[i].err ?: now[i].err;
		out[i].measured = !out[i].err;
		if (out[i].err) {
			out[i].delta = out[i].enabled_ns = out[i].running_ns = 0;
			continue;
		}
		out[i].delta = now[i].value - from[i].value;
		out[i].enabled_ns = now[i].enabled_ns - from[i].enabled_ns;
		out[i].running_ns = now[i].running_ns - from[i].running_ns;
	}
}

/* Adds the measured stretches of D to SUM; a failed one leaves its error. */
static __always_inline void core_add(struct netpmu_core_delta *sum, const struct netpmu_core_delta *d)
{
	__u32 i;

	for (i = 0; i < NETPMU_MAX_CORE_EVENTS; i++) {
		if (i >= nr_core_events)
			break;
		if (d[i].err) {
			sum[i].err = d[i].err;
			continue;
		}
		sum[i].delta += d[i].delta;
		sum[i].enabled_ns += d[i].enabled_ns;
		sum[i].running_ns += d[i].running_ns;
		sum[i].measured += d[i].measured;
	}
}

/* OUT = NOW - THEN, for sums taken at two moments. */
static __always_inline void core_sums_diff(const struct netpmu_core_delta *now,
					   const struct netpmu_core_delta *then,
					   struct netpmu_core_delta *out)
{
	__u32 i;

	for (i = 0; i < NETPMU_MAX_CORE_EVENTS; i++) {
		out[i].delta = now[i].delta - then[i].delta;
		out[i].enabled_ns = now[i].enabled_ns - then[i].enabled_ns;
		out[i].running_ns = now[i].running_ns - then[i].running_ns;
		out[i].measured = now[i].measured - then[i].measured;
		out[i].err = now[i].err;
	}
}

#endif /* NETPMU_CORE_PMU_BPF_H */
