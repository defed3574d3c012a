// SPDX-License-Identifier: GPL-2.0
#include "serve/serve_config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse_number.h"
#include "lib/why_line.h"
#include "serve/config_yaml.h"

#define INTERVAL_MIN_MS 10
#define INTERVAL_MAX_MS 3600000
#define MAX_SERIES_MAX 10000000UL
#define QUEUE_MAX 65535

enum serve_key { KEY_LISTEN, KEY_INTERVAL, KEY_EVENTS, KEY_DEVICES, KEY_QUEUES, KEY_MAX_SERIES,
		 KEY_LABELS, KEY_JSON_LOG };
static const char *const serve_keys[] = { "listen", "interval", "events", "devices", "queues",
					  "max_series", "labels", "json_log" };
#define SERVE_KEYS "listen, interval, events, devices, queues, max_series, labels, json_log"

static const char *const filter_keys[] = { "include", "exclude" };

/*
 * The labels the exporter's own series carry (the metric families, the event
 * terms kept as labels, summaries' quantile): a constant label of one of these
 * names would give a series the same label twice, which Prometheus refuses.
 */
static const char *const reserved_labels[] = {
	"dev", "queue", "dir", "irq", "cpu", "vec", "pmu", "event", "bdf", "port", "tc", "intr",
	"global", "func", "thr_len", "thr_mode", "len_mode", "trig_len", "trig_mode", "subevent",
	"event_id", "target", "root_port", "endpoint", "what", "prog", "table", "version",
	"quantile", "le",
};
#define RESERVED_LABELS "dev, queue, dir, irq, cpu, vec, pmu, event, bdf, port, tc, intr, global, func, " \
	"thr_len, thr_mode, len_mode, trig_len, trig_mode, subevent, event_id, target, root_port, endpoint, " \
	"what, prog, table, version, quantile, le"

#define EVENT_EXAMPLE "hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/"
#define LISTEN_EXAMPLE "e.g. 127.0.0.1:9713 or [::1]:9713"
#define LISTEN_WANT "HOST:PORT, " LISTEN_EXAMPLE

static bool is_host_name(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '-' && s[i] != '_')
			return false;
	return len > 0;
}

static int parse_listen(struct config_yaml *cy, const yaml_node_t *value, struct serve_config *cfg)
{
	char *listen, quoted[CONFIG_QUOTE_LEN], quoted_host[CONFIG_QUOTE_LEN];
	const char *s, *port, *host = NULL;
	unsigned long long nr;
	size_t host_len = 0;

	if (config_yaml_string(cy, value, "listen", LISTEN_WANT, &listen))
		return -1;
	s = listen;
	config_yaml_quote(listen, quoted, sizeof(quoted));
	if (*s == '[') {
		const char *close = strchr(s, ']');
		char addr[INET6_ADDRSTRLEN + 1];
		struct in6_addr in6;

		if (!close || close[1] != ':')
			goto not_host_port;
		host = s + 1;
		host_len = close - host;
		if (host_len >= sizeof(addr))
			goto bad_ipv6;
		memcpy(addr, host, host_len);
		addr[host_len] = '\0';
		if (inet_pton(AF_INET6, addr, &in6) != 1)
			goto bad_ipv6;
		port = close + 2;
	} else {
		port = strrchr(s, ':');
		if (!port)
			goto not_host_port;
		host = s;
		host_len = port - s;
		if (memchr(host, ':', host_len)) {
			config_yaml_fail(cy, value, "listen '%s' has an IPv6 address outside brackets (%s)",
					 quoted, LISTEN_WANT);
			goto fail;
		}
		if (!is_host_name(host, host_len))
			goto not_host_port;
		port++;
	}
	if (!parse_decimal(port, &nr) || nr < 1 || nr > 65535) {
		config_yaml_fail(cy, value, "listen '%s' has no port from 1 to 65535 (%s)", quoted,
				 LISTEN_WANT);
		goto fail;
	}
	cfg->listen = listen;
	return 0;
bad_ipv6:
	/* The host alone, for its quote: LISTEN is freed below. */
	listen[host + host_len - listen] = '\0';
	config_yaml_fail(cy, value, "listen '%s': '%s' is no IPv6 address (%s)", quoted,
			 config_yaml_quote(host, quoted_host, sizeof(quoted_host)), LISTEN_WANT);
	goto fail;
not_host_port:
	config_yaml_fail(cy, value, "listen '%s' is not HOST:PORT (" LISTEN_EXAMPLE ")", quoted);
fail:
	free(listen);
	return -1;
}

