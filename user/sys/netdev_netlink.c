// SPDX-License-Identifier: GPL-2.0
/* The netdev generic netlink family's queue-get and napi-get dumps. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "lib/why_line.h"
#include "sys/netdev_netlink.h"
#include "sys/netdev_nl_parse.h"

#define NL_RECV_BYTES	(64 * 1024)
#define NL_REQ_BYTES	256

struct nl_sock {
	int fd;
	uint32_t seq;
	char *buf;
};

static int nl_open(struct nl_sock *s, char *err, size_t err_len)
{
	struct sockaddr_nl local = { .nl_family = AF_NETLINK };
	int one = 1;

	s->buf = malloc(NL_RECV_BYTES);
	if (!s->buf)
		return -ENOMEM;
	s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (s->fd < 0) {
		int e = errno;

		why_fail(err, err_len, "netlink socket: %s", strerror(e));
		free(s->buf);
		s->buf = NULL;
		return -e;
	}
	/* Extended ACKs only improve error messages; older kernels lack them. */
	setsockopt(s->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	if (bind(s->fd, (struct sockaddr *)&local, sizeof(local)) < 0) {
		int e = errno;

		why_fail(err, err_len, "netlink bind: %s", strerror(e));
		close(s->fd);
		free(s->buf);
		s->buf = NULL;
		return -e;
	}
	s->seq = 1;
	return 0;
}

static void nl_close(struct nl_sock *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->buf);
	s->buf = NULL;
}

/* Appends one attribute to the message in REQ (NLMSG_ALIGNed length kept in nlh). */
static int nl_put_attr(struct nlmsghdr *nlh, size_t room, uint16_t type,
		       const void *data, size_t len)
{
	size_t off = NLMSG_ALIGN(nlh->nlmsg_len);
	struct nlattr *a = (struct nlattr *)((char *)nlh + off);

	if (off + NLA_HDRLEN + NLA_ALIGN(len) > room)
		return -EMSGSIZE;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	nlh->nlmsg_len = off + NLA_HDRLEN + NLA_ALIGN(len);
	return 0;
}

static int nl_send(struct nl_sock *s, struct nlmsghdr *nlh)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	ssize_t n;

	nlh->nlmsg_seq = ++s->seq;
	do {
		n = sendto(s->fd, nlh, nlh->nlmsg_len, 0,
			   (struct sockaddr *)&kernel, sizeof(kernel));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return 0;
}

/*
 * Receives the answer to the request with the current sequence number into
 * P until it is complete. Returns 0 or -errno (the kernel's, or a parse error).
 */
static int nl_recv(struct nl_sock *s, struct netdev_nl_parse *p)
{
	int ret;

	p->seq = s->seq;
	do {
		ssize_t n;

		do {
			n = recv(s->fd, s->buf, NL_RECV_BYTES, 0);
		} while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ECONNRESET;
		ret = netdev_nl_parse(p, s->buf, n);
	} while (!ret);
	return ret < 0 ? ret : 0;
}

/* A generic netlink request: its header, then room for attributes. */
union nl_request {
	struct nlmsghdr nlh;
	char bytes[NL_REQ_BYTES];
};

static void genl_request(union nl_request *req, uint16_t type, uint16_t flags, uint8_t cmd,
			 uint8_t version)
{
	struct genlmsghdr *g;

	memset(req, 0, sizeof(*req));
	req->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req->nlh.nlmsg_type = type;
	req->nlh.nlmsg_flags = flags;
	g = NLMSG_DATA(&req->nlh);
	g->cmd = cmd;
	g->version = version;
}

/* --- resolving the family --- */

static int resolve_family(struct nl_sock *s, struct netdev_nl_parse *f)
{
	union nl_request req;
	int ret;

	genl_request(&req, GENL_ID_CTRL, NLM_F_REQUEST, CTRL_CMD_GETFAMILY, 1);
	ret = nl_put_attr(&req.nlh, sizeof(req), CTRL_ATTR_FAMILY_NAME,
			  NETDEV_NL_FAMILY_NAME, sizeof(NETDEV_NL_FAMILY_NAME));
	if (ret)
		return ret;
	ret = nl_send(s, &req.nlh);
	if (ret)
		return ret;
	*f = (struct netdev_nl_parse){ .kind = NETDEV_NL_FAMILY, .family_id = -1 };
	ret = nl_recv(s, f);
	if (ret)
		return ret;	/* -ENOENT: no such family */
	return f->family_id < 0 ? -EBADMSG : 0;
}

/* --- the dumps --- */

static int dump(struct nl_sock *s, int family, uint8_t cmd, struct netdev_nl_parse *d)
{
	union nl_request req;
	int ret;

	genl_request(&req, (uint16_t)family, NLM_F_REQUEST | NLM_F_DUMP, cmd,
		     NETDEV_NL_FAMILY_VERSION);
	ret = nl_send(s, &req.nlh);
	if (ret)
		return ret;
	return nl_recv(s, d);
}

int netdev_nl_dump(struct netdev_nl_info *info, char *err, size_t err_len)
{
	struct netdev_nl_parse fam = { .family_id = -1 };
	struct netdev_nl_parse d = { .info = info };
	struct nl_sock s = { .fd = -1 };
	int ret;

	memset(info, 0, sizeof(*info));
	ret = nl_open(&s, err, err_len);
	if (ret)
		return ret;
	ret = resolve_family(&s, &fam);
	if (ret == -ENOENT) {
		why_fail(err, err_len, "the kernel has no \"netdev\" generic netlink family");
		goto out;
	}
	if (ret) {
		why_fail(err, err_len, "resolving the \"netdev\" generic netlink family: %s",
			strerror(-ret));
		goto out;
	}
	if (!fam.has_queue_get || !fam.has_napi_get) {
		ret = -EOPNOTSUPP;
		why_fail(err, err_len, "the \"netdev\" netlink family has no %s operation",
			!fam.has_queue_get ? "queue-get" : "napi-get");
		goto out;
	}
	d.kind = NETDEV_NL_QUEUES;
	ret = dump(&s, fam.family_id, NETDEV_NL_CMD_QUEUE_GET, &d);
	if (ret) {
		why_fail(err, err_len, "netdev queue-get dump: %s", strerror(-ret));
		goto out;
	}
	d.kind = NETDEV_NL_NAPIS;
	ret = dump(&s, fam.family_id, NETDEV_NL_CMD_NAPI_GET, &d);
	if (ret)
		why_fail(err, err_len, "netdev napi-get dump: %s", strerror(-ret));
out:
	nl_close(&s);
	if (ret)
		netdev_nl_info_release(info);
	return ret;
}

void netdev_nl_info_release(struct netdev_nl_info *info)
{
	free(info->queues);
	free(info->napis);
	memset(info, 0, sizeof(*info));
}
