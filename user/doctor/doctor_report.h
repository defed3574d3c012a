/* SPDX-License-Identifier: GPL-2.0 */
/* netpmu doctor's output: the figures measured, the findings, and the checks that found nothing. */
#ifndef NETPMU_DOCTOR_REPORT_H
#define NETPMU_DOCTOR_REPORT_H

#include <stdio.h>

#include "doctor/doctor_rules.h"

/* Text: a line of what was measured, the per-queue table, each finding, then the clear checks. */
void doctor_report_text(FILE *out, const struct doctor_totals *t, const struct doctor_report *r);

/* One JSON object: "duration_s", "queues", "findings", "nothing_found". */
void doctor_report_json(FILE *out, const struct doctor_totals *t, const struct doctor_report *r);

#endif