static int parse_interval(struct config_yaml *cy, const yaml_node_t *value,
			  struct serve_config *cfg)
{
	static const struct { const char *name; unsigned long long ms; } units[] = {
		{ "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "h", 3600000 },
	};
	const char *s = config_yaml_scalar(value);
	char quoted[CONFIG_QUOTE_LEN];
	unsigned long long nr = 0;
	size_t digits = 0;

	if (!s || !*s)
		return config_yaml_fail(cy, value, "interval is %s (a duration from 10ms to 1h: 500ms, 2s, 1m)",
					config_yaml_kind(value));
	/* Ten digits at most: any more is out of range, and cannot overflow. */
	while (isdigit((unsigned char)s[digits]) && digits < 10)
		nr = nr * 10 + (s[digits++] - '0');
	for (size_t i = 0; digits && i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(s + digits, units[i].name))
			continue;
		nr *= units[i].ms;
		if (nr < INTERVAL_MIN_MS || nr > INTERVAL_MAX_MS)
			return config_yaml_fail(cy, value, "interval '%s' is out of range (10ms to 1h)",
						config_yaml_quote(s, quoted, sizeof(quoted)));
		cfg->interval_ms = nr;
		return 0;
	}
	config_yaml_quote(s, quoted, sizeof(quoted));
	if (isdigit((unsigned char)s[digits]))
		return config_yaml_fail(cy, value, "interval '%s' is out of range (10ms to 1h)", quoted);
	return config_yaml_fail(cy, value,
				"interval '%s' is not a duration (a whole number and a unit ms, s, m or h, from 10ms to 1h: 500ms, 2s, 1m)",
				quoted);
}

static int parse_whole_number(struct config_yaml *cy, const yaml_node_t *value, const char *what,
			      unsigned long min, unsigned long max, unsigned long *out)
{
	const char *s = config_yaml_scalar(value);
	char quoted[CONFIG_QUOTE_LEN];
	unsigned long long nr;

	if (!s || !*s)
		return config_yaml_fail(cy, value, "%s is %s (a whole number from %lu to %lu)", what,
					config_yaml_kind(value), min, max);
	config_yaml_quote(s, quoted, sizeof(quoted));
	if (strspn(s, "0123456789") != strlen(s))
		return config_yaml_fail(cy, value, "%s '%s' is not a whole number (from %lu to %lu)",
					what, quoted, min, max);
	if (!parse_decimal(s, &nr) || nr < min || nr > max)
		return config_yaml_fail(cy, value, "%s '%s' is out of range (a whole number from %lu to %lu)",
					what, quoted, min, max);
	*out = nr;
	return 0;
}

/* VALUE as a list (of NR_OUT entries, at *OUT, sized ENTRY_SIZE each); checks its type only. */
static int list_of(struct config_yaml *cy, const yaml_node_t *value, const char *what,
		   const char *want, size_t entry_size, void **out, size_t *nr_out)
{
	size_t nr;

	if (value->type != YAML_SEQUENCE_NODE)
		return config_yaml_fail(cy, value, "%s is %s (a list of %s)", what,
					config_yaml_kind(value), want);
	nr = value->data.sequence.items.top - value->data.sequence.items.start;
	*out = calloc(nr ? nr : 1, entry_size);
	if (!*out)
		return why_fail(cy->why, cy->why_len, "%s: out of memory", cy->name);
	*nr_out = 0;
	return 0;
}

