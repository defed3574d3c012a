// SPDX-License-Identifier: GPL-2.0
/*
 * A sysfs value inside its PMU: the input's first byte picks a file of the
 * fixture PMUs (a format field, an event, a filtermode, cpumask, type, bdf
 * range, ...), the rest is its content; then the PMUs are discovered again,
 * listed, and event strings of both PMUs parsed, checked, explained and
 * dry-run on them. A value each parser takes can still break the rules
 * downstream: a PCIe len_mode of config2:0-63 once crashed the filter check.
 * The file is put back after each input.
 */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "event/event_check.h"
#include "event/event_explain.h"
#include "event/event_parse.h"
#include "pmu/list_events.h"
#include "pmu/metric.h"
#include "pmu/pmu_discovery.h"
#include "stat/stat_dry_run.h"
#include "fuzz_common.h"

static const char *const files[] = {
	"hisi_pcie0_core1/format/len_mode", "hisi_pcie0_core1/format/port",
	"hisi_pcie0_core1/format/bdf", "hisi_pcie0_core1/format/event",
	"hisi_pcie0_core1/format/thr_len", "hisi_pcie0_core1/format/thr_mode",
	"hisi_pcie0_core1/format/trig_len", "hisi_pcie0_core1/format/trig_mode",
	"hisi_pcie0_core1/events/rx_mwr_flux", "hisi_pcie0_core1/events/rx_mwr_latency",
	"hisi_pcie0_core1/cpumask", "hisi_pcie0_core1/type", "hisi_pcie0_core1/bus",
	"hisi_pcie0_core1/bdf_min", "hisi_pcie0_core1/bdf_max", "hisi_pcie0_core1/identifier",
	"hns3_pmu_sicl_0/format/bdf", "hns3_pmu_sicl_0/format/queue", "hns3_pmu_sicl_0/format/tc",
	"hns3_pmu_sicl_0/format/port", "hns3_pmu_sicl_0/format/global",
	"hns3_pmu_sicl_0/format/event", "hns3_pmu_sicl_0/format/event_type",
	"hns3_pmu_sicl_0/format/subevent", "hns3_pmu_sicl_0/format/intr",
	"hns3_pmu_sicl_0/format/ext_counter_used",
	"hns3_pmu_sicl_0/events/bw_ssu_rpu_byte_num", "hns3_pmu_sicl_0/events/bw_ssu_rpu_time",
	"hns3_pmu_sicl_0/filtermode/bw_ssu_rpu_byte_num", "hns3_pmu_sicl_0/cpumask",
	"hns3_pmu_sicl_0/type", "hns3_pmu_sicl_0/bdf_min", "hns3_pmu_sicl_0/bdf_max",
	"hns3_pmu_sicl_0/hw_clk_freq", "hns3_pmu_sicl_0/identifier",
};
#define NR_FILES (sizeof(files) / sizeof(files[0]))

static const char *const strings[] = {
	"hisi_pcie0_core1/rx_mwr_bw,bdf=35:00.0/",
	"hisi_pcie0_core1/rx_mwr_flux,port=1,len_mode=2,thr_len=3,thr_mode=1/",
	"hisi_pcie0_core1/rx_mwr_lat,port=1/",
	"hisi_pcie0_core/rx_mwr_bw,trig_len=4,trig_mode=1,port=0x3/",
	"hns3_pmu_sicl_0/bw_ssu_rpu,global=1/",
	"hns3_pmu_sicl_0/bw_ssu_rpu,bdf=35:00.0,queue=1/",
	"hns3_pmu_sicl_0/bw_ssu_rpu,port=1,tc=0xf/",
	"hns3_pmu_sicl_0/config=0x301,bdf=0x3500,intr=2/",
	"{hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/,hns3_pmu_sicl_0/bw_ssu_rpu_time,global=1/}",
};
#define NR_STRINGS (sizeof(strings) / sizeof(strings[0]))

static char *sysfs_root, *paths[NR_FILES], *saved[NR_FILES];
static size_t saved_len[NR_FILES];
static FILE *devnull;

static void write_file(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sysfs_root = fuzz_tree("pmu/sys");
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	for (size_t i = 0; i < NR_FILES; i++) {
		FILE *f;

		if (asprintf(&paths[i], "%s/bus/event_source/devices/%s", sysfs_root, files[i]) < 0)
			abort();
		f = fopen(paths[i], "r");
		saved[i] = malloc(4096);
		if (!f || !saved[i]) {
			fprintf(stderr, "fuzz_pmu_sysfs: no %s in the fixture\n", paths[i]);
			exit(1);
		}
		saved_len[i] = fread(saved[i], 1, 4096, f);
		fclose(f);
	}
	return 0;
}

static void use_pmus(void)
{
	struct metric_set metrics = { 0 };
	struct event_parse_ctx ctx = { .sysfs_root = sysfs_root };
	struct pmu_set pmus;
	char why[1024];

	if (pmu_discover(sysfs_root, &pmus, why, sizeof(why)))
		return;
	if (metric_set_build(&pmus, &metrics))
		goto out;
	for (size_t i = 0; i < pmus.nr_pmus; i++)
		list_events_print(devnull, &pmus.pmus[i], &metrics);
	ctx.pmus = &pmus;
	ctx.metrics = &metrics;
	for (size_t i = 0; i < NR_STRINGS; i++) {
		struct event_list list = { 0 };

		if (!event_list_parse(&list, strings[i], &ctx, why, sizeof(why))) {
			event_explain_print(devnull, &list, &ctx);
			stat_dry_run_print(devnull, &list);
			event_list_check(&list, &ctx, why, sizeof(why));
		}
		event_list_release(&list);
	}
	metric_set_release(&metrics);
out:
	pmu_set_release(&pmus);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i;

	if (!size)
		return 0;
	i = data[0] % NR_FILES;
	write_file(paths[i], data + 1, size - 1);
	use_pmus();
	write_file(paths[i], saved[i], saved_len[i]);
	return 0;
}
