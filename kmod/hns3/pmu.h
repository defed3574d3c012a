/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HiSilicon HNS3 NIC PMU: register map, ABI constants and the interface
 * between the PMU core, its sysfs attributes and its backends (hw, sim).
 */
#ifndef NETPMU_HNS3_PMU_H
#define NETPMU_HNS3_PMU_H

#include <linux/bits.h>
#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/types.h>

#include "common/netpmu.h"
#include "common/uncore.h"

#define HNS3_PMU_NAME_FMT		"hns3_pmu_sicl_%u"
#define HNS3_PMU_MAX_HW_EVENTS		NETPMU_MAX_COUNTERS

/* Global registers */
#define HNS3_PMU_REG_GLOBAL_CTRL	0x0000
#define HNS3_PMU_GLOBAL_START		BIT(0)
#define HNS3_PMU_REG_CLOCK_FREQ		0x0020
#define HNS3_PMU_REG_BDF		0x0fe0
#define HNS3_PMU_REG_VERSION		0x0fe4
#define HNS3_PMU_REG_DEVICE_ID		0x0fe8

/* Per-slot block: 0x1000 + 0x1000 * idx */
#define HNS3_PMU_REG_EVENT_BASE		0x1000
#define HNS3_PMU_REG_EVENT_STRIDE	0x1000
#define HNS3_PMU_REG_EVENT_END		(HNS3_PMU_REG_EVENT_BASE + \
					 HNS3_PMU_MAX_HW_EVENTS * HNS3_PMU_REG_EVENT_STRIDE)
#define HNS3_PMU_REG_EVENT_CTRL_LOW	0x00
#define HNS3_PMU_REG_EVENT_CTRL_HIGH	0x04
#define HNS3_PMU_REG_EVENT_INTR_STATUS	0x08
#define HNS3_PMU_REG_EVENT_INTR_MASK	0x0c
#define HNS3_PMU_REG_EVENT_COUNTER	0x10
#define HNS3_PMU_REG_EVENT_EXT_COUNTER	0x18
#define HNS3_PMU_REG_EVENT_QID_CTRL	0x28
#define HNS3_PMU_REG_EVENT_QID_PARA	0x2c

static inline u32 hns3_pmu_slot_reg(unsigned int idx, u32 reg)
{
	return HNS3_PMU_REG_EVENT_BASE + HNS3_PMU_REG_EVENT_STRIDE * idx + reg;
}

/* EVENT_CTRL_LOW */
#define HNS3_PMU_CTRL_SUBEVENT_S	4
#define HNS3_PMU_CTRL_STATUS_RESET	BIT(11)
#define HNS3_PMU_CTRL_EVENT_EN		BIT(12)
#define HNS3_PMU_CTRL_OVERFLOW_RESTART	BIT(15)
#define HNS3_PMU_CTRL_FILTER_MODE_S	24

/* EVENT_INTR_MASK */
#define HNS3_PMU_INTR_MASK_OVERFLOW	BIT(1)

/* EVENT_QID_CTRL / EVENT_QID_PARA */
#define HNS3_PMU_QID_CTRL_REQ_ENABLE	BIT(0)
#define HNS3_PMU_QID_CTRL_DONE		BIT(1)
#define HNS3_PMU_QID_CTRL_MISS		BIT(2)
#define HNS3_PMU_QID_PARA_QUEUE_S	16

/* Hardware filter mode codes (EVENT_CTRL_LOW[31:24]) */
enum hns3_pmu_hw_filter {
	HNS3_PMU_HW_FILTER_GLOBAL,
	HNS3_PMU_HW_FILTER_PORT,
	HNS3_PMU_HW_FILTER_PORT_TC,
	HNS3_PMU_HW_FILTER_FUNC,
	HNS3_PMU_HW_FILTER_FUNC_QUEUE,
	HNS3_PMU_HW_FILTER_FUNC_INTR,
};

