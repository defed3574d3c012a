// SPDX-License-Identifier: GPL-2.0
/*
 * A known UDP flow for tests: exactly COUNT datagrams of SIZE payload bytes.
 *
 *   udp_flow recv --port P --count N [--timeout S] [--ready FILE] [--drops]
 *       prints the datagrams and bytes received (--drops: then "dropped D",
 *       the datagrams the socket's full buffer dropped: received + D arrived)
 *   udp_flow send --to IP --port P --count N --size S [--gap-us U] [--flows F]
 *   udp_flow transfer --netns NS --to IP --port P --count N --size S
 *                     [--gap-us U] [--flows F] [--timeout S] [--report FILE]
 *       receives in network namespace NS (a socket made there, read by a
 *       thread of this process), sends, and returns once every datagram
 *       arrived (so their NAPI polls are over): exit 0 only if all did
 *
 * The receiver binds first, so no datagram draws an ICMP error: the only
 * frames on the wire are the COUNT datagrams (each SIZE + 8 UDP + 20 IPv4 +
 * 14 Ethernet bytes long). A read waits --timeout seconds times
 * NETPMU_TIMEOUT_SCALE (a slow kernel's cell sets it, tests/vm/run).
 *
 * In C, not Python: the guests' tests start it about 80 times a cell, and a
 * Python start with its imports took about a second under TCG.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* SO_RCVBUF is capped by net.core.rmem_max (208 KiB by default): a loaded
 * host then drops datagrams a slow reader has not taken yet. As root,
 * SO_RCVBUFFORCE passes the cap. */
#define RECV_BUFFER_BYTES (4 << 20)

struct flow_args {
	const char *to, *netns, *ready, *report;
	int port, flows, drops;
	long count, size, gap_us;
	double timeout;
};

struct receiver {
	int sock;
	long count, got, bytes;
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* One line on stderr: "udp_flow: " and the message. */
static void say(const char *fmt, va_list ap)
{
	fputs("udp_flow: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	exit(1);
}

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	fputs("usage: udp_flow recv|send|transfer OPTIONS (see tests/lib/udp_flow.c)\n", stderr);
	exit(2);
}

static long parse_long(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "udp_flow: %s wants a whole number from %ld to %ld, not '%s'\n", opt, min, max, s);
		exit(2);
	}
	return v;
}

static double parse_seconds(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0 && v < 86400)) {
		fprintf(stderr, "udp_flow: %s wants seconds above 0 and below 86400, not '%s'\n", opt, s);
		exit(2);
	}
	return v;
}

/* A UDP socket bound to PORT, its reads timing out after TIMEOUT scaled. */
static int bound_socket(int port, double timeout)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons(port) };
	const char *scale_env = getenv("NETPMU_TIMEOUT_SCALE");
	long scale = scale_env ? parse_long("NETPMU_TIMEOUT_SCALE", scale_env, 1, 1000) : 1;
	double wait = timeout * scale;
	struct timeval tv = { .tv_sec = (time_t)wait, .tv_usec = (wait - (time_t)wait) * 1e6 };
	int buf = RECV_BUFFER_BYTES;
	int sock;

	sock = socket(AF_INET, SOCK_DGRAM, 0);
	if (sock < 0)
		return -1;
	if (setsockopt(sock, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)) &&
	    setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf)))
		goto close_sock;
	if (setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    bind(sock, (struct sockaddr *)&addr, sizeof(addr)))
		goto close_sock;
	return sock;
close_sock:
	close(sock);
	return -1;
}

