// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupt vectors of the HNS3 model's bound functions, and how many
 * interrupts the kernel counted on them: what the interrupt-rate events
 * count. Used by the counters and by the netdev binding, which refreshes
 * the vectors when a driver reallocates them.
 */

#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "sim.h"

/*
 * The Linux IRQ of each vector of the function, by MSI-X table entry (the
 * MSI vector number under MSI), as pci_irq_vector() resolves it; 0 where an
 * entry has none. A function on INTx has none: a legacy line may be shared.
 */
int hns3_sim_fn_vectors(struct pci_dev *pdev, unsigned int **irqs_out,
			unsigned int *nr_out)
{
	unsigned int *irqs, i, nr, used = 0;
	int n, irq;

	*irqs_out = NULL;
	*nr_out = 0;
	if (pdev->msix_enabled)
		n = pci_msix_vec_count(pdev);
	else if (pdev->msi_enabled)
		n = pci_msi_vec_count(pdev);
	else
		return 0;
	if (n <= 0)
		return 0;
	nr = min_t(unsigned int, n, HNS3_SIM_MAX_VECTORS);

	irqs = kcalloc(nr, sizeof(*irqs), GFP_KERNEL);
	if (!irqs)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		irq = pci_irq_vector(pdev, i);
		if (irq > 0) {
			irqs[i] = irq;
			used = i + 1;
		}
	}
	if (!used) {
		kfree(irqs);
		return 0;
	}
	*irqs_out = irqs;
	*nr_out = used;
	return 0;
}

/*
 * Interrupts the kernel counted for vector entry of the function (every
 * vector if entry < 0): the per-CPU counts /proc/interrupts prints, read now.
 * Any context; irq descriptors are freed after an RCU grace period.
 */
u64 hns3_sim_fn_interrupts(const struct hns3_sim_fn *fn, int entry)
{
	unsigned int i, first = 0, last = fn->nr_irqs, cpu;
	struct irq_data *data;
	struct irq_desc *desc;
	u64 total = 0;

	if (entry >= 0) {
		if (entry >= fn->nr_irqs)
			return 0;
		first = entry;
		last = entry + 1;
	}

	rcu_read_lock();
	for (i = first; i < last; i++) {
		if (!fn->irqs[i])
			continue;
		data = irq_get_irq_data(fn->irqs[i]);
		if (!data)
			continue;
		desc = irq_data_to_desc(data);
		for_each_possible_cpu(cpu)
			total += irq_desc_kstat_cpu(desc, cpu);
	}
	rcu_read_unlock();
	return total;
}
