// SPDX-License-Identifier: GPL-2.0
/*
 * PCIe PMU core: event_init. The control value an event programs, the
 * validation of its filters (thresholds, trigger, Requester ID) and of its
 * group.
 */

#include <linux/pci.h>
#include <linux/perf_event.h>

#include "core.h"

/* The EVENT_CTRL value of an event, without EVENT_EN. */
u64 hisi_pcie_event_ctrl(struct perf_event *event)
{
	u32 port = hisi_pcie_port(event);
	u32 len_mode = hisi_pcie_len_mode(event);
	u64 reg;

	reg = FIELD_PREP(HISI_PCIE_EVENT_M, hisi_pcie_real_event(event));

	/* A port bitmap wins over a bdf. */
	if (port)
		reg |= FIELD_PREP(HISI_PCIE_TARGET_M, port);
	else
		reg |= HISI_PCIE_TARGET_EN |
		       FIELD_PREP(HISI_PCIE_TARGET_M, hisi_pcie_bdf(event));

	if (hisi_pcie_trig_len(event)) {
		reg |= FIELD_PREP(HISI_PCIE_TRIG_M, hisi_pcie_trig_len(event));
		reg |= FIELD_PREP(HISI_PCIE_TRIG_MODE_M,
				  hisi_pcie_trig_mode(event));
		reg |= HISI_PCIE_TRIG_EN;
	}

	if (hisi_pcie_thr_len(event)) {
		reg |= FIELD_PREP(HISI_PCIE_THR_M, hisi_pcie_thr_len(event));
		reg |= FIELD_PREP(HISI_PCIE_THR_MODE_M,
				  hisi_pcie_thr_mode(event));
		reg |= HISI_PCIE_THR_EN;
	}

	reg |= FIELD_PREP(HISI_PCIE_LEN_M,
			  len_mode ? len_mode : HISI_PCIE_LEN_M_DEFAULT);
	return reg;
}

/*
 * A requester is valid when the device exists in the PMU's PCI domain and
 * its Root Port (possibly itself) lies in [bdf_min, bdf_max].
 */
static bool hisi_pcie_valid_requester_id(struct hisi_pcie_pmu *pcie_pmu,
					 u32 bdf)
{
	struct pci_dev *pdev, *root_port;
	u16 rp_bdf;

	pdev = pci_get_domain_bus_and_slot(pcie_pmu->uc.pci_domain,
					   PCI_BUS_NUM(bdf), bdf & 0xff);
	if (!pdev)
		return false;

	root_port = pcie_find_root_port(pdev);
	if (!root_port) {
		pci_dev_put(pdev);
		return false;
	}
	rp_bdf = pci_dev_id(root_port);
	pci_dev_put(pdev);

	return rp_bdf >= pcie_pmu->uc.bdf_min && rp_bdf <= pcie_pmu->uc.bdf_max;
}

static bool hisi_pcie_valid_filter(struct hisi_pcie_pmu *pcie_pmu,
				   struct perf_event *event)
{
	if (hisi_pcie_thr_len(event) > HISI_PCIE_THR_MAX_VAL)
		return false;
	if (hisi_pcie_trig_len(event) > HISI_PCIE_TRIG_MAX_VAL)
		return false;

	/* Without a port, the bdf filter applies: bdf 0 is 0000:00:00.0. */
	if (!hisi_pcie_port(event) &&
	    !hisi_pcie_valid_requester_id(pcie_pmu, hisi_pcie_bdf(event)))
		return false;
	return true;
}

/* Related members (equal control values) share a counter (add()). */
static u64 hisi_pcie_group_key(struct perf_event *event)
{
	return hisi_pcie_event_ctrl(event);
}

int hisi_pcie_pmu_event_init(struct perf_event *event)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	int on_cpu;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;

	hwc->event_base = event->attr.config & HISI_PCIE_CFG_EXT_COUNTER ?
			  HISI_PCIE_EXT_CNT : HISI_PCIE_CNT;

	if (is_sampling_event(event) || event->attach_state & PERF_ATTACH_TASK)
		return -EOPNOTSUPP;

	if (!hisi_pcie_valid_filter(pcie_pmu, event))
		return -EINVAL;

	if (!netpmu_validate_group(event, HISI_PCIE_MAX_COUNTERS,
				   hisi_pcie_group_key))
		return -EINVAL;

	/* Only while no CPU could be picked: there is no counting CPU. */
	on_cpu = READ_ONCE(pcie_pmu->uc.on_cpu);
	if (on_cpu < 0)
		return -ENODEV;
	event->cpu = on_cpu;
	return 0;
}
