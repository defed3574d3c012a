// SPDX-License-Identifier: GPL-2.0
/* netpmu list: the HNS3 and PCIe PMUs present, as a table or JSON lines. */
#include <fnmatch.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "lib/json_writer.h"
#include "pmu/list_events.h"
#include "pmu/metric.h"
#include "pmu/pmu_discovery.h"
#include "pmu/pmu_name_match.h"

#define CMD "netpmu list"

struct list_options {
	const char *pattern;	/* NULL: every PMU */
	const char *sysfs_root;	/* NULL: /sys */
	bool json;
	bool events;		/* --events: each PMU's metrics and events */
};

static void list_usage(FILE *out)
{
	fprintf(out,
		"usage: netpmu list [PATTERN] [--events] [--json] [--sysfs-root DIR]\n"
		"\n"
		"Lists the HiSilicon HNS3 NIC PMUs (hns3_pmu_sicl_<N>, and the early\n"
		"hns3_pmu_<device_id>) and PCIe PMUs (hisi_pcie<S>_core<C>) found in\n"
		"/sys/bus/event_source/devices: perf type, identifier, counting CPU, the\n"
		"BDF range they cover and their number of events.\n"
		"\n"
		"  PATTERN           only PMUs whose name matches this shell pattern,\n"
		"                    e.g. hns3_pmu_sicl_0 or 'hisi_pcie*', or the instances a\n"
		"                    PMU name without its instance number stands for in an\n"
		"                    event string, e.g. hns3_pmu_sicl or hisi_pcie0_core\n"
		"  -e, --events      each PMU's events grouped by kind: every metric once with\n"
		"                    its pair of events, the unit of its derived value and\n"
		"                    the filter modes it supports; then events without a pair.\n"
		"                    With --json: an object per metric (pmu, kind, metric,\n"
		"                    counters, unit, formula, filter_modes or filters,\n"
		"                    undocumented) and per unpaired event (pmu, event, spec)\n"
		"  -j, --json        one JSON document on one line: an array of an object\n"
		"                    per PMU (per metric and event with --events), with the\n"
		"                    keys name, kind (hns3|pcie), sicl_id, core_id, device_id,\n"
		"                    type, identifier, cpu, cpumask, bdf_min, bdf_max, bus,\n"
		"                    hw_clk_freq, events, filtermodes, format, problems;\n"
		"                    null where the PMU has no such file\n"
		"  --sysfs-root DIR  read DIR/bus/event_source/devices (DIR replaces /sys)\n"
		"  -h, --help        this text\n"
		"\n"
		"Exit status: 0 on success, also when there is no PMU at all (a note on\n"
		"stderr says how to get one); 1 if PATTERN matches no PMU or sysfs cannot\n"
		"be read; 2 on a usage error. Unreadable or malformed sysfs files are\n"
		"reported on stderr as warnings naming the file.\n");
}

/* Returns -1 to continue, or the exit status. */
static int parse_list_options(int argc, char **argv, struct list_options *opts)
{
	enum { OPT_SYSFS_ROOT = 256 };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "events", no_argument, NULL, 'e' },
		{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":jeh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opts->json = true;
			break;
		case 'e':
			opts->events = true;
			break;
		case OPT_SYSFS_ROOT:
			opts->sysfs_root = optarg;
			break;
		case 'h':
			list_usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, CMD ": %s needs a value (see netpmu list --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, CMD ": unknown option '%s' (valid: --events, --json, --sysfs-root DIR, --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		opts->pattern = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, CMD ": one PATTERN at most, got '%s' and '%s'\n",
			opts->pattern, argv[optind]);
		return EXIT_USAGE;
	}
	return -1;
}

/* PATTERN as a shell pattern, or as a merged name (hns3_pmu_sicl) its instances, as in -e. */
static bool pmu_selected(const struct pmu_set *set, const struct pmu *pmu,
			 const struct list_options *opts)
{
	return !opts->pattern || !fnmatch(opts->pattern, pmu->name, 0) ||
	       (!pmu_set_find(set, opts->pattern) && pmu_name_matches(pmu->name, opts->pattern));
}

static void print_no_pmu_hint(const struct pmu_set *set)
{
	fprintf(stderr,
		CMD ": no HNS3 or PCIe PMU in %s; load netpmu's module "
		"(insmod .output/kmod/ARCH-KVER/netpmu.ko) or, on Hip09, the upstream drivers "
		"(modprobe hns3_pmu; modprobe hisi_pcie_pmu)\n", set->devices_dir);
}

