// SPDX-License-Identifier: GPL-2.0
/*
 * The bench's receiver: counts UDP datagrams on PORT with recvmmsg() until
 * COUNT arrived or none came for IDLE_MS after the first, then prints one line:
 *   received N packets in S s: R pkt/s, D dropped by the socket
 * S runs from the first datagram to the last. READY_FILE is created once the
 * socket is bound. usage: flood_recv PORT COUNT READY_FILE [IDLE_MS]
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define BUF 2048

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The socket's drop count, from the SO_RXQ_OVFL control message. */
static unsigned int drops_in(struct msghdr *h, unsigned int known)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR(h, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL)
			return *(unsigned int *)CMSG_DATA(c);
	return known;
}

int main(int argc, char **argv)
{
	static char bufs[BATCH][BUF], ctl[BATCH][CMSG_SPACE(sizeof(unsigned int))];
	static struct mmsghdr msgs[BATCH];
	static struct iovec iovs[BATCH];
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
	unsigned long count, got = 0;
	unsigned int idle_ms = 300, drops = 0;
	int fd, one = 1, rcvbuf = 64 << 20, i;
	double first = 0, last = 0;
	struct timeval tv;
	FILE *ready;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: flood_recv PORT COUNT READY_FILE [IDLE_MS]\n");
		return 2;
	}
	addr.sin_port = htons(atoi(argv[1]));
	count = strtoul(argv[2], NULL, 10);
	if (argc > 4)
		idle_ms = atoi(argv[4]);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("flood_recv: socket");
		return 1;
	}
	/* FORCE: above net.core.rmem_max (root); the plain call is the fallback. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one));
	/* Wait long for the first datagram, IDLE_MS for each one after it. */
	tv.tv_sec = 30;
	tv.tv_usec = 0;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (i = 0; i < BATCH; i++) {
		iovs[i].iov_base = bufs[i];
		iovs[i].iov_len = BUF;
		msgs[i].msg_hdr.msg_iov = &iovs[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	ready = fopen(argv[3], "w");
	if (!ready) {
		perror("flood_recv: ready file");
		return 1;
	}
	fclose(ready);
	while (got < count) {
		int n;

		for (i = 0; i < BATCH; i++) {
			msgs[i].msg_hdr.msg_control = ctl[i];
			msgs[i].msg_hdr.msg_controllen = sizeof(ctl[i]);
		}
		n = recvmmsg(fd, msgs, BATCH, MSG_WAITFORONE, NULL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			perror("flood_recv: recvmmsg");
			return 1;
		}
		if (!got) {
			first = now_s();
			tv.tv_sec = idle_ms / 1000;
			tv.tv_usec = idle_ms % 1000 * 1000;
			setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		}
		last = now_s();
		got += n;
		drops = drops_in(&msgs[n - 1].msg_hdr, drops);
	}
	printf("received %lu packets in %.6f s: %.0f pkt/s, %u dropped by the socket\n", got,
	       last - first, last > first ? got / (last - first) : 0.0, drops);
	close(fd);
	return got ? 0 : 1;
}
