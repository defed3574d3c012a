/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the HNS3 PMU core, shared by its files: the perf_event_attr fields,
 * the slot registers and what the uncore core's ops table points to.
 */
#ifndef NETPMU_HNS3_CORE_H
#define NETPMU_HNS3_CORE_H

#include <linux/bitfield.h>

#include "pmu.h"

/* event->hw.config holds the selected hardware filter mode. */
#define hns3_pmu_filter_mode(hwc)	((u32)(hwc)->config)

static inline u32 hns3_pmu_event_id(struct perf_event *event)
{
	return FIELD_GET(HNS3_PMU_CFG_EVENT_ID, event->attr.config);
}

static inline u32 hns3_pmu_event_code(struct perf_event *event)
{
	return FIELD_GET(HNS3_PMU_CFG_CODE, event->attr.config);
}

#define hns3_pmu_cfg1(e, f)	((u32)FIELD_GET(HNS3_PMU_CFG1_##f, (e)->attr.config1))
#define hns3_pmu_port(e)	hns3_pmu_cfg1(e, PORT)
#define hns3_pmu_tc(e)		hns3_pmu_cfg1(e, TC)
#define hns3_pmu_bdf(e)		hns3_pmu_cfg1(e, BDF)
#define hns3_pmu_queue(e)	hns3_pmu_cfg1(e, QUEUE)
#define hns3_pmu_intr(e)	hns3_pmu_cfg1(e, INTR)
#define hns3_pmu_global(e)	hns3_pmu_cfg1(e, GLOBAL)

static inline u32 hns3_pmu_slot_read(struct hns3_pmu *hns3_pmu,
				     unsigned int idx, u32 reg)
{
	return netpmu_read32(hns3_pmu->uc.regs, hns3_pmu_slot_reg(idx, reg));
}

static inline void hns3_pmu_slot_write(struct hns3_pmu *hns3_pmu,
				       unsigned int idx, u32 reg, u32 val)
{
	netpmu_write32(hns3_pmu->uc.regs, hns3_pmu_slot_reg(idx, reg), val);
}

/* event_init.c */
int hns3_pmu_event_init(struct perf_event *event);

/* counting.c */
void hns3_pmu_enable(struct pmu *pmu);
void hns3_pmu_disable(struct pmu *pmu);
void hns3_pmu_start(struct perf_event *event, int flags);
void hns3_pmu_stop(struct perf_event *event, int flags);
u64 hns3_pmu_read_counter(struct netpmu_uncore *uc, struct perf_event *event);
bool hns3_pmu_related(struct perf_event *a, struct perf_event *b);
irqreturn_t hns3_pmu_handle_irq(struct netpmu_uncore *uc);

#endif /* NETPMU_HNS3_CORE_H */
