/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu stat's output, in perf stat's three forms: the human table, CSV
 * with -x SEP (perf's columns: [interval,]counter-value,unit,event,
 * event-runtime,pcnt-running,metric-value,metric-unit) and JSON lines with
 * -j (perf's keys). A metric's derived value goes on the line of its
 * counter 0, as perf puts a metric on the line of the event it belongs to.
 */
#ifndef NETPMU_STAT_OUTPUT_H
#define NETPMU_STAT_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stat_counters.h"

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
	unsigned int intervals_printed;
	bool begun;			/* header and notes printed */
};

/* One counter's line. */
struct stat_row {
	const char *event;
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

/* After the totals: the elapsed time (human form). */
void stat_output_end(struct stat_output *o, uint64_t elapsed_ns);

/* The three forms (stat_print_*.c). */
void stat_print_std_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns);
void stat_print_csv_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns);
void stat_print_json_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns);

#endif
