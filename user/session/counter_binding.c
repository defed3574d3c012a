// SPDX-License-Identifier: GPL-2.0
#include "session/counter_binding.h"

#include <string.h>

#include "event/filter_choice.h"
#include "event/hns3_filter.h"
#include "pmu/pmu_discovery.h"
#include "queue/queue_map.h"

static unsigned int field_value(const struct pmu *pmu, const char *name, const uint64_t *config)
{
	const struct pmu_format_field *field = pmu_find_format(pmu, name);

	return field ? (unsigned int)pmu_format_unpack(field, config) : 0;
}

/* Binds by the mode the driver selects (hns3_filter.c knows its rules). */
static void bind_hns3(const struct parsed_event *ev, const char *sysfs_root,
		      const struct queue_map *queues, struct netpmu_counter_binding *b)
{
	const struct pmu *pmu = ev->pmu;
	const uint64_t *config = ev->spec.config;
	struct filter_choice choice;
	char bdf_text[PCI_BDF_TEXT_LEN], why[256];
	unsigned int func_id, intr;
	size_t i;

	if (!queues || hns3_filter_check(ev, sysfs_root, &choice, why, sizeof(why)))
		return;
	format_pci_bdf(field_value(pmu, "bdf", config), bdf_text);
	func_id = queue_map_func_id(queues, bdf_text);
	if (!func_id)
		return;
	if (!strcmp(choice.mode, "func")) {
		b->scope = NETPMU_SCOPE_FUNC;
		b->func_id = func_id;
	} else if (!strcmp(choice.mode, "func-queue")) {
		b->scope = NETPMU_SCOPE_QUEUE;
		b->func_id = func_id;
		b->queue = field_value(pmu, "queue", config);
	} else if (!strcmp(choice.mode, "func-intr")) {
		intr = field_value(pmu, "intr", config);
		for (i = 0; i < queues->nr_vectors; i++) {
			const struct queue_vector *v = &queues->vectors[i];

			if (v->func_id == func_id && v->msix_index == (int)intr) {
				b->scope = NETPMU_SCOPE_INTR;
				b->func_id = func_id;
				b->irq = v->irq;
			}
		}
	}
}

/* A PCIe event with a bdf filter (and no port bitmap, which wins) counts that endpoint. */
static void bind_pcie(const struct parsed_event *ev, const struct queue_map *queues,
		      struct netpmu_counter_binding *b)
{
	const struct pmu *pmu = ev->pmu;
	const uint64_t *config = ev->spec.config;
	char bdf_text[PCI_BDF_TEXT_LEN];
	unsigned int func_id;

	if (!queues || field_value(pmu, "port", config))
		return;
	format_pci_bdf(field_value(pmu, "bdf", config), bdf_text);
	func_id = queue_map_func_id(queues, bdf_text);
	if (func_id) {
		b->scope = NETPMU_SCOPE_FUNC;
		b->func_id = func_id;
	}
}

void counter_binding_derive(const struct parsed_event *ev, const char *sysfs_root,
			    const struct queue_map *queues, struct netpmu_counter_binding *b)
{
	memset(b, 0, sizeof(*b));
	if (ev->pmu->name_info.kind == PMU_KIND_HNS3)
		bind_hns3(ev, sysfs_root, queues, b);
	else
		bind_pcie(ev, queues, b);
}
