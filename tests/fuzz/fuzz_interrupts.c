// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/interrupts and the IRQ names in it: the input is the file, the rest
 * of /proc and /sys is the queue map's hns3 fixture (an arm64 Kunpeng-like
 * host, tests/fixtures/queue-map/make-tree), so that names that match a
 * driver's pattern go on to the sysfs lookups and the vector ranking.
 */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "queue/queue_map.h"
#include "fuzz_common.h"

/* A /proc of its own in the trees folder, which tests/fuzz/run removes. */
static char *proc, *interrupts, *sys;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *irq, *link;

	sys = fuzz_tree("qm-hns3/sys");
	irq = fuzz_tree("qm-hns3/proc/irq");
	proc = fuzz_tree("proc-XXXXXX");
	if (!mkdtemp(proc) || asprintf(&interrupts, "%s/interrupts", proc) < 0 ||
	    asprintf(&link, "%s/irq", proc) < 0 || symlink(irq, link)) {
		perror("fuzz_interrupts: the private /proc");
		exit(1);
	}
	free(irq);
	free(link);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct queue_map map = { 0 };
	char err[256];
	int fd = open(interrupts, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	if (!queue_map_discover_flags(proc, sys, QUEUE_MAP_NO_NETLINK, &map, err, sizeof(err))) {
		for (size_t i = 0; i < map.nr_functions; i++)
			queue_map_func_id(&map, map.functions[i]);
		queue_map_func_id(&map, "eth0");
	}
	queue_map_release(&map);
	return 0;
}
