// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu serve: an always-on Prometheus/OpenMetrics exporter of what the
 * kernel joins per interval (NAPI, IRQ, softirq) and of the NIC's own PMU
 * counters: -e events, or else top's func-queue counters rotated over the
 * queues. Options override the --config file; SIGHUP reads it again.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/run_options.h"
#include "cmd/serve_counters.h"
#include "cmd/serve_plan.h"
#include "lib/cli_values.h"
#include "lib/why_line.h"
#include "queue/queue_map.h"
#include "serve/http_server.h"
#include "serve/json_log.h"
#include "serve/metric_store.h"
#include "serve/privileges.h"
#include "serve/serve_config.h"
#include "serve/serve_loop.h"
#include "serve/serve_records.h"
#include "serve/web_config.h"
#include "sys/clock.h"

#define CMD "netpmu serve"
#define DEFAULT_MAX_SERIES 10000UL
#define MAX_SERIES_LIMIT 10000000UL
#define MAX_LIST 64

struct serve_options {
	const char *listen;
	char *events[NETPMU_MAX_COUNTERS];
	size_t nr_events;
	const char *config;
	const char *web_config;
	const char *json_log;
	char *include_devs[MAX_LIST], *exclude_devs[MAX_LIST];
	size_t nr_include_devs, nr_exclude_devs;
	unsigned int include_queues[MAX_LIST], exclude_queues[MAX_LIST];
	size_t nr_include_queues, nr_exclude_queues;
	unsigned long max_series;	/* 0: not given */
	struct run_options run;		/* --count: intervals */
};

/* A SIGHUP's reload, as the session sees it. */
struct serve_reload {
	const struct serve_options *o;
	struct serve_plan *plan;	/* served */
	struct metric_store *store;
	struct serve_plan next;		/* read for a new session */
	bool has_next;
};

static void serve_usage(FILE *out)
{
	fprintf(out,
		"usage: netpmu serve [--listen ADDR:PORT] [-e EVENT]... [--config FILE] [--web-config FILE]\n"
		"                    [--json-log FILE] [--dev IF]... [--exclude-dev IF]... [--queue N]...\n"
		"                    [--exclude-queue N]... [--max-series N] [-I MS] [-d SECONDS]\n"
		"\n"
		"Serves /metrics for Prometheus (text format 0.0.4, or OpenMetrics 1.0.0 when the\n"
		"scraper asks for it): per queue NAPI polls, packets, budget-exhausted polls, poll\n"
		"time, IRQs; per CPU NET_RX/NET_TX softirqs; the PMU events given with -e as raw\n"
		"64-bit totals (netpmu_pmu_event_total), or without -e the HNS3 func-queue bytes,\n"
		"packets and RX latency rotated over the queues, with their coverage; self-metrics.\n"
		"  --listen ADDR:PORT  where to serve (default %s: this machine only)\n"
		"  -e, --event EVENT   a PMU counter in perf syntax (at most %d)\n"
		"  --config FILE       YAML: listen, interval, events, devices, queues, max_series,\n"
		"                      labels, json_log; options override it; SIGHUP reads it again\n"
		"  --web-config FILE   TLS and basic auth, in Prometheus' exporter-toolkit format\n"
		"  --json-log FILE     append the interval records as JSON lines (trace --json's);\n"
		"                      reopened on SIGHUP\n"
		"  --dev IF            only this interface or PCI function (repeatable)\n"
		"  --exclude-dev IF    not this one (repeatable)\n"
		"  --queue N           only queue N (repeatable); --exclude-queue N: not queue N\n"
		"  --max-series N      at most N series (default %lu); netpmu_series_dropped_total\n"
		"                      counts the updates left out\n"
		"  -I, --interval MS   interval of the kernel's join (default %d)\n"
		"  -d, --duration S    stop after S seconds; --count N: after N intervals\n"
		"  --sysfs-root DIR    read PMUs from DIR instead of /sys\n"
		RUN_HELP_USAGE
		"SIGTERM or SIGINT: detach everything and exit 0. Needs CAP_BPF and CAP_PERFMON.\n",
		SERVE_DEFAULT_LISTEN, NETPMU_MAX_COUNTERS, DEFAULT_MAX_SERIES, RUN_DEFAULT_INTERVAL_MS);
}

static int add_name(char **list, size_t *n, char *name, const char *opt)
{
	if (*n == MAX_LIST) {
		fprintf(stderr, CMD ": at most %d %s options\n", MAX_LIST, opt);
		return -1;
	}
	list[(*n)++] = name;
	return 0;
}

