// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu serve's --config file, as libyaml reads it and serve_config.c
 * checks it; what it accepts is read back whole, so that a field left
 * dangling or unterminated shows under ASan.
 */
#include <stdint.h>

#include "serve/serve_config.h"
#include "fuzz_common.h"

static size_t read_all(const struct serve_config *cfg)
{
	size_t sum = cfg->listen ? strlen(cfg->listen) : 0;

	for (size_t i = 0; i < cfg->nr_events; i++)
		sum += strlen(cfg->events[i]);
	for (size_t i = 0; i < cfg->nr_include_devs; i++)
		sum += strlen(cfg->include_devs[i]);
	for (size_t i = 0; i < cfg->nr_exclude_devs; i++)
		sum += strlen(cfg->exclude_devs[i]);
	for (size_t i = 0; i < cfg->nr_include_queues; i++)
		sum += cfg->include_queues[i];
	for (size_t i = 0; i < cfg->nr_exclude_queues; i++)
		sum += cfg->exclude_queues[i];
	for (size_t i = 0; i < cfg->nr_labels; i++)
		sum += strlen(cfg->labels[i].name) + strlen(cfg->labels[i].value);
	return sum + (cfg->json_log ? strlen(cfg->json_log) : 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct serve_config cfg;
	char why[512];

	/* The input as is, not NUL-terminated: the parser must keep to its length. */
	if (!serve_config_parse("fuzz.yaml", (const char *)data, size, &cfg, why, sizeof(why))) {
		if (read_all(&cfg) == SIZE_MAX)
			abort();
		serve_config_free(&cfg);
	} else if (strncmp(why, "fuzz.yaml:", 10)) {
		/* Every refusal names the file and its place. */
		abort();
	}
	return 0;
}
