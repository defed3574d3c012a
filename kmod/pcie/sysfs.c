// SPDX-License-Identifier: GPL-2.0
/*
 * HiSilicon PCIe PMU sysfs attributes, byte for byte as upstream prints them
 * (the upstream order): events/ (18), format/ (8), then bus, bdf_max, bdf_min, cpumask
 * and identifier.
 */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/pci.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include "pmu.h"

static ssize_t hisi_pcie_event_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct perf_pmu_events_attr *pmu_attr =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(buf, "config=0x%llx\n", pmu_attr->id);
}

#define HISI_PCIE_EVENT_ATTR(_name, _config) \
	PMU_EVENT_ATTR_ID(_name, hisi_pcie_event_show, _config)

static struct attribute *hisi_pcie_pmu_events_attrs[] = {
	HISI_PCIE_EVENT_ATTR(rx_mwr_latency, 0x0010),
	HISI_PCIE_EVENT_ATTR(rx_mwr_cnt, 0x10010),
	HISI_PCIE_EVENT_ATTR(rx_mrd_latency, 0x0210),
	HISI_PCIE_EVENT_ATTR(rx_mrd_cnt, 0x10210),
	HISI_PCIE_EVENT_ATTR(tx_mrd_latency, 0x0011),
	HISI_PCIE_EVENT_ATTR(tx_mrd_cnt, 0x10011),
	HISI_PCIE_EVENT_ATTR(rx_mwr_flux, 0x0104),
	HISI_PCIE_EVENT_ATTR(rx_mwr_time, 0x10104),
	HISI_PCIE_EVENT_ATTR(rx_mrd_flux, 0x0804),
	HISI_PCIE_EVENT_ATTR(rx_mrd_time, 0x10804),
	HISI_PCIE_EVENT_ATTR(rx_cpl_flux, 0x2004),
	HISI_PCIE_EVENT_ATTR(rx_cpl_time, 0x12004),
	HISI_PCIE_EVENT_ATTR(tx_mwr_flux, 0x0105),
	HISI_PCIE_EVENT_ATTR(tx_mwr_time, 0x10105),
	HISI_PCIE_EVENT_ATTR(tx_mrd_flux, 0x0405),
	HISI_PCIE_EVENT_ATTR(tx_mrd_time, 0x10405),
	HISI_PCIE_EVENT_ATTR(tx_cpl_flux, 0x1005),
	HISI_PCIE_EVENT_ATTR(tx_cpl_time, 0x11005),
	NULL,
};

static const struct attribute_group hisi_pcie_pmu_events_group = {
	.name = "events",
	.attrs = hisi_pcie_pmu_events_attrs,
};

PMU_FORMAT_ATTR(event, "config:0-16");
PMU_FORMAT_ATTR(thr_len, "config1:0-3");
PMU_FORMAT_ATTR(thr_mode, "config1:4");
PMU_FORMAT_ATTR(trig_len, "config1:5-8");
PMU_FORMAT_ATTR(trig_mode, "config1:9");
PMU_FORMAT_ATTR(len_mode, "config1:10-11");
PMU_FORMAT_ATTR(port, "config2:0-15");
PMU_FORMAT_ATTR(bdf, "config2:16-31");

static struct attribute *hisi_pcie_pmu_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_thr_len.attr,
	&format_attr_thr_mode.attr,
	&format_attr_trig_len.attr,
	&format_attr_trig_mode.attr,
	&format_attr_len_mode.attr,
	&format_attr_port.attr,
	&format_attr_bdf.attr,
	NULL,
};

static const struct attribute_group hisi_pcie_pmu_format_group = {
	.name = "format",
	.attrs = hisi_pcie_pmu_format_attrs,
};

/* "%#04x": 0x and at least two digits, e.g. 0x00, 0x08, 0x3000. */
static ssize_t bus_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%#04x\n",
			  PCI_BUS_NUM(netpmu_uncore_from_dev(dev)->bdf_min));
}
static DEVICE_ATTR_RO(bus);

static ssize_t bdf_max_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%#04x\n", netpmu_uncore_from_dev(dev)->bdf_max);
}
static DEVICE_ATTR_RO(bdf_max);

static ssize_t bdf_min_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%#04x\n", netpmu_uncore_from_dev(dev)->bdf_min);
}
static DEVICE_ATTR_RO(bdf_min);

static struct attribute *hisi_pcie_pmu_bus_attrs[] = {
	&dev_attr_bus.attr,
	&dev_attr_bdf_max.attr,
	&dev_attr_bdf_min.attr,
	NULL,
};

static const struct attribute_group hisi_pcie_pmu_bus_attr_group = {
	.attrs = hisi_pcie_pmu_bus_attrs,
};

static ssize_t identifier_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%#x\n", netpmu_uncore_from_dev(dev)->identifier);
}
static DEVICE_ATTR_RO(identifier);

static struct attribute *hisi_pcie_pmu_identifier_attrs[] = {
	&dev_attr_identifier.attr,
	NULL,
};

static const struct attribute_group hisi_pcie_pmu_identifier_attr_group = {
	.attrs = hisi_pcie_pmu_identifier_attrs,
};

/* Upstream's registration order, then the model's own file. */
const struct attribute_group *hisi_pcie_pmu_attr_groups[] = {
	&hisi_pcie_pmu_events_group,
	&hisi_pcie_pmu_format_group,
	&hisi_pcie_pmu_bus_attr_group,
	&netpmu_uncore_cpumask_group,
	&hisi_pcie_pmu_identifier_attr_group,
	&netpmu_uncore_model_group,
	NULL,
};
