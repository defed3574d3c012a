// SPDX-License-Identifier: GPL-2.0
#include "serve/web_config.h"

#include <crypt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/why_line.h"
#include "serve/config_yaml.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

enum web_key { WEB_TLS, WEB_USERS };
static const char *const web_keys[] = { "tls_server_config", "basic_auth_users" };
#define WEB_KEYS "tls_server_config, basic_auth_users"

enum tls_key { TLS_CERT_FILE, TLS_KEY_FILE };
static const char *const tls_keys[] = { "cert_file", "key_file" };

/* The exporter-toolkit's keys this exporter does not implement: refused by name. */
static const char *const web_keys_unimplemented[] = { "http_server_config", "rate_limit" };
static const char *const tls_keys_unimplemented[] = {
	"cert", "key", "client_auth_type", "client_ca_file", "client_ca", "client_allowed_sans",
	"min_version", "max_version", "cipher_suites", "prefer_server_cipher_suites",
	"curve_preferences",
};

#define BCRYPT_WANT "a bcrypt hash: $2a$, $2b$ or $2y$, a cost from 04 to 31, $, then 53 characters of ./0-9A-Za-z, as htpasswd -nbB makes"
#define BCRYPT_LEN 60

/*
 * KEY's index in IMPLEMENTED, or -1 after a line: a toolkit key this
 * exporter leaves out (UNIMPLEMENTED) is named as such, any other as unknown.
 */
static int web_key_index(struct config_yaml *cy, const yaml_node_t *key, const char *where,
			 const char *const *implemented, size_t nr_implemented,
			 const char *const *unimplemented, size_t nr_unimplemented)
{
	const char *name = config_yaml_scalar(key);

	for (size_t i = 0; i < nr_unimplemented; i++)
		if (!strcmp(name, unimplemented[i]))
			return config_yaml_fail(cy, key,
						"%s%s%s is not implemented by netpmu serve (remove it; %s takes %s and %s only)",
						where ?: "", where ? ": " : "", name, where ?: "the file",
						implemented[0], implemented[1]);
	return config_yaml_key_index(cy, key, where, implemented, nr_implemented);
}

/* NAME relative to BASE_DIR unless absolute, as the exporter-toolkit resolves it. */
static char *path_in(const char *base_dir, const char *name)
{
	char *path;

	if (name[0] == '/' || !base_dir)
		return strdup(name);
	if (asprintf(&path, "%s/%s", base_dir, name) < 0)
		return NULL;
	return path;
}

static int read_pem(struct config_yaml *cy, const yaml_node_t *value, const char *what,
		    const char *base_dir, char **pem)
{
	char *name, *path, file_why[512], quoted[512];
	size_t len;
	int ret = -1;

	if (config_yaml_string(cy, value, what, "a PEM file name", &name))
		return -1;
	path = path_in(base_dir, name);
	if (!path) {
		free(name);
		return why_fail(cy->why, cy->why_len, "%s: out of memory", cy->name);
	}
	if (config_file_read(path, "a readable PEM file", pem, &len, file_why, sizeof(file_why)))
		config_yaml_fail(cy, value, "%s %s", what,
				 config_yaml_quote(file_why, quoted, sizeof(quoted)));
	else if (!strstr(*pem, "-----BEGIN "))
		config_yaml_fail(cy, value, "%s %s: not PEM (a file with a -----BEGIN ...----- block)",
				 what, config_yaml_quote(path, quoted, sizeof(quoted)));
	else
		ret = 0;
	if (ret) {
		free(*pem);
		*pem = NULL;
	}
	free(path);
	free(name);
	return ret;
}

static int parse_tls(struct config_yaml *cy, const yaml_node_t *value, const char *base_dir,
		     struct web_config *wc)
{
	if (config_yaml_mapping(cy, value, "tls_server_config", "a mapping with cert_file and key_file"))
		return -1;
	for (yaml_node_pair_t *pair = value->data.mapping.pairs.start;
	     pair < value->data.mapping.pairs.top; pair++) {
		const yaml_node_t *key = config_yaml_node(cy, pair->key);
		int which = web_key_index(cy, key, "tls_server_config", tls_keys, ARRAY_LEN(tls_keys),
					  tls_keys_unimplemented, ARRAY_LEN(tls_keys_unimplemented));

		if (which < 0 ||
		    read_pem(cy, config_yaml_node(cy, pair->value), tls_keys[which], base_dir,
			     which == TLS_CERT_FILE ? &wc->cert_pem : &wc->key_pem))
			return -1;
	}
	if (!wc->cert_pem || !wc->key_pem)
		return config_yaml_fail(cy, value, "tls_server_config has no %s (both cert_file and key_file)",
					wc->cert_pem ? "key_file" : "cert_file");
	return 0;
}

static bool is_bcrypt(const char *hash)
{
	static const char *const prefixes[] = { "$2a$", "$2b$", "$2y$" };
	bool known = false;

	for (size_t i = 0; i < ARRAY_LEN(prefixes); i++)
		known |= !strncmp(hash, prefixes[i], 4);
	if (!known || strlen(hash) != BCRYPT_LEN || hash[6] != '$' ||
	    strspn(hash + 4, "0123456789") != 2 || strncmp(hash + 4, "04", 2) < 0 ||
	    strncmp(hash + 4, "31", 2) > 0)
		return false;
	return strspn(hash + 7, "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") ==
	       BCRYPT_LEN - 7;
}