static int add_queue(unsigned int *list, size_t *n, const char *arg, const char *opt)
{
	unsigned long q;

	if (cli_whole_number(CMD, opt, arg, 0, NETPMU_MAX_QUEUES - 1, &q))
		return -1;
	if (*n == MAX_LIST) {
		fprintf(stderr, CMD ": at most %d %s options\n", MAX_LIST, opt);
		return -1;
	}
	list[(*n)++] = q;
	return 0;
}

/* 0: run; 1: --help printed; -1: a usage error, said on stderr. */
static int parse_serve_options(int argc, char **argv, struct serve_options *o)
{
	enum { OPT_LISTEN = RUN_OPT_NEXT, OPT_CONFIG, OPT_WEB_CONFIG, OPT_JSON_LOG, OPT_DEV, OPT_EXCLUDE_DEV,
	       OPT_QUEUE, OPT_EXCLUDE_QUEUE, OPT_MAX_SERIES };
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "event", required_argument, NULL, 'e' },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "web-config", required_argument, NULL, OPT_WEB_CONFIG },
		{ "json-log", required_argument, NULL, OPT_JSON_LOG },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "exclude-dev", required_argument, NULL, OPT_EXCLUDE_DEV },
		{ "queue", required_argument, NULL, OPT_QUEUE },
		{ "exclude-queue", required_argument, NULL, OPT_EXCLUDE_QUEUE },
		{ "max-series", required_argument, NULL, OPT_MAX_SERIES },
		RUN_LONG_OPTIONS,
		{ 0 }
	};
	int c, err = 0;

	run_options_init(&o->run);
	opterr = 0;	/* its messages would name the command "serve" */
	while (!err && (c = getopt_long(argc, argv, ":e:" RUN_SHORT_OPTIONS, longopts, NULL)) != -1) {
		switch (c) {
		case OPT_LISTEN: o->listen = optarg; break;
		case OPT_CONFIG: o->config = optarg; break;
		case OPT_WEB_CONFIG: o->web_config = optarg; break;
		case OPT_JSON_LOG: o->json_log = optarg; break;
		case 'e':
			if (o->nr_events == NETPMU_MAX_COUNTERS) {
				fprintf(stderr, CMD ": at most %d events (a PMU has %d counters)\n",
					NETPMU_MAX_COUNTERS, NETPMU_MAX_COUNTERS);
				return -1;
			}
			o->events[o->nr_events++] = optarg;
			break;
		case OPT_DEV: err = add_name(o->include_devs, &o->nr_include_devs, optarg, "--dev"); break;
		case OPT_EXCLUDE_DEV:
			err = add_name(o->exclude_devs, &o->nr_exclude_devs, optarg, "--exclude-dev");
			break;
		case OPT_QUEUE: err = add_queue(o->include_queues, &o->nr_include_queues, optarg, "--queue"); break;
		case OPT_EXCLUDE_QUEUE:
			err = add_queue(o->exclude_queues, &o->nr_exclude_queues, optarg, "--exclude-queue");
			break;
		case OPT_MAX_SERIES:
			err = cli_whole_number(CMD, "--max-series", optarg, 1, MAX_SERIES_LIMIT, &o->max_series);
			break;
		case 'h':
			serve_usage(stdout);
			return 1;
		case '?':
			fprintf(stderr, CMD ": unknown option '%s' (see " CMD " --help)\n", argv[optind - 1]);
			return -1;
		case ':':
			fprintf(stderr, CMD ": %s needs a value (see " CMD " --help)\n", argv[optind - 1]);
			return -1;
		default:
			err = run_option(CMD, c, optarg, &o->run);
		}
	}
	if (err)
		return -1;
	if (optind < argc) {
		fprintf(stderr, CMD ": unexpected argument '%s' (see " CMD " --help)\n", argv[optind]);
		return -1;
	}
	return 0;
}

