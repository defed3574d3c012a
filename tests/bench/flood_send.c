// SPDX-License-Identifier: GPL-2.0
/*
 * The bench's UDP flood: COUNT datagrams of SIZE bytes (a fixed payload) to
 * IP:PORT, BATCH at a time with sendmmsg(). Prints one line:
 *   sent N packets in S s: R pkt/s (T retries), C s CPU
 * C is the sender's own CPU time (user + system): on veth it includes the
 * receive path's NAPI polls and softirqs, which run in the sender's context.
 * usage: flood_send IP PORT COUNT [SIZE [BATCH]]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_BATCH 256

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static char payload[65507];
	static struct mmsghdr msgs[MAX_BATCH];
	static struct iovec iov;
	struct sockaddr_in to = { .sin_family = AF_INET };
	unsigned long count, sent = 0, retries = 0;
	unsigned int size = 64, batch = 64, i;
	double start, elapsed, cpu;
	int fd;

	if (argc < 4 || argc > 6) {
		fprintf(stderr, "usage: flood_send IP PORT COUNT [SIZE [BATCH]]\n");
		return 2;
	}
	to.sin_port = htons(atoi(argv[2]));
	count = strtoul(argv[3], NULL, 10);
	if (argc > 4)
		size = atoi(argv[4]);
	if (argc > 5)
		batch = atoi(argv[5]);
	if (inet_pton(AF_INET, argv[1], &to.sin_addr) != 1 || !count || size > sizeof(payload) ||
	    !batch || batch > MAX_BATCH) {
		fprintf(stderr, "flood_send: bad arguments\n");
		return 2;
	}
	memset(payload, 'n', size);
	iov.iov_base = payload;
	iov.iov_len = size;
	for (i = 0; i < batch; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&to, sizeof(to))) {
		perror("flood_send: socket");
		return 1;
	}
	cpu = cpu_s();
	start = now_s();
	while (sent < count) {
		unsigned int n = count - sent < batch ? count - sent : batch;
		int r = sendmmsg(fd, msgs, n, 0);

		if (r < 0) {
			/*
			 * Not sent: a full device queue, or an ICMP error (no
			 * receiver yet) reported on this send. Send it again.
			 */
			if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR || errno == ECONNREFUSED) {
				retries++;
				continue;
			}
			perror("flood_send: sendmmsg");
			return 1;
		}
		sent += r;
	}
	elapsed = now_s() - start;
	cpu = cpu_s() - cpu;
	printf("sent %lu packets in %.6f s: %.0f pkt/s (%lu retries), %.6f s CPU\n", sent, elapsed,
	       sent / elapsed, retries, cpu);
	close(fd);
	return 0;
}
