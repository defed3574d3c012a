// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu serve's --web-config file, with the certificate and key it names
 * read from the fixture folder tests/fuzz/run makes ($NETPMU_FUZZ_TREES/web:
 * tls.crt, tls.key). Users are checked against their hashes when the first
 * hash has bcrypt's least cost, 04: a higher cost would turn an input into
 * seconds of bcrypt.
 */
#include <stdint.h>

#include "serve/web_config.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *base_dir;
	struct web_config wc;
	char why[512];

	if (!base_dir)
		base_dir = fuzz_tree("web");
	if (web_config_parse("fuzz.yml", (const char *)data, size, base_dir, &wc, why,
			     sizeof(why))) {
		if (strncmp(why, "fuzz.yml:", 9))
			abort();
		return 0;
	}
	if ((wc.cert_pem && !wc.key_pem) || (!wc.cert_pem && wc.key_pem))
		abort();
	if (wc.nr_users && !strncmp(wc.users[0].bcrypt_hash + 4, "04$", 3)) {
		/* A user's hash is no password of it; nor is an unknown user ever let in. */
		if (web_config_check_user(&wc, wc.users[0].name, wc.users[0].bcrypt_hash) ||
		    web_config_check_user(&wc, "", ""))
			abort();
	}
	web_config_free(&wc);
	return 0;
}
