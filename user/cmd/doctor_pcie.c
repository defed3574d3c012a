// SPDX-License-Identifier: GPL-2.0
#include "cmd/doctor_pcie.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/pci_address.h"
#include "sys/pci_sysfs.h"
#include "sys/perf_counter.h"
#include "sys/sysfs_read.h"

static const char *const role_events[DP_NR] = {
	[DP_UP_WRITES] = "rx_mwr_flux",
	[DP_UP_TIME] = "rx_mwr_time",
	[DP_UP_READS] = "rx_mrd_flux",
	[DP_DOWN_COMPLETIONS] = "tx_cpl_flux",
	[DP_DOWN_WRITES] = "tx_mwr_flux",
	[DP_LATENCY] = "rx_mwr_latency",
	[DP_LATENCY_TLPS] = "rx_mwr_cnt",
};

/* The member of a pair is opened in its leader's group. */
static int leader_of(unsigned int role)
{
	return role == DP_UP_TIME ? DP_UP_WRITES : role == DP_LATENCY_TLPS ? DP_LATENCY : -1;
}

/* Mbit/s of one lane after the line code: 8b/10b to 5 GT/s, 128b/130b from 8, FLITs from 64. */
static double lane_mbps(double gts)
{
	if (gts <= 5.0)
		return gts * 1000 * 8 / 10;
	if (gts < 64.0)
		return gts * 1000 * 128 / 130;
	return gts * 1000 * 242 / 256;
}

/* The Root Port's link from sysfs: "16.0 GT/s PCIe" and "32", its capacity per direction. */
static void read_link(const char *sysfs_root, struct doctor_pcie *out)
{
	char dir[256], *speed = NULL, *width = NULL;
	double gts = 0;
	unsigned int lanes = 0;

	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%s", sysfs_root ? sysfs_root : "/sys", out->root_port);
	if (!sysfs_read_attr(dir, "current_link_speed", &speed) &&
	    !sysfs_read_attr(dir, "current_link_width", &width) &&
	    sscanf(speed, "%lf GT/s", &gts) == 1 && sscanf(width, "%u", &lanes) == 1 && gts > 0 && lanes) {
		snprintf(out->link, sizeof(out->link), "%s x%u", speed, lanes);
		if (!out->link_declared)
			out->link_mbps = lane_mbps(gts) * lanes;
	}
	free(speed);
	free(width);
}

/* The PCIe PMU whose Root Ports (bdf_min to bdf_max) hold RP. */
static const struct pmu *pcie_pmu_of(const struct pmu_set *set, unsigned int rp)
{
	size_t i;

	for (i = 0; i < set->nr_pmus; i++)
		if (set->pmus[i].name_info.kind == PMU_KIND_PCIE && set->pmus[i].bdf_min >= 0 &&
		    (int)rp >= set->pmus[i].bdf_min && (int)rp <= set->pmus[i].bdf_max)
			return &set->pmus[i];
	return NULL;
}

static int open_counters(struct doctor_pcie_counters *pc, struct doctor_pcie *out, const char *pmu,
			 const char *target, bool latency, char *why, size_t why_len)
{
	unsigned int r;

	for (r = 0; r < DP_NR; r++) {
		char text[160];
		int leader = leader_of(r), fd;

		if (!latency && (r == DP_LATENCY || r == DP_LATENCY_TLPS))
			continue;
		snprintf(text, sizeof(text), "%s/%s,%s/", pmu, role_events[r], target);
		if (event_parse(text, &pc->catalog, &pc->events[r], why, why_len))
			return -1;
		fd = perf_counter_open(&pc->events[r].spec, leader < 0 ? -1 : pc->fds[leader], why, why_len);
		if (fd < 0)
			return -1;
		pc->fds[r] = fd;
	}
	out->has_latency = latency;
	return 0;
}

