/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's "netdev" generic netlink family, read with a raw netlink
 * socket: the queue-get dump (queue id, type, ifindex, NAPI id) and the
 * napi-get dump (NAPI id, ifindex, IRQ, poll thread). Both dumps see the
 * network devices of the caller's network namespace only.
 *
 * Availability is probed from the kernel's answers, never from its version:
 * the family must resolve (it exists since Linux 6.3), the controller must
 * list the queue-get and napi-get operations (6.8 and later), and the dumps
 * must succeed.
 */
#ifndef NETPMU_NETDEV_NETLINK_H
#define NETPMU_NETDEV_NETLINK_H

#include <stdbool.h>
#include <stddef.h>

/* enum netdev_queue_type of <linux/netdev.h> */
#define NETDEV_NL_QUEUE_TYPE_RX	0
#define NETDEV_NL_QUEUE_TYPE_TX	1

struct netdev_nl_queue {
	int ifindex;
	int id;			/* queue index within its type */
	int type;		/* NETDEV_NL_QUEUE_TYPE_* */
	int napi_id;		/* -1 if the queue has no NAPI (or the driver does not say) */
};

struct netdev_nl_napi {
	int ifindex;
	int id;
	int irq;		/* -1 if the driver did not tell the kernel (netif_napi_set_irq) */
	int pid;		/* threaded NAPI's kthread, -1 if none */
};

struct netdev_nl_info {
	struct netdev_nl_queue *queues;
	size_t nr_queues;
	struct netdev_nl_napi *napis;
	size_t nr_napis;
};

/*
 * Fills INFO from both dumps. Returns 0; -ENOENT if the kernel has no netdev
 * family; -EOPNOTSUPP if the family lacks queue-get or napi-get; another
 * -errno if netlink failed (ERR then says what). INFO is left empty on
 * failure.
 */
int netdev_nl_dump(struct netdev_nl_info *info, char *err, size_t err_len);

void netdev_nl_info_release(struct netdev_nl_info *info);

#endif