/* The options over the config file (read again at each reload). 0, or -1 with WHY. */
static int make_plan(const struct serve_options *o, struct serve_plan *p, char *why, size_t why_len)
{
	struct serve_config *f = &p->file;

	memset(p, 0, sizeof(*p));
	if (o->config && serve_config_load(o->config, f, why, why_len))
		return -1;
	p->events = o->nr_events ? o->events : f->events;
	p->nr_events = o->nr_events ? o->nr_events : f->nr_events;
	if (p->nr_events > NETPMU_MAX_COUNTERS) {
		serve_config_free(f);
		return why_fail(why, why_len, "%s: %zu events, at most %d (a PMU has %d counters)", o->config,
				p->nr_events, NETPMU_MAX_COUNTERS, NETPMU_MAX_COUNTERS);
	}
	p->interval_ms = o->run.interval_given || !f->interval_ms ? o->run.interval_ms : f->interval_ms;
	p->max_series = o->max_series ? o->max_series : f->max_series ? f->max_series : DEFAULT_MAX_SERIES;
	/* A list given on the command line replaces the file's. */
	p->filter.include_devs = o->nr_include_devs ? (char **)o->include_devs : f->include_devs;
	p->filter.nr_include_devs = o->nr_include_devs ? o->nr_include_devs : f->nr_include_devs;
	p->filter.exclude_devs = o->nr_exclude_devs ? (char **)o->exclude_devs : f->exclude_devs;
	p->filter.nr_exclude_devs = o->nr_exclude_devs ? o->nr_exclude_devs : f->nr_exclude_devs;
	p->filter.include_queues = o->nr_include_queues ? (unsigned int *)o->include_queues : f->include_queues;
	p->filter.nr_include_queues = o->nr_include_queues ? o->nr_include_queues : f->nr_include_queues;
	p->filter.exclude_queues = o->nr_exclude_queues ? (unsigned int *)o->exclude_queues : f->exclude_queues;
	p->filter.nr_exclude_queues = o->nr_exclude_queues ? o->nr_exclude_queues : f->nr_exclude_queues;
	return 0;
}

static void apply_plan(struct metric_store *store, const struct serve_plan *plan)
{
	metric_store_set_limit(store, plan->max_series);
	metric_store_lock(store);
	store->const_labels[0] = '\0';
	for (size_t i = 0; i < plan->file.nr_labels; i++)
		metric_labels_add(store->const_labels, sizeof(store->const_labels), plan->file.labels[i].name,
				  plan->file.labels[i].value);
	metric_store_unlock(store);
}

/*
 * SIGHUP: the config read again. A plan the session, WHOLE, can serve is
 * taken in place (true); one that needs a new session is kept for it (false).
 */
static bool reload_in_place(void *ctx, bool whole)
{
	struct serve_reload *r = ctx;
	char why[512];

	if (make_plan(r->o, &r->next, why, sizeof(why))) {
		fprintf(stderr, CMD ": reload refused, serving on as before: %s\n", why);
		return true;
	}
	if (!whole || !serve_plan_same_session(r->plan, &r->next)) {
		r->has_next = true;
		return false;
	}
	serve_plan_take_in_place(r->plan, &r->next);
	apply_plan(r->store, r->plan);
	fprintf(stderr, CMD ": reloaded %s\n", r->o->config);
	return true;
}

/*
 * One BPF session serving PLAN, until a stop, a reload or an error; *STARTED:
 * it counted. *ANNOUNCE, the serving line or a fallback's, is said once the
 * session counts (scripts wait for it: what follows it is measured).
 */
