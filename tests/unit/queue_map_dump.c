// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for user/queue/: prints the discovered map, one line per
 * vector, function and netlink queue, for tests/unit/queue_map.sh.
 *   queue_map_dump [--proc DIR] [--sys DIR] [--no-netlink] [--nl FILE]
 *                  [--func KEY]... [--irq N]...
 * --nl FILE merges netlink answers read from FILE instead of asking the
 * kernel, one per line: "queue IFINDEX ID rx|tx NAPI_ID" (NAPI_ID -1: none)
 * or "napi ID IFINDEX IRQ" (IRQ -1: none).
 * Empty strings print as "-".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/napi_irq_check.h"
#include "sys/netdev_netlink.h"
#include "queue/queue_map.h"

static int read_nl(const char *path, struct netdev_nl_info *nl)
{
	FILE *f = fopen(path, "r");
	char line[256], type[8];

	memset(nl, 0, sizeof(*nl));
	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct netdev_nl_queue q;
		struct netdev_nl_napi n = { .pid = -1 };

		if (sscanf(line, "queue %d %d %7s %d", &q.ifindex, &q.id, type, &q.napi_id) == 4) {
			q.type = !strcmp(type, "tx") ? NETDEV_NL_QUEUE_TYPE_TX : NETDEV_NL_QUEUE_TYPE_RX;
			nl->queues = realloc(nl->queues, (nl->nr_queues + 1) * sizeof(q));
			nl->queues[nl->nr_queues++] = q;
		} else if (sscanf(line, "napi %d %d %d", &n.id, &n.ifindex, &n.irq) == 3) {
			nl->napis = realloc(nl->napis, (nl->nr_napis + 1) * sizeof(n));
			nl->napis[nl->nr_napis++] = n;
		}
	}
	fclose(f);
	return 0;
}

static const char *s(const char *v)
{
	return v && *v ? v : "-";
}

static void print_vector(const struct queue_vector *v)
{
	printf("vector irq=%u name=%s bdf=%s func=%u ifname=%s ifindex=%d queue=%d queues=",
	       v->irq, s(v->irq_name), s(v->pci_bdf), v->func_id, s(v->ifname), v->ifindex, v->queue);
	if (!v->nr_queues)
		printf("-");
	for (unsigned int i = 0; i < v->nr_queues; i++)
		printf("%s%d", i ? "," : "", v->queues[i]);
	printf(" dir=%s msix=%d msix_source=%s napi=%d cpu=%d source=%s pattern=%s note=%s\n",
	       queue_dir_name(v->dir), v->msix_index, s(v->msix_source), v->napi_id, v->cpu,
	       s(v->source), s(v->pattern), s(v->note));
}

int main(int argc, char **argv)
{
	const char *proc = NULL, *sys = NULL, *nl_file = NULL;
	struct netdev_nl_info nl;
	unsigned int flags = 0;
	struct queue_map map;
	struct napi_irq_check napi_irqs = { 0 };
	char err[256] = "";
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--proc") && i + 1 < argc)
			proc = argv[++i];
		else if (!strcmp(argv[i], "--sys") && i + 1 < argc)
			sys = argv[++i];
		else if (!strcmp(argv[i], "--nl") && i + 1 < argc)
			nl_file = argv[++i];
		else if (!strcmp(argv[i], "--no-netlink"))
			flags |= QUEUE_MAP_NO_NETLINK;
		else if ((!strcmp(argv[i], "--func") || !strcmp(argv[i], "--irq") ||
			  !strcmp(argv[i], "--learnt")) && i + 1 < argc)
			i++;	/* queries: after discovery */
		else {
			fprintf(stderr, "usage: %s [--proc DIR] [--sys DIR] [--no-netlink] "
				"[--nl FILE] [--func BDF|IFNAME]... [--irq N]... [--learnt NAPI:IRQ]...\n", argv[0]);
			return 2;
		}
	}
	if (nl_file) {
		if (read_nl(nl_file, &nl))
			return 1;
		ret = queue_map_discover_nl(proc, sys, &nl, &map, err, sizeof(err));
		netdev_nl_info_release(&nl);
	} else {
		ret = queue_map_discover_flags(proc, sys, flags, &map, err, sizeof(err));
	}
	if (ret) {
		fprintf(stderr, "queue_map_discover: %s\n", err);
		queue_map_release(&map);
		return 1;
	}
	for (size_t i = 0; i < map.nr_vectors; i++)
		print_vector(&map.vectors[i]);
	for (size_t i = 0; i < map.nr_functions; i++)
		printf("function %zu %s\n", i + 1, map.functions[i]);
	printf("netlink used=%d status=%s\n", map.netlink_used, map.netlink_status);
	for (size_t i = 0; i < map.nr_nl_queues; i++) {
		const struct queue_nl_queue *q = &map.nl_queues[i];

		printf("nlqueue ifindex=%d ifname=%s dir=%s queue=%d napi=%d irq=%d\n",
		       q->ifindex, s(q->ifname), queue_dir_name(q->dir), q->queue, q->napi_id, q->irq);
	}
	for (size_t i = 0; i < map.nr_nl_napis; i++) {
		const struct queue_nl_napi *n = &map.nl_napis[i];

		printf("nlnapi napi=%d ifindex=%d ifname=%s irq=%d\n",
		       n->napi_id, n->ifindex, s(n->ifname), n->irq);
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--func") && i + 1 < argc) {
			printf("func_id %s %d\n", argv[i + 1], queue_map_func_id(&map, argv[i + 1]));
			i++;
		} else if (!strcmp(argv[i], "--learnt") && i + 1 < argc) {
			/* The BPF side saw IRQ schedule NAPI: cross-check it (napi_irq_check.c). */
			struct netpmu_queue_record rec = { .kind = NETPMU_RECORD_QUEUE };

			sscanf(argv[i + 1], "%u:%u", &rec.napi_id, &rec.irq);
			snprintf(rec.ifname, sizeof(rec.ifname), "eth0");
			napi_irq_check(&napi_irqs, &map, &rec, stdout);
			i++;
		} else if (!strcmp(argv[i], "--irq") && i + 1 < argc) {
			unsigned int irq = (unsigned int)strtoul(argv[i + 1], NULL, 0);
			const struct queue_vector *v = queue_map_find_irq(&map, irq);

			printf("find_irq %s %s\n", argv[i + 1], v ? v->irq_name : "-");
			i++;
		}
	}
	queue_map_release(&map);
	return 0;
}
