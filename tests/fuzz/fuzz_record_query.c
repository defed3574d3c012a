// SPDX-License-Identifier: GPL-2.0
/* netpmu trace's --by argument. */
#include <stdint.h>

#include "trace/record_groups.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), why[512];

	record_groups_free(record_groups_new(s, why, sizeof(why)));
	free(s);
	return 0;
}
