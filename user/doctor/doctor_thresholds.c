// SPDX-License-Identifier: GPL-2.0
#include "doctor/doctor_thresholds.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/why_line.h"

struct threshold_info {
	const char *name;
	double value;
	bool percent;
	const char *meaning;
};

static const struct threshold_info thresholds[DT_NR] = {
	[DT_MIN_POLLS] = { "min_polls", 50, false,
			   "polls a queue needs before its budget use is judged" },
	[DT_BUDGET_PCT] = { "budget_pct", 10, true,
			    "polls that used their whole budget, % of a queue's polls" },
	[DT_MIN_PACKETS] = { "min_packets", 1000, false,
			     "RX packets before a device's balance, or a queue's NIC and NAPI counts, are judged" },
	[DT_IMBALANCE_PCT] = { "imbalance_pct", 75, true,
			       "the busiest queue's share of its device's RX packets, %" },
	[DT_BUSY_PPS] = { "busy_pps", 1000, false,
			  "packets/s that make a queue busy (placement checks)" },
	[DT_CONSUMER_PCT] = { "consumer_pct", 90, true,
			      "samples of --pid on one CPU, % (else it moves between CPUs)" },
	[DT_IRQ_RATE] = { "irq_rate", 20000, false,
			  "interrupts/s of a queue before its coalescing is judged" },
	[DT_PKTS_PER_IRQ] = { "pkts_per_irq", 2, false,
			      "fewer packets per interrupt than this: coalescing too tight" },
	[DT_LOOSE_PKTS_PER_IRQ] = { "loose_pkts_per_irq", 32, false,
				    "this many packets per interrupt or more, with irq_gap_us: coalescing too loose" },
	[DT_IRQ_GAP_US] = { "irq_gap_us", 500, false,
			    "mean microseconds between a batched queue's interrupts: the wait of its first packet" },
	[DT_HW_SW_PCT] = { "hw_sw_pct", 5, true,
			   "difference of the NIC's and NAPI's RX packets, % of the larger" },
	[DT_NIC_LATENCY_US] = { "nic_latency_us", 50, false,
				"the NIC's mean RX latency (its latency pair), microseconds" },
	[DT_PCIE_BANDWIDTH_PCT] = { "pcie_bandwidth_pct", 80, true,
				    "PCIe bytes of the busiest interval, % of the link's capacity in one direction" },
	[DT_PCIE_LINK_MBPS] = { "pcie_link_mbps", 0, false,
				"the Root Port link's capacity per direction, Mbit/s; 0: from sysfs (speed x width)" },
	[DT_PCIE_LATENCY_CYCLES] = { "pcie_latency_cycles", 1000, false,
				     "mean latency of the Root Port's inbound memory writes, PMU cycles a TLP" },
};

void doctor_thresholds_init(struct doctor_thresholds *th)
{
	unsigned int i;

	for (i = 0; i < DT_NR; i++)
		th->value[i] = thresholds[i].value;
}

const char *doctor_threshold_name(enum doctor_threshold_id id)
{
	return thresholds[id].name;
}

static void valid_names(char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < DT_NR && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "", thresholds[i].name);
}

int doctor_threshold_set(struct doctor_thresholds *th, const char *arg, char *why, size_t why_len)
{
	const char *eq = strchr(arg, '=');
	char names[512], *end;
	unsigned int i;
	double v;

	valid_names(names, sizeof(names));
	if (!eq)
		return why_fail(why, why_len, "--threshold wants NAME=VALUE, not '%s' (names: %s)", arg, names);
	for (i = 0; i < DT_NR; i++)
		if (strlen(thresholds[i].name) == (size_t)(eq - arg) &&
		    !strncmp(arg, thresholds[i].name, eq - arg))
			break;
	if (i == DT_NR)
		return why_fail(why, why_len, "--threshold %s: unknown name '%.*s' (names: %s)", arg,
				(int)(eq - arg), arg, names);
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || !isfinite(v) || v < 0 || (thresholds[i].percent && v > 100))
		return why_fail(why, why_len, "--threshold %s: %s wants a number from 0 to %s, not '%s'",
				arg, thresholds[i].name, thresholds[i].percent ? "100" : "1e15", eq + 1);
	if (v > 1e15)
		return why_fail(why, why_len, "--threshold %s: %s wants a number from 0 to 1e15, not '%s'",
				arg, thresholds[i].name, eq + 1);
	th->value[i] = v;
	return 0;
}

void doctor_thresholds_usage(FILE *out)
{
	unsigned int i;
	char def[40];

	for (i = 0; i < DT_NR; i++) {
		snprintf(def, sizeof(def), "%s=%g", thresholds[i].name, thresholds[i].value);
		fprintf(out, "    %-18s %s\n", def, thresholds[i].meaning);
	}
}
