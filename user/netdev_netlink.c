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

#include "netdev_netlink.h"

/*
 * The netdev family's ABI numbers, from the UAPI header <linux/netdev.h>
 * (generated from Documentation/netlink/specs/netdev.yaml). They are defined
 * here rather than taken from the header: the header of the build machine
 * may predate them (Debian 12's linux-libc-dev 6.1 has no <linux/netdev.h> at
 * all), and an enumerator's presence cannot be tested by the preprocessor.
 * Netlink ABI numbers never change once released.
 */
#define NETDEV_NL_FAMILY_NAME	"netdev"	/* NETDEV_FAMILY_NAME */
#define NETDEV_NL_FAMILY_VERSION 1		/* NETDEV_FAMILY_VERSION */

/* enum { NETDEV_CMD_DEV_GET = 1, ... } */
#define NETDEV_NL_CMD_QUEUE_GET	10		/* NETDEV_CMD_QUEUE_GET */
#define NETDEV_NL_CMD_NAPI_GET	11		/* NETDEV_CMD_NAPI_GET */

/* enum { NETDEV_A_NAPI_IFINDEX = 1, ... } */
#define NETDEV_NL_A_NAPI_IFINDEX 1		/* NETDEV_A_NAPI_IFINDEX, u32 */
#define NETDEV_NL_A_NAPI_ID	2		/* NETDEV_A_NAPI_ID, u32 */
#define NETDEV_NL_A_NAPI_IRQ	3		/* NETDEV_A_NAPI_IRQ, u32 */
#define NETDEV_NL_A_NAPI_PID	4		/* NETDEV_A_NAPI_PID, u32 */

/* enum { NETDEV_A_QUEUE_ID = 1, ... } */
#define NETDEV_NL_A_QUEUE_ID	1		/* NETDEV_A_QUEUE_ID, u32 */
#define NETDEV_NL_A_QUEUE_IFINDEX 2		/* NETDEV_A_QUEUE_IFINDEX, u32 */
#define NETDEV_NL_A_QUEUE_TYPE	3		/* NETDEV_A_QUEUE_TYPE, u32 enum netdev_queue_type */
#define NETDEV_NL_A_QUEUE_NAPI_ID 4		/* NETDEV_A_QUEUE_NAPI_ID, u32 */

#define NL_RECV_BYTES	(64 * 1024)
#define NL_REQ_BYTES	256

struct nl_sock {
	int fd;
	uint32_t seq;
	char *buf;
};

static void set_err(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !err_len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

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

		set_err(err, err_len, "netlink socket: %s", strerror(e));
		free(s->buf);
		s->buf = NULL;
		return -e;
	}
	/* Extended ACKs only improve error messages; older kernels lack them. */
	setsockopt(s->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	if (bind(s->fd, (struct sockaddr *)&local, sizeof(local)) < 0) {
		int e = errno;

		set_err(err, err_len, "netlink bind: %s", strerror(e));
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

/* One attribute walk: calls CB for each attribute of the payload. */
typedef int (*nl_attr_cb)(const struct nlattr *a, void *ctx);

static int nl_for_each_attr(const void *payload, size_t len, nl_attr_cb cb, void *ctx)
{
	const char *p = payload;

	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;
		size_t alen = a->nla_len, step;
		int ret;

		if (alen < NLA_HDRLEN || alen > len)
			return -EBADMSG;
		ret = cb(a, ctx);
		if (ret)
			return ret;
		step = NLA_ALIGN(alen);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static const void *nla_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static size_t nla_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static int nla_u32(const struct nlattr *a, uint32_t *v)
{
	if (nla_len(a) < sizeof(*v))
		return -EBADMSG;
	memcpy(v, nla_data(a), sizeof(*v));
	return 0;
}

/*
 * Receives the answer to the request with the current sequence number,
 * calling CB for each generic netlink message until the dump's DONE (DUMP)
 * or the single answer (!DUMP). Returns 0 or the kernel's -errno.
 */
typedef int (*nl_msg_cb)(const struct genlmsghdr *g, const void *attrs, size_t len, void *ctx);

static int nl_recv(struct nl_sock *s, bool dump, nl_msg_cb cb, void *ctx)
{
	bool done = false;

	while (!done) {
		ssize_t n;
		struct nlmsghdr *nlh;
		size_t left;

		do {
			n = recv(s->fd, s->buf, NL_RECV_BYTES, 0);
		} while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ECONNRESET;
		left = (size_t)n;
		for (nlh = (struct nlmsghdr *)s->buf; NLMSG_OK(nlh, left);
		     nlh = NLMSG_NEXT(nlh, left)) {
			if (nlh->nlmsg_seq != s->seq)
				continue;	/* a stale answer */
			if (nlh->nlmsg_type == NLMSG_DONE) {
				int dump_err = 0;

				/* A dump that failed midway says so here. */
				if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(dump_err)))
					memcpy(&dump_err, NLMSG_DATA(nlh), sizeof(dump_err));
				if (dump_err < 0)
					return dump_err;
				done = true;
				break;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
					return -EBADMSG;
				return e->error;	/* 0: an ACK */
			}
			if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
				return -EBADMSG;
			{
				const struct genlmsghdr *g = NLMSG_DATA(nlh);
				int ret = cb(g, (const char *)g + GENL_HDRLEN,
					     nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN), ctx);

				if (ret)
					return ret;
			}
			if (!dump) {
				done = true;
				break;
			}
		}
	}
	return 0;
}

