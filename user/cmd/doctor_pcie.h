/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu doctor's PCIe counters: the PCIe PMU of the Root Port above --dev's
 * function, its bytes each way and, with a port bitmap (--pcie-port: sysfs
 * cannot tell a Root Port's bit, on a Hip09 its lane offset), the latency of
 * its inbound memory writes; open for the whole run, outside the rotation
 * (they count a link, not a queue), and read once an interval for the
 * busiest one. The link's capacity comes from the Root Port's sysfs link
 * speed and width, or from --threshold pcie_link_mbps.
 */
#ifndef NETPMU_DOCTOR_PCIE_H
#define NETPMU_DOCTOR_PCIE_H

#include <stdbool.h>
#include <stdint.h>

#include "doctor/doctor_totals.h"
#include "event/event_parse.h"

enum doctor_pcie_role {
	DP_UP_WRITES,		/* rx_mwr_flux, leader of its time */
	DP_UP_TIME,		/* rx_mwr_time: the PMU's clock */
	DP_UP_READS,		/* rx_mrd_flux */
	DP_DOWN_COMPLETIONS,	/* tx_cpl_flux */
	DP_DOWN_WRITES,		/* tx_mwr_flux */
	DP_LATENCY,		/* rx_mwr_latency, leader of its TLP count (port filter only) */
	DP_LATENCY_TLPS,	/* rx_mwr_cnt */
	DP_NR,
};

struct doctor_pcie_counters {
	bool opened;			/* doctor_pcie_open() ran: there is something to close */
	struct event_catalog catalog;
	struct parsed_event events[DP_NR];
	int fds[DP_NR];
	uint64_t last_up, last_down, last_ns;	/* at the previous read */
};

/*
 * Opens the counters of PCI_BDF's Root Port ("0000:02:00.1") with PORT (0:
 * the function's own traffic, by bdf) into OUT, LINK_MBPS the declared
 * capacity (0: sysfs's). What cannot be measured is said in
 * OUT->not_measured (no PCIe PMU, no Root Port, a refused counter): doctor
 * goes on without.
 */
void doctor_pcie_open(struct doctor_pcie_counters *pc, struct doctor_pcie *out, const char *sysfs_root,
		      const char *pci_bdf, uint64_t port, double link_mbps);

/* Reads the counters into OUT: the run's sums and, since the last read, a candidate busiest interval. */
void doctor_pcie_read(struct doctor_pcie_counters *pc, struct doctor_pcie *out);

/* Closes what doctor_pcie_open() opened; nothing on a zeroed PC. */
void doctor_pcie_close(struct doctor_pcie_counters *pc);

#endif
