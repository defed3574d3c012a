// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU sysfs attributes: events/, filtermode/, format/ and the top-level
 * cpumask, identifier, bdf_min, bdf_max and hw_clk_freq files, byte for byte
 * as upstream prints them. events/ and filtermode/ are built from the event
 * table once, at module load, and shared by every instance.
 */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "pmu.h"

static const struct hns3_pmu_event_desc *attr_to_desc(struct device_attribute *attr)
{
	return container_of(attr, struct dev_ext_attribute, attr)->var;
}

static ssize_t hns3_pmu_event_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "config=0x%x\n", attr_to_desc(attr)->config);
}

static const char * const hns3_pmu_filter_mode_names[HNS3_PMU_NR_FILTER_MODES] = {
	"global", "port", "port-tc", "func", "func-queue", "func-intr",
};

static ssize_t hns3_pmu_filter_mode_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	u8 modes = attr_to_desc(attr)->filter_modes;
	unsigned int i;
	int len;

	len = sysfs_emit(buf, "filter mode supported: ");
	for (i = 0; i < HNS3_PMU_NR_FILTER_MODES; i++)
		if (modes & BIT(i))
			len += sysfs_emit_at(buf, len, "%s ",
					     hns3_pmu_filter_mode_names[i]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static bool hns3_pmu_kobj_is_model(struct kobject *kobj)
{
	return netpmu_uncore_from_dev(kobj_to_dev(kobj))->model;
}

/* Hardware publishes exactly upstream's events; a model its extensions too. */
static umode_t hns3_pmu_table_visible(struct kobject *kobj,
				      struct attribute *attr, int n)
{
	struct device_attribute *dattr = container_of(attr,
						      struct device_attribute,
						      attr);

	if (attr_to_desc(dattr)->model_only && !hns3_pmu_kobj_is_model(kobj))
		return 0;
	return attr->mode;
}

static umode_t hns3_pmu_model_only_visible(struct kobject *kobj,
					   struct attribute *attr, int n)
{
	return hns3_pmu_kobj_is_model(kobj) ? attr->mode : 0;
}
static struct attribute_group hns3_pmu_events_group = {
	.name = "events",
	.is_visible = hns3_pmu_table_visible,
};
static struct attribute_group hns3_pmu_filter_mode_group = {
	.name = "filtermode",
	.is_visible = hns3_pmu_table_visible,
};

PMU_FORMAT_ATTR(subevent, "config:0-7");
PMU_FORMAT_ATTR(event_type, "config:8-15");
PMU_FORMAT_ATTR(ext_counter_used, "config:16");
PMU_FORMAT_ATTR(port, "config1:0-3");
PMU_FORMAT_ATTR(tc, "config1:4-7");
PMU_FORMAT_ATTR(bdf, "config1:8-23");
PMU_FORMAT_ATTR(queue, "config1:24-39");
PMU_FORMAT_ATTR(intr, "config1:40-51");
PMU_FORMAT_ATTR(global, "config1:52");
/* Model extension: the older documentation's event=E,subevent=S syntax. */
PMU_FORMAT_ATTR(event, "config:8-15");

static struct attribute *hns3_pmu_format_attrs[] = {
	&format_attr_subevent.attr,
	&format_attr_event_type.attr,
	&format_attr_ext_counter_used.attr,
	&format_attr_port.attr,
	&format_attr_tc.attr,
	&format_attr_bdf.attr,
	&format_attr_queue.attr,
	&format_attr_intr.attr,
	&format_attr_global.attr,
	&format_attr_event.attr,
	NULL,
};

/* Upstream's nine fields; the model's extension on a model only. */
static umode_t hns3_pmu_format_visible(struct kobject *kobj,
				       struct attribute *attr, int n)
{
	if (attr == &format_attr_event.attr)
		return hns3_pmu_model_only_visible(kobj, attr, n);
	return attr->mode;
}

static const struct attribute_group hns3_pmu_format_group = {
	.name = "format",
	.attrs = hns3_pmu_format_attrs,
	.is_visible = hns3_pmu_format_visible,
};

static ssize_t identifier_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%x\n", netpmu_uncore_from_dev(dev)->identifier);
}
static DEVICE_ATTR_RO(identifier);

static struct attribute *hns3_pmu_identifier_attrs[] = {
	&dev_attr_identifier.attr,
	NULL,
};

static const struct attribute_group hns3_pmu_identifier_group = {
	.attrs = hns3_pmu_identifier_attrs,
};

