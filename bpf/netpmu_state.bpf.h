/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State shared by netpmu's BPF programs, which are linked into one object:
 * declared extern here for every program, defined by state.bpf.c, which
 * includes this file with NETPMU_STATE_DEFINE set.
 */
#ifndef NETPMU_STATE_BPF_H
#define NETPMU_STATE_BPF_H

#include <bpf/bpf_core_read.h>
#include "netpmu_records.h"

#ifdef NETPMU_STATE_DEFINE
#define NETPMU_SHARED
#else
#define NETPMU_SHARED extern
#endif

/* errno values are not in vmlinux.h. */
#define E2BIG	7

/*
 * Activity of one NAPI instance, in the slot it got on first sight (slots are
 * handed out in order and never reused; napi_slots maps its address to it).
 */
struct napi_activity {
	__u64 napi_key;		/* the napi_struct's address; 0: slot not in use */
	__u32 napi_id;
	__s32 ifindex;
	char ifname[NETPMU_IFNAMSIZ];
	__u32 irq;		/* IRQ seen scheduling it, 0 if none yet */
	__u32 last_cpu;
	__u64 polls;
	__u64 packets;
	__u64 budget_exhausted;
	__u64 poll_ns;
	/* The same quantities at the last interval tick (written by the tick only). */
	__u64 tick_polls;
	__u64 tick_packets;
	__u64 tick_budget_exhausted;
	__u64 tick_poll_ns;
	__u32 tick_irq;
	__u32 reserved;
	__u64 tick_irqs;
	__u64 tick_irq_ns;
	/* Sums of its polls' core deltas, and the sums at the last tick. */
	struct netpmu_core_delta core[NETPMU_MAX_CORE_EVENTS];
	struct netpmu_core_delta tick_core[NETPMU_MAX_CORE_EVENTS];
};

/*
 * A clock read costs more than the rest of the softirq hooks (about 40 ns
 * each in a KVM guest): on a CPU that ran more than SOFTIRQ_TIME_ALL_BELOW
 * NET softirqs a second over the last SOFTIRQ_RATE_WINDOW_NS, 1 in
 * SOFTIRQ_TIME_SAMPLED of each vector's softirqs is timed and weighed by
 * that; below, every one. The rate is taken at the end of a timed softirq,
 * where the clock has been read anyway.
 */
#define SOFTIRQ_TIME_ALL_BELOW	10000
#define SOFTIRQ_TIME_SAMPLED	16
#define SOFTIRQ_RATE_WINDOW_NS	(10 * 1000 * 1000)

struct cpu_softirq {
	__u64 net_rx;		/* NET_RX softirqs run: every one */
	__u64 net_rx_ns;	/* their time: summed, or estimated from the timed ones */
	__u64 net_tx;
	__u64 net_tx_ns;
	__u64 entry_ns;		/* start of the running NET softirq if timed, else 0 */
	__u32 entered;		/* the running NET softirq's vector + 1, 0: none seen */
	__u32 entry_weight;	/* the softirqs the timed one stands for (the mask at its entry + 1) */
	__u32 time_mask;	/* time a softirq whose vector's count & mask is 0 */
	__u32 reserved;
	__u64 window_ns;	/* start of the rate window, and the softirqs run by then */
	__u64 window_softirqs;
	__u64 tick_net_rx;
	__u64 tick_net_rx_ns;
	__u64 tick_net_tx;
	__u64 tick_net_tx_ns;
};

/* What is running on one CPU right now. */
struct netpmu_cpu_state {
	__u32 irq;		/* hardirq being handled, 0 outside handlers */
	__u32 reserved;
	__u64 irq_entry_ns;
	__u64 poll_entry_ns;
	__u64 poll_napi;	/* the NAPI being polled, for exit hooks without arguments */
	/* napi_poll's cache of the slot of the NAPI it saw last (only it uses these). */
	__u64 cached_napi;
	__u32 cached_slot;
	__u32 reserved2;
};

/* One reading of a core counter on this CPU. */
struct core_reading {
	__u64 value;
	__u64 enabled_ns;
	__u64 running_ns;
	__s32 err;
	__u32 reserved;
};

/* One CPU's core counter readings; only that CPU touches its entry. */
struct cpu_core {
	struct core_reading poll_start[NETPMU_MAX_CORE_EVENTS];
	__u64 poll_napi;	/* the NAPI whose poll poll_start began; 0: none */
	struct core_reading net_rx_start[NETPMU_MAX_CORE_EVENTS];
	__u32 in_net_rx;
	__u32 reserved;
	struct netpmu_core_delta net_rx[NETPMU_MAX_CORE_EVENTS];	/* sums inside NET_RX softirqs */
	/* At this CPU's last core tick (zero before: the counters' state when opened). */
	struct core_reading tick_total[NETPMU_MAX_CORE_EVENTS];
	struct netpmu_core_delta tick_net_rx[NETPMU_MAX_CORE_EVENTS];
	__u64 tick_ns;
};

