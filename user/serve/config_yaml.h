/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What serve's two YAML files (--config, --web-config) share: reading the
 * file, loading its one document with libyaml, and refusing a node with
 * "NAME:LINE:COLUMN: what is wrong (what would be right)" at its mark.
 */
#ifndef NETPMU_SERVE_CONFIG_YAML_H
#define NETPMU_SERVE_CONFIG_YAML_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

/* Larger files are refused: a config is a few hundred bytes. */
#define CONFIG_FILE_MAX (1024 * 1024)
/* Deeper nesting is refused: a config nests 3 levels, libyaml slows with each. */
#define CONFIG_DEPTH_MAX 32

/* One loaded file: its name for messages, its document, where errors go. */
struct config_yaml {
	const char *name;
	yaml_document_t doc;
	char *why;
	size_t why_len;
};

/*
 * Reads PATH (a regular file of at most CONFIG_FILE_MAX bytes) into a
 * NUL-terminated *TEXT of *LEN bytes. Returns 0, or -1 with "PATH: what is
 * wrong (WANT)" in WHY, WANT saying what the file should be.
 */
int config_file_read(const char *path, const char *want, char **text, size_t *len, char *why,
		     size_t why_len);

/*
 * Loads TEXT as one YAML document whose root is a mapping (ROOT_KEYS, e.g.
 * "listen, interval", names its keys in the message when it is not).
 * Returns 0 (free with config_yaml_free), or -1 with the line in WHY.
 */
int config_yaml_load(struct config_yaml *cy, const char *name, const char *text, size_t len,
		     const char *root_keys, char *why, size_t why_len);

void config_yaml_free(struct config_yaml *cy);

yaml_node_t *config_yaml_root(struct config_yaml *cy);
yaml_node_t *config_yaml_node(struct config_yaml *cy, int index);

/* Writes "NAME:LINE:COLUMN: " and the reason at NODE's start into WHY; returns -1. */
int config_yaml_fail(struct config_yaml *cy, const yaml_node_t *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Size of a buffer for config_yaml_quote(): the start of a long value is enough. */
#define CONFIG_QUOTE_LEN 96

/*
 * S as an error line may show it: control characters as \xNN, cut with
 * "..." to fit BUF (BUF_LEN bytes). Returns BUF.
 */
const char *config_yaml_quote(const char *s, char *buf, size_t buf_len);

/* NODE's scalar text, or NULL when NODE is no scalar. */
const char *config_yaml_scalar(const yaml_node_t *node);

/* What NODE is, for "KEY is NODE_KIND (want ...)": "a mapping", "empty", ... */
const char *config_yaml_kind(const yaml_node_t *node);

/*
 * Checks MAP's keys: each a non-empty scalar, none twice. Returns 0, or -1
 * with the line at the first bad or repeated key, in the file's order.
 */
int config_yaml_check_keys(struct config_yaml *cy, const yaml_node_t *map, const char *where);

/*
 * VALUE as a mapping with checked keys: "WHAT is KIND (WANT)" when it is not
 * one. Returns 0, or -1 with WHY.
 */
int config_yaml_mapping(struct config_yaml *cy, const yaml_node_t *value, const char *what,
			const char *want);

/* The same, and a zeroed array at *OUT of one ENTRY_SIZE entry per pair. */
int config_yaml_mapping_array(struct config_yaml *cy, const yaml_node_t *value, const char *what,
			      const char *want, size_t entry_size, void **out);

/* The index in NAMES (NR of them) of KEY, or -1 after naming the valid ones. */
int config_yaml_key_index(struct config_yaml *cy, const yaml_node_t *key, const char *where,
			  const char *const *names, size_t nr);

/*
 * VALUE as a non-empty string, copied into *OUT. Returns 0, or -1 with
 * "WHAT is KIND (want WANT)".
 */
int config_yaml_string(struct config_yaml *cy, const yaml_node_t *value, const char *what,
		       const char *want, char **out);

#endif
