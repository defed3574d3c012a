/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu serve's --web-config FILE, in the format of the Prometheus
 * exporter-toolkit's web configuration (the file node_exporter takes):
 *
 *   tls_server_config:
 *     cert_file: /etc/netpmu/tls.crt
 *     key_file: /etc/netpmu/tls.key
 *   basic_auth_users:
 *     prometheus: $2y$10$...        # bcrypt, checked with libxcrypt's crypt_r()
 *
 * Relative file names are relative to the web config's folder, as the
 * toolkit does. Keys this exporter does not implement are refused by name.
 */
#ifndef NETPMU_WEB_CONFIG_H
#define NETPMU_WEB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct web_user {
	char *name;
	char *bcrypt_hash;
};

struct web_config {
	char *cert_pem;			/* contents of cert_file; NULL: plain HTTP */
	char *key_pem;			/* contents of key_file */
	struct web_user *users;		/* none: no authentication */
	size_t nr_users;
};

/*
 * Reads PATH (and the certificate and key files it names) into WC. Returns 0,
 * or -1 with one line in WHY ("PATH:LINE:COLUMN: ..." for the YAML).
 */
int web_config_load(const char *path, struct web_config *wc, char *why, size_t why_len);

/* The YAML part alone, from a buffer; files named in it are read relative to BASE_DIR. */
int web_config_parse(const char *name, const char *text, size_t len, const char *base_dir,
		     struct web_config *wc, char *why, size_t why_len);

/* True when USER is configured and PASSWORD matches its bcrypt hash. Constant-time in the hash. */
bool web_config_check_user(const struct web_config *wc, const char *user, const char *password);

void web_config_free(struct web_config *wc);

#endif