/* The tick's last reading of one counter. */
struct counter_state {
	struct netpmu_counter_read last;
	__u32 generation;
	__u32 valid;
	/*
	 * The reading last handed to queue records. It advances only when a
	 * queue record took the counter, so counts made before the NAPI was
	 * first seen (a TX completion polled after the tick) reach the next
	 * queue record instead of none.
	 */
	struct netpmu_counter_read joined;
	__u32 joined_generation;
	__u32 joined_valid;
};

/* An array, so that a poll finds its NAPI's entry without hashing (see napi_activity_get). */
NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NETPMU_MAX_NAPIS);
	__type(key, __u32);
	__type(value, struct napi_activity);
} napi_activity SEC(".maps");

/* NAPI address -> its slot in napi_activity. */
NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NETPMU_MAX_NAPIS);
	__type(key, __u64);
	__type(value, __u32);
} napi_slots SEC(".maps");

/* Per-IRQ activity (netpmu_records.h says which IRQs are counted). */
NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NETPMU_IRQ_ARRAY_SIZE);
	__type(key, __u32);
	__type(value, struct netpmu_irq_activity);
} irq_activity_low SEC(".maps");

NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NETPMU_MAX_IRQS);
	__type(key, __u32);
	__type(value, struct netpmu_irq_activity);
} irq_activity SEC(".maps");

NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NETPMU_MAX_QUEUES);
	__type(key, __u32);
	__type(value, struct netpmu_irq_queue);
} irq_queue SEC(".maps");

/* One entry per possible CPU: the loader sets max_entries to nr_cpus. */
NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_softirq);
} cpu_softirq SEC(".maps");

NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct netpmu_cpu_state);
} cpu_context SEC(".maps");

NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NETPMU_MAX_COUNTERS);
	__type(key, __u32);
	__type(value, struct netpmu_counter_binding);
} counter_bindings SEC(".maps");

NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NETPMU_MAX_COUNTERS);
	__type(key, __u32);
	__type(value, struct counter_state);
} counter_state SEC(".maps");

NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_core);
} cpu_core SEC(".maps");

/*
 * Core event i's counter of CPU c at index c of core_counters_i, for
 * bpf_perf_event_read_value(BPF_F_CURRENT_CPU). No max_entries: libbpf makes
 * a perf event array as large as the possible CPUs.
 */
#define CORE_COUNTERS_MAP(i)						\
	NETPMU_SHARED struct {						\
		__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);		\
		__uint(key_size, sizeof(__u32));			\
		__uint(value_size, sizeof(__u32));			\
	} core_counters_##i SEC(".maps")
CORE_COUNTERS_MAP(0);
CORE_COUNTERS_MAP(1);
CORE_COUNTERS_MAP(2);
CORE_COUNTERS_MAP(3);

/* Counter i opened on CPU c sits at i * nr_cpus + c: the loader sizes it. */
NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} pmu_counters SEC(".maps");

/*
 * 1 MiB holds about 2,300 per-poll records (448 bytes with the ring's header): several hundred
 * milliseconds of polls at a guest's highest rate, far more than the loader's
 * 100 ms poll interval. Interval records are a few per queue per second. The
 * loader may resize it (--ringbuf-kb).
 */
NETPMU_SHARED struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} records SEC(".maps");

NETPMU_SHARED struct netpmu_loss_counts losses;
/* Polls whose record the kernel filter left out (not a loss: not asked for). */
NETPMU_SHARED __u64 polls_filtered;
/* Slots of napi_activity handed out so far (some may have lost a race: napi_key 0). */
NETPMU_SHARED __u32 napi_slots_used;
/* When a per-poll record last woke the reader (see napi_poll.bpf.c). */
NETPMU_SHARED __u64 records_woken_ns;
/* Which IRQs below NETPMU_IRQ_ARRAY_SIZE serve a NAPI (netpmu_records.h): hot in cache, unlike irq_activity_low. */
NETPMU_SHARED __u64 irq_serves_napi_bits[NETPMU_IRQ_ARRAY_SIZE / 64];
/* Set by the loader once both poll-time hooks are attached. */
NETPMU_SHARED __u32 poll_time_enabled;

/* Set by the loader before load. */
NETPMU_SHARED const volatile __u32 nr_cpus;
NETPMU_SHARED const volatile __u32 nr_counters;
NETPMU_SHARED const volatile __u32 nr_core_events;
NETPMU_SHARED const volatile __u32 per_poll_records;
/* 0: the tick only refreshes counter snapshots (for --per-poll). */
NETPMU_SHARED const volatile __u32 interval_records;
/* --per-poll --where's part tested in the kernel (netpmu_records.h). */
NETPMU_SHARED const volatile __u32 nr_poll_filters;
NETPMU_SHARED const volatile struct netpmu_poll_filter poll_filters[NETPMU_MAX_POLL_FILTERS];

static __always_inline struct netpmu_cpu_state *this_cpu_context(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_context, &zero);
}

