/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Record layouts and configuration shared by the BPF programs (bpf/) and the
 * loader (user/). Only fixed-width types: both sides agree byte for byte.
 */
#ifndef NETPMU_RECORDS_H
#define NETPMU_RECORDS_H

/* BPF programs get the __u* types from vmlinux.h, the loader from the UAPI. */
#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* A PMU has 8 hardware counters; netpmu opens at most 8 in all. */
#define NETPMU_MAX_COUNTERS	8
/* Core PMU events (cycles, instructions, ...) read on every CPU: a core PMU has 6 or more counters. */
#define NETPMU_MAX_CORE_EVENTS	4
#define NETPMU_IFNAMSIZ		16

/*
 * Map sizes. A large server has a few hundred NIC queues (one NAPI and one
 * MSI-X vector each) and a few thousand IRQs in all.
 */
#define NETPMU_MAX_NAPIS	1024
#define NETPMU_MAX_IRQS		4096
#define NETPMU_MAX_QUEUES	1024

enum netpmu_record_kind {
	NETPMU_RECORD_POLL = 1,		/* one NAPI poll (--per-poll) */
	NETPMU_RECORD_QUEUE = 2,	/* one NAPI instance over one interval */
	NETPMU_RECORD_CPU = 3,		/* one CPU's NET_RX/NET_TX softirqs over one interval */
	NETPMU_RECORD_COUNTERS = 4,	/* every open counter over one interval */
	NETPMU_RECORD_CORE = 5,		/* one CPU's core counters over one interval */
};

/*
 * One counter as bpf_perf_event_read_value() saw it. err is 0 or the helper's
 * negative errno: -EINVAL or -ENOENT when the counter is not readable on the
 * CPU the program ran on (a CPU-bound uncore event).
 */
struct netpmu_counter_read {
	__u64 value;
	__u64 enabled_ns;
	__u64 running_ns;
	__s32 err;
	__u32 flags;		/* NETPMU_READ_* */
};

/* The value is the last tick's snapshot, not a read at this moment. */
#define NETPMU_READ_SNAPSHOT	(1u << 0)

/* What one counter measures, so the kernel can join it with a queue. */
enum netpmu_counter_scope {
	NETPMU_SCOPE_UNBOUND = 0,	/* global, port, port-tc, PCIe: interval record only */
	NETPMU_SCOPE_FUNC = 1,		/* one PCI function: every queue of ifindex */
	NETPMU_SCOPE_QUEUE = 2,		/* one queue of ifindex */
	NETPMU_SCOPE_INTR = 3,		/* one interrupt vector: irq */
};

/*
 * Functions are numbered by the loader (func_id), not by ifindex: IRQ numbers
 * and PCI functions are global, ifindexes are per network namespace.
 */
struct netpmu_counter_binding {
	__u32 scope;		/* enum netpmu_counter_scope */
	__u32 func_id;
	__u32 queue;
	__u32 irq;
	__u32 generation;	/* bumped by the loader whenever the counter is reopened */
	__u32 reserved;
};

/* A counter's change over one interval. */
struct netpmu_counter_delta {
	__u64 delta;
	__u64 enabled_ns;
	__u64 running_ns;
	__s32 err;		/* as in netpmu_counter_read */
	__u32 generation;	/* of the binding the delta belongs to */
};

/*
 * A core counter's change over a stretch of one CPU's time (a poll, a NET_RX
 * softirq, an interval), or the sum of such changes. running_ns below
 * enabled_ns: the counter was multiplexed with others.
 */
struct netpmu_core_delta {
	__u64 delta;
	__u64 enabled_ns;
	__u64 running_ns;
	__u32 measured;		/* stretches summed; 0 in a poll record: the poll's start was not seen */
	__s32 err;		/* the last failed read's error (bpf_perf_event_read_value), 0 if none */
};

enum netpmu_queue_dir {
	NETPMU_QUEUE_RXTX = 0,	/* one vector for a queue pair (hns3) */
	NETPMU_QUEUE_RX = 1,
	NETPMU_QUEUE_TX = 2,
};

/*
 * What the loader tells the kernel about an IRQ: the queues it serves,
 * queue + k * queue_stride for k < nr_queues (an hns3 vector serves queues
 * r, r + V, r + 2V, ... when a function has V vectors for more queues).
 */
struct netpmu_irq_queue {
	__u32 func_id;
	__u32 queue;
	__u32 dir;		/* enum netpmu_queue_dir */
	__u32 queue_stride;
	__u32 nr_queues;
	__u32 reserved;
};

/*
 * Per-IRQ activity. IRQ numbers below NETPMU_IRQ_ARRAY_SIZE (all of them on
 * most machines) index an array: no hashing, one cache line, in the handler's
 * exit hook; the rest go to a hash of NETPMU_MAX_IRQS entries. Only an IRQ
 * that serves a NAPI is counted and timed: the loader marks those of its
 * queue map before attaching, the hooks those they see scheduling a NAPI
 * (or a NAPI's irq field names, since 6.10), counted from then on. A
 * mark is a bit of irq_serves_napi_bits (below NETPMU_IRQ_ARRAY_SIZE), or
 * the IRQ's entry in the hash.
 */
#define NETPMU_IRQ_ARRAY_SIZE	4096

struct netpmu_irq_activity {
	__u64 count;
	__u64 ns;
};

