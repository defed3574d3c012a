/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu serve's HTTP(S) endpoint, through libmicrohttpd: GET /metrics
 * renders the store; every other path is 404. With a web config: TLS from
 * its PEMs, basic auth against its bcrypt hashes (401 otherwise).
 */
#ifndef NETPMU_HTTP_SERVER_H
#define NETPMU_HTTP_SERVER_H

#include <stddef.h>

struct metric_store;
struct web_config;
struct http_server;

/*
 * Listens on LISTEN ("ADDR:PORT", "[ADDR6]:PORT" or ":PORT"). WEB may be NULL
 * (plain HTTP, no auth) and must outlive the server. Returns NULL with one
 * line in WHY (a bad address, the port in use, ...).
 */
struct http_server *http_server_start(const char *listen, const struct web_config *web,
				      struct metric_store *store, char *why, size_t why_len);

/* Closes every connection and the socket. */
void http_server_stop(struct http_server *srv);

#endif