/* Filter-support bits of an event, in the order filtermode/ prints them */
#define HNS3_PMU_FILTER_GLOBAL		BIT(0)
#define HNS3_PMU_FILTER_PORT		BIT(1)
#define HNS3_PMU_FILTER_PORT_TC		BIT(2)
#define HNS3_PMU_FILTER_FUNC		BIT(3)
#define HNS3_PMU_FILTER_FUNC_QUEUE	BIT(4)
#define HNS3_PMU_FILTER_FUNC_INTR	BIT(5)
#define HNS3_PMU_NR_FILTER_MODES	6

/* Event kinds: config bits 8-15 */
enum hns3_pmu_event_type {
	HNS3_PMU_TYPE_BANDWIDTH,
	HNS3_PMU_TYPE_PACKET_RATE,
	HNS3_PMU_TYPE_LATENCY,
	HNS3_PMU_TYPE_INTR_RATE,
};

/* perf_event_attr.config / config1 fields (format/) */
#define HNS3_PMU_CFG_SUBEVENT		GENMASK_ULL(7, 0)
#define HNS3_PMU_CFG_EVENT_TYPE		GENMASK_ULL(15, 8)
#define HNS3_PMU_CFG_CODE		GENMASK_ULL(15, 0)
#define HNS3_PMU_CFG_EXT_COUNTER	BIT_ULL(16)
#define HNS3_PMU_CFG_EVENT_ID		GENMASK_ULL(16, 0)
#define HNS3_PMU_CFG1_PORT		GENMASK_ULL(3, 0)
#define HNS3_PMU_CFG1_TC		GENMASK_ULL(7, 4)
#define HNS3_PMU_CFG1_BDF		GENMASK_ULL(23, 8)
#define HNS3_PMU_CFG1_QUEUE		GENMASK_ULL(39, 24)
#define HNS3_PMU_CFG1_INTR		GENMASK_ULL(51, 40)
#define HNS3_PMU_CFG1_GLOBAL		BIT_ULL(52)

#define HNS3_PMU_TC_ALL			0xf
#define HNS3_PMU_QUEUE_ALL		0xffff

struct hns3_pmu_event_desc {
	const char *name;
	u32 config;		/* ext_counter_used << 16 | type << 8 | subevent */
	u8 filter_modes;	/* HNS3_PMU_FILTER_* */
	bool model_only;	/* an extension: not published on hardware */
};

extern const struct hns3_pmu_event_desc hns3_pmu_events[];
extern const unsigned int hns3_pmu_nr_events;
struct hns3_pmu;
const struct hns3_pmu_event_desc *hns3_pmu_find_event(struct hns3_pmu *hns3_pmu,
						      u32 event_id);

/*
 * One PMU instance: the uncore core's part (a backend fills in its backend
 * fields, then calls hns3_pmu_init() and netpmu_uncore_register()), then
 * the HNS3 PMU's own.
 */
struct hns3_pmu {
	struct netpmu_uncore uc;
	u32 hw_clk_freq;
	/*
	 * A model counts its events' users, so that it can refuse removal
	 * while they are open (hardware cannot refuse an unbind).
	 */
	spinlock_t users_lock;		/* nr_users, closing */
	unsigned int nr_users;		/* events that passed event_init */
	bool closing;			/* no new events: being removed */
};

#define to_hns3_pmu(p) container_of(to_netpmu_uncore(p), struct hns3_pmu, uc)

/* core: identification and the CPU hotplug state (register.c) */
int hns3_pmu_cpuhp_init(void);
void hns3_pmu_cpuhp_exit(void);
void hns3_pmu_init(struct netpmu_uncore *uc);
int hns3_pmu_unregister_idle(struct hns3_pmu *hns3_pmu);

/* sysfs */
int hns3_pmu_sysfs_init(void);
void hns3_pmu_sysfs_exit(void);
extern const struct attribute_group *hns3_pmu_attr_groups[];

/* hw backend (hw.c) */
extern struct pci_driver hns3_pmu_hw_driver;

#endif /* NETPMU_HNS3_PMU_H */