/*
 * One poll: the header, then nr_counters counter reads, then nr_core core
 * deltas (from __napi_poll's entry to the napi_poll tracepoint, on this CPU).
 * Written for every poll, so it carries only what is open: 64 bytes when
 * nothing is.
 */
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
	__u32 irq;		/* the IRQ that scheduled this NAPI, 0 if not seen yet */
	__u32 nr_core;
	__u32 reserved;
};

static inline __u32 netpmu_poll_record_size(__u32 nr_counters, __u32 nr_core)
{
	return sizeof(struct netpmu_poll_record) + nr_counters * sizeof(struct netpmu_counter_read) +
	       nr_core * sizeof(struct netpmu_core_delta);
}

/* For the reader: the BPF program places them by its own (constant) counts. */
static inline const struct netpmu_counter_read *netpmu_poll_reads(const struct netpmu_poll_record *r)
{
	return (const struct netpmu_counter_read *)(r + 1);
}

static inline const struct netpmu_core_delta *netpmu_poll_core(const struct netpmu_poll_record *r)
{
	return (const struct netpmu_core_delta *)(netpmu_poll_reads(r) + r->nr_counters);
}

struct netpmu_queue_record {
	__u32 kind;		/* NETPMU_RECORD_QUEUE */
	__u32 cpu;		/* CPU of the last poll */
	__u64 ts_ns;		/* end of the interval */
	__u64 interval_ns;
	__u64 napi_key;		/* identifies the NAPI instance within one run */
	__u32 napi_id;
	__s32 ifindex;
	char ifname[NETPMU_IFNAMSIZ];
	__u32 irq;		/* learnt from the interrupt that scheduled it; 0 if none */
	__s32 queue;		/* from the loader's IRQ map; -1 if unknown */
	__u32 func_id;		/* from the loader's IRQ map; 0 if unknown */
	__u32 dir;		/* enum netpmu_queue_dir */
	__u64 polls;
	__u64 packets;
	__u64 budget_exhausted;	/* polls that used their whole budget */
	__u64 poll_ns;		/* time inside polls; see has_poll_time */
	__u64 irqs;		/* interrupts of irq in the interval */
	__u64 irq_ns;		/* time in irq's handlers */
	__u32 has_poll_time;
	__u32 counter_mask;	/* bit i: counters[i] belongs to this queue */
	struct netpmu_counter_delta counters[NETPMU_MAX_COUNTERS];
	/* The sums of its polls' core deltas (measured: polls whose start was seen). */
	struct netpmu_core_delta core[NETPMU_MAX_CORE_EVENTS];
};

struct netpmu_cpu_record {
	__u32 kind;		/* NETPMU_RECORD_CPU */
	__u32 cpu;
	__u64 ts_ns;
	__u64 interval_ns;
	__u64 net_rx;		/* NET_RX softirqs run */
	__u64 net_rx_ns;
	__u64 net_tx;
	__u64 net_tx_ns;
};

struct netpmu_counters_record {
	__u32 kind;		/* NETPMU_RECORD_COUNTERS */
	__u32 cpu;		/* where the tick ran */
	__u64 ts_ns;
	__u64 interval_ns;
	__u32 nr_counters;
	__u32 reserved;
	struct netpmu_counter_delta counters[NETPMU_MAX_COUNTERS];
};

struct netpmu_core_record {
	__u32 kind;		/* NETPMU_RECORD_CORE */
	__u32 cpu;
	__u64 ts_ns;
	__u64 interval_ns;	/* since this CPU's previous core record */
	struct netpmu_core_delta total[NETPMU_MAX_CORE_EVENTS];	/* everything the CPU counted */
	struct netpmu_core_delta net_rx[NETPMU_MAX_CORE_EVENTS];	/* inside NET_RX softirqs */
};

/* Losses, each counted, none silent. */
/*
 * trace --per-poll --where: the comparisons of the expression's top-level
 * conjunction that the napi_poll program can test before it reserves a
 * record (set in read-only data before load: no map lookup per poll). A poll
 * that fails one is not emitted; user space still tests the whole expression.
 */
#define NETPMU_MAX_POLL_FILTERS	8

enum netpmu_poll_field {
	NETPMU_POLL_CONST,		/* right side only: the filter's value */
	NETPMU_POLL_CPU,
	NETPMU_POLL_IFINDEX,
	NETPMU_POLL_NAPI_ID,
	NETPMU_POLL_IRQ,
	NETPMU_POLL_WORK,
	NETPMU_POLL_BUDGET,
	NETPMU_POLL_DEV,		/* left side only, == or != the filter's dev */
};

enum netpmu_filter_op { NETPMU_OP_EQ, NETPMU_OP_NE, NETPMU_OP_LT, NETPMU_OP_LE, NETPMU_OP_GT, NETPMU_OP_GE };

struct netpmu_poll_filter {
	__u32 left;			/* enum netpmu_poll_field */
	__u32 op;			/* enum netpmu_filter_op */
	__u32 right;			/* enum netpmu_poll_field */
	__u32 reserved;
	__s64 value;			/* right == NETPMU_POLL_CONST */
	char dev[NETPMU_IFNAMSIZ];	/* left == NETPMU_POLL_DEV, zero-padded */
};

struct netpmu_loss_counts {
	__u64 ringbuf_full;	/* records not emitted: ring buffer full */
	__u64 napi_table_full;	/* NAPI instances not tracked: table full */
	__u64 irq_table_full;	/* IRQs not tracked: table full */
};

#endif /* NETPMU_RECORDS_H */