/* A list of non-empty strings: LIST_WANT says what it lists, ENTRY_WANT what one is. */
static int parse_strings(struct config_yaml *cy, const yaml_node_t *value, const char *what,
			 const char *list_want, const char *entry_want, char ***out,
			 size_t *nr_out)
{
	char what_entry[64];

	if (list_of(cy, value, what, list_want, sizeof(**out), (void **)out, nr_out))
		return -1;
	for (yaml_node_item_t *item = value->data.sequence.items.start;
	     item < value->data.sequence.items.top; item++) {
		snprintf(what_entry, sizeof(what_entry), "%s entry %zu", what, *nr_out + 1);
		if (config_yaml_string(cy, config_yaml_node(cy, *item), what_entry, entry_want,
				       &(*out)[*nr_out]))
			return -1;
		(*nr_out)++;
	}
	return 0;
}

static int parse_queue_list(struct config_yaml *cy, const yaml_node_t *value, const char *what,
			    unsigned int **out, size_t *nr_out)
{
	char what_entry[64];
	unsigned long queue;

	if (list_of(cy, value, what, "queue numbers from 0 to 65535", sizeof(**out), (void **)out,
		    nr_out))
		return -1;
	for (yaml_node_item_t *item = value->data.sequence.items.start;
	     item < value->data.sequence.items.top; item++) {
		snprintf(what_entry, sizeof(what_entry), "%s entry %zu", what, *nr_out + 1);
		if (parse_whole_number(cy, config_yaml_node(cy, *item), what_entry, 0, QUEUE_MAX,
				       &queue))
			return -1;
		(*out)[(*nr_out)++] = queue;
	}
	return 0;
}

/* devices: or queues: { include: [...], exclude: [...] }; IS_QUEUES picks which. */
static int parse_filter(struct config_yaml *cy, const yaml_node_t *value, const char *what,
			bool is_queues, struct serve_config *cfg)
{
	char what_list[32];

	if (config_yaml_mapping(cy, value, what, "a mapping of include and/or exclude lists"))
		return -1;
	for (yaml_node_pair_t *pair = value->data.mapping.pairs.start;
	     pair < value->data.mapping.pairs.top; pair++) {
		const yaml_node_t *list = config_yaml_node(cy, pair->value);
		int which = config_yaml_key_index(cy, config_yaml_node(cy, pair->key), what,
						  filter_keys, 2);
		bool include = which == 0;
		int ret;

		if (which < 0)
			return -1;
		snprintf(what_list, sizeof(what_list), "%s.%s", what, filter_keys[which]);
		if (is_queues)
			ret = parse_queue_list(cy, list, what_list,
					       include ? &cfg->include_queues : &cfg->exclude_queues,
					       include ? &cfg->nr_include_queues : &cfg->nr_exclude_queues);
		else
			ret = parse_strings(cy, list, what_list, "interface names or PCI addresses",
					    "an interface name or PCI address", include ? &cfg->include_devs : &cfg->exclude_devs,
					    include ? &cfg->nr_include_devs : &cfg->nr_exclude_devs);
		if (ret)
			return -1;
	}
	return 0;
}

static const char *label_name_problem(const char *name)
{
	if (!isalpha((unsigned char)name[0]) && name[0] != '_')
		return "does not start with a letter or _";
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return "has a character other than letters, digits and _";
	if (!strncmp(name, "__", 2))
		return "starts with __, which Prometheus keeps for itself";
	return NULL;
}

static bool is_reserved_label(const char *name)
{
	for (size_t i = 0; i < sizeof(reserved_labels) / sizeof(reserved_labels[0]); i++)
		if (!strcmp(name, reserved_labels[i]))
			return true;
	return false;
}

