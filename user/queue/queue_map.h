/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which NIC queue each interrupt vector serves: queue <-> NAPI <-> IRQ <-> CPU
 * <-> netdev <-> PCI function, discovered from the running kernel.
 *
 * Sources, best first:
 *  1. The kernel's "netdev" generic netlink family (queue-get, napi-get), when
 *     it answers (Linux 6.8 and later) and the driver tells it the NAPI's IRQ
 *     (netif_napi_set_irq) and the queues' NAPI (netif_queue_set_napi).
 *     Netlink sees the caller's network namespace only. Consulted only when
 *     the roots are the real /proc and /sys.
 *  2. Interrupt names (/proc/interrupts) of the drivers below, the PCI
 *     function owning each vector (<sys>/bus/pci/devices/<bdf>/msi_irqs/) and
 *     the netdev under that function (in the current network namespace):
 *       virtio-net  virtio<N>-input.<Q> (RX Q), virtio<N>-output.<Q> (TX Q);
 *                   the function is the parent of /sys/bus/virtio/devices/virtio<N>
 *       hns3        hns3-<bdf>-TxRx-<K> (also -Rx-/-Tx-): the driver numbers its
 *                   TxRx vectors 0, 2, 4, ... (hns3_nic_init_irq increments the
 *                   index twice), so the queue is the vector's rank among the
 *                   function's TxRx vectors, and a vector serves the queues
 *                   rank, rank + V, rank + 2V, ... (V vectors; hns3_nic_init_vector_data)
 *       <drv>-<bdf> i40e, ice: <drv>-<bdf>-TxRx-<Q>, -rx-<Q>, -tx-<Q>
 *       ifname      igb, ixgbe, e1000e, ...: <ifname>-TxRx-<Q>, <ifname>-rx-<Q>,
 *                   <ifname>-tx-<Q>; an hns3 <ifname>-TxRx-<K> (drivers before
 *                   hns3-<bdf> names) is ranked as above
 *       mlx5        mlx5_comp<Q>@pci:<bdf> (completion vector Q taken as channel Q)
 *     Q is the queue index the name carries; it is the queue when each vector
 *     serves one queue (pair), the drivers' default when there are at least as
 *     many vectors as queues.
 *
 * msix_index, the vector's entry in its function's MSI-X table (the HNS3 PMU's
 * func-intr "intr" id is taken to be this entry), comes from the IRQ's hwirq
 * (<sys>/kernel/irq/<N>/{chip_name,hwirq}, else the /proc/interrupts columns):
 *  - per-device MSI domains (chip "PCI-MSIX-<bdf>", "PCI-MSI-<bdf>", e.g. x86
 *    since Linux 6.2): hwirq is the MSI index, i.e. the MSI-X entry;
 *  - the global PCI/MSI domain (chip "PCI-MSI", "IR-PCI-MSI", "ITS-MSI", ...):
 *    hwirq = entry | bus:devfn << 11 | domain << 27 (pci_msi_domain_calc_hwirq),
 *    used only when bits 11-26 and 27- match the owning function.
 * Otherwise msix_index is -1: the order of msi_irqs/ is not the table order.
 */
#ifndef NETPMU_QUEUE_MAP_H
#define NETPMU_QUEUE_MAP_H

#include <stdbool.h>
#include <stddef.h>

/* Values equal enum netpmu_queue_dir of bpf/netpmu_records.h. */
enum queue_dir {
	QUEUE_RXTX = 0,		/* one vector for the RX and TX queue of a pair */
	QUEUE_RX = 1,
	QUEUE_TX = 2,
};

#define QUEUE_VECTOR_MAX_QUEUES	16

struct queue_vector {
	unsigned int irq;
	char irq_name[64];
	char pci_bdf[16];	/* "0000:01:00.0", empty if not a PCI device */
	unsigned int func_id;	/* 1-based index of pci_bdf in queue_map.functions; 0 if none */
	char ifname[16];	/* empty if unknown (e.g. in another network namespace) */
	int ifindex;		/* in the current network namespace, -1 if unknown */
	int queue;		/* the (first) queue served, -1 if unknown */
	enum queue_dir dir;
	int msix_index;		/* entry within the function's MSI-X table, -1 if unknown */
	int napi_id;		/* from netlink, -1 if unknown */
	int cpu;		/* effective affinity (first CPU), -1 if unknown */
	const char *source;	/* of queue and dir: "netlink" or "irq-name" */

