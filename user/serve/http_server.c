// SPDX-License-Identifier: GPL-2.0
/* netpmu serve's HTTP(S) endpoint over libmicrohttpd. */
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lib/why_line.h"
#include "serve/exposition.h"
#include "serve/http_server.h"
#include "serve/metric_store.h"
#include "serve/web_config.h"

#define LISTEN_BACKLOG 64
/* An idle scraper's connection is closed after this long. */
#define CONNECTION_TIMEOUT_S 60
#define REALM "netpmu"

struct http_server {
	struct MHD_Daemon *daemon;	/* owns the listening socket once started */
	const struct web_config *web;
	struct metric_store *store;
};

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned int status, const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
								 MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static bool authorized(const struct http_server *srv, struct MHD_Connection *c)
{
	char *password = NULL, *user;
	bool ok;

	if (!srv->web || !srv->web->nr_users)
		return true;
	user = MHD_basic_auth_get_username_password(c, &password);
	ok = user && password && web_config_check_user(srv->web, user, password);
	MHD_free(user);
	MHD_free(password);
	return ok;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static enum MHD_Result serve_metrics(struct http_server *srv, struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	bool om = exposition_wants_openmetrics(accept);
	double start = now_seconds();
	struct MHD_Response *r;
	enum MHD_Result ret;
	size_t len;
	char *body;

	if (exposition_render(srv->store, om, &body, &len))
		return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				om ? EXPOSITION_OPENMETRICS_TYPE : EXPOSITION_TEXT_TYPE);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	metric_store_lock(srv->store);
	metric_gauge_set(srv->store, FAM_SCRAPE_SECONDS, "", now_seconds() - start);
	metric_store_unlock(srv->store);
	return ret;
}

static enum MHD_Result handle_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				      const char *version, const char *upload_data, size_t *upload_data_size,
				      void **req_cls)
{
	struct http_server *srv = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;

	if (!authorized(srv, c)) {
		r = MHD_create_response_from_buffer(strlen("unauthorized\n"), "unauthorized\n",
						    MHD_RESPMEM_PERSISTENT);
		if (!r)
			return MHD_NO;
		ret = MHD_queue_basic_auth_fail_response(c, REALM, r);
		MHD_destroy_response(r);
		return ret;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET /metrics\n");
	if (strcmp(url, "/metrics"))
		return reply_text(c, MHD_HTTP_NOT_FOUND, "not found: netpmu serves /metrics\n");
	return serve_metrics(srv, c);
}

/* A socket listening on LISTEN, or -1 with WHY. */
static int listen_on(const char *listen_addr, char *why, size_t why_len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICHOST };
	const char *colon = strrchr(listen_addr, ':');
	char host[256] = "";
	struct addrinfo *ai;
	int fd, err, one = 1;
	size_t hlen;

	if (!colon || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1) ||
	    atoi(colon + 1) < 1 || atoi(colon + 1) > 65535)
		return why_fail(why, why_len, "--listen '%s': not ADDR:PORT with a port 1..65535 "
				"(e.g. %s, [::1]:9713, :9713)", listen_addr, "127.0.0.1:9713");
	hlen = colon - listen_addr;
	if (hlen >= 2 && listen_addr[0] == '[' && listen_addr[hlen - 1] == ']') {
		listen_addr++;
		hlen -= 2;
	}
	if (hlen >= sizeof(host))
		return why_fail(why, why_len, "--listen '%s': address too long", listen_addr);
	memcpy(host, listen_addr, hlen);
	err = getaddrinfo(hlen ? host : NULL, colon + 1, &hints, &ai);
	if (err)
		return why_fail(why, why_len, "--listen '%s': '%s' is not a numeric IPv4 or IPv6 address (%s)",
				listen_addr, host, gai_strerror(err));
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = errno;
		freeaddrinfo(ai);
		return why_fail(why, why_len, "cannot open a socket: %s", strerror(err));
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, LISTEN_BACKLOG)) {
		err = errno;
		close(fd);
		freeaddrinfo(ai);
		if (err == EADDRINUSE)
			return why_fail(why, why_len, "cannot listen on %s: the address is in use "
					"(another netpmu serve? pick another with --listen)", listen_addr);
		if (err == EACCES)
			return why_fail(why, why_len, "cannot listen on %s: %s (a port below 1024 needs "
					"CAP_NET_BIND_SERVICE)", listen_addr, strerror(err));
		return why_fail(why, why_len, "cannot listen on %s: %s", listen_addr, strerror(err));
	}
	freeaddrinfo(ai);
	return fd;
}

struct http_server *http_server_start(const char *listen_addr, const struct web_config *web,
				      struct metric_store *store, char *why, size_t why_len)
{
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC;
	struct http_server *srv = calloc(1, sizeof(*srv));
	int fd;

	if (!srv) {
		why_fail(why, why_len, "out of memory");
		return NULL;
	}
	srv->web = web;
	srv->store = store;
	fd = listen_on(listen_addr, why, why_len);
	if (fd < 0) {
		free(srv);
		return NULL;
	}
	if (web && web->cert_pem)
		flags |= MHD_USE_TLS;
	/* Without TLS the option list ends before the PEMs. */
	srv->daemon = MHD_start_daemon(flags, 0, NULL, NULL, handle_request, srv,
				       MHD_OPTION_LISTEN_SOCKET, fd,
				       MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)CONNECTION_TIMEOUT_S,
				       web && web->cert_pem ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END,
				       web ? web->cert_pem : NULL,
				       MHD_OPTION_HTTPS_MEM_KEY, web ? web->key_pem : NULL,
				       MHD_OPTION_END);
	if (!srv->daemon) {
		why_fail(why, why_len, "cannot start the HTTP%s server on %s%s", web && web->cert_pem ? "S" : "",
			 listen_addr, web && web->cert_pem ? " (is the key the certificate's, both PEM?)" : "");
		close(fd);
		free(srv);
		return NULL;
	}
	return srv;
}

void http_server_stop(struct http_server *srv)
{
	if (!srv)
		return;
	MHD_stop_daemon(srv->daemon);
	free(srv);
}
