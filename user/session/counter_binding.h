/* SPDX-License-Identifier: GPL-2.0 */
/* What a counter measures, so that the kernel can join it with a NIC queue. */
#ifndef NETPMU_COUNTER_BINDING_H
#define NETPMU_COUNTER_BINDING_H

#include "event/parsed_event.h"
#include "netpmu_records.h"

struct queue_map;

/*
 * Works out EV's binding: an HNS3 func-queue event binds to that queue of
 * that function, a func event to the function, a func-intr event to the
 * interrupt's IRQ, a PCIe event filtered on an endpoint's bdf to that
 * function; anything else (global, port, port-tc, a PCIe port bitmap) is
 * unbound. EV's PMU must be the one it was parsed against (event_parse.h).
 */
void counter_binding_derive(const struct parsed_event *ev, const char *sysfs_root,
			    const struct queue_map *queues, struct netpmu_counter_binding *binding);

#endif
