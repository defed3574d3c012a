# SPDX-License-Identifier: GPL-2.0
# The dependency graph of object files, for the no-cycle checks of the
# module's and the loader's objects.

# object_symbols OBJECT NAME: one line per symbol OBJECT defines or uses,
# "NAME D SYMBOL" or "NAME U SYMBOL" (the input of object_cycles).
object_symbols() {
	nm "$1" | awk -v o="$2" '
		$1 == "U" { print o, "U", $2; next }
		NF == 3 && $2 ~ /^[A-TV-Z]$/ { print o, "D", $3 }'
}

# object_cycles SYMS: one line per cycle between the objects of SYMS.
object_cycles() {
	python3 "$REPO/tests/lib/object_cycles.py" "$1"
}
