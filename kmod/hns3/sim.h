/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HNS3 PMU device model ("sim"): the register map of the Hip09 PMU, whose
 * counters are fed by real traffic of bound network devices.
 */
#ifndef NETPMU_HNS3_SIM_H
#define NETPMU_HNS3_SIM_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

#include "common/model.h"
#include "pmu.h"

#define HNS3_SIM_MAX_FUNCS	16	/* port is a 4-bit field */
#define HNS3_SIM_MAX_VECTORS	4096	/* intr is a 12-bit field */
#define HNS3_SIM_MAX_DROP_EVERY	1000000	/* rx_drop_every's range: 0 to this */

enum hns3_sim_dir {
	HNS3_SIM_RX,
	HNS3_SIM_TX,
};

/* What the tap saw: one frame, or one GSO/GRO train of frames. */
struct hns3_sim_pkt {
	enum hns3_sim_dir dir;
	u8 devfn;
	u8 port;
	u8 tc;
	u16 queue;
	u32 packets;
	u64 bytes;
};

/* A bound network device: one PCI function, one port. */
struct hns3_sim_fn {
	struct list_head node;
	struct hns3_sim *sim;
	struct net_device *ndev;
	struct packet_type tap;
	int domain;
	u16 bdf;
	u8 port;
	/* Linux IRQ of each MSI-X entry (or MSI vector); 0 if none */
	unsigned int *irqs;
	unsigned int nr_irqs;
};

struct hns3_sim_slot {
	u32 ctrl_low;
	u32 ctrl_high;
	u32 intr_status;
	u32 intr_mask;
	u32 qid_ctrl;
	u32 qid_para;
	u64 cnt[2];		/* COUNTER, EXT_COUNTER */
	bool upper[2];		/* top bit of a narrowed counter is set */
	u64 tick_ns;		/* when the time counter was last folded */
	u64 intr_seen;		/* interrupts of its vectors, last fold */
	int source;		/* HNS3_SIM_SOURCE_* feeding it */
};

/* What feeds a slot: received or sent frames, interrupts, or nothing. */
#define HNS3_SIM_SOURCE_NONE	(-1)
#define HNS3_SIM_SOURCE_RX	HNS3_SIM_RX
#define HNS3_SIM_SOURCE_TX	HNS3_SIM_TX
#define HNS3_SIM_SOURCE_INTR	2

struct hns3_sim_config {
	u16 sicl_id;
	u32 version;
	u32 clock_freq;
	u32 counter_bits;
	u32 lat_base_ns;
	u32 link_mbps;
	int local_cpu;
	u32 rx_drop_every;	/* 0: no drops; N: one dropped frame per N received */
};

struct hns3_sim {
	struct hns3_pmu pmu;
	/* registers, interrupt; model.lock: also the functions */
	struct netpmu_model model;
	struct device dev;	/* netpmu_sim<N> on the netpmu_sim bus */
	struct list_head node;	/* in the instance list */
	struct hns3_sim_config cfg;

	u32 global_ctrl;
	u32 bdf;
	u64 counter_mask;
	struct hns3_sim_slot slot[HNS3_PMU_MAX_HW_EVENTS];
	unsigned long counting;	/* slots with EVENT_EN and START set */

	struct list_head fns;	/* changed under rtnl and lock */
	unsigned int nr_fns;
	bool binding;		/* accept NETDEV_REGISTER replays */
	char *netdevs;		/* names to bind, NULL for all */
	struct notifier_block netdev_nb;

	struct hrtimer wrap_timer;
	u64 wrap_period_ns;

	u64 rx_frames_counted;	/* RX frames counted, for rx_drop_every; under lock */

	struct dentry *debugfs;	/* test hooks */
};

/* device model: registers and interrupt (sim_dev.c) */
void hns3_sim_dev_init(struct hns3_sim *sim);
void hns3_sim_dev_start(struct hns3_sim *sim);
void hns3_sim_dev_stop(struct hns3_sim *sim);

/* The overflow interrupt (common/model.h). */
static inline void hns3_sim_raise_irq(struct hns3_sim *sim)
{
	netpmu_model_raise_irq(&sim->model);
}

/* device model: counters (sim_counters.c); _locked: with sim->model.lock held */
int hns3_sim_slot_source(const struct hns3_sim_slot *s);
bool hns3_sim_slot_fold(struct hns3_sim *sim, unsigned int idx, u64 now);
void hns3_sim_slot_rebase(struct hns3_sim *sim, unsigned int idx, u64 now);
u64 hns3_sim_slot_counter(struct hns3_sim *sim, unsigned int idx,
			  unsigned int r, u64 now, bool *raise);
void hns3_sim_update_counting(struct hns3_sim *sim, u64 now);
enum hrtimer_restart hns3_sim_wrap_timer(struct hrtimer *timer);
void hns3_sim_count(struct hns3_sim *sim, const struct hns3_sim_pkt *pkt);
void hns3_sim_intr_fold_locked(struct hns3_sim *sim);
void hns3_sim_intr_rebase_locked(struct hns3_sim *sim);
int hns3_sim_inject(struct hns3_sim *sim, unsigned int idx, unsigned int reg,
		    u64 delta);

/* the functions' interrupt vectors and counts (sim_vectors.c) */
int hns3_sim_fn_vectors(struct pci_dev *pdev, unsigned int **irqs_out,
			unsigned int *nr_out);
u64 hns3_sim_fn_interrupts(const struct hns3_sim_fn *fn, int entry);

/* network binding (sim_net.c) */
int hns3_sim_net_bind(struct hns3_sim *sim);
void hns3_sim_net_unbind(struct hns3_sim *sim);
void hns3_sim_net_report(struct hns3_sim *sim);

/* instances (sim.c) */
int hns3_sim_init(void);
void hns3_sim_exit(void);

#endif /* NETPMU_HNS3_SIM_H */
