// SPDX-License-Identifier: GPL-2.0
/* The vectors from the interrupt names, with their function, netdev and queues. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "queue/discovery.h"
#include "sys/pci_address.h"
#include "sys/pci_sysfs.h"

struct queue_vector *vector_new(struct queue_discovery *c, unsigned int irq, const char *name)
{
	struct queue_map *m = c->map;
	struct queue_vector *v;

	if (m->nr_vectors == c->vectors_cap) {
		size_t cap = c->vectors_cap ? 2 * c->vectors_cap : 64;
		void *p = realloc(m->vectors, cap * sizeof(*m->vectors));
		void *q = realloc(c->info, cap * sizeof(*c->info));

		if (p)
			m->vectors = p;
		if (q)
			c->info = q;
		if (!p || !q)
			return NULL;
		c->vectors_cap = cap;
	}
	v = &m->vectors[m->nr_vectors];
	memset(v, 0, sizeof(*v));
	memset(&c->info[m->nr_vectors], 0, sizeof(c->info[0]));
	c->info[m->nr_vectors].virtio = -1;
	m->nr_vectors++;
	v->irq = irq;
	copy_str(v->irq_name, sizeof(v->irq_name), name ? name : "");
	v->ifindex = -1;
	v->queue = -1;
	v->dir = QUEUE_RXTX;
	v->msix_index = -1;
	v->napi_id = -1;
	v->cpu = -1;
	return v;
}

static void set_single_queue(struct queue_vector *v, int queue)
{
	v->queue = queue;
	v->queues[0] = queue;
	v->nr_queues = queue >= 0 ? 1 : 0;
}

static enum queue_dir kind_dir(enum name_kind k)
{
	return k == KIND_RX ? QUEUE_RX : k == KIND_TX ? QUEUE_TX : QUEUE_RXTX;
}

/* The vectors from interrupt names, with their function and netdev. */
int vectors_from_names(struct queue_discovery *c)
{
	for (size_t i = 0; i < c->nr_lines; i++) {
		const struct irq_line *l = &c->lines[i];
		const char *owner = msi_owner_of(c, l->irq);

		for (size_t j = 0; j < l->nr_names; j++) {
			struct name_info ni;
			struct queue_vector *v;

			if (!irq_name_match(l->names[j], &ni))
				continue;
			/* An ifname-style name counts only for a NIC. */
			if (!strcmp(ni.pattern, "ifname") && !netdev_in_namespace(c, ni.prefix) &&
			    !(owner && pci_function_is_network(c, owner)))
				continue;
			v = vector_new(c, l->irq, l->names[j]);
			if (!v)
				return -ENOMEM;
			c->info[c->map->nr_vectors - 1] = ni;
			v->pattern = ni.pattern;
			v->source = "irq-name";
			v->dir = kind_dir(ni.kind);
			break;
		}
	}
	return 0;
}

/* Function and netdev of virtio vector V (virtio<N>). */
static void resolve_virtio(struct queue_discovery *c, struct queue_vector *v, const struct name_info *ni,
			   const char *owner)
{
	char *vdir = path_fmt("%s/bus/virtio/devices/virtio%d", c->sys, ni->virtio);
	char real[PATH_MAX], drv[64] = "";
	int n;

	if (!vdir)
		return;
	if (realpath(vdir, real)) {
		char *slash = strrchr(real, '/');

		if (slash) {
			*slash = '\0';
			slash = strrchr(real, '/');
			if (slash && is_pci_address(slash + 1))
				copy_str(v->pci_bdf, sizeof(v->pci_bdf), slash + 1);
		}
	}
	if (owner && *v->pci_bdf && strcmp(owner, v->pci_bdf))
		vector_note(v, "virtio%d is under %s but msi_irqs of %s lists IRQ %u",
			 ni->virtio, v->pci_bdf, owner, v->irq);
	if (!*v->pci_bdf && owner)
		copy_str(v->pci_bdf, sizeof(v->pci_bdf), owner);
	n = netdevs_under(vdir, NULL, v->ifname, sizeof(v->ifname));
	if (n == 0) {
		if (driver_of(vdir, drv, sizeof(drv)))
			vector_note(v, "virtio%d (driver %s) has no netdev in this network namespace",
				 ni->virtio, drv);
		else
			vector_note(v, "virtio%d has no driver bound", ni->virtio);
	} else if (n > 1 && !*v->ifname) {
		vector_note(v, "virtio%d has %d netdevs", ni->virtio, n);
	}
	free(vdir);
}

