/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replies of the netdev generic netlink family (and of the controller
 * that resolves it), parsed from the bytes of one recv(): netdev_netlink.c
 * receives them, tests/fuzz/fuzz_netlink.c makes them up.
 */
#ifndef NETPMU_NETDEV_NL_PARSE_H
#define NETPMU_NETDEV_NL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/netdev_netlink.h"

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

enum netdev_nl_reply {
	NETDEV_NL_FAMILY,	/* CTRL_CMD_GETFAMILY: the family id and its operations */
	NETDEV_NL_QUEUES,	/* the queue-get dump */
	NETDEV_NL_NAPIS,	/* the napi-get dump */
};

struct netdev_nl_parse {
	enum netdev_nl_reply kind;
	uint32_t seq;			/* of the request: other answers are stale */
	/* FAMILY */
	int family_id;			/* -1 until the answer gives it */
	bool has_queue_get, has_napi_get;
	/* QUEUES, NAPIS: where the objects go, and the room there */
	struct netdev_nl_info *info;
	size_t queues_cap, napis_cap;
	/* the object being parsed */
	struct netdev_nl_queue q;
	struct netdev_nl_napi n;
	bool have_id;
};

/*
 * Parses LEN bytes of BUF as the answer of kind P->kind to request P->seq.
 * Returns 1 when the answer is complete (a dump's DONE, an ACK, the one
 * answer of FAMILY), 0 when more is to come, or -errno: the kernel's, or
 * -EBADMSG for a malformed message, -ENOMEM.
 */
int netdev_nl_parse(struct netdev_nl_parse *p, const void *buf, size_t len);

#endif
