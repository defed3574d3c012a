/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu serve's --config FILE (YAML, read with libyaml): what the exporter
 * serves and from what. Every field is optional; the command line overrides
 * the file. An example with every key:
 *
 *   listen: 127.0.0.1:9713
 *   interval: 1s                  # 10ms .. 1h; "500ms", "2s", "1m"
 *   events:
 *     - hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/
 *   devices: { include: [eth2], exclude: [eth0] }
 *   queues: { include: [0, 1], exclude: [] }
 *   max_series: 10000
 *   labels: { site: lab1, rack: r7 }
 *   json_log: /var/log/netpmu/records.jsonl
 */
#ifndef NETPMU_SERVE_CONFIG_H
#define NETPMU_SERVE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define SERVE_DEFAULT_LISTEN "127.0.0.1:9713"

struct serve_label {
	char *name;	/* [a-zA-Z_][a-zA-Z0-9_]*, not starting with "__" */
	char *value;
};

struct serve_config {
	char *listen;			/* NULL: not in the file */
	unsigned int interval_ms;	/* 0: not in the file */
	char **events;			/* -e strings, as given */
	size_t nr_events;
	char **include_devs;		/* interface names or PCI addresses; none: every device */
	size_t nr_include_devs;
	char **exclude_devs;
	size_t nr_exclude_devs;
	unsigned int *include_queues;	/* none: every queue */
	size_t nr_include_queues;
	unsigned int *exclude_queues;
	size_t nr_exclude_queues;
	unsigned long max_series;	/* 0: not in the file */
	struct serve_label *labels;	/* constant labels on every series */
	size_t nr_labels;
	char *json_log;			/* NULL: not in the file */
};

/*
 * Reads PATH into CFG (zeroed first). Returns 0, or -1 with one line in WHY:
 * "PATH:LINE:COLUMN: what is wrong (what would be right)", CFG then empty.
 */
int serve_config_load(const char *path, struct serve_config *cfg, char *why, size_t why_len);

/* The same from a buffer; NAME stands for the file in messages (fuzzing, tests). */
int serve_config_parse(const char *name, const char *text, size_t len, struct serve_config *cfg,
		       char *why, size_t why_len);

void serve_config_free(struct serve_config *cfg);

#endif