static void resolve_pci_netdev(struct queue_discovery *c, struct queue_vector *v, const char *want)
{
	char *dir = path_fmt("%s/bus/pci/devices/%s", c->sys, v->pci_bdf), drv[64] = "";
	int n;

	if (!dir)
		return;
	n = netdevs_under(dir, want, v->ifname, sizeof(v->ifname));
	if (n == 0) {
		if (driver_of(dir, drv, sizeof(drv)))
			vector_note(v, "%s (driver %s) has no netdev in this network namespace",
				 v->pci_bdf, drv);
		else
			vector_note(v, "%s has no netdev", v->pci_bdf);
	} else if (n > 1 && !*v->ifname) {
		vector_note(v, "%s has %d netdevs: which one is unknown", v->pci_bdf, n);
	}
	free(dir);
}

/*
 * hns3: the vector's queue is its rank among the function's vectors of the
 * same kind (by the name's number), and it serves rank + k * V.
 */
static void rank_hns3(struct queue_discovery *c, struct queue_vector *v, const struct name_info *ni)
{
	struct queue_map *m = c->map;
	unsigned int nr_rx, nr_tx;
	int rank = 0, nvec = 0, nqueues = -1;

	for (size_t k = 0; k < m->nr_vectors; k++) {
		const struct name_info *o = &c->info[k];

		if (!o->ranked || o->kind != ni->kind || strcmp(m->vectors[k].pci_bdf, v->pci_bdf) ||
		    strcmp(o->prefix, ni->prefix))
			continue;
		nvec++;
		if (o->index < ni->index)
			rank++;
	}
	set_single_queue(v, rank);
	if (*v->ifname && !netdev_queue_count(c->sys, v->ifname, &nr_rx, &nr_tx))
		nqueues = nr_rx;
	if (nqueues > 0) {
		v->nr_queues = 0;
		for (int q = rank; q < nqueues && v->nr_queues < QUEUE_VECTOR_MAX_QUEUES; q += nvec)
			v->queues[v->nr_queues++] = q;
		if (!v->nr_queues)
			set_single_queue(v, rank);
	} else if (nvec) {
		vector_note(v, "netdev queue count unknown: queues %d+%dk beyond %d not listed",
			 rank, nvec, rank);
	}
}

void vectors_resolve(struct queue_discovery *c)
{
	struct queue_map *m = c->map;

	/* Function and netdev first: ranking groups vectors by function. */
	for (size_t i = 0; i < m->nr_vectors; i++) {
		struct queue_vector *v = &m->vectors[i];
		struct name_info *ni = &c->info[i];
		const char *owner = msi_owner_of(c, v->irq);
		char drv[64];

		if (ni->virtio >= 0) {
			resolve_virtio(c, v, ni, owner);
		} else {
			if (owner)
				copy_str(v->pci_bdf, sizeof(v->pci_bdf), owner);
			else if (*ni->bdf)
				copy_str(v->pci_bdf, sizeof(v->pci_bdf), ni->bdf);
			if (owner && *ni->bdf && strcmp(owner, ni->bdf))
				vector_note(v, "name says %s but msi_irqs of %s lists IRQ %u",
					 ni->bdf, owner, v->irq);
			if (!strcmp(ni->pattern, "ifname")) {
				if (netdev_in_namespace(c, ni->prefix))
					copy_str(v->ifname, sizeof(v->ifname), ni->prefix);
				else
					vector_note(v, "IRQ name says netdev %s, not in this network namespace",
						 ni->prefix);
				/* hns3 before its hns3-<bdf> names: <ifname>-TxRx-<K> */
				if (*v->pci_bdf && pci_function_driver(c, v->pci_bdf, drv, sizeof(drv)) &&
				    !strcmp(drv, "hns3")) {
					ni->ranked = true;
					v->pattern = "hns3";
				}
			} else if (*v->pci_bdf) {
				resolve_pci_netdev(c, v, NULL);
			}
		}
		if (*v->ifname)
			v->ifindex = netdev_ifindex(c, v->ifname);
		if (!*v->pci_bdf)
			vector_note(v, "PCI function unknown");
	}
	for (size_t i = 0; i < m->nr_vectors; i++) {
		struct queue_vector *v = &m->vectors[i];
		const struct name_info *ni = &c->info[i];

		if (ni->ranked)
			rank_hns3(c, v, ni);
		else
			set_single_queue(v, ni->index);
		vector_derive_msix(c, v, irq_lines_find(c, v->irq));
		vector_derive_cpu(c, v);
	}
}