/* --- resolving the family --- */

struct family_ctx {
	int id;
	bool has_queue_get, has_napi_get;
};

static int family_op_cb(const struct nlattr *a, void *ctx)
{
	struct family_ctx *f = ctx;
	uint32_t v;

	if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_OP_ID && !nla_u32(a, &v)) {
		if (v == NETDEV_NL_CMD_QUEUE_GET)
			f->has_queue_get = true;
		else if (v == NETDEV_NL_CMD_NAPI_GET)
			f->has_napi_get = true;
	}
	return 0;
}

/* CTRL_ATTR_OPS is a nest of nests (one per operation, any type) of CTRL_ATTR_OP_*. */
static int family_ops_cb(const struct nlattr *a, void *ctx)
{
	return nl_for_each_attr(nla_data(a), nla_len(a), family_op_cb, ctx);
}

static int family_attr_cb(const struct nlattr *a, void *ctx)
{
	struct family_ctx *f = ctx;
	uint16_t type = a->nla_type & NLA_TYPE_MASK;

	if (type == CTRL_ATTR_FAMILY_ID) {
		uint16_t id;

		if (nla_len(a) < sizeof(id))
			return -EBADMSG;
		memcpy(&id, nla_data(a), sizeof(id));
		f->id = id;
	} else if (type == CTRL_ATTR_OPS) {
		return nl_for_each_attr(nla_data(a), nla_len(a), family_ops_cb, ctx);
	}
	return 0;
}

static int family_msg_cb(const struct genlmsghdr *g, const void *attrs, size_t len, void *ctx)
{
	return nl_for_each_attr(attrs, len, family_attr_cb, ctx);
}

static int resolve_family(struct nl_sock *s, struct family_ctx *f)
{
	union {
		struct nlmsghdr nlh;
		char bytes[NL_REQ_BYTES];
	} req;
	struct genlmsghdr *g;
	int ret;

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.nlh.nlmsg_type = GENL_ID_CTRL;
	req.nlh.nlmsg_flags = NLM_F_REQUEST;
	g = NLMSG_DATA(&req.nlh);
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	ret = nl_put_attr(&req.nlh, sizeof(req), CTRL_ATTR_FAMILY_NAME,
			  NETDEV_NL_FAMILY_NAME, sizeof(NETDEV_NL_FAMILY_NAME));
	if (ret)
		return ret;
	ret = nl_send(s, &req.nlh);
	if (ret)
		return ret;
	f->id = -1;
	ret = nl_recv(s, false, family_msg_cb, f);
	if (ret)
		return ret;	/* -ENOENT: no such family */
	return f->id < 0 ? -EBADMSG : 0;
}

/* --- the dumps --- */

struct dump_ctx {
	struct netdev_nl_info *info;
	size_t queues_cap, napis_cap;
	/* the object being parsed */
	struct netdev_nl_queue q;
	struct netdev_nl_napi n;
	bool have_id;
};

static int queue_attr_cb(const struct nlattr *a, void *ctx)
{
	struct dump_ctx *d = ctx;
	uint32_t v;

	if (nla_u32(a, &v))
		return 0;	/* not a u32: an attribute of a later kernel */
	switch (a->nla_type & NLA_TYPE_MASK) {
	case NETDEV_NL_A_QUEUE_ID:
		d->q.id = (int)v;
		d->have_id = true;
		break;
	case NETDEV_NL_A_QUEUE_IFINDEX:
		d->q.ifindex = (int)v;
		break;
	case NETDEV_NL_A_QUEUE_TYPE:
		d->q.type = (int)v;
		break;
	case NETDEV_NL_A_QUEUE_NAPI_ID:
		d->q.napi_id = (int)v;
		break;
	}
	return 0;
}