/* Reads up to COUNT datagrams, until a read times out. */
static void *receive(void *arg)
{
	static char buf[65536];
	struct receiver *r = arg;
	ssize_t n;

	while (r->got < r->count) {
		n = recv(r->sock, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		r->got++;
		r->bytes += n;
	}
	return NULL;
}

/* The drops column of /proc/net/udp for the socket bound to PORT, or -1. */
static long socket_drops(int port)
{
	char line[512];
	long drops = -1;
	unsigned int local_port;
	FILE *f;

	f = fopen("/proc/net/udp", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *last;

		if (sscanf(line, " %*d: %*x:%x", &local_port) != 1 || local_port != (unsigned int)port)
			continue;
		line[strcspn(line, "\n")] = '\0';
		last = strrchr(line, ' ');
		drops = last ? strtol(last + 1, NULL, 10) : -1;
		break;
	}
	fclose(f);
	return drops;
}

/* COUNT datagrams from FLOWS sockets (FLOWS source ports: flows for RSS). */
static void send_datagrams(const struct flow_args *a)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(a->port) };
	struct timespec gap = { .tv_sec = a->gap_us / 1000000, .tv_nsec = a->gap_us % 1000000 * 1000 };
	char *payload;
	int *socks;
	long i;

	if (inet_pton(AF_INET, a->to, &to.sin_addr) != 1)
		die("--to wants an IPv4 address, not '%s'", a->to);
	payload = calloc(1, a->size ? a->size : 1);
	socks = calloc(a->flows, sizeof(*socks));
	if (!payload || !socks)
		die("out of memory");
	for (i = 0; i < a->flows; i++) {
		socks[i] = socket(AF_INET, SOCK_DGRAM, 0);
		if (socks[i] < 0)
			die("socket: %s", strerror(errno));
	}
	for (i = 0; i < a->count; i++) {
		if (sendto(socks[i % a->flows], payload, a->size, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
			die("sendto %s:%d: %s (datagram %ld of %ld)", a->to, a->port, strerror(errno), i + 1, a->count);
		if (a->gap_us)
			nanosleep(&gap, NULL);
	}
	for (i = 0; i < a->flows; i++)
		close(socks[i]);
	free(socks);
	free(payload);
}

static int run_recv(const struct flow_args *a)
{
	struct receiver r = { .count = a->count };
	long drops;
	int fd;

	r.sock = bound_socket(a->port, a->timeout);
	if (r.sock < 0)
		die("cannot receive on port %d: %s", a->port, strerror(errno));
	if (a->ready) {
		fd = open(a->ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die("%s: %s", a->ready, strerror(errno));
		close(fd);
	}
	receive(&r);
	printf("received %ld datagrams %ld bytes\n", r.got, r.bytes);
	if (a->drops) {
		drops = socket_drops(a->port);
		if (drops < 0)
			printf("dropped unknown\n");
		else
			printf("dropped %ld\n", drops);
	}
	return r.got == a->count ? 0 : 1;
}

static int run_send(const struct flow_args *a)
{
	send_datagrams(a);
	printf("sent %ld datagrams %ld bytes\n", a->count, a->count * a->size);
	return 0;
}

/* bound_socket() made inside network namespace NETNS (ip netns' name):
 * setns(2) moves the calling thread only, and a socket keeps the namespace
 * it was made in. */
static int socket_in_netns(const char *netns, int port, double timeout)
{
	char path[PATH_MAX];
	int home, there, sock, err;

	snprintf(path, sizeof(path), "/run/netns/%s", netns);
	home = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (home < 0)
		return -1;
	there = open(path, O_RDONLY | O_CLOEXEC);
	if (there < 0)
		goto close_home;
	if (setns(there, CLONE_NEWNET))
		goto close_there;
	sock = bound_socket(port, timeout);
	err = errno;
	if (setns(home, CLONE_NEWNET))
		die("setns back to this process's network namespace: %s", strerror(errno));
	close(there);
	close(home);
	errno = err;
	return sock;
close_there:
	close(there);
close_home:
	close(home);
	return -1;
}

static int run_transfer(const struct flow_args *a)
{
	struct receiver r = { .count = a->count };
	pthread_t reader;
	FILE *f;

	r.sock = socket_in_netns(a->netns, a->port, a->timeout);
	if (r.sock < 0)
		die("no receiver in network namespace %s: %s", a->netns, strerror(errno));
	errno = pthread_create(&reader, NULL, receive, &r);
	if (errno)
		die("a reader thread: %s", strerror(errno));
	send_datagrams(a);
	pthread_join(reader, NULL);
	if (a->report) {
		f = fopen(a->report, "w");
		if (!f || fprintf(f, "received %ld datagrams %ld bytes\n", r.got, r.bytes) < 0 || fclose(f))
			die("%s: %s", a->report, strerror(errno));
	}
	return r.got == a->count ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "ready", required_argument, NULL, 'r' },
		{ "drops", no_argument, NULL, 'd' },
		{ "to", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 's' },
		{ "gap-us", required_argument, NULL, 'g' },
		{ "flows", required_argument, NULL, 'f' },
		{ "netns", required_argument, NULL, 'n' },
		{ "report", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	struct flow_args a = { .port = -1, .count = -1, .size = -1, .flows = 1 };
	int is_recv, is_send, is_transfer, opt, index;

	if (argc < 2)
		usage_error("a mode is needed");
	is_recv = !strcmp(argv[1], "recv");
	is_send = !strcmp(argv[1], "send");
	is_transfer = !strcmp(argv[1], "transfer");
	if (!is_recv && !is_send && !is_transfer)
		usage_error("the mode is recv, send or transfer");
	a.timeout = is_transfer ? 60 : 10;
	optind = 2;
	while ((opt = getopt_long(argc, argv, "", options, &index)) != -1) {
		if (opt == '?')
			usage_error("an unknown option");
		if (!strchr(is_recv ? "pctrd" : is_send ? "pcosgf" : "npcosgftR", opt))
			usage_error("--%s is not an option of %s", options[index].name, argv[1]);
		switch (opt) {
		case 'p':
			a.port = parse_long("--port", optarg, 0, 65535);
			break;
		case 'c':
			a.count = parse_long("--count", optarg, 0, LONG_MAX / 65536);
			break;
		case 't':
			a.timeout = parse_seconds("--timeout", optarg);
			break;
		case 'r':
			a.ready = optarg;
			break;
		case 'd':
			a.drops = 1;
			break;
		case 'o':
			a.to = optarg;
			break;
		case 's':
			a.size = parse_long("--size", optarg, 0, 65507);
			break;
		case 'g':
			a.gap_us = parse_long("--gap-us", optarg, 0, 10000000);
			break;
		case 'f':
			a.flows = parse_long("--flows", optarg, 1, 1024);
			break;
		case 'n':
			a.netns = optarg;
			break;
		case 'R':
			a.report = optarg;
			break;
		}
	}
	if (optind < argc)
		usage_error("arguments beyond the options");
	if (a.port < 0 || a.count < 0)
		usage_error("--port and --count are needed");
	if ((is_send || is_transfer) && (!a.to || a.size < 0))
		usage_error("--to and --size are needed to send");
	if (is_transfer && !a.netns)
		usage_error("transfer needs --netns");
	if (is_recv)
		return run_recv(&a);
	if (is_send)
		return run_send(&a);
	return run_transfer(&a);
}