static void print_no_match(const struct pmu_set *set, const char *pattern)
{
	fprintf(stderr, CMD ": no PMU matches '%s' (present: ", pattern);
	for (size_t i = 0; i < set->nr_pmus; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", set->pmus[i].name);
	fprintf(stderr, ")\n");
}

/* Table cells of one PMU. */
enum list_column {
	COL_PMU, COL_KIND, COL_TYPE, COL_IDENTIFIER, COL_CPU, COL_BDF_RANGE,
	COL_EVENTS, NR_LIST_COLUMNS
};

static const char *const column_titles[NR_LIST_COLUMNS] = {
	"PMU", "KIND", "TYPE", "IDENTIFIER", "CPU", "BDF RANGE", "EVENTS",
};

#define CELL_LEN 64

static void format_bdf_range(const struct pmu *pmu, char *cell)
{
	char min[PCI_BDF_TEXT_LEN] = "?", max[PCI_BDF_TEXT_LEN] = "?";

	if (pmu->bdf_min < 0 && pmu->bdf_max < 0) {
		strcpy(cell, "-");
		return;
	}
	if (pmu->bdf_min >= 0)
		format_pci_bdf(pmu->bdf_min, min);
	if (pmu->bdf_max >= 0)
		format_pci_bdf(pmu->bdf_max, max);
	snprintf(cell, CELL_LEN, "%s-%s", min, max);
}

/* The counting CPU; "none" if cpumask says none (-1 or empty), "-" if unknown. */
static void format_cpu(const struct pmu *pmu, char *cell)
{
	unsigned int nr_cpus;
	const char *why;
	int cpu;

	if (pmu->cpu >= 0)
		snprintf(cell, CELL_LEN, "%d", pmu->cpu);
	else if (pmu->cpumask && !parse_cpumask(pmu->cpumask, &cpu, &nr_cpus, &why))
		strcpy(cell, "none");
	else
		strcpy(cell, "-");
}

static void format_row(const struct pmu *pmu, char cells[NR_LIST_COLUMNS][CELL_LEN])
{
	snprintf(cells[COL_PMU], CELL_LEN, "%s", pmu->name);
	snprintf(cells[COL_KIND], CELL_LEN, "%s", pmu_kind_name(pmu->name_info.kind));
	if (pmu->type >= 0)
		snprintf(cells[COL_TYPE], CELL_LEN, "%d", pmu->type);
	else
		strcpy(cells[COL_TYPE], "-");
	snprintf(cells[COL_IDENTIFIER], CELL_LEN, "%s", pmu->identifier ?: "-");
	format_cpu(pmu, cells[COL_CPU]);
	format_bdf_range(pmu, cells[COL_BDF_RANGE]);
	snprintf(cells[COL_EVENTS], CELL_LEN, "%zu", pmu->nr_events);
}

static void print_cells(char cells[NR_LIST_COLUMNS][CELL_LEN],
			const int widths[NR_LIST_COLUMNS])
{
	for (int col = 0; col < NR_LIST_COLUMNS; col++) {
		if (col == NR_LIST_COLUMNS - 1)
			printf("%s\n", cells[col]);
		else
			printf("%-*s  ", widths[col], cells[col]);
	}
}

static void print_table(const struct pmu_set *set, const struct list_options *opts)
{
	char (*rows)[NR_LIST_COLUMNS][CELL_LEN] = calloc(set->nr_pmus + 1, sizeof(*rows));
	int widths[NR_LIST_COLUMNS];
	size_t nr_rows = 1;

	if (!rows) {
		fprintf(stderr, CMD ": out of memory\n");
		return;
	}
	for (int col = 0; col < NR_LIST_COLUMNS; col++)
		snprintf(rows[0][col], CELL_LEN, "%s", column_titles[col]);
	for (size_t i = 0; i < set->nr_pmus; i++) {
		if (pmu_selected(set, &set->pmus[i], opts))
			format_row(&set->pmus[i], rows[nr_rows++]);
	}
	for (int col = 0; col < NR_LIST_COLUMNS; col++) {
		widths[col] = 0;
		for (size_t r = 0; r < nr_rows; r++) {
			int len = strlen(rows[r][col]);

			if (len > widths[col])
				widths[col] = len;
		}
	}
	for (size_t r = 0; r < nr_rows; r++)
		print_cells(rows[r], widths);
	free(rows);
}

static void json_bdf(struct json_writer *w, const char *key, int bdf)
{
	char text[PCI_BDF_TEXT_LEN];

	if (bdf < 0) {
		json_null(w, key);
		return;
	}
	format_pci_bdf(bdf, text);
	json_string(w, key, text);
}

static void json_int_or_null(struct json_writer *w, const char *key, long long v,
			     bool present)
{
	if (present)
		json_int(w, key, v);
	else
		json_null(w, key);
}

static void json_format_fields(struct json_writer *w, const struct pmu *pmu)
{
	json_begin_object(w, "format");
	for (size_t i = 0; i < pmu->nr_formats; i++) {
		const struct pmu_format_field *f = &pmu->formats[i];

		if (!f->nr_ranges)
			continue;	/* unreadable or malformed: a problem */
		json_begin_object(w, f->name);
		json_string(w, "word", pmu_config_word_name(f->word));
		json_begin_array(w, "bits");
		for (size_t r = 0; r < f->nr_ranges; r++) {
			json_begin_array(w, NULL);
			json_uint(w, NULL, f->ranges[r].lo);
			json_uint(w, NULL, f->ranges[r].hi);
			json_end_array(w);
		}
		json_end_array(w);
		json_end_object(w);
	}
	json_end_object(w);
}

static size_t count_filtermodes(const struct pmu *pmu)
{
	size_t n = 0;

	for (size_t i = 0; i < pmu->nr_events; i++)
		n += pmu->events[i].filter_modes_valid;
	return n;
}

static void print_json_pmu(struct json_writer *w, const struct pmu *pmu)
{
	const struct pmu_name_info *id = &pmu->name_info;

	json_begin_object(w, NULL);
	json_string(w, "name", pmu->name);
	json_string(w, "kind", pmu_kind_name(id->kind));
	json_int_or_null(w, "sicl_id", id->sicl_id, id->naming != PMU_NAMED_BY_DEVICE_ID);
	json_int_or_null(w, "core_id", id->core_id, id->naming == PMU_NAMED_BY_SICL_CORE);
	json_int_or_null(w, "device_id", id->device_id, id->naming == PMU_NAMED_BY_DEVICE_ID);
	json_int_or_null(w, "type", pmu->type, pmu->type >= 0);
	json_string(w, "identifier", pmu->identifier);
	json_int_or_null(w, "cpu", pmu->cpu, pmu->cpu >= 0);
	json_string(w, "cpumask", pmu->cpumask);
	json_bdf(w, "bdf_min", pmu->bdf_min);
	json_bdf(w, "bdf_max", pmu->bdf_max);
	json_int_or_null(w, "bus", pmu->bus, pmu->bus >= 0);
	if (pmu->has_hw_clk_freq)
		json_uint(w, "hw_clk_freq", pmu->hw_clk_freq);
	else
		json_null(w, "hw_clk_freq");
	json_uint(w, "events", pmu->nr_events);
	json_uint(w, "filtermodes", count_filtermodes(pmu));
	json_format_fields(w, pmu);
	json_begin_array(w, "problems");
	for (size_t i = 0; i < pmu->nr_problems; i++)
		json_string(w, NULL, pmu->problems[i]);
	json_end_array(w);
	json_end_object(w);
}

static void print_problems(const struct pmu_set *set, const struct list_options *opts)
{
	for (size_t i = 0; i < set->nr_pmus; i++) {
		const struct pmu *pmu = &set->pmus[i];

		if (!pmu_selected(set, pmu, opts))
			continue;
		for (size_t p = 0; p < pmu->nr_problems; p++)
			fprintf(stderr, CMD ": warning: %s\n", pmu->problems[p]);
	}
}

/* --events: each selected PMU's metrics and events. */
static int print_events(const struct pmu_set *set, const struct list_options *opts,
			struct json_writer *w)
{
	struct metric_set metrics;
	bool first = true;

	if (metric_set_build(set, &metrics)) {
		fprintf(stderr, CMD ": out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < set->nr_pmus; i++) {
		if (!pmu_selected(set, &set->pmus[i], opts))
			continue;
		if (opts->json) {
			list_events_print_json(w, &set->pmus[i], &metrics);
		} else {
			if (!first)
				putchar('\n');
			list_events_print(stdout, &set->pmus[i], &metrics);
		}
		first = false;
	}
	metric_set_release(&metrics);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_options opts = { 0 };
	struct json_writer w;
	struct pmu_set set;
	size_t nr_selected = 0;
	char err[512];
	int status;

	status = parse_list_options(argc, argv, &opts);
	if (status >= 0)
		return status;
	if (pmu_discover(opts.sysfs_root, &set, err, sizeof(err))) {
		fprintf(stderr, CMD ": cannot read the PMUs: %s\n", err);
		return 1;
	}

	for (size_t i = 0; i < set.nr_pmus; i++)
		nr_selected += pmu_selected(&set, &set.pmus[i], &opts);
	if (!set.nr_pmus && !opts.pattern) {
		print_no_pmu_hint(&set);
		status = 0;
	} else if (!nr_selected) {
		if (set.nr_pmus)
			print_no_match(&set, opts.pattern);
		else
			print_no_pmu_hint(&set);
		status = 1;
	} else {
		status = 0;
		/* --json: one document on one line, an array of PMUs, metrics and events. */
		json_init(&w, stdout);
		if (opts.json)
			json_begin_array(&w, NULL);
		if (opts.events) {
			status = print_events(&set, &opts, &w);
		} else if (opts.json) {
			for (size_t i = 0; i < set.nr_pmus; i++) {
				if (pmu_selected(&set, &set.pmus[i], &opts))
					print_json_pmu(&w, &set.pmus[i]);
			}
		} else {
			print_table(&set, &opts);
		}
		if (opts.json) {
			json_end_array(&w);
			putchar('\n');
		}
		fflush(stdout);
		print_problems(&set, &opts);
	}
	pmu_set_release(&set);
	return status;
}