static int queue_msg_cb(const struct genlmsghdr *g, const void *attrs, size_t len, void *ctx)
{
	struct dump_ctx *d = ctx;
	struct netdev_nl_info *info = d->info;
	int ret;

	d->q = (struct netdev_nl_queue){ .ifindex = -1, .id = -1, .type = -1, .napi_id = -1 };
	d->have_id = false;
	ret = nl_for_each_attr(attrs, len, queue_attr_cb, d);
	if (ret)
		return ret;
	if (!d->have_id || d->q.ifindex < 0 || d->q.type < 0)
		return 0;
	if (info->nr_queues == d->queues_cap) {
		size_t cap = d->queues_cap ? 2 * d->queues_cap : 64;
		void *p = realloc(info->queues, cap * sizeof(*info->queues));

		if (!p)
			return -ENOMEM;
		info->queues = p;
		d->queues_cap = cap;
	}
	info->queues[info->nr_queues++] = d->q;
	return 0;
}

static int napi_attr_cb(const struct nlattr *a, void *ctx)
{
	struct dump_ctx *d = ctx;
	uint32_t v;

	if (nla_u32(a, &v))
		return 0;
	switch (a->nla_type & NLA_TYPE_MASK) {
	case NETDEV_NL_A_NAPI_IFINDEX:
		d->n.ifindex = (int)v;
		break;
	case NETDEV_NL_A_NAPI_ID:
		d->n.id = (int)v;
		d->have_id = true;
		break;
	case NETDEV_NL_A_NAPI_IRQ:
		d->n.irq = (int)v;
		break;
	case NETDEV_NL_A_NAPI_PID:
		d->n.pid = (int)v;
		break;
	}
	return 0;
}

static int napi_msg_cb(const struct genlmsghdr *g, const void *attrs, size_t len, void *ctx)
{
	struct dump_ctx *d = ctx;
	struct netdev_nl_info *info = d->info;
	int ret;

	d->n = (struct netdev_nl_napi){ .ifindex = -1, .id = -1, .irq = -1, .pid = -1 };
	d->have_id = false;
	ret = nl_for_each_attr(attrs, len, napi_attr_cb, d);
	if (ret)
		return ret;
	if (!d->have_id)
		return 0;
	if (info->nr_napis == d->napis_cap) {
		size_t cap = d->napis_cap ? 2 * d->napis_cap : 64;
		void *p = realloc(info->napis, cap * sizeof(*info->napis));

		if (!p)
			return -ENOMEM;
		info->napis = p;
		d->napis_cap = cap;
	}
	info->napis[info->nr_napis++] = d->n;
	return 0;
}

static int dump(struct nl_sock *s, int family, uint8_t cmd, nl_msg_cb cb, struct dump_ctx *d)
{
	union {
		struct nlmsghdr nlh;
		char bytes[NL_REQ_BYTES];
	} req;
	struct genlmsghdr *g;
	int ret;

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.nlh.nlmsg_type = (uint16_t)family;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	g = NLMSG_DATA(&req.nlh);
	g->cmd = cmd;
	g->version = NETDEV_NL_FAMILY_VERSION;
	ret = nl_send(s, &req.nlh);
	if (ret)
		return ret;
	return nl_recv(s, true, cb, d);
}

int netdev_nl_dump(struct netdev_nl_info *info, char *err, size_t err_len)
{
	struct family_ctx fam = { .id = -1 };
	struct dump_ctx d = { .info = info };
	struct nl_sock s = { .fd = -1 };
	int ret;

	memset(info, 0, sizeof(*info));
	ret = nl_open(&s, err, err_len);
	if (ret)
		return ret;
	ret = resolve_family(&s, &fam);
	if (ret == -ENOENT) {
		set_err(err, err_len, "the kernel has no \"netdev\" generic netlink family");
		goto out;
	}
	if (ret) {
		set_err(err, err_len, "resolving the \"netdev\" generic netlink family: %s",
			strerror(-ret));
		goto out;
	}
	if (!fam.has_queue_get || !fam.has_napi_get) {
		ret = -EOPNOTSUPP;
		set_err(err, err_len, "the \"netdev\" netlink family has no %s operation",
			!fam.has_queue_get ? "queue-get" : "napi-get");
		goto out;
	}
	ret = dump(&s, fam.id, NETDEV_NL_CMD_QUEUE_GET, queue_msg_cb, &d);
	if (ret) {
		set_err(err, err_len, "netdev queue-get dump: %s", strerror(-ret));
		goto out;
	}
	ret = dump(&s, fam.id, NETDEV_NL_CMD_NAPI_GET, napi_msg_cb, &d);
	if (ret)
		set_err(err, err_len, "netdev napi-get dump: %s", strerror(-ret));
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
