// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel answers on the netdev family: the input is one recv() of
 * the controller's family reply, of the queue-get dump or of the napi-get
 * dump (its first byte says which), parsed as netdev_netlink.c parses it;
 * what the dumps gave is then merged into the queue map of the hns3 fixture
 * (tests/fixtures/queue-map/make-tree) as queue_map_discover() merges it.
 */
#include <stdint.h>

#include "sys/netdev_nl_parse.h"
#include "queue/queue_map.h"
#include "fuzz_common.h"

static char *proc, *sys;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	proc = fuzz_tree("qm-hns3/proc");
	sys = fuzz_tree("qm-hns3/sys");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct netdev_nl_info info = { 0 };
	struct netdev_nl_parse p = { .family_id = -1, .info = &info, .seq = 1 };
	struct queue_map map = { 0 };
	char err[256];
	void *buf;

	if (!size)
		return 0;
	p.kind = data[0] % 3;
	/* Its own buffer, as recv() fills one: nothing to read past its end. */
	buf = malloc(size - 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	netdev_nl_parse(&p, buf, size - 1);
	free(buf);
	if (info.nr_queues || info.nr_napis) {
		queue_map_discover_nl(proc, sys, &info, &map, err, sizeof(err));
		queue_map_release(&map);
	}
	netdev_nl_info_release(&info);
	return 0;
}
