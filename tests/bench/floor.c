// SPDX-License-Identifier: GPL-2.0
/*
 * Loads and attaches every program of a BPF object (make bench's floor,
 * tests/bench/floor.bpf.c), says so, and holds them until SIGINT or SIGTERM.
 *   floor OBJECT
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <bpf/libbpf.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_link *links[16];
	unsigned int nr = 0, i;
	int ret = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: floor OBJECT\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "floor: cannot open %s\n", argv[1]);
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "floor: cannot load %s\n", argv[1]);
		goto out_close;
	}
	bpf_object__for_each_program(prog, obj) {
		if (nr == sizeof(links) / sizeof(links[0])) {
			fprintf(stderr, "floor: more than %u programs\n", nr);
			goto out_detach;
		}
		links[nr] = bpf_program__attach(prog);
		if (!links[nr]) {
			fprintf(stderr, "floor: cannot attach %s\n", bpf_program__name(prog));
			goto out_detach;
		}
		nr++;
	}
	printf("floor: attached %u programs\n", nr);
	fflush(stdout);
	/* sleep(), not pause(): a signal just before it would be waited for forever. */
	while (!stop)
		sleep(1);
	ret = 0;
out_detach:
	for (i = 0; i < nr; i++)
		bpf_link__destroy(links[i]);
out_close:
	bpf_object__close(obj);
	return ret;
}
