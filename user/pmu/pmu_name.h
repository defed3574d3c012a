/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names the HNS3 and PCIe PMU drivers register, and what they encode:
 * hns3_pmu_sicl_<N>, the early hns3_pmu_<device_id>, hisi_pcie<S>_core<C>.
 */
#ifndef NETPMU_PMU_NAME_H
#define NETPMU_PMU_NAME_H

#include <stdbool.h>

enum pmu_kind {
	PMU_KIND_HNS3,
	PMU_KIND_PCIE,
};

enum pmu_naming {
	PMU_NAMED_BY_SICL,	/* hns3_pmu_sicl_<sicl_id> (upstream driver) */
	PMU_NAMED_BY_DEVICE_ID,	/* hns3_pmu_<device_id> (early patches, v1 doc) */
	PMU_NAMED_BY_SICL_CORE,	/* hisi_pcie<sicl_id>_core<core_id> */
};

struct pmu_name_info {
	enum pmu_kind kind;
	enum pmu_naming naming;
	unsigned int sicl_id;	/* PMU_NAMED_BY_SICL, PMU_NAMED_BY_SICL_CORE */
	unsigned int core_id;	/* PMU_NAMED_BY_SICL_CORE */
	unsigned int device_id;	/* PMU_NAMED_BY_DEVICE_ID */
};

/*
 * Tells whether NAME is an HNS3 or PCIe PMU name (numbers in decimal, nothing
 * before or after) and fills INFO with what it encodes.
 */
bool pmu_name_parse(const char *name, struct pmu_name_info *info);

/* "hns3" or "pcie". */
const char *pmu_kind_name(enum pmu_kind kind);

#endif