static ssize_t hns3_pmu_emit_bdf(char *buf, u32 bdf)
{
	return sysfs_emit(buf, "%02x:%02x.%x\n", (bdf >> 8) & 0xff,
			  (bdf >> 3) & 0x1f, bdf & 0x7);
}

static ssize_t bdf_min_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return hns3_pmu_emit_bdf(buf, netpmu_uncore_from_dev(dev)->bdf_min);
}
static DEVICE_ATTR_RO(bdf_min);

static ssize_t bdf_max_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return hns3_pmu_emit_bdf(buf, netpmu_uncore_from_dev(dev)->bdf_max);
}
static DEVICE_ATTR_RO(bdf_max);

static struct attribute *hns3_pmu_bdf_range_attrs[] = {
	&dev_attr_bdf_min.attr,
	&dev_attr_bdf_max.attr,
	NULL,
};

static const struct attribute_group hns3_pmu_bdf_range_group = {
	.attrs = hns3_pmu_bdf_range_attrs,
};

static ssize_t hw_clk_freq_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_hns3_pmu((struct pmu *)dev_get_drvdata(dev))->hw_clk_freq);
}
static DEVICE_ATTR_RO(hw_clk_freq);

static struct attribute *hns3_pmu_hw_clk_freq_attrs[] = {
	&dev_attr_hw_clk_freq.attr,
	NULL,
};

static const struct attribute_group hns3_pmu_hw_clk_freq_group = {
	.attrs = hns3_pmu_hw_clk_freq_attrs,
};

/* Upstream's registration order, then the model's own file. */
const struct attribute_group *hns3_pmu_attr_groups[] = {
	&hns3_pmu_events_group,
	&hns3_pmu_filter_mode_group,
	&hns3_pmu_format_group,
	&netpmu_uncore_cpumask_group,
	&hns3_pmu_identifier_group,
	&hns3_pmu_bdf_range_group,
	&hns3_pmu_hw_clk_freq_group,
	&netpmu_uncore_model_group,
	NULL,
};

struct hns3_pmu_table_attrs {
	struct dev_ext_attribute *ext;
	struct attribute **list;
};

static struct hns3_pmu_table_attrs hns3_pmu_event_attrs;
static struct hns3_pmu_table_attrs hns3_pmu_filter_mode_attrs;

static void hns3_pmu_table_attrs_free(struct hns3_pmu_table_attrs *t)
{
	kfree(t->list);
	kfree(t->ext);
	t->list = NULL;
	t->ext = NULL;
}

/* One read-only file per event of the table. */
static int hns3_pmu_table_attrs_build(struct hns3_pmu_table_attrs *t,
				      struct attribute_group *group,
				      ssize_t (*show)(struct device *,
						      struct device_attribute *,
						      char *))
{
	unsigned int i, n = hns3_pmu_nr_events;

	t->ext = kcalloc(n, sizeof(*t->ext), GFP_KERNEL);
	t->list = kcalloc(n + 1, sizeof(*t->list), GFP_KERNEL);
	if (!t->ext || !t->list) {
		hns3_pmu_table_attrs_free(t);
		return -ENOMEM;
	}

	for (i = 0; i < n; i++) {
		struct dev_ext_attribute *ea = &t->ext[i];

		sysfs_attr_init(&ea->attr.attr);
		ea->attr.attr.name = hns3_pmu_events[i].name;
		ea->attr.attr.mode = 0444;
		ea->attr.show = show;
		ea->var = (void *)&hns3_pmu_events[i];
		t->list[i] = &ea->attr.attr;
	}
	group->attrs = t->list;
	return 0;
}

int hns3_pmu_sysfs_init(void)
{
	int ret;

	ret = hns3_pmu_table_attrs_build(&hns3_pmu_event_attrs,
					 &hns3_pmu_events_group,
					 hns3_pmu_event_show);
	if (ret)
		return ret;

	ret = hns3_pmu_table_attrs_build(&hns3_pmu_filter_mode_attrs,
					 &hns3_pmu_filter_mode_group,
					 hns3_pmu_filter_mode_show);
	if (ret)
		goto err_free_event_attrs;
	return 0;

err_free_event_attrs:
	hns3_pmu_table_attrs_free(&hns3_pmu_event_attrs);
	return ret;
}

void hns3_pmu_sysfs_exit(void)
{
	hns3_pmu_table_attrs_free(&hns3_pmu_filter_mode_attrs);
	hns3_pmu_table_attrs_free(&hns3_pmu_event_attrs);
}
