// SPDX-License-Identifier: GPL-2.0
/*
 * Event strings and groups as netpmu stat -e takes them: parsed against the
 * fixture PMUs (tests/fixtures/make-sysfs-tree --topology
 * --netpmu-extensions), then checked, explained and printed as --dry-run
 * does, which runs every filter rule of both PMUs on what the parser built;
 * and each line as trace -e takes a core event (cycles:u, cpu/cycles/).
 */
#include <stdint.h>
#include <stdio.h>

#include "pmu/core_events.h"
#include "event/event_check.h"
#include "event/event_explain.h"
#include "event/event_parse.h"
#include "pmu/metric.h"
#include "pmu/pmu_discovery.h"
#include "stat/stat_dry_run.h"
#include "fuzz_common.h"

static struct pmu_set pmus;
static struct metric_set metrics;
static struct event_parse_ctx ctx;
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char why[512];

	ctx.sysfs_root = fuzz_tree("pmu/sys");
	devnull = fopen("/dev/null", "w");
	if (!devnull || pmu_discover(ctx.sysfs_root, &pmus, why, sizeof(why)) ||
	    metric_set_build(&pmus, &metrics)) {
		fprintf(stderr, "fuzz_event_string: no fixture PMUs in %s\n", ctx.sysfs_root);
		exit(1);
	}
	ctx.pmus = &pmus;
	ctx.metrics = &metrics;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct event_list list = { 0 };
	char *arg = fuzz_string(data, size), why[1024];

	/* A newline separates -e arguments: several strings in one list, as -e A -e B. */
	for (char *save = NULL, *e = strtok_r(arg, "\n", &save); e; e = strtok_r(NULL, "\n", &save)) {
		struct core_event core;

		/* 1: a core event, 0: not one, -errno: a bad one; CORE is cleared first. */
		core_event_parse(e, ctx.sysfs_root, &core, why, sizeof(why));
		core_event_release(&core);
		if (event_list_parse(&list, e, &ctx, why, sizeof(why)))
			break;
	}
	if (list.nr_events) {
		event_explain_print(devnull, &list, &ctx);
		stat_dry_run_print(devnull, &list);
		event_list_check(&list, &ctx, why, sizeof(why));
	}
	event_list_release(&list);
	free(arg);
	return 0;
}
