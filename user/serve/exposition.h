/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The store rendered for a scrape: Prometheus' text format 0.0.4, or
 * OpenMetrics 1.0.0 when the scraper's Accept header asks for it.
 */
#ifndef NETPMU_EXPOSITION_H
#define NETPMU_EXPOSITION_H

#include <stdbool.h>
#include <stddef.h>

#include "serve/metric_store.h"

#define EXPOSITION_TEXT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define EXPOSITION_OPENMETRICS_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* True when ACCEPT (NULL: none) asks for OpenMetrics. */
bool exposition_wants_openmetrics(const char *accept);

/* Renders ST into a malloc'ed buffer *OUT of *LEN bytes. 0, or -ENOMEM. */
int exposition_render(struct metric_store *st, bool openmetrics, char **out, size_t *len);

#endif
