/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu stat's output, in perf stat's three forms: the human table, CSV
 * with -x SEP (perf's columns: [interval,]counter-value,unit,event,
 * event-runtime,pcnt-running,metric-value,metric-unit) and JSON lines with
 * -j (perf's keys). A metric's derived value goes on the line of its
 * counter 0, as perf puts a metric on the line of the event it belongs to.
 * The instances of a merged PMU name share one line with their sum; with
 * per_instance (perf 6.12's --no-merge, the same as its -A) every counter has
 * its own line, led by its CPU as perf leads each line of -A.
 */
#ifndef NETPMU_STAT_OUTPUT_H
#define NETPMU_STAT_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stat/stat_counters.h"

enum stat_format {
	STAT_FORMAT_STD,
	STAT_FORMAT_CSV,
	STAT_FORMAT_JSON,
};

struct stat_output {
	FILE *out;
	enum stat_format format;
	const char *separator;		/* CSV */
	bool interval;			/* -I: lines carry the time since the start */
	const char *target;		/* "system wide" or the command line */
	bool per_instance;		/* --no-merge: a line per counter, with its CPU */
	unsigned int intervals_printed;
	bool begun;			/* header and notes printed */
};

/* One line: a counter, or the sum of a merged name's instances. */
struct stat_row {
	const char *event;
	int cpu;			/* shown with per_instance; -1 otherwise */
	bool counted;			/* false: it never ran (<not counted>) */
	double value;			/* scaled by enabled / running */
	uint64_t running_ns;
	double running_pct;
	bool has_metric;
	double metric_value;
	const char *metric_unit;
	const char *metric_name;
};

/*
 * Every counter's line: totals, or with DELTA the last interval, at TIME_NS
 * since the start. The first call prints perf's header (human form) and the
 * notes on undocumented units before.
 */
void stat_output_counts(struct stat_output *o, const struct stat_counters *sc, bool delta,
			uint64_t time_ns);

/* Whether counter I has a line: not when it is summed into an earlier instance's (stat_row.c). */
bool stat_row_shown(const struct stat_counters *sc, size_t i, bool per_instance);

/* Counter I's line, totals or with DELTA the last interval: its own or its instances' sum. */
void stat_row_fill(const struct stat_counters *sc, size_t i, bool delta, bool per_instance,
		   struct stat_row *row);

/* After the totals: the elapsed time (human form). */
void stat_output_end(struct stat_output *o, uint64_t elapsed_ns);

/* The three forms (stat_print.c). */
void stat_print_std_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns);
void stat_print_csv_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns);
void stat_print_json_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns);

#endif
