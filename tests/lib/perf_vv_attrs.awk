# SPDX-License-Identifier: GPL-2.0
# awk -f perf_vv_attrs.awk: perf stat -vv's stderr in, one line out per
# attr perf tried to open, in order:
#   type=T config=C config1=C1 config2=C2 cpu=N fd=FD
# FD is the descriptor perf got, or "failed". A config word perf leaves out
# of its dump is 0.
/^perf_event_attr:/ { inside = 1; t = "?"; c = "0"; c1 = "0"; c2 = "0"; next }
inside && /^  type / { t = $2 }
inside && /^  config / { c = $2 }
inside && /config1 }/ { c1 = $NF }
inside && /config2 }/ { c2 = $NF }
inside && /^sys_perf_event_open: / {
	printf "type=%s config=%s config1=%s config2=%s cpu=%s fd=%s\n", t, c, c1, c2, $5, / = [0-9]+$/ ? $NF : "failed"
	inside = 0
}