static int parse_labels(struct config_yaml *cy, const yaml_node_t *value, struct serve_config *cfg)
{
	if (config_yaml_mapping_array(cy, value, "labels", "a mapping of label names to values",
				      sizeof(*cfg->labels), (void **)&cfg->labels))
		return -1;
	for (yaml_node_pair_t *pair = value->data.mapping.pairs.start;
	     pair < value->data.mapping.pairs.top; pair++) {
		const yaml_node_t *key = config_yaml_node(cy, pair->key);
		const char *name = config_yaml_scalar(key), *problem = label_name_problem(name);
		struct serve_label *label = &cfg->labels[cfg->nr_labels];
		char what[CONFIG_QUOTE_LEN + 8], quoted[CONFIG_QUOTE_LEN];

		config_yaml_quote(name, quoted, sizeof(quoted));
		if (problem)
			return config_yaml_fail(cy, key,
						"label name '%s' %s (a letter or _, then letters, digits or _; not __ first)",
						quoted, problem);
		if (is_reserved_label(name))
			return config_yaml_fail(cy, key,
						"label name '%s' is one of netpmu's own labels (another name than " RESERVED_LABELS ")",
						quoted);
		snprintf(what, sizeof(what), "label %s", quoted);
		label->name = strdup(name);
		if (!label->name)
			return why_fail(cy->why, cy->why_len, "%s: out of memory", cy->name);
		cfg->nr_labels++;
		if (config_yaml_string(cy, config_yaml_node(cy, pair->value), what,
				       "a non-empty value", &label->value))
			return -1;
	}
	return 0;
}

static int parse_key(struct config_yaml *cy, enum serve_key key, const yaml_node_t *value,
		     struct serve_config *cfg)
{
	switch (key) {
	case KEY_LISTEN:
		return parse_listen(cy, value, cfg);
	case KEY_INTERVAL:
		return parse_interval(cy, value, cfg);
	case KEY_EVENTS:
		return parse_strings(cy, value, "events", "event strings, e.g. " EVENT_EXAMPLE,
				     "an event string, e.g. " EVENT_EXAMPLE, &cfg->events,
				     &cfg->nr_events);
	case KEY_DEVICES:
		return parse_filter(cy, value, "devices", false, cfg);
	case KEY_QUEUES:
		return parse_filter(cy, value, "queues", true, cfg);
	case KEY_MAX_SERIES:
		return parse_whole_number(cy, value, "max_series", 1, MAX_SERIES_MAX,
					  &cfg->max_series);
	case KEY_LABELS:
		return parse_labels(cy, value, cfg);
	case KEY_JSON_LOG:
		return config_yaml_string(cy, value, "json_log", "a file name", &cfg->json_log);
	}
	return -1;
}

int serve_config_parse(const char *name, const char *text, size_t len, struct serve_config *cfg,
		       char *why, size_t why_len)
{
	struct config_yaml cy;
	yaml_node_t *root;
	int ret = -1;

	memset(cfg, 0, sizeof(*cfg));
	if (config_yaml_load(&cy, name, text, len, SERVE_KEYS, why, why_len))
		return -1;
	root = config_yaml_root(&cy);
	if (config_yaml_check_keys(&cy, root, NULL))
		goto out;
	for (yaml_node_pair_t *pair = root->data.mapping.pairs.start;
	     pair < root->data.mapping.pairs.top; pair++) {
		int key = config_yaml_key_index(&cy, config_yaml_node(&cy, pair->key), NULL,
						serve_keys, sizeof(serve_keys) / sizeof(serve_keys[0]));

		if (key < 0 || parse_key(&cy, key, config_yaml_node(&cy, pair->value), cfg))
			goto out;
	}
	ret = 0;
out:
	config_yaml_free(&cy);
	if (ret)
		serve_config_free(cfg);
	return ret;
}

int serve_config_load(const char *path, struct serve_config *cfg, char *why, size_t why_len)
{
	size_t len;
	char *text;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	if (config_file_read(path, "a readable YAML file", &text, &len, why, why_len))
		return -1;
	ret = serve_config_parse(path, text, len, cfg, why, why_len);
	free(text);
	return ret;
}

static void free_strings(char **strings, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(strings[i]);
	free(strings);
}

void serve_config_free(struct serve_config *cfg)
{
	free(cfg->listen);
	free_strings(cfg->events, cfg->nr_events);
	free_strings(cfg->include_devs, cfg->nr_include_devs);
	free_strings(cfg->exclude_devs, cfg->nr_exclude_devs);
	free(cfg->include_queues);
	free(cfg->exclude_queues);
	for (size_t i = 0; i < cfg->nr_labels; i++) {
		free(cfg->labels[i].name);
		free(cfg->labels[i].value);
	}
	free(cfg->labels);
	free(cfg->json_log);
	memset(cfg, 0, sizeof(*cfg));
}
