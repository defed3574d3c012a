// SPDX-License-Identifier: GPL-2.0
/* netpmu trace's --where, --by and --hist arguments. */
#include <stdint.h>

#include "trace/record_query.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), why[512];
	struct record_filter filter;
	struct record_groups *groups;

	record_filter_parse(s, &filter, why, sizeof(why));
	groups = record_groups_new(s, why, sizeof(why));
	record_groups_free(groups);
	record_hist_free(record_hist_new(s, why, sizeof(why)));
	free(s);
	return 0;
}
