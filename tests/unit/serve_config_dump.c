// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for user/serve/'s config files: loads one and prints what it
 * holds, one "key value" line each, for tests/unit/serve-config.sh.
 *   serve_config_dump config FILE
 *   serve_config_dump web FILE [--check USER PASSWORD]...
 * A file refused prints its error line and exits 1 (2 if the struct was
 * not left empty). Unset strings print as "-"; a PEM file as its size and
 * first line; --check prints "check USER: accepted" or "refused".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve/serve_config.h"
#include "serve/web_config.h"

static const char *s(const char *v)
{
	return v ? v : "-";
}

static void print_strings(const char *name, char **strings, size_t nr)
{
	printf("%s %zu\n", name, nr);
	for (size_t i = 0; i < nr; i++)
		printf("%s[%zu] %s\n", name, i, strings[i]);
}

static void print_queues(const char *name, const unsigned int *queues, size_t nr)
{
	printf("%s %zu\n", name, nr);
	for (size_t i = 0; i < nr; i++)
		printf("%s[%zu] %u\n", name, i, queues[i]);
}

static void print_config(const struct serve_config *cfg)
{
	printf("listen %s\n", s(cfg->listen));
	printf("interval_ms %u\n", cfg->interval_ms);
	print_strings("events", cfg->events, cfg->nr_events);
	print_strings("include_devs", cfg->include_devs, cfg->nr_include_devs);
	print_strings("exclude_devs", cfg->exclude_devs, cfg->nr_exclude_devs);
	print_queues("include_queues", cfg->include_queues, cfg->nr_include_queues);
	print_queues("exclude_queues", cfg->exclude_queues, cfg->nr_exclude_queues);
	printf("max_series %lu\n", cfg->max_series);
	printf("labels %zu\n", cfg->nr_labels);
	for (size_t i = 0; i < cfg->nr_labels; i++)
		printf("labels[%zu] %s=%s\n", i, cfg->labels[i].name, cfg->labels[i].value);
	printf("json_log %s\n", s(cfg->json_log));
}

static void print_pem(const char *name, const char *pem)
{
	if (!pem) {
		printf("%s -\n", name);
		return;
	}
	printf("%s %zu bytes, %.*s\n", name, strlen(pem), (int)strcspn(pem, "\n"), pem);
}

static void print_web_config(const struct web_config *wc)
{
	print_pem("cert_pem", wc->cert_pem);
	print_pem("key_pem", wc->key_pem);
	printf("users %zu\n", wc->nr_users);
	for (size_t i = 0; i < wc->nr_users; i++)
		printf("users[%zu] %s %s\n", i, wc->users[i].name, wc->users[i].bcrypt_hash);
}

/* Whether the struct at P (LEN bytes) is all zero, as a refused file must leave it. */
static int refused(const char *why, const void *p, size_t len)
{
	const unsigned char *bytes = p;

	printf("%s\n", why);
	for (size_t i = 0; i < len; i++) {
		if (bytes[i]) {
			printf("the struct is not empty after the error\n");
			return 2;
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	char why[1024];

	if (argc == 3 && !strcmp(argv[1], "config")) {
		struct serve_config cfg;

		if (serve_config_load(argv[2], &cfg, why, sizeof(why)))
			return refused(why, &cfg, sizeof(cfg));
		print_config(&cfg);
		serve_config_free(&cfg);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "web") && argc % 3 == 0) {
		struct web_config wc;

		if (web_config_load(argv[2], &wc, why, sizeof(why)))
			return refused(why, &wc, sizeof(wc));
		print_web_config(&wc);
		for (int i = 3; i + 2 < argc && !strcmp(argv[i], "--check"); i += 3)
			printf("check %s: %s\n", argv[i + 1],
			       web_config_check_user(&wc, argv[i + 1], argv[i + 2]) ? "accepted" : "refused");
		web_config_free(&wc);
		return 0;
	}
	fprintf(stderr, "usage: serve_config_dump config FILE | web FILE [--check USER PASSWORD]...\n");
	return 2;
}
