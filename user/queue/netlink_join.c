// SPDX-License-Identifier: GPL-2.0
/* The netdev netlink family's queues and NAPIs joined with the vectors the names gave. */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include "queue/discovery.h"
#include "sys/netdev_netlink.h"
#include "sys/sysfs_read.h"

/*
 * The name of IFINDEX: if_indextoname() (the caller's network namespace, the
 * one netlink answered for) with the real roots, else <sys>/class/net/<name>/ifindex.
 */
static bool ifindex_name(const struct queue_discovery *c, int ifindex, char *name, size_t size)
{
	char *dir, **names = NULL, buf[IF_NAMESIZE];
	size_t nr = 0;
	bool found = false;

	*name = '\0';
	if (ifindex < 0)
		return false;
	if (c->real_roots) {
		if (!if_indextoname((unsigned int)ifindex, buf))
			return false;
		copy_str(name, size, buf);
		return true;
	}
	dir = path_fmt("%s/class/net", c->sys);
	if (!dir || sysfs_list_dir(dir, &names, &nr)) {
		free(dir);
		return false;
	}
	for (size_t i = 0; i < nr && !found; i++) {
		if (netdev_ifindex(c, names[i]) == ifindex) {
			copy_str(name, size, names[i]);
			found = true;
		}
	}
	sysfs_free_names(names, nr);
	free(dir);
	return found;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_nl_queue(const void *a, const void *b)
{
	const struct queue_nl_queue *x = a, *y = b;

	if (x->ifindex != y->ifindex)
		return (x->ifindex > y->ifindex) - (x->ifindex < y->ifindex);
	if (x->dir != y->dir)
		return (x->dir > y->dir) - (x->dir < y->dir);
	return (x->queue > y->queue) - (x->queue < y->queue);
}

static int cmp_nl_napi(const void *a, const void *b)
{
	const struct queue_nl_napi *x = a, *y = b;

	return (x->napi_id > y->napi_id) - (x->napi_id < y->napi_id);
}

int netlink_join(struct queue_discovery *c, const struct netdev_nl_info *nl)
{
	struct queue_map *m = c->map;

	if (nl->nr_queues) {
		m->nl_queues = calloc(nl->nr_queues, sizeof(*m->nl_queues));
		if (!m->nl_queues)
			return -ENOMEM;
	}
	for (size_t i = 0; i < nl->nr_queues; i++) {
		const struct netdev_nl_queue *q = &nl->queues[i];
		struct queue_nl_queue *o = &m->nl_queues[m->nr_nl_queues++];

		o->ifindex = q->ifindex;
		ifindex_name(c, q->ifindex, o->ifname, sizeof(o->ifname));
		o->queue = q->id;
		o->dir = q->type == NETDEV_NL_QUEUE_TYPE_TX ? QUEUE_TX : QUEUE_RX;
		o->napi_id = q->napi_id;
		o->irq = -1;
		for (size_t j = 0; j < nl->nr_napis; j++)
			if (q->napi_id >= 0 && nl->napis[j].id == q->napi_id)
				o->irq = nl->napis[j].irq;
	}
	sort_array(m->nl_queues, m->nr_nl_queues, sizeof(*m->nl_queues), cmp_nl_queue);

	if (nl->nr_napis) {
		m->nl_napis = calloc(nl->nr_napis, sizeof(*m->nl_napis));
		if (!m->nl_napis)
			return -ENOMEM;
	}
	for (size_t j = 0; j < nl->nr_napis; j++) {
		struct queue_nl_napi *o = &m->nl_napis[m->nr_nl_napis++];

		o->napi_id = nl->napis[j].id;
		o->ifindex = nl->napis[j].ifindex;
		o->irq = nl->napis[j].irq;
		ifindex_name(c, o->ifindex, o->ifname, sizeof(o->ifname));
	}
	sort_array(m->nl_napis, m->nr_nl_napis, sizeof(*m->nl_napis), cmp_nl_napi);

	for (size_t j = 0; j < nl->nr_napis; j++) {
		const struct netdev_nl_napi *n = &nl->napis[j];
		struct queue_vector *v = NULL;
		char name[IF_NAMESIZE] = "";
		int queues[QUEUE_VECTOR_MAX_QUEUES], nq = 0;
		bool rx = false, tx = false;

		if (n->irq < 0)
			continue;
		for (size_t k = 0; k < m->nr_vectors; k++)
			if (m->vectors[k].irq == (unsigned int)n->irq)
				v = &m->vectors[k];
		if (!v) {
			const struct irq_line *l = irq_lines_find(c, (unsigned int)n->irq);
			const char *owner = msi_owner_of(c, (unsigned int)n->irq);

			v = vector_new(c, (unsigned int)n->irq,
				       l && l->nr_names ? l->names[0] : "");
			if (!v)
				return -ENOMEM;
			if (owner)
				copy_str(v->pci_bdf, sizeof(v->pci_bdf), owner);
			else
				vector_note(v, "PCI function unknown");
			vector_derive_msix(c, v, l);
			vector_derive_cpu(c, v);
		}
		v->napi_id = n->id;
		if (ifindex_name(c, n->ifindex, name, sizeof(name))) {
			if (*v->ifname && strcmp(v->ifname, name))
				vector_note(v, "sysfs says netdev %s, netlink %s", v->ifname, name);
			copy_str(v->ifname, sizeof(v->ifname), name);
			v->ifindex = n->ifindex;
		}
		for (size_t i = 0; i < nl->nr_queues; i++) {
			const struct netdev_nl_queue *q = &nl->queues[i];
			bool dup = false;

			if (q->napi_id != n->id)
				continue;
			if (q->type == NETDEV_NL_QUEUE_TYPE_TX)
				tx = true;
			else
				rx = true;
			for (int k = 0; k < nq; k++)
				dup |= queues[k] == q->id;
			if (!dup && nq < QUEUE_VECTOR_MAX_QUEUES)
				queues[nq++] = q->id;
		}
		if (!nq)
			continue;	/* NAPI known, its queues not: keep the name's */
		qsort(queues, nq, sizeof(queues[0]), cmp_int);
		if (v->source && v->queue >= 0 && (v->queue != queues[0] ||
		    v->dir != (rx && tx ? QUEUE_RXTX : rx ? QUEUE_RX : QUEUE_TX)))
			vector_note(v, "IRQ name said %s queue %d", queue_dir_name(v->dir), v->queue);
		memcpy(v->queues, queues, nq * sizeof(queues[0]));
		v->nr_queues = nq;
		v->queue = queues[0];
		v->dir = rx && tx ? QUEUE_RXTX : rx ? QUEUE_RX : QUEUE_TX;
		v->source = "netlink";
	}

	/*
	 * Vectors named after a queue whose NAPI netlink knows, though the
	 * driver did not tell the NAPI's IRQ (virtio-net, veth): the NAPI of
	 * that queue (of its RX queue for a pair).
	 */
	for (size_t k = 0; k < m->nr_vectors; k++) {
		struct queue_vector *v = &m->vectors[k];
		enum queue_dir want = v->dir == QUEUE_TX ? QUEUE_TX : QUEUE_RX;

		if (v->napi_id >= 0 || v->ifindex < 0 || v->queue < 0)
			continue;
		for (size_t i = 0; i < m->nr_nl_queues; i++) {
			const struct queue_nl_queue *q = &m->nl_queues[i];

			if (q->ifindex != v->ifindex || q->dir != want || q->queue != v->queue)
				continue;
			if (q->irq >= 0 && q->irq != (int)v->irq)
				vector_note(v, "netlink: %s queue %d is served by IRQ %d",
					 queue_dir_name(q->dir), q->queue, q->irq);
			else
				v->napi_id = q->napi_id;
		}
	}
	return 0;
}