static enum serve_end serve_session(const struct serve_options *o, struct serve_reload *reload,
				    struct metric_store *store, struct json_log *log, double deadline,
				    bool *started, const char **announce)
{
	const struct serve_plan *plan = reload->plan;
	struct queue_map queues = { 0 };
	struct serve_counters sc = { .queues = &queues, .sysfs_root = o->run.sysfs_root };
	struct serve_records rec = { .store = store, .filter = &plan->filter, .queues = &queues };
	struct serve_loop loop = {
		.store = store, .records = &rec, .log = log,
		.reload = o->config ? reload_in_place : NULL, .reload_ctx = reload,
		.deadline = deadline, .max_intervals = o->run.count, .queues = &queues,
		.sysfs_root = o->run.sysfs_root,
	};
	struct bpf_session_options sopts = {
		.interval_ms = plan->interval_ms, .interval_records = true, .queues = &queues,
		.on_record = serve_loop_record, .ctx = &loop,
	};
	struct bpf_session session;
	enum serve_end end = SERVE_END_ERROR;
	char why[512];

	if (queue_map_discover(NULL, NULL, &queues, why, sizeof(why)))
		fprintf(stderr, CMD ": warning: queues not mapped to IRQs: %s\n", why);
	if (!plan->software_only && serve_counters_prepare(&sc, &plan->filter, plan->events, plan->nr_events, &rec,
							   &loop, &sopts, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		goto out;
	}
	if (bpf_session_start(&session, &sopts, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		goto out;
	}
	loop.session = &session;
	*started = true;
	if (*announce) {
		fputs(*announce, stderr);
		*announce = NULL;
	}
	end = serve_loop_run(&loop, CMD);
	bpf_session_stop(&session);
out:
	serve_counters_release(&sc);
	queue_map_release(&queues);
	return end;
}

/*
 * Serves until a stop: a session per config read. A bad reload keeps the
 * config served; a session that cannot start after a reload (a PMU removed,
 * an event the new config names wrongly) falls back to the previous config,
 * then to its software series only, then to the last totals, each until a
 * SIGHUP tries the config again. Only the first start's failure ends the
 * exporter.
 */
static int serve(const struct serve_options *o, struct serve_plan *plan, struct metric_store *store,
		 struct json_log *log, const char *announce)
{
	double deadline = o->run.duration_s > 0 ? monotonic_seconds() + o->run.duration_s : 0;
	struct serve_reload reload = { .o = o, .plan = plan, .store = store };
	struct serve_plan next, previous;
	bool has_previous = false, counted = false;
	enum serve_end end;
	char why[512];
	int ret = 1;

	for (;;) {
		bool started = false;

		apply_plan(store, plan);
		end = serve_session(o, &reload, store, log, deadline, &started, &announce);
		counted |= started;
		if (end == SERVE_END_STOP) {
			ret = 0;
			break;
		}
		if (end == SERVE_END_ERROR && (started || !counted))
			break;
		if (end == SERVE_END_ERROR && has_previous) {
			fprintf(stderr, CMD ": reload refused, serving on as before: the new config cannot count\n");
			serve_config_free(&plan->file);
			*plan = previous;
			has_previous = false;
			continue;
		}
		if (end == SERVE_END_ERROR && !plan->software_only) {
			/* Said once that session counts: what follows the line is measured. */
			announce = CMD ": the PMU counters cannot be opened now: serving the software series only "
				   "(SIGHUP tries again)\n";
			plan->software_only = true;
			continue;
		}
		if (end == SERVE_END_ERROR) {
			announce = NULL;
			fprintf(stderr, CMD ": nothing can be counted now: serving the last totals (SIGHUP tries again)\n");
			if (serve_wait_signal(log, deadline, CMD) == SERVE_END_STOP) {
				ret = 0;
				break;
			}
		}
		if (has_previous)
			serve_config_free(&previous.file);
		has_previous = false;
		if (reload.has_next) {
			next = reload.next;
			reload.has_next = false;
		} else if (make_plan(o, &next, why, sizeof(why))) {
			fprintf(stderr, CMD ": reload refused, serving on as before: %s\n", why);
			continue;
		}
		previous = *plan;
		has_previous = true;
		*plan = next;
		fprintf(stderr, CMD ": reloaded %s\n", o->config);
	}
	if (has_previous)
		serve_config_free(&previous.file);
	return ret;
}

int cmd_serve(int argc, char **argv)
{
	struct serve_options o = { 0 };
	struct serve_plan plan;
	struct web_config web = { 0 };
	struct json_log log = { 0 };
	struct metric_store store;
	struct http_server *srv = NULL;
	const char *listen_addr, *log_path;
	char why[512], labels[METRIC_LABELS_MAX] = "", serving[320];
	int ret;

	ret = parse_serve_options(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	if (make_plan(&o, &plan, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		return EXIT_USAGE;
	}
	ret = 1;
	if (o.web_config && web_config_load(o.web_config, &web, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		serve_config_free(&plan.file);
		return EXIT_USAGE;
	}
	if (metric_store_init(&store, plan.max_series)) {
		fprintf(stderr, CMD ": out of memory\n");
		goto out_web;
	}
	metric_labels_add(labels, sizeof(labels), "version", NETPMU_VERSION);
	metric_store_lock(&store);
	metric_gauge_set(&store, FAM_BUILD_INFO, labels, 1);
	metric_store_unlock(&store);
	log_path = o.json_log ? o.json_log : plan.file.json_log;
	if (log_path && json_log_open(&log, log_path, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		goto out_store;
	}
	listen_addr = o.listen ? o.listen : plan.file.listen ? plan.file.listen : SERVE_DEFAULT_LISTEN;
	srv = http_server_start(listen_addr, o.web_config ? &web : NULL, &store, why, sizeof(why));
	if (!srv) {
		fprintf(stderr, CMD ": %s\n", why);
		goto out_log;
	}
	/* After the address: a port in use is said first, without privileges. */
	if (privileges_check(why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		goto out_srv;
	}
	serve_catch_signals();
	snprintf(serving, sizeof(serving), CMD ": serving http%s://%s/metrics\n", web.cert_pem ? "s" : "",
		 listen_addr);
	ret = serve(&o, &plan, &store, log_path ? &log : NULL, serving);
out_srv:
	http_server_stop(srv);
out_log:
	json_log_close(&log);
out_store:
	metric_store_release(&store);
out_web:
	web_config_free(&web);
	serve_config_free(&plan.file);
	return ret;
}
