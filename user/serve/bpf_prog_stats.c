// SPDX-License-Identifier: GPL-2.0
/* netpmu serve: per-program BPF run time, from this process's program fds. */
#include <bpf/bpf.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve/bpf_prog_stats.h"

static bool stats_enabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "re");
	int on = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &on) != 1)
		on = 0;
	fclose(f);
	return on == 1;
}

static void add_program(struct bpf_prog_stats *ps, struct metric_store *store, int fd)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);
	char labels[METRIC_LABELS_MAX] = "";
	unsigned int i;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return;
	for (i = 0; i < ps->nr_seen && ps->seen[i].id != info.id; i++)
		;
	if (i == ps->nr_seen) {
		if (i == BPF_PROG_STATS_MAX)
			return;
		ps->seen[i].id = info.id;
		ps->seen[i].run_time_ns = 0;
		ps->seen[i].run_cnt = 0;
		ps->nr_seen++;
	}
	metric_labels_add(labels, sizeof(labels), "prog", info.name);
	metric_counter_add(store, FAM_BPF_PROG_RUN_SECONDS, labels, info.run_time_ns - ps->seen[i].run_time_ns);
	metric_counter_add(store, FAM_BPF_PROG_RUNS, labels, info.run_cnt - ps->seen[i].run_cnt);
	ps->seen[i].run_time_ns = info.run_time_ns;
	ps->seen[i].run_cnt = info.run_cnt;
}

void bpf_prog_stats_update(struct bpf_prog_stats *ps, struct metric_store *store)
{
	char path[PATH_MAX], target[64];
	struct dirent *e;
	DIR *d;

	if (!stats_enabled())
		return;
	d = opendir("/proc/self/fd");
	if (!d)
		return;
	metric_store_lock(store);
	while ((e = readdir(d))) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (!strcmp(target, "anon_inode:bpf-prog"))
			add_program(ps, store, atoi(e->d_name));
	}
	metric_store_unlock(store);
	closedir(d);
}