	/* Every queue served, ascending; queues[0] == queue. Empty if queue is -1. */
	int queues[QUEUE_VECTOR_MAX_QUEUES];
	unsigned int nr_queues;
	const char *pattern;	/* the IRQ-name rule that matched: "virtio-net", "hns3",
				 * "drv-bdf", "ifname", "mlx5"; NULL if none did */
	const char *msix_source;	/* "hwirq" (per-device domain), "hwirq-pci-msi"
					 * (global domain), NULL if msix_index is -1 */
	char note[160];		/* what is unknown and why, or "" */
};

/* A queue the netdev netlink family reported (with or without an IRQ). */
struct queue_nl_queue {
	int ifindex;
	char ifname[16];	/* "" if it vanished meanwhile */
	int queue;
	enum queue_dir dir;	/* QUEUE_RX or QUEUE_TX */
	int napi_id;		/* -1 if none */
	int irq;		/* of the NAPI, -1 if unknown */
};

/* A NAPI instance the netdev netlink family reported. */
struct queue_nl_napi {
	int napi_id;
	int ifindex;
	char ifname[16];	/* "" if it vanished meanwhile */
	int irq;		/* -1 if the driver did not tell the kernel */
};

struct queue_map {
	struct queue_vector *vectors;	/* sorted by irq */
	size_t nr_vectors;
	char **functions;		/* PCI bdf per func_id - 1, sorted */
	size_t nr_functions;

	/* What netlink said: all queues of the current netns, sorted by ifindex, dir, queue. */
	struct queue_nl_queue *nl_queues;
	size_t nr_nl_queues;
	struct queue_nl_napi *nl_napis;	/* sorted by napi_id */
	size_t nr_nl_napis;
	bool netlink_used;		/* the dumps answered and were merged */
	char netlink_status[160];	/* "ok", or why netlink was not used */
};

/* Flags of queue_map_discover_flags(). */
#define QUEUE_MAP_NO_NETLINK	(1u << 0)	/* interrupt names and sysfs only */

/*
 * Discovers the map. PROC_ROOT and SYS_ROOT default (NULL) to "/proc" and
 * "/sys"; netlink is consulted only when both are the real ones. Returns 0 or
 * -errno (only an unreadable <proc>/interrupts or lack of memory fails it;
 * ERR then says what). Release MAP with queue_map_release() either way.
 */
int queue_map_discover(const char *proc_root, const char *sys_root,
		       struct queue_map *map, char *err, size_t err_len);
int queue_map_discover_flags(const char *proc_root, const char *sys_root,
			     unsigned int flags, struct queue_map *map,
			     char *err, size_t err_len);

/*
 * As queue_map_discover(), merging the netlink answers NL (netdev_netlink.h)
 * instead of asking the kernel: for callers that already dumped, and for
 * tests of the merge on fixture trees (ifindexes are then resolved through
 * <sys>/class/net/<name>/ifindex).
 */
struct netdev_nl_info;
int queue_map_discover_nl(const char *proc_root, const char *sys_root,
			  const struct netdev_nl_info *nl, struct queue_map *map,
			  char *err, size_t err_len);

void queue_map_release(struct queue_map *map);

/* The vector of IRQ, or NULL. */
const struct queue_vector *queue_map_find_irq(const struct queue_map *map, unsigned int irq);

/* func_id of a PCI function given by bdf ("0000:01:00.0" or "01:00.0") or by
 * ifname of one of its vectors; 0 if not found. */
int queue_map_func_id(const struct queue_map *map, const char *pci_bdf_or_ifname);

/* "rxtx", "rx", "tx" */
static inline const char *queue_dir_name(enum queue_dir dir)
{
	return dir == QUEUE_RX ? "rx" : dir == QUEUE_TX ? "tx" : "rxtx";
}

#endif
