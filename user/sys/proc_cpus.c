// SPDX-License-Identifier: GPL-2.0
#include "sys/proc_cpus.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/sysfs_read.h"

int proc_irq_affinity(unsigned int irq, char *list, size_t len)
{
	char dir[64], *text;
	int err;

	snprintf(dir, sizeof(dir), "/proc/irq/%u", irq);
	err = sysfs_read_attr(dir, "smp_affinity_list", &text);
	if (err)
		return err;
	snprintf(list, len, "%s", text);
	free(text);
	return 0;
}

int proc_task_cpu(int pid, unsigned int *cpu, char *comm, size_t comm_len)
{
	char path[64], line[1024], *open_paren, *close_paren, *field;
	unsigned int i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	/* "PID (COMM) STATE ...": COMM may hold spaces and parentheses, the last ')' ends it. */
	open_paren = strchr(line, '(');
	close_paren = strrchr(line, ')');
	if (!open_paren || !close_paren || close_paren < open_paren)
		return -EIO;
	snprintf(comm, comm_len, "%.*s", (int)(close_paren - open_paren - 1), open_paren + 1);
	/* processor is field 39; field 3 (state) follows ") ". */
	field = close_paren + 2;
	for (i = 3; i < 39 && field; i++) {
		field = strchr(field, ' ');
		if (field)
			field++;
	}
	if (!field || sscanf(field, "%u", cpu) != 1)
		return -EIO;
	return 0;
}

int proc_task_run_ns(int pid, unsigned long long *run_ns)
{
	char path[64];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fscanf(f, "%llu", run_ns);
	fclose(f);
	return n == 1 ? 0 : -EIO;
}
