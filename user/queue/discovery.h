/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One queue map discovery (queue_map.h), in parts that queue_map.c runs in
 * order: irq_lines.c reads /proc/interrupts, irq_name.c says what an IRQ's
 * name means, vector_sysfs.c asks sysfs and /proc/irq about a vector,
 * vector_resolve.c builds the vectors from the names, netlink_join.c joins
 * the netdev netlink answers. Each part uses only those listed before it.
 */
#ifndef NETPMU_QUEUE_DISCOVERY_H
#define NETPMU_QUEUE_DISCOVERY_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/queue_map.h"

/* One numbered line of /proc/interrupts. */
struct irq_line {
	unsigned int irq;
	char *chip;		/* NULL if the line has none */
	char *hwirq;		/* decimal, NULL if not shown */
	char **names;		/* the actions' names */
	size_t nr_names;
};

/* An IRQ that <sys>/bus/pci/devices/<bdf>/msi_irqs/ lists. */
struct msi_owner {
	unsigned int irq;
	char bdf[16];
};

enum name_kind { KIND_TXRX, KIND_RX, KIND_TX };

/* What an IRQ name says, before sysfs is consulted. */
struct name_info {
	const char *pattern;
	enum name_kind kind;
	int index;		/* the number in the name */
	char bdf[16];		/* from the name, "" if none */
	char prefix[32];	/* ifname (pattern "ifname") */
	int virtio;		/* virtio<N>, -1 if not virtio */
	bool ranked;		/* queue = rank of index among the function's vectors (hns3) */
};

struct queue_discovery {
	const char *proc, *sys;
	struct irq_line *lines;
	size_t nr_lines;
	struct msi_owner *owners;
	size_t nr_owners, owners_cap;
	struct queue_map *map;
	size_t vectors_cap;
	/* per vector, during discovery: what the name said */
	struct name_info *info;
	bool real_roots;	/* netlink's ifindexes are this netns's: if_indextoname() */
};

/* Copies SRC into DST of SIZE bytes, truncating. */
static inline void copy_str(char *dst, size_t size, const char *src)
{
	size_t len = strnlen(src, size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* A new path from FMT, or NULL without memory. */
static inline __attribute__((format(printf, 1, 2))) char *path_fmt(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : p;
}

/* qsort(), which must not be given the NULL of an empty array (its nonnull attribute). */
static inline void sort_array(void *base, size_t n, size_t size,
			      int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

/* irq_lines.c: <proc>/interrupts into c->lines; 0 or -errno with ERR. */
int irq_lines_read(struct queue_discovery *c, char *err, size_t err_len);
const struct irq_line *irq_lines_find(const struct queue_discovery *c, unsigned int irq);
void irq_lines_free(struct queue_discovery *c);

/* irq_name.c: whether NAME follows one of the drivers' rules, and what it says. */
bool irq_name_match(const char *name, struct name_info *ni);

/* vector_sysfs.c */
/* Appends "; " and a note to V's note (what is unknown and why). */
void vector_note(struct queue_vector *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Which PCI function's msi_irqs/ lists each IRQ, into c->owners. */
int msi_owners_scan(struct queue_discovery *c);
const char *msi_owner_of(const struct queue_discovery *c, unsigned int irq);
bool pci_function_is_network(const struct queue_discovery *c, const char *bdf);
/* Basename of the link DIR/driver, into BUF; false if unbound. */
bool driver_of(const char *dir, char *buf, size_t size);
bool pci_function_driver(const struct queue_discovery *c, const char *bdf, char *buf, size_t size);
bool netdev_in_namespace(const struct queue_discovery *c, const char *ifname);
int netdev_ifindex(const struct queue_discovery *c, const char *ifname);
int netdevs_under(const char *dir, const char *want, char *ifname, size_t size);
void vector_derive_msix(const struct queue_discovery *c, struct queue_vector *v,
			const struct irq_line *l);
void vector_derive_cpu(const struct queue_discovery *c, struct queue_vector *v);

/* vector_resolve.c */
struct queue_vector *vector_new(struct queue_discovery *c, unsigned int irq, const char *name);
int vectors_from_names(struct queue_discovery *c);
void vectors_resolve(struct queue_discovery *c);

/* netlink_join.c: joins NL's queues and NAPIs with c->map's vectors. */
struct netdev_nl_info;
int netlink_join(struct queue_discovery *c, const struct netdev_nl_info *nl);

#endif
