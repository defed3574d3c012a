# SPDX-License-Identifier: GPL-2.0
# Sourced by unit scripts after tap.sh.
# build_test_driver NAME: builds the C test driver .output/ARCH/tests/NAME
# (the Makefile's rule) as one weak check, and sets DRIVER to its path; when
# the build fails, says why and ends the script (its plan then fails it).
build_test_driver() {
	local arch err
	arch=$(uname -m)
	[ "$arch" = aarch64 ] && arch=arm64
	DRIVER=${OUTPUT:-$REPO/.output}/$arch/tests/$1
	kind weak 'a build succeeds or not'
	if ! err=$(make -C "$REPO" -s "$DRIVER" 2>&1); then
		fail "the test driver builds (make $DRIVER)" "$(echo "$err" | tail -n 5 | tr '\n' ' ')"
		exit 0
	fi
	pass "the test driver builds (make $DRIVER)"
}
