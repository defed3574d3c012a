/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HiSilicon PCIe PMU device model ("sim"): the register map of the Hip09
 * PCIe PMU over the machine's real PCIe topology. Its Root Ports are the real
 * PCIe Root Ports; its traffic is the DMA of the real network devices below
 * them, modelled as a stream of TLPs (kmod/hisi_pcie.md, "The PCIe device
 * model").
 */
#ifndef NETPMU_HISI_PCIE_SIM_H
#define NETPMU_HISI_PCIE_SIM_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

#include "common/model.h"
#include "pmu.h"

#define HISI_PCIE_SIM_MAX_PORTS		16	/* the port filter's 16 bits */

/* TLP header sizes: 4 DW for 64-bit memory requests, 3 DW for completions. */
#define HISI_PCIE_SIM_MEM_HDR		16
#define HISI_PCIE_SIM_CPL_HDR		12
#define HISI_PCIE_SIM_DOORBELL		4	/* bytes of a doorbell write */

/*
 * The TLP classes the events count, named as the events name them: rx =
 * received by the Root Port from below (upstream), tx = sent by it downstream.
 */
enum hisi_pcie_tlp_class {
	HISI_PCIE_TLP_RX_MWR,	/* device writes host memory (DMA write) */
	HISI_PCIE_TLP_RX_MRD,	/* device reads host memory (DMA read request) */
	HISI_PCIE_TLP_RX_CPL,	/* device completes a CPU read of its BARs */
	HISI_PCIE_TLP_TX_MWR,	/* CPU writes the device's BARs (doorbell) */
	HISI_PCIE_TLP_TX_MRD,	/* CPU reads the device's BARs */
	HISI_PCIE_TLP_TX_CPL,	/* data returned for a device's DMA read */
	HISI_PCIE_TLP_NR_CLASSES,
};

/* A run of identical TLPs, in the order they cross the Root Port. */
struct hisi_pcie_tlp_run {
	u8 cls;			/* enum hisi_pcie_tlp_class */
	u8 port;		/* index of the Root Port: bit of the port filter */
	u16 requester;		/* Requester ID, what the bdf filter matches */
	u32 count;		/* number of TLPs */
	u32 len_dw;		/* Length field in DW: what thr and trig compare */
	u32 payload;		/* payload bytes of one TLP (len_mode bit 0) */
	u32 hdr;		/* header bytes of one TLP (len_mode bit 1) */
};

#define HISI_PCIE_SIM_MAX_RUNS		8

/* The TLPs of one frame. */
struct hisi_pcie_tlp_stream {
	unsigned int nr;
	struct hisi_pcie_tlp_run run[HISI_PCIE_SIM_MAX_RUNS];
};

struct hisi_pcie_sim_config {
	u16 sicl_id;
	u16 core_id;
	u32 version;
	u32 clk_freq;		/* Hz: *_time cycles, latency cycles */
	u32 mps;		/* max payload size, bytes */
	u32 mrrs;		/* max read request size, bytes */
	u32 desc_bytes;		/* descriptor fetched and written back per frame */
	u32 lat_base_ns;	/* fixed latency of one TLP */
	u32 link_mbps;		/* link rate for a TLP's serialization latency */
	int local_cpu;		/* first counting CPU, -1: NUMA-local */
	int node;		/* the device's NUMA node, -1: the Root Ports' */
};

/* A bound network device: a PCI function below one of the Root Ports. */
struct hisi_pcie_sim_ep {
	struct list_head node;
	struct hisi_pcie_sim *sim;
	struct net_device *ndev;
	struct packet_type tap;
	u16 bdf;		/* the function's Requester ID */
	u16 rp_bdf;		/* its Root Port's */
	u8 port;		/* its Root Port's index */
};

struct hisi_pcie_sim_slot {
	u64 ctrl;		/* EVENT_CTRL */
	u64 cnt[2];		/* CNT, EXT_CNT */
	u32 int_stat;
	u32 int_mask;
	u64 tick_ns;		/* when the time counter was last folded */
	int cls;		/* TLP class of the event, or -1 */
	bool latency;		/* latency event (else bandwidth) */
	bool triggered;		/* the trigger condition was met */
};

struct hisi_pcie_sim {
	struct hisi_pcie_pmu pmu;
	/* registers, interrupt; model.lock: also the endpoint list */
	struct netpmu_model model;
	struct device *dev;
	struct hisi_pcie_sim_config cfg;

	u32 global_ctrl;
	struct hisi_pcie_sim_slot slot[HISI_PCIE_MAX_COUNTERS];
	unsigned long counting;	/* slots with EVENT_EN and GLOBAL_EN set */

	/* topology, fixed at load like the hardware's BDF register */
	int domain;
	unsigned int nr_ports;
	u16 port_bdf[HISI_PCIE_SIM_MAX_PORTS];
	u32 bdf_reg;

	struct list_head eps;	/* changed under rtnl and lock */
	unsigned int nr_eps;
	struct notifier_block netdev_nb;


	struct dentry *debugfs;
};

/* TLP model (sim_tlp.c) */
void hisi_pcie_sim_frame_tlps(const struct hisi_pcie_sim_config *cfg,
			      const struct hisi_pcie_sim_ep *ep, bool tx,
			      u32 len, struct hisi_pcie_tlp_stream *st);
u64 hisi_pcie_sim_tlp_latency(const struct hisi_pcie_sim_config *cfg,
			      const struct hisi_pcie_tlp_run *run);

/* device model: registers and interrupt (sim_dev.c) */
void hisi_pcie_sim_dev_init(struct hisi_pcie_sim *sim);
void hisi_pcie_sim_dev_stop(struct hisi_pcie_sim *sim);

/* The overflow interrupt (common/model.h). */
static inline void hisi_pcie_sim_raise_irq(struct hisi_pcie_sim *sim)
{
	netpmu_model_raise_irq(&sim->model);
}

/* device model: counters (sim_counters.c); with sim->model.lock held but count */
#define HISI_PCIE_SIM_TIME_REG	1	/* EXT_CNT of a bandwidth event */
void hisi_pcie_sim_slot_decode(struct hisi_pcie_sim_slot *s);
bool hisi_pcie_sim_fold_time(struct hisi_pcie_sim *sim, unsigned int idx,
			     u64 now);
bool hisi_pcie_sim_fold_all(struct hisi_pcie_sim *sim, u64 now);
u64 hisi_pcie_sim_slot_counter(struct hisi_pcie_sim *sim, unsigned int idx,
			       unsigned int r, u64 now, bool *raise);
void hisi_pcie_sim_update_counting(struct hisi_pcie_sim *sim);
void hisi_pcie_sim_count(struct hisi_pcie_sim *sim,
			 const struct hisi_pcie_tlp_stream *st);
int hisi_pcie_sim_inject(struct hisi_pcie_sim *sim, unsigned int idx,
			 unsigned int reg, u64 delta);

/* topology and traffic (sim_topo.c) */
int hisi_pcie_sim_find_ports(struct hisi_pcie_sim *sim);
int hisi_pcie_sim_net_bind(struct hisi_pcie_sim *sim);
void hisi_pcie_sim_net_unbind(struct hisi_pcie_sim *sim);
void hisi_pcie_sim_report(struct hisi_pcie_sim *sim);

/* the instance (sim.c) */
int hisi_pcie_sim_init(void);
void hisi_pcie_sim_exit(void);

#endif /* NETPMU_HISI_PCIE_SIM_H */
