// SPDX-License-Identifier: GPL-2.0
/* Queue <-> NAPI <-> IRQ <-> CPU <-> netdev <-> PCI function; see queue_map.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/why_line.h"
#include "netpmu_records.h"
#include "queue/discovery.h"
#include "queue/queue_map.h"
#include "sys/netdev_netlink.h"

#define PROC_ROOT_DEFAULT	"/proc"
#define SYS_ROOT_DEFAULT	"/sys"

_Static_assert((int)QUEUE_RXTX == (int)NETPMU_QUEUE_RXTX && (int)QUEUE_RX == (int)NETPMU_QUEUE_RX &&
	       (int)QUEUE_TX == (int)NETPMU_QUEUE_TX,
	       "enum queue_dir must equal enum netpmu_queue_dir");

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_vector(const void *a, const void *b)
{
	const struct queue_vector *x = a, *y = b;

	return (x->irq > y->irq) - (x->irq < y->irq);
}

static int number_functions(struct queue_map *m)
{
	for (size_t i = 0; i < m->nr_vectors; i++) {
		const char *bdf = m->vectors[i].pci_bdf;
		bool seen = false;
		char **f;

		if (!*bdf)
			continue;
		for (size_t j = 0; j < m->nr_functions && !seen; j++)
			seen = !strcmp(m->functions[j], bdf);
		if (seen)
			continue;
		f = realloc(m->functions, (m->nr_functions + 1) * sizeof(*f));
		if (!f)
			return -ENOMEM;
		m->functions = f;
		if (!(m->functions[m->nr_functions] = strdup(bdf)))
			return -ENOMEM;
		m->nr_functions++;
	}
	sort_array(m->functions, m->nr_functions, sizeof(*m->functions), cmp_str);
	for (size_t i = 0; i < m->nr_vectors; i++) {
		struct queue_vector *v = &m->vectors[i];

		v->func_id = 0;
		for (size_t j = 0; j < m->nr_functions; j++)
			if (*v->pci_bdf && !strcmp(m->functions[j], v->pci_bdf))
				v->func_id = (unsigned int)j + 1;
	}
	return 0;
}

static bool is_root(const char *root, const char *real)
{
	return !root || !strcmp(root, real);
}

/* NL_GIVEN: netlink answers to merge instead of asking the kernel, or NULL. */
static int discover(const char *proc_root, const char *sys_root, unsigned int flags,
		    const struct netdev_nl_info *nl_given, struct queue_map *map,
		    char *err, size_t err_len)
{
	struct queue_discovery c = {
		.proc = proc_root ? proc_root : PROC_ROOT_DEFAULT,
		.sys = sys_root ? sys_root : SYS_ROOT_DEFAULT,
		.map = map,
	};
	int ret;

	memset(map, 0, sizeof(*map));
	c.real_roots = is_root(proc_root, PROC_ROOT_DEFAULT) && is_root(sys_root, SYS_ROOT_DEFAULT);
	ret = irq_lines_read(&c, err, err_len);
	if (ret)
		goto out;
	ret = msi_owners_scan(&c);
	if (!ret)
		ret = vectors_from_names(&c);
	if (ret)
		goto oom;
	vectors_resolve(&c);

	if (nl_given) {
		ret = netlink_join(&c, nl_given);
		if (ret)
			goto oom;
		map->netlink_used = true;
		copy_str(map->netlink_status, sizeof(map->netlink_status), "ok (answers given)");
	} else if (flags & QUEUE_MAP_NO_NETLINK) {
		copy_str(map->netlink_status, sizeof(map->netlink_status), "not asked");
	} else if (!c.real_roots) {
		copy_str(map->netlink_status, sizeof(map->netlink_status),
			 "not used: /proc or /sys is not the real one");
	} else {
		struct netdev_nl_info nl;
		char nl_err[160] = "";

		ret = netdev_nl_dump(&nl, nl_err, sizeof(nl_err));
		if (ret == -ENOMEM)
			goto oom;
		if (ret) {
			copy_str(map->netlink_status, sizeof(map->netlink_status), nl_err);
			ret = 0;
		} else {
			ret = netlink_join(&c, &nl);
			netdev_nl_info_release(&nl);
			if (ret)
				goto oom;
			map->netlink_used = true;
			copy_str(map->netlink_status, sizeof(map->netlink_status), "ok");
		}
	}
	sort_array(map->vectors, map->nr_vectors, sizeof(*map->vectors), cmp_vector);
	ret = number_functions(map);
	if (ret)
		goto oom;
	goto out;
oom:
	why_fail(err, err_len, "out of memory");
	ret = -ENOMEM;
out:
	irq_lines_free(&c);
	free(c.owners);
	free(c.info);
	return ret;
}

int queue_map_discover_flags(const char *proc_root, const char *sys_root,
			     unsigned int flags, struct queue_map *map,
			     char *err, size_t err_len)
{
	return discover(proc_root, sys_root, flags, NULL, map, err, err_len);
}

int queue_map_discover_nl(const char *proc_root, const char *sys_root,
			  const struct netdev_nl_info *nl, struct queue_map *map,
			  char *err, size_t err_len)
{
	return discover(proc_root, sys_root, 0, nl, map, err, err_len);
}

int queue_map_discover(const char *proc_root, const char *sys_root,
		       struct queue_map *map, char *err, size_t err_len)
{
	return queue_map_discover_flags(proc_root, sys_root, 0, map, err, err_len);
}

void queue_map_release(struct queue_map *map)
{
	free(map->vectors);
	for (size_t i = 0; i < map->nr_functions; i++)
		free(map->functions[i]);
	free(map->functions);
	free(map->nl_queues);
	free(map->nl_napis);
	memset(map, 0, sizeof(*map));
}

const struct queue_vector *queue_map_find_irq(const struct queue_map *map, unsigned int irq)
{
	for (size_t i = 0; i < map->nr_vectors; i++)
		if (map->vectors[i].irq == irq)
			return &map->vectors[i];
	return NULL;
}

int queue_map_func_id(const struct queue_map *map, const char *key)
{
	char full[16];

	if (!key || !*key)
		return 0;
	/* "01:00.0" means domain 0000 */
	if (strlen(key) == 7 && key[2] == ':' && key[5] == '.')
		snprintf(full, sizeof(full), "0000:%s", key);
	else
		copy_str(full, sizeof(full), key);
	for (size_t i = 0; i < map->nr_functions; i++)
		if (!strcasecmp(map->functions[i], full))
			return (int)i + 1;
	for (size_t i = 0; i < map->nr_vectors; i++)
		if (map->vectors[i].func_id && !strcmp(map->vectors[i].ifname, key))
			return (int)map->vectors[i].func_id;
	return 0;
}
