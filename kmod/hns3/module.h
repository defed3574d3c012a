/* SPDX-License-Identifier: GPL-2.0 */
/* The HNS3 PMU as the module entry sees it. */
#ifndef NETPMU_HNS3_MODULE_H
#define NETPMU_HNS3_MODULE_H

int hns3_pmu_module_init(void);
void hns3_pmu_module_exit(void);

#endif /* NETPMU_HNS3_MODULE_H */
