/* SPDX-License-Identifier: GPL-2.0 */
/* Printing record views as text lines or JSON lines. */
#ifndef NETPMU_RECORD_OUTPUT_H
#define NETPMU_RECORD_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record_view.h"

/* COUNTER_NAMES[i] names counter i (the event string as given). */
void record_print_text(FILE *out, const struct record_view *v, const char *const *counter_names);
void record_print_json(FILE *out, const struct record_view *v, const char *const *counter_names);

#endif