static __always_inline long read_counter(__u32 i, __u32 cpu, struct bpf_perf_event_value *v)
{
	return bpf_perf_event_read_value(&pmu_counters, (__u64)i * nr_cpus + cpu, v, sizeof(*v));
}

/*
 * First sight of NAPI: a new slot with its identity, read once, on a branch
 * the hot path does not take. Inlined: a static subprogram of this header
 * would be emitted once per program file in the linked object.
 * Returns the slot, or -1 if the table is full.
 */
static __always_inline long napi_activity_create(struct napi_struct *napi)
{
	__u64 key = (__u64)napi;
	struct napi_activity *act;
	struct net_device *dev;
	__u32 slot, *won;

	slot = __sync_fetch_and_add(&napi_slots_used, 1);
	act = bpf_map_lookup_elem(&napi_activity, &slot);
	if (!act) {
		__sync_fetch_and_add(&losses.napi_table_full, 1);
		return -1;
	}
	act->napi_id = BPF_CORE_READ(napi, napi_id);
	dev = BPF_CORE_READ(napi, dev);
	act->ifindex = BPF_CORE_READ(dev, ifindex);
	/* The per-CPU backlog NAPI has no device. */
	if (dev)
		bpf_probe_read_kernel_str(act->ifname, sizeof(act->ifname), &dev->name);
	/* Another CPU may have seen it at the same moment: the first slot mapped wins. */
	if (bpf_map_update_elem(&napi_slots, &key, &slot, BPF_NOEXIST)) {
		won = bpf_map_lookup_elem(&napi_slots, &key);
		return won ? *won : -1;
	}
	/* In use from now on: the tick skips slots whose napi_key is 0. */
	__sync_lock_test_and_set(&act->napi_key, key);
	return slot;
}

/* The activity entry of NAPI if it was seen before, else NULL. */
static __always_inline struct napi_activity *napi_activity_find(__u64 key)
{
	__u32 *slot = bpf_map_lookup_elem(&napi_slots, &key);

	return slot ? bpf_map_lookup_elem(&napi_activity, slot) : NULL;
}

/* The activity entry of NAPI, created on first sight; NULL if the table is full. */
static __always_inline struct napi_activity *napi_activity_get(struct napi_struct *napi)
{
	struct napi_activity *act = napi_activity_find((__u64)napi);
	__u32 slot;
	long got;

	if (act)
		return act;
	got = napi_activity_create(napi);
	if (got < 0)
		return NULL;
	slot = got;
	return bpf_map_lookup_elem(&napi_activity, &slot);
}

/* IRQ's activity entry if it has one, else NULL. */
static __always_inline struct netpmu_irq_activity *irq_activity_find(__u32 irq)
{
	if (irq < NETPMU_IRQ_ARRAY_SIZE)
		return bpf_map_lookup_elem(&irq_activity_low, &irq);
	return bpf_map_lookup_elem(&irq_activity, &irq);
}

/* Whether IRQ serves a NAPI, and so is counted and timed. */
static __always_inline bool irq_serves_napi(__u32 irq)
{
	if (irq < NETPMU_IRQ_ARRAY_SIZE)
		return irq_serves_napi_bits[irq / 64] & (1ULL << (irq % 64));
	return bpf_map_lookup_elem(&irq_activity, &irq) != NULL;
}

/* IRQ's activity entry, created on first sight; NULL if the table is full. */
static __always_inline struct netpmu_irq_activity *irq_activity_get(__u32 irq)
{
	struct netpmu_irq_activity *act = irq_activity_find(irq), fresh = {};

	if (act || irq < NETPMU_IRQ_ARRAY_SIZE)
		return act;
	if (bpf_map_update_elem(&irq_activity, &irq, &fresh, BPF_NOEXIST) == -E2BIG) {
		__sync_fetch_and_add(&losses.irq_table_full, 1);
		return NULL;
	}
	return bpf_map_lookup_elem(&irq_activity, &irq);
}

/* From now on IRQ is counted and timed: it was seen serving a NAPI. */
static __always_inline void mark_irq_serves_napi(__u32 irq)
{
	if (irq_serves_napi(irq))
		return;
	if (irq < NETPMU_IRQ_ARRAY_SIZE)
		__sync_fetch_and_or(&irq_serves_napi_bits[irq / 64], 1ULL << (irq % 64));
	else
		irq_activity_get(irq);
}

/*
 * HANDLER(napi) on each call of FUNC(struct napi_struct *napi), as two
 * programs: NAME by fentry where the kernel has BPF trampolines, NAME_kprobe
 * by kprobe elsewhere; the loader picks one. Needs <bpf/bpf_tracing.h>.
 */
#define NETPMU_NAPI_HOOK(name, func, handler)				\
SEC("fentry/" #func)							\
int BPF_PROG(name, struct napi_struct *napi)				\
{									\
	handler(napi);							\
	return 0;							\
}									\
SEC("kprobe/" #func)							\
int BPF_KPROBE(name##_kprobe, struct napi_struct *napi)			\
{									\
	handler(napi);							\
	return 0;							\
}

#endif /* NETPMU_STATE_BPF_H */