void doctor_pcie_open(struct doctor_pcie_counters *pc, struct doctor_pcie *out, const char *sysfs_root,
		      const char *pci_bdf, uint64_t port, double link_mbps)
{
	const struct pmu *pmu;
	unsigned int bdf, rp, r;
	int domain = 0;
	const char *reason;
	char why[320], target[32], func[PCI_BDF_TEXT_LEN];

	memset(pc, 0, sizeof(*pc));
	pc->opened = true;
	for (r = 0; r < DP_NR; r++)
		pc->fds[r] = -1;
	out->link_mbps = link_mbps;
	out->link_declared = link_mbps > 0;
	if (parse_pci_bdf(pci_bdf, &bdf, &domain, &reason) || domain < 0) {
		snprintf(out->not_measured, sizeof(out->not_measured), "%s is no PCI function", pci_bdf);
		return;
	}
	if (pci_root_port_of(sysfs_root, domain, bdf, &rp)) {
		snprintf(out->not_measured, sizeof(out->not_measured), "sysfs shows no Root Port above %s", pci_bdf);
		return;
	}
	format_pci_address(domain, rp, out->root_port);
	read_link(sysfs_root, out);
	if (event_catalog_discover(&pc->catalog, sysfs_root, why, sizeof(why))) {
		snprintf(out->not_measured, sizeof(out->not_measured), "%s", why);
		return;
	}
	pmu = pcie_pmu_of(&pc->catalog.pmus, rp);
	if (!pmu) {
		snprintf(out->not_measured, sizeof(out->not_measured), "no PCIe PMU counts Root Port %s "
			 "(load netpmu.ko, or the hisi_pcie_pmu driver on Hip09)", out->root_port);
		return;
	}
	format_pci_bdf(bdf, func);
	if (port)
		snprintf(target, sizeof(target), "port=0x%llx", (unsigned long long)port);
	else
		snprintf(target, sizeof(target), "bdf=0x%x", bdf);
	if (open_counters(pc, out, pmu->name, target, port != 0, why, sizeof(why))) {
		snprintf(out->not_measured, sizeof(out->not_measured), "%s", why);
		doctor_pcie_close(pc);
		return;
	}
	snprintf(out->pmu, sizeof(out->pmu), "%s", pmu->name);
	if (port)
		snprintf(out->target, sizeof(out->target), "%s", target);
	else
		snprintf(out->target, sizeof(out->target), "%s (%s only)", target, func);
}

/* The counter's value and the ns it ran; false when unreadable. */
static bool read_counter(int fd, uint64_t *value, uint64_t *running_ns)
{
	uint64_t v[3];

	if (fd < 0 || read(fd, v, sizeof(v)) != sizeof(v))
		return false;
	*value = v[0];
	*running_ns = v[2];
	return true;
}

void doctor_pcie_read(struct doctor_pcie_counters *pc, struct doctor_pcie *out)
{
	uint64_t v[DP_NR] = { 0 }, ns = 0, unused, up, down;
	unsigned int r;
	double dt;

	if (!out->pmu[0] || !read_counter(pc->fds[DP_UP_WRITES], &v[DP_UP_WRITES], &ns))
		return;
	for (r = DP_UP_WRITES + 1; r < DP_NR; r++)
		read_counter(pc->fds[r], &v[r], &unused);
	up = v[DP_UP_WRITES] + v[DP_UP_READS];
	down = v[DP_DOWN_COMPLETIONS] + v[DP_DOWN_WRITES];
	dt = (ns - pc->last_ns) / 1e9;
	if (dt > 0) {
		if ((up - pc->last_up) / dt > out->peak_up_bps)
			out->peak_up_bps = (up - pc->last_up) / dt;
		if ((down - pc->last_down) / dt > out->peak_down_bps)
			out->peak_down_bps = (down - pc->last_down) / dt;
	}
	pc->last_up = out->up_bytes = up;
	pc->last_down = out->down_bytes = down;
	pc->last_ns = out->ns = ns;
	out->clk_hz = ns ? v[DP_UP_TIME] * 1e9 / ns : 0;
	out->latency_cycles = v[DP_LATENCY];
	out->latency_tlps = v[DP_LATENCY_TLPS];
}

void doctor_pcie_close(struct doctor_pcie_counters *pc)
{
	unsigned int r;

	if (!pc->opened)
		return;
	pc->opened = false;
	for (r = 0; r < DP_NR; r++) {
		if (pc->fds[r] >= 0)
			close(pc->fds[r]);
		pc->fds[r] = -1;
		if (pc->events[r].text)
			parsed_event_release(&pc->events[r]);
	}
	memset(pc->events, 0, sizeof(pc->events));
	event_catalog_release(&pc->catalog);
}
