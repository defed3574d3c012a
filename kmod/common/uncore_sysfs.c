// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs files every PMU has, printed as both upstream drivers print them:
 * cpumask, and on a model netpmu_model. The PMU's own files (events/,
 * format/, identifier, the BDF range) stay with its sysfs.c.
 */

#include <linux/cpumask.h>
#include <linux/sysfs.h>

#include "uncore.h"

/* The counting CPU, e.g. "12" (both drivers print the one CPU alike). */
static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	int cpu = READ_ONCE(netpmu_uncore_from_dev(dev)->on_cpu);

	if (cpu < 0)
		return sysfs_emit(buf, "\n");
	return cpumap_print_to_pagebuf(true, buf, cpumask_of(cpu));
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *netpmu_uncore_cpumask_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

const struct attribute_group netpmu_uncore_cpumask_group = {
	.attrs = netpmu_uncore_cpumask_attrs,
};

/* Outside upstream's set, on a model only: the device that models the PMU. */
static ssize_t netpmu_model_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct device *model = netpmu_uncore_from_dev(dev)->dev;

	return sysfs_emit(buf, "%s\n", model ? dev_name(model) : "");
}
static DEVICE_ATTR_RO(netpmu_model);

static struct attribute *netpmu_uncore_model_attrs[] = {
	&dev_attr_netpmu_model.attr,
	NULL,
};

static umode_t netpmu_uncore_model_visible(struct kobject *kobj,
					   struct attribute *attr, int n)
{
	return netpmu_uncore_from_dev(kobj_to_dev(kobj))->model ? attr->mode : 0;
}

const struct attribute_group netpmu_uncore_model_group = {
	.attrs = netpmu_uncore_model_attrs,
	.is_visible = netpmu_uncore_model_visible,
};
