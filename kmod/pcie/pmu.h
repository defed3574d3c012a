/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HiSilicon PCIe PMU (one per PCIe Core of a Hip09): register map, ABI
 * constants and the interface between the PMU core, its sysfs attributes and
 * its backends (hw, sim). Facts from the upstream ABI (hisi_pcie_pmu.c).
 */
#ifndef NETPMU_HISI_PCIE_PMU_H
#define NETPMU_HISI_PCIE_PMU_H

#include <linux/bits.h>
#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <linux/types.h>

#include "common/netpmu.h"
#include "common/uncore.h"

#define HISI_PCIE_PMU_NAME_FMT		"hisi_pcie%u_core%u"
#define HISI_PCIE_MAX_COUNTERS		NETPMU_MAX_COUNTERS

/* Global registers */
#define HISI_PCIE_GLOBAL_CTRL		0x000
#define HISI_PCIE_GLOBAL_EN		0x01
#define HISI_PCIE_REG_BDF		0xfe0
#define HISI_PCIE_REG_VERSION		0xfe4
#define HISI_PCIE_REG_INFO		0xfe8

/* Per-counter registers: base + 8 * idx */
#define HISI_PCIE_REG_STEP		8
#define HISI_PCIE_EVENT_CTRL		0x010
#define HISI_PCIE_CNT			0x090
#define HISI_PCIE_EXT_CNT		0x110
#define HISI_PCIE_INT_STAT		0x150
#define HISI_PCIE_INT_MASK		0x154

static inline u32 hisi_pcie_reg(u32 base, unsigned int idx)
{
	return base + HISI_PCIE_REG_STEP * idx;
}

/* EVENT_CTRL (64-bit) */
#define HISI_PCIE_EVENT_M		GENMASK_ULL(15, 0)
#define HISI_PCIE_EVENT_EN		BIT_ULL(20)
#define HISI_PCIE_RESET_CNT		BIT_ULL(22)
#define HISI_PCIE_THR_EN		BIT_ULL(26)
#define HISI_PCIE_THR_MODE_M		GENMASK_ULL(27, 27)
#define HISI_PCIE_THR_M			GENMASK_ULL(31, 28)
#define HISI_PCIE_TARGET_EN		BIT_ULL(32)
#define HISI_PCIE_LEN_M			GENMASK_ULL(35, 34)
#define HISI_PCIE_INIT_SET		BIT_ULL(34)
#define HISI_PCIE_TARGET_M		GENMASK_ULL(52, 36)
#define HISI_PCIE_TRIG_EN		BIT_ULL(52)
#define HISI_PCIE_TRIG_MODE_M		GENMASK_ULL(53, 53)
#define HISI_PCIE_TRIG_M		GENMASK_ULL(59, 56)

#define HISI_PCIE_LEN_M_DEFAULT		3ULL
#define HISI_PCIE_THR_MAX_VAL		10
#define HISI_PCIE_TRIG_MAX_VAL		10
#define HISI_PCIE_INIT_VAL		BIT_ULL(63)

/* perf_event_attr fields (format/) */
#define HISI_PCIE_CFG_EVENT		GENMASK_ULL(16, 0)
#define HISI_PCIE_CFG_REAL_EVENT	GENMASK_ULL(15, 0)
#define HISI_PCIE_CFG_EXT_COUNTER	BIT_ULL(16)
#define HISI_PCIE_CFG1_THR_LEN		GENMASK_ULL(3, 0)
#define HISI_PCIE_CFG1_THR_MODE		GENMASK_ULL(4, 4)
#define HISI_PCIE_CFG1_TRIG_LEN		GENMASK_ULL(8, 5)
#define HISI_PCIE_CFG1_TRIG_MODE	GENMASK_ULL(9, 9)
#define HISI_PCIE_CFG1_LEN_MODE		GENMASK_ULL(11, 10)
#define HISI_PCIE_CFG2_PORT		GENMASK_ULL(15, 0)
#define HISI_PCIE_CFG2_BDF		GENMASK_ULL(31, 16)

/*
 * One PMU instance: the uncore core's part (a backend fills in its backend
 * fields, then calls hisi_pcie_pmu_init() and netpmu_uncore_register()),
 * then the PCIe PMU's own.
 */
struct hisi_pcie_pmu {
	struct netpmu_uncore uc;
	u32 core_id;
	int numa_node;			/* NUMA_NO_NODE if unknown */
};

#define to_hisi_pcie_pmu(p) \
	container_of(to_netpmu_uncore(p), struct hisi_pcie_pmu, uc)

/* core: identification and the CPU hotplug state (register.c) */
int hisi_pcie_pmu_cpuhp_init(void);
void hisi_pcie_pmu_cpuhp_exit(void);
void hisi_pcie_pmu_init(struct netpmu_uncore *uc);

/* sysfs */
extern const struct attribute_group *hisi_pcie_pmu_attr_groups[];

/* hw backend (hw.c) */
extern struct pci_driver hisi_pcie_pmu_hw_driver;

#endif /* NETPMU_HISI_PCIE_PMU_H */
