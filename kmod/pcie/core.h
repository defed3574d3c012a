/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the PCIe PMU core, shared by its files: the perf_event_attr fields,
 * the control value of an event and what the uncore core's ops table points
 * to.
 */
#ifndef NETPMU_PCIE_CORE_H
#define NETPMU_PCIE_CORE_H

#include <linux/bitfield.h>

#include "pmu.h"

#define hisi_pcie_field(e, cfg, f) \
	((u32)FIELD_GET(HISI_PCIE_##f, (e)->attr.cfg))
#define hisi_pcie_real_event(e)	hisi_pcie_field(e, config, CFG_REAL_EVENT)
#define hisi_pcie_thr_len(e)	hisi_pcie_field(e, config1, CFG1_THR_LEN)
#define hisi_pcie_thr_mode(e)	hisi_pcie_field(e, config1, CFG1_THR_MODE)
#define hisi_pcie_trig_len(e)	hisi_pcie_field(e, config1, CFG1_TRIG_LEN)
#define hisi_pcie_trig_mode(e)	hisi_pcie_field(e, config1, CFG1_TRIG_MODE)
#define hisi_pcie_len_mode(e)	hisi_pcie_field(e, config1, CFG1_LEN_MODE)
#define hisi_pcie_port(e)	hisi_pcie_field(e, config2, CFG2_PORT)
#define hisi_pcie_bdf(e)	hisi_pcie_field(e, config2, CFG2_BDF)

/* event_init.c */
u64 hisi_pcie_event_ctrl(struct perf_event *event);
int hisi_pcie_pmu_event_init(struct perf_event *event);

/* counting.c */
void hisi_pcie_pmu_enable(struct pmu *pmu);
void hisi_pcie_pmu_disable(struct pmu *pmu);
void hisi_pcie_pmu_start(struct perf_event *event, int flags);
void hisi_pcie_pmu_stop(struct perf_event *event, int flags);
u64 hisi_pcie_pmu_read_counter(struct netpmu_uncore *uc,
			       struct perf_event *event);
bool hisi_pcie_pmu_related(struct perf_event *a, struct perf_event *b);
void hisi_pcie_pmu_claim_counter(struct netpmu_uncore *uc, unsigned int idx);
irqreturn_t hisi_pcie_pmu_handle_irq(struct netpmu_uncore *uc);

#endif /* NETPMU_PCIE_CORE_H */
