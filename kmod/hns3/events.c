// SPDX-License-Identifier: GPL-2.0
/*
 * The HNS3 PMU events (name, config, supported filter modes): the 110 of the
 * upstream ABI, then the func-intr pair the model adds (hardware publishes
 * exactly upstream's set). Pairs share config bits 0-15; bit 16 picks
 * EXT_COUNTER.
 */

#include <linux/kernel.h>

#include "pmu.h"

#define G		HNS3_PMU_FILTER_GLOBAL
#define G_FQ		(G | HNS3_PMU_FILTER_FUNC_QUEUE)
#define G_P_PT		(G | HNS3_PMU_FILTER_PORT | HNS3_PMU_FILTER_PORT_TC)
#define G_P_F		(G | HNS3_PMU_FILTER_PORT | HNS3_PMU_FILTER_FUNC)
#define G_P_PT_F	(G_P_PT | HNS3_PMU_FILTER_FUNC)
#define G_P_F_FQ	(G_P_F | HNS3_PMU_FILTER_FUNC_QUEUE)
#define G_P_PT_F_FQ	(G_P_PT_F | HNS3_PMU_FILTER_FUNC_QUEUE)
#define G_FI		(G | HNS3_PMU_FILTER_FUNC_INTR)

#define HNS3_PMU_EVENT(_name, _config, _modes) \
	{ .name = #_name, .config = _config, .filter_modes = _modes }
#define HNS3_PMU_MODEL_EVENT(_name, _config, _modes) \
	{ .name = #_name, .config = _config, .filter_modes = _modes, \
	  .model_only = true }

const struct hns3_pmu_event_desc hns3_pmu_events[] = {
	HNS3_PMU_EVENT(bw_ssu_egu_byte_num, 0x1, G_P_PT),
	HNS3_PMU_EVENT(bw_ssu_egu_time, 0x10001, G_P_PT),
	HNS3_PMU_EVENT(bw_ssu_rpu_byte_num, 0x2, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(bw_ssu_rpu_time, 0x10002, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(bw_ssu_roce_byte_num, 0x3, G_P_PT_F),
	HNS3_PMU_EVENT(bw_ssu_roce_time, 0x10003, G_P_PT_F),
	HNS3_PMU_EVENT(bw_roce_ssu_byte_num, 0x4, G_P_PT_F),
	HNS3_PMU_EVENT(bw_roce_ssu_time, 0x10004, G_P_PT_F),
	HNS3_PMU_EVENT(bw_tpu_ssu_byte_num, 0x5, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(bw_tpu_ssu_time, 0x10005, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(bw_rpu_rcbrx_byte_num, 0x6, G_FQ),
	HNS3_PMU_EVENT(bw_rpu_rcbrx_time, 0x10006, G_FQ),
	HNS3_PMU_EVENT(bw_rcbtx_txsch_byte_num, 0x8, G_FQ),
	HNS3_PMU_EVENT(bw_rcbtx_txsch_time, 0x10008, G_FQ),
	HNS3_PMU_EVENT(bw_wr_fbd_byte_num, 0x9, G_P_F_FQ),
	HNS3_PMU_EVENT(bw_wr_fbd_time, 0x10009, G_P_F_FQ),
	HNS3_PMU_EVENT(bw_wr_ebd_byte_num, 0xa, G_FQ),
	HNS3_PMU_EVENT(bw_wr_ebd_time, 0x1000a, G_FQ),
	HNS3_PMU_EVENT(bw_rd_fbd_byte_num, 0xb, G),
	HNS3_PMU_EVENT(bw_rd_fbd_time, 0x1000b, G),
	HNS3_PMU_EVENT(bw_rd_ebd_byte_num, 0xc, G_P_F_FQ),
	HNS3_PMU_EVENT(bw_rd_ebd_time, 0x1000c, G_P_F_FQ),
	HNS3_PMU_EVENT(bw_rd_pay_m0_byte_num, 0xd, G),
	HNS3_PMU_EVENT(bw_rd_pay_m0_time, 0x1000d, G),
	HNS3_PMU_EVENT(bw_rd_pay_m1_byte_num, 0xe, G),
	HNS3_PMU_EVENT(bw_rd_pay_m1_time, 0x1000e, G),
	HNS3_PMU_EVENT(bw_wr_pay_m0_byte_num, 0xf, G),
	HNS3_PMU_EVENT(bw_wr_pay_m0_time, 0x1000f, G),
	HNS3_PMU_EVENT(bw_wr_pay_m1_byte_num, 0x10, G),
	HNS3_PMU_EVENT(bw_wr_pay_m1_time, 0x10010, G),
	HNS3_PMU_EVENT(pps_igu_ssu_packet_num, 0x100, G_P_PT),
	HNS3_PMU_EVENT(pps_igu_ssu_time, 0x10100, G_P_PT),
	HNS3_PMU_EVENT(pps_ssu_egu_packet_num, 0x101, G_P_PT),
	HNS3_PMU_EVENT(pps_ssu_egu_time, 0x10101, G_P_PT),
	HNS3_PMU_EVENT(pps_ssu_rpu_packet_num, 0x102, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(pps_ssu_rpu_time, 0x10102, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(pps_ssu_roce_packet_num, 0x103, G_P_PT_F),
	HNS3_PMU_EVENT(pps_ssu_roce_time, 0x10103, G_P_PT_F),
	HNS3_PMU_EVENT(pps_roce_ssu_packet_num, 0x104, G_P_PT_F),
	HNS3_PMU_EVENT(pps_roce_ssu_time, 0x10104, G_P_PT_F),
	HNS3_PMU_EVENT(pps_tpu_ssu_packet_num, 0x105, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(pps_tpu_ssu_time, 0x10105, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(pps_rpu_rcbrx_packet_num, 0x106, G_FQ),
	HNS3_PMU_EVENT(pps_rpu_rcbrx_time, 0x10106, G_FQ),
	HNS3_PMU_EVENT(pps_rcbtx_tpu_packet_num, 0x107, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(pps_rcbtx_tpu_time, 0x10107, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(pps_rcbtx_txsch_packet_num, 0x108, G_FQ),
	HNS3_PMU_EVENT(pps_rcbtx_txsch_time, 0x10108, G_FQ),
	HNS3_PMU_EVENT(pps_wr_fbd_packet_num, 0x109, G_P_F_FQ),
	HNS3_PMU_EVENT(pps_wr_fbd_time, 0x10109, G_P_F_FQ),
	HNS3_PMU_EVENT(pps_wr_ebd_packet_num, 0x10a, G_FQ),
	HNS3_PMU_EVENT(pps_wr_ebd_time, 0x1010a, G_FQ),
	HNS3_PMU_EVENT(pps_rd_fbd_packet_num, 0x10b, G),
	HNS3_PMU_EVENT(pps_rd_fbd_time, 0x1010b, G),
	HNS3_PMU_EVENT(pps_rd_ebd_packet_num, 0x10c, G_P_F_FQ),
	HNS3_PMU_EVENT(pps_rd_ebd_time, 0x1010c, G_P_F_FQ),
	HNS3_PMU_EVENT(pps_rd_pay_m0_packet_num, 0x10d, G),
	HNS3_PMU_EVENT(pps_rd_pay_m0_time, 0x1010d, G),
	HNS3_PMU_EVENT(pps_rd_pay_m1_packet_num, 0x10e, G),
	HNS3_PMU_EVENT(pps_rd_pay_m1_time, 0x1010e, G),
	HNS3_PMU_EVENT(pps_wr_pay_m0_packet_num, 0x10f, G),
	HNS3_PMU_EVENT(pps_wr_pay_m0_time, 0x1010f, G),
	HNS3_PMU_EVENT(pps_wr_pay_m1_packet_num, 0x110, G),
	HNS3_PMU_EVENT(pps_wr_pay_m1_time, 0x10110, G),
	HNS3_PMU_EVENT(pps_intr_nicroh_tx_pre_packet_num, 0x111, G),
	HNS3_PMU_EVENT(pps_intr_nicroh_tx_pre_time, 0x10111, G),
	HNS3_PMU_EVENT(pps_intr_nicroh_rx_pre_packet_num, 0x112, G),
	HNS3_PMU_EVENT(pps_intr_nicroh_rx_pre_time, 0x10112, G),
	HNS3_PMU_EVENT(dly_tx_push_to_mac_time, 0x202, G),
	HNS3_PMU_EVENT(dly_tx_push_to_mac_packet_num, 0x10202, G),
	HNS3_PMU_EVENT(dly_tx_normal_to_mac_time, 0x204, G),
	HNS3_PMU_EVENT(dly_tx_normal_to_mac_packet_num, 0x10204, G),
	HNS3_PMU_EVENT(dly_ssu_tx_th_nic_time, 0x206, G_P_PT),
	HNS3_PMU_EVENT(dly_ssu_tx_th_nic_packet_num, 0x10206, G_P_PT),
	HNS3_PMU_EVENT(dly_ssu_tx_th_roce_time, 0x207, G_P_PT),
	HNS3_PMU_EVENT(dly_ssu_tx_th_roce_packet_num, 0x10207, G_P_PT),
	HNS3_PMU_EVENT(dly_ssu_rx_th_nic_time, 0x208, G_P_PT),
	HNS3_PMU_EVENT(dly_ssu_rx_th_nic_packet_num, 0x10208, G_P_PT),
	HNS3_PMU_EVENT(dly_ssu_rx_th_roce_time, 0x209, G_P_PT),
	HNS3_PMU_EVENT(dly_ssu_rx_th_roce_packet_num, 0x10209, G_P_PT),
	HNS3_PMU_EVENT(dly_rpu_time, 0x20e, G_FQ),
	HNS3_PMU_EVENT(dly_rpu_packet_num, 0x1020e, G_FQ),
	HNS3_PMU_EVENT(dly_tpu_time, 0x20f, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(dly_tpu_packet_num, 0x1020f, G_P_PT_F_FQ),
	HNS3_PMU_EVENT(dly_rpe_time, 0x210, G),
	HNS3_PMU_EVENT(dly_rpe_packet_num, 0x10210, G),
	HNS3_PMU_EVENT(dly_tpe_normal_time, 0x211, G_P_F),
	HNS3_PMU_EVENT(dly_tpe_normal_packet_num, 0x10211, G_P_F),
	HNS3_PMU_EVENT(dly_tpe_push_time, 0x212, G_P_F_FQ),
	HNS3_PMU_EVENT(dly_tpe_push_packet_num, 0x10212, G_P_F_FQ),
	HNS3_PMU_EVENT(dly_wr_fbd_time, 0x213, G_P_F_FQ),
	HNS3_PMU_EVENT(dly_wr_fbd_packet_num, 0x10213, G_P_F_FQ),
	HNS3_PMU_EVENT(dly_wr_ebd_time, 0x214, G_FQ),
	HNS3_PMU_EVENT(dly_wr_ebd_packet_num, 0x10214, G_FQ),
	HNS3_PMU_EVENT(dly_rd_fbd_time, 0x215, G),
	HNS3_PMU_EVENT(dly_rd_fbd_packet_num, 0x10215, G),
	HNS3_PMU_EVENT(dly_rd_ebd_time, 0x216, G_P_F_FQ),
	HNS3_PMU_EVENT(dly_rd_ebd_packet_num, 0x10216, G_P_F_FQ),
	HNS3_PMU_EVENT(dly_rd_pay_m0_time, 0x217, G),
	HNS3_PMU_EVENT(dly_rd_pay_m0_packet_num, 0x10217, G),
	HNS3_PMU_EVENT(dly_rd_pay_m1_time, 0x218, G),
	HNS3_PMU_EVENT(dly_rd_pay_m1_packet_num, 0x10218, G),
	HNS3_PMU_EVENT(dly_wr_pay_m0_time, 0x219, G),
	HNS3_PMU_EVENT(dly_wr_pay_m0_packet_num, 0x10219, G),
	HNS3_PMU_EVENT(dly_wr_pay_m1_time, 0x21a, G),
	HNS3_PMU_EVENT(dly_wr_pay_m1_packet_num, 0x1021a, G),
	HNS3_PMU_EVENT(dly_msix_write_time, 0x21c, G),
	HNS3_PMU_EVENT(dly_msix_write_packet_num, 0x1021c, G),
	HNS3_PMU_EVENT(pps_intr_msix_nic_intr_num, 0x300, G),
	HNS3_PMU_EVENT(pps_intr_msix_nic_time, 0x10300, G),
	/*
	 * Model extension: the documented func-intr example (config=0x00301,
	 * bdf=...,intr=N) names this pair; upstream publishes no func-intr
	 * event and no Hip09 has confirmed 0x301. It supports no port,
	 * port-tc, func or func-queue mode, so that bdf with intr (and queue,
	 * tc left at 0) selects func-intr.
	 */
	HNS3_PMU_MODEL_EVENT(pps_intr_msix_func_intr_num, 0x301, G_FI),
	HNS3_PMU_MODEL_EVENT(pps_intr_msix_func_time, 0x10301, G_FI),
};

const unsigned int hns3_pmu_nr_events = ARRAY_SIZE(hns3_pmu_events);

/* The event EVENT_ID of the PMU: model-only events exist on models only. */
const struct hns3_pmu_event_desc *hns3_pmu_find_event(struct hns3_pmu *hns3_pmu,
						      u32 event_id)
{
	unsigned int i;

	for (i = 0; i < hns3_pmu_nr_events; i++) {
		const struct hns3_pmu_event_desc *desc = &hns3_pmu_events[i];

		if (desc->config == event_id &&
		    (hns3_pmu->uc.model || !desc->model_only))
			return desc;
	}
	return NULL;
}
