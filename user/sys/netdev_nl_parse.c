// SPDX-License-Identifier: GPL-2.0
/*
 * The netdev family's replies, parsed: apart from the socket so that the
 * fuzzer (tests/fuzz/fuzz_netlink.c) can feed it what a kernel could answer.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "sys/netdev_nl_parse.h"

/* The attributes' ABI numbers, defined here as the header says why. */
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

static int family_op_cb(const struct nlattr *a, void *ctx)
{
	struct netdev_nl_parse *f = ctx;
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
	struct netdev_nl_parse *f = ctx;
	uint16_t type = a->nla_type & NLA_TYPE_MASK;

	if (type == CTRL_ATTR_FAMILY_ID) {
		uint16_t id;

		if (nla_len(a) < sizeof(id))
			return -EBADMSG;
		memcpy(&id, nla_data(a), sizeof(id));
		f->family_id = id;
	} else if (type == CTRL_ATTR_OPS) {
		return nl_for_each_attr(nla_data(a), nla_len(a), family_ops_cb, ctx);
	}
	return 0;
}

static int family_msg_cb(const struct genlmsghdr *g, const void *attrs, size_t len, void *ctx)
{
	return nl_for_each_attr(attrs, len, family_attr_cb, ctx);
}

static int queue_attr_cb(const struct nlattr *a, void *ctx)
{
	struct netdev_nl_parse *d = ctx;
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
	struct netdev_nl_parse *d = ctx;
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
	struct netdev_nl_parse *d = ctx;
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
	struct netdev_nl_parse *d = ctx;
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

typedef int (*nl_msg_cb)(const struct genlmsghdr *g, const void *attrs, size_t len, void *ctx);

int netdev_nl_parse(struct netdev_nl_parse *p, const void *buf, size_t len)
{
	static const nl_msg_cb cbs[] = {
		[NETDEV_NL_FAMILY] = family_msg_cb,
		[NETDEV_NL_QUEUES] = queue_msg_cb,
		[NETDEV_NL_NAPIS] = napi_msg_cb,
	};
	bool dump = p->kind != NETDEV_NL_FAMILY;
	const char *next = buf;
	size_t left = len;

	/*
	 * Not NLMSG_OK()/NLMSG_NEXT(): with a size_t length, a last message
	 * whose length is not aligned makes NLMSG_NEXT() wrap it (fuzz_netlink).
	 */
	while (left) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)next;
		const struct genlmsghdr *g;
		size_t step;
		int ret;

		if (left < sizeof(*nlh) || nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > left)
			return -EBADMSG;
		step = NLMSG_ALIGN(nlh->nlmsg_len);
		left -= step < left ? step : left;
		next += step;
		if (nlh->nlmsg_seq != p->seq)
			continue;	/* a stale answer */
		if (nlh->nlmsg_type == NLMSG_DONE) {
			int dump_err = 0;

			/* A dump that failed midway says so here. */
			if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(dump_err)))
				memcpy(&dump_err, NLMSG_DATA(nlh), sizeof(dump_err));
			return dump_err < 0 ? dump_err : 1;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(nlh);

			if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return -EBADMSG;
			return e->error < 0 ? e->error : 1;	/* 0: an ACK */
		}
		if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
			return -EBADMSG;
		g = NLMSG_DATA(nlh);
		ret = cbs[p->kind](g, (const char *)g + GENL_HDRLEN,
				   nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN), p);
		if (ret)
			return ret;
		if (!dump)
			return 1;
	}
	return 0;
}
