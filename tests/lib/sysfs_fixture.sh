# SPDX-License-Identifier: GPL-2.0
# Unit tests against a fixture sysfs tree (tests/fixtures/make-sysfs-tree).
# Source after tap.sh.

# fixture_tree [MAKE-SYSFS-TREE OPTION...]: sets $tmp (a folder removed at
# exit, readable by others for tests that drop privileges) and $root (the
# tree inside it); prints one "not ok" line and exits when the loader is not
# built or the tree cannot be made.
fixture_tree() {
	local gen
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	trap 'rm -rf "$tmp"' EXIT
	if [ ! -x "$NETPMU" ]; then
		fail "netpmu binary exists" "$NETPMU is missing (run: make netpmu)"
		exit 0
	fi
	root=$tmp/sys
	if ! gen=$("$REPO/tests/fixtures/make-sysfs-tree" "$@" "$root" 2>&1); then
		fail "fixture sysfs tree built from the ABI tables" "$gen"
		exit 0
	fi
}
