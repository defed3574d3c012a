# SPDX-License-Identifier: GPL-2.0
# stamp_tenths: netpmu stat -I prints, as perf does, the measured time of
# each read, at or after its multiple of -I and late by far less than an
# interval; cut to the tenth of a second (with -I a multiple of 100 ms), it
# is that multiple. Filters the leading time stamp of plain and CSV lines
# and the "interval" of JSON lines, padding kept.
stamp_tenths() {
	sed -E 's/^( *)([0-9]+\.[0-9])[0-9]{8}/\1\2/; s/("interval" : [0-9]+\.[0-9])[0-9]{8}/\1/'
}
