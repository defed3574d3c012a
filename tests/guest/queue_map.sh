#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The queue/IRQ/PCI-function map on the guest kernel (Debian 6.1, no netdev
# netlink family): the same live checks as on this machine's own kernel.
exec "$(dirname "$0")/../unit/queue_map-live.sh"
