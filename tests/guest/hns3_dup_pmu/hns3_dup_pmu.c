// SPDX-License-Identifier: GPL-2.0
/*
 * Test stand-in for the upstream hns3_pmu driver: registers a PMU named
 * hns3_pmu_sicl_0 (or hns3_pmu_sicl_<sicl_id>) that counts nothing, so that
 * tests/guest/hns3_module.sh can check that netpmu.ko refuses to register a
 * PMU whose name is taken.
 */

#include <linux/module.h>
#include <linux/perf_event.h>

static ushort sicl_id;
module_param(sicl_id, ushort, 0444);
MODULE_PARM_DESC(sicl_id, "N of the PMU name hns3_pmu_sicl_<N> to take (default 0)");

static char hns3_dup_pmu_name[32];

static int hns3_dup_pmu_event_init(struct perf_event *event)
{
	return event->attr.type == event->pmu->type ? -EOPNOTSUPP : -ENOENT;
}

static int hns3_dup_pmu_add(struct perf_event *event, int flags)
{
	return 0;
}

static void hns3_dup_pmu_nop(struct perf_event *event, int flags)
{
}

static void hns3_dup_pmu_read(struct perf_event *event)
{
}

static struct pmu hns3_dup_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
	.event_init	= hns3_dup_pmu_event_init,
	.add		= hns3_dup_pmu_add,
	.del		= hns3_dup_pmu_nop,
	.start		= hns3_dup_pmu_nop,
	.stop		= hns3_dup_pmu_nop,
	.read		= hns3_dup_pmu_read,
};

static int __init hns3_dup_pmu_init(void)
{
	snprintf(hns3_dup_pmu_name, sizeof(hns3_dup_pmu_name),
		 "hns3_pmu_sicl_%u", sicl_id);
	return perf_pmu_register(&hns3_dup_pmu, hns3_dup_pmu_name, -1);
}

static void __exit hns3_dup_pmu_exit(void)
{
	perf_pmu_unregister(&hns3_dup_pmu);
}

module_init(hns3_dup_pmu_init);
module_exit(hns3_dup_pmu_exit);

MODULE_DESCRIPTION("netpmu test stand-in: a PMU named like the HNS3 PMU");
MODULE_LICENSE("GPL v2");
