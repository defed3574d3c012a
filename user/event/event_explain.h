/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu stat --explain: for each event, what the driver will count: the
 * event and its pair, the filter mode the string selects and by which of the
 * driver's rules, the target, the register values, and the derived metric;
 * or why netpmu refuses it.
 */
#ifndef NETPMU_EVENT_EXPLAIN_H
#define NETPMU_EVENT_EXPLAIN_H

#include <stdio.h>

#include "event/parsed_event.h"

/* Prints the explanation of every event of LIST. Returns the number refused. */
unsigned int event_explain_print(FILE *out, struct event_list *list,
				 const struct event_parse_ctx *ctx);

#endif
