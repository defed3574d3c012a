# SPDX-License-Identifier: GPL-2.0
# Sourced by the serve tests. A constant label from serve's config that has
# the name of a label serve emits itself would give a series that label twice,
# which Prometheus refuses: the label names of a real scrape are the truth of
# what serve must refuse.

# scrape_label_names FILE: the label names of the samples in a text-format
# scrape, sorted, one a line.
scrape_label_names() {
	grep -v '^#' "$1" | grep -oE '[{,][a-zA-Z_][a-zA-Z0-9_]*="' | tr -d '{,="' | sort -u
}

# labels_not_refused FILE DIR: the label names of scrape FILE that
# `netpmu serve --config` accepts as constant labels (a config in DIR each);
# nothing when serve refuses them all, as it must, with status 2.
labels_not_refused() {
	local name rc
	for name in $(scrape_label_names "$1"); do
		printf 'labels: {%s: x}\n' "$name" >"$2/label-$name.yaml"
		"$NETPMU" serve --config "$2/label-$name.yaml" --listen 127.0.0.1:1 -d 0.01 \
			>/dev/null 2>"$2/label-$name.err"
		rc=$?
		[ $rc = 2 ] && grep -q "label name '$name' is one of netpmu's own labels" "$2/label-$name.err" ||
			echo "$name(status $rc)"
	done
}
