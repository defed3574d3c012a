// SPDX-License-Identifier: GPL-2.0
/* The module's parts: see parts.h. */

#include "parts.h"

static int netpmu_part_init(const struct netpmu_part *part)
{
	if (part->pci_driver)
		return pci_register_driver(part->pci_driver);
	return part->init();
}

static void netpmu_part_exit(const struct netpmu_part *part)
{
	if (part->pci_driver)
		pci_unregister_driver(part->pci_driver);
	else
		part->exit();
}

int netpmu_parts_init(const struct netpmu_part *parts, unsigned int nr)
{
	unsigned int i;
	int ret;

	for (i = 0; i < nr; i++) {
		ret = netpmu_part_init(&parts[i]);
		if (ret) {
			netpmu_parts_exit(parts, i);
			return ret;
		}
	}
	return 0;
}

void netpmu_parts_exit(const struct netpmu_part *parts, unsigned int nr)
{
	while (nr--)
		netpmu_part_exit(&parts[nr]);
}