static int parse_users(struct config_yaml *cy, const yaml_node_t *value, struct web_config *wc)
{
	if (config_yaml_mapping_array(cy, value, "basic_auth_users", "a mapping of user names to bcrypt hashes",
				      sizeof(*wc->users), (void **)&wc->users))
		return -1;
	for (yaml_node_pair_t *pair = value->data.mapping.pairs.start;
	     pair < value->data.mapping.pairs.top; pair++) {
		const yaml_node_t *key = config_yaml_node(cy, pair->key);
		const yaml_node_t *hash = config_yaml_node(cy, pair->value);
		struct web_user *user = &wc->users[wc->nr_users];
		const char *name = config_yaml_scalar(key);
		char what[CONFIG_QUOTE_LEN + 24], quoted[CONFIG_QUOTE_LEN];

		config_yaml_quote(name, quoted, sizeof(quoted));
		/* Basic auth sends "user:password": a user with ':' could never log in. */
		if (strchr(name, ':'))
			return config_yaml_fail(cy, key, "user name '%s' has a ':' (a name without ':', which Basic auth splits at)",
						quoted);
		snprintf(what, sizeof(what), "the hash of user %s", quoted);
		user->name = strdup(name);
		if (!user->name)
			return why_fail(cy->why, cy->why_len, "%s: out of memory", cy->name);
		wc->nr_users++;
		if (config_yaml_string(cy, hash, what, BCRYPT_WANT, &user->bcrypt_hash))
			return -1;
		if (!is_bcrypt(user->bcrypt_hash))
			return config_yaml_fail(cy, hash, "%s is not bcrypt (%s)", what, BCRYPT_WANT);
	}
	return 0;
}

int web_config_parse(const char *name, const char *text, size_t len, const char *base_dir,
		     struct web_config *wc, char *why, size_t why_len)
{
	struct config_yaml cy;
	yaml_node_t *root;
	int ret = -1;

	memset(wc, 0, sizeof(*wc));
	if (config_yaml_load(&cy, name, text, len, WEB_KEYS, why, why_len))
		return -1;
	root = config_yaml_root(&cy);
	if (config_yaml_check_keys(&cy, root, NULL))
		goto out;
	for (yaml_node_pair_t *pair = root->data.mapping.pairs.start;
	     pair < root->data.mapping.pairs.top; pair++) {
		const yaml_node_t *value = config_yaml_node(&cy, pair->value);
		int key = web_key_index(&cy, config_yaml_node(&cy, pair->key), NULL, web_keys,
					ARRAY_LEN(web_keys), web_keys_unimplemented,
					ARRAY_LEN(web_keys_unimplemented));

		if (key < 0)
			goto out;
		if (key == WEB_TLS ? parse_tls(&cy, value, base_dir, wc) : parse_users(&cy, value, wc))
			goto out;
	}
	ret = 0;
out:
	config_yaml_free(&cy);
	if (ret)
		web_config_free(wc);
	return ret;
}

int web_config_load(const char *path, struct web_config *wc, char *why, size_t why_len)
{
	char *text, *path_copy;
	size_t len;
	int ret;

	memset(wc, 0, sizeof(*wc));
	if (config_file_read(path, "a readable YAML file", &text, &len, why, why_len))
		return -1;
	path_copy = strdup(path);
	if (!path_copy) {
		free(text);
		return why_fail(why, why_len, "%s: out of memory", path);
	}
	ret = web_config_parse(path, text, len, dirname(path_copy), wc, why, why_len);
	free(path_copy);
	free(text);
	return ret;
}

/* Equal strings, in a time that depends on their lengths only. */
static bool equal_in_constant_time(const char *a, const char *b)
{
	size_t len = strlen(a);
	unsigned char diff = 0;

	if (len != strlen(b))
		return false;
	for (size_t i = 0; i < len; i++)
		diff |= (unsigned char)a[i] ^ (unsigned char)b[i];
	return diff == 0;
}

bool web_config_check_user(const struct web_config *wc, const char *user, const char *password)
{
	struct crypt_data *data;
	size_t found = wc->nr_users;
	const char *hash, *result;
	bool match;

	if (!wc->nr_users)
		return false;
	/* Every name compared, and a bcrypt run even for an unknown user: no timing tells who exists. */
	for (size_t i = 0; i < wc->nr_users; i++)
		if (equal_in_constant_time(wc->users[i].name, user ?: ""))
			found = i;
	hash = wc->users[found < wc->nr_users ? found : 0].bcrypt_hash;
	data = calloc(1, sizeof(*data));
	if (!data)
		return false;
	result = crypt_r(password ?: "", hash, data);
	match = result && equal_in_constant_time(result, hash);
	explicit_bzero(data, sizeof(*data));
	free(data);
	return match && found < wc->nr_users;
}

void web_config_free(struct web_config *wc)
{
	if (wc->key_pem)
		explicit_bzero(wc->key_pem, strlen(wc->key_pem));
	free(wc->cert_pem);
	free(wc->key_pem);
	for (size_t i = 0; i < wc->nr_users; i++) {
		free(wc->users[i].name);
		free(wc->users[i].bcrypt_hash);
	}
	free(wc->users);
	memset(wc, 0, sizeof(*wc));
}
