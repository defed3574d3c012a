/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What netpmu doctor measured, summed over its run: per NAPI instance (a
 * queue) the kernel's counts and, for the intervals the rotated HNS3 counters
 * measured that queue whole, the NIC's own counts beside the NAPI packets of
 * the same intervals; per CPU its NET_RX softirq time; the CPUs each queue's
 * IRQ may run on; and where the consumer process ran. Filled from the
 * session's interval records (doctor_totals_add_*), or from a fixture by the
 * unit test's driver; read by the diagnosis (doctor_rules.h).
 */
#ifndef NETPMU_DOCTOR_TOTALS_H
#define NETPMU_DOCTOR_TOTALS_H

#include <stdbool.h>
#include <stdint.h>

#include "netpmu_records.h"

#define DOCTOR_MAX_QUEUES 256
#define DOCTOR_MAX_CPUS 1024
/* CPUs one queue's polls are remembered on (more: counted on the last). */
#define DOCTOR_QUEUE_CPUS 8

/* Which session counter (index of netpmu_queue_record.counters) counts what; -1: none. */
struct doctor_counter_roles {
	int rx_packets, rx_bytes, tx_packets;
	int rx_latency_cycles, rx_latency_packets;
};

struct doctor_cpu_share {
	unsigned int cpu;
	uint64_t polls, packets;
};

/* The NIC's own counts over the intervals its counters measured the queue whole (RX NAPIs only). */
struct doctor_hw {
	uint64_t intervals;
	uint64_t ns;			/* their length */
	uint64_t rx_packets, rx_bytes, tx_packets;
	uint64_t latency_cycles, latency_packets;
	uint64_t napi_packets;		/* NAPI's packets in the same intervals */
	uint32_t last_generation;	/* of the queue's previous counted interval */
};

struct doctor_queue {
	char ifname[NETPMU_IFNAMSIZ];
	uint64_t napi_key;
	int queue;			/* -1: unknown */
	unsigned int dir;		/* enum netpmu_queue_dir */
	unsigned int func_id;
	unsigned int irq;		/* 0: unknown */
	char affinity[64];		/* the IRQ's smp_affinity_list; "": unknown */
	uint64_t polls, packets, budget_exhausted, poll_ns, irqs, irq_ns;
	uint64_t busy_ns;		/* the intervals it received or sent packets in */
	bool has_poll_time;
	struct doctor_cpu_share cpus[DOCTOR_QUEUE_CPUS];
	unsigned int nr_cpus;
	struct doctor_hw hw;
};

struct doctor_cpu {
	uint64_t net_rx, net_rx_ns;
};

/* The process the operator named (--pid): where it was seen running. */
struct doctor_consumer {
	int pid;			/* 0: none named */
	char comm[32];
	unsigned int samples;
	unsigned int cpu;		/* the CPU it was seen on most */
	unsigned int samples_on_cpu;
	unsigned int seen[DOCTOR_MAX_CPUS];
};

/*
 * The PCIe link above the NIC (--dev): the PCIe PMU's counters of its Root
 * Port (port=, with --pcie-port) or of its function (bdf=), open for the
 * whole run beside the rotation, read at each interval for the busiest one.
 * Bytes are TLP headers and payloads, up = from the NIC (DMA writes, read
 * requests), down = to it (read completions, MMIO writes).
 */
struct doctor_pcie {
	char pmu[64];			/* "": not measured, not_measured says why */
	char not_measured[384];
	char root_port[16];		/* "0000:00:02.0"; "": unknown */
	char target[64];		/* what was counted: "port=0x2", "bdf=0x201 (02:00.1)" */
	char link[48];			/* the Root Port's link as sysfs says: "16.0 GT/s PCIe x32"; "": unknown */
	double link_mbps;		/* its capacity per direction, Mbit/s; 0: unknown */
	bool link_declared;		/* link_mbps from --threshold pcie_link_mbps, not from sysfs */
	uint64_t up_bytes, down_bytes;	/* over the run */
	uint64_t ns;			/* the time they counted */
	double peak_up_bps, peak_down_bps;	/* bytes/s of the busiest interval */
	bool has_latency;		/* the latency pair was counted (a port filter only) */
	uint64_t latency_cycles, latency_tlps;	/* the Root Port's inbound memory writes */
	double clk_hz;			/* cycles/s of the PMU's time counter; 0: unknown */
};

struct doctor_totals {
	double duration_s;
	unsigned int nr_cpus;		/* online CPUs */
	struct doctor_queue queues[DOCTOR_MAX_QUEUES];
	unsigned int nr_queues;
	unsigned int queues_dropped;	/* NAPIs beyond DOCTOR_MAX_QUEUES */
	/* NAPIs known at the last restart: left out until they poll (a freed vector's stay in the table). */
	uint64_t stale_napis[DOCTOR_MAX_QUEUES];
	unsigned int nr_stale_napis;
	struct doctor_cpu cpus[DOCTOR_MAX_CPUS];
	struct doctor_consumer consumer;
	char hw_pmu[64];		/* "": the NIC's counters were not read */
	uint64_t hw_clk_freq;		/* Hz of the latency cycles; 0: unknown */
	struct doctor_pcie pcie;
};

/* One interval's record of a NAPI instance; ROLES say which of its counters count what. */
void doctor_totals_add_queue(struct doctor_totals *t, const struct netpmu_queue_record *r,
			     const struct doctor_counter_roles *roles);

/*
 * A queue of function FUNC_ID no NAPI record named (it never polled): judged
 * with its device, whose name a queue of the same function gave. Ignored when
 * the queue is known or no queue of the function is.
 */
void doctor_totals_add_idle(struct doctor_totals *t, unsigned int func_id, int queue, unsigned int dir,
			    unsigned int irq);

void doctor_totals_add_cpu(struct doctor_totals *t, const struct netpmu_cpu_record *r);

/* The consumer was seen running on CPU. */
void doctor_totals_consumer_seen(struct doctor_totals *t, unsigned int cpu);

/*
 * Forgets the queues and CPUs' sums (a NIC's queues changed: they were of
 * queues that are gone), keeping the consumer's samples, the PMUs' names and
 * the PCIe link's counts, which do not depend on the queues. The NAPIs known
 * so far are left out until they poll again: a freed vector's NAPI stays in
 * the kernel's table, idle, and its IRQ may serve another queue now.
 */
void doctor_totals_restart(struct doctor_totals *t);

/* Orders the queues by device, queue, direction: the order they are judged and printed in. */
void doctor_totals_sort(struct doctor_totals *t);

/* The CPU that polled most of the queue's packets (most polls when none). */
unsigned int doctor_queue_cpu(const struct doctor_queue *q);

/* Counts a poll share on CPU (for the fixtures and the records alike). */
void doctor_queue_add_cpu(struct doctor_queue *q, unsigned int cpu, uint64_t polls, uint64_t packets);

#endif
