#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make rpm (issue 15): rpmbuild makes netpmu for x86_64 and aarch64 and
# netpmu-dkms, each with the files and scriptlets rpm/netpmu.spec means.
# Builds into a temporary OUTPUT; installs nothing.
. "$(dirname "$0")/../lib/tap.sh"
plan 9
kind exact

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v rpmbuild >/dev/null; then
	skip_checks 9 "make rpm" "no rpmbuild (scripts/install-deps installs rpm)"
	exit 0
fi
ver=$(make -s -C "$REPO" deb-version)
rpms=$tmp/out/rpm/RPMS
x86=$rpms/x86_64/netpmu-$ver-1.x86_64.rpm
arm=$rpms/aarch64/netpmu-$ver-1.aarch64.rpm
dkms=$rpms/noarch/netpmu-dkms-$ver-1.noarch.rpm

TAP_KIND="weak: an exit status; the packages are checked below" \
	check_cmd "make rpm" make -s -C "$REPO" OUTPUT="$tmp/out" rpm
check_eq "the three packages, named and versioned" \
	"netpmu $ver x86_64|netpmu $ver aarch64|netpmu-dkms $ver noarch|" \
	"$(for r in "$x86" "$arm" "$dkms"; do rpm -qp --qf '%{NAME} %{VERSION} %{ARCH}|' "$r" 2>&1; done)"
check_eq "the aarch64 package's loader is an aarch64 program" "ARM aarch64" \
	"$(rpm2cpio "$arm" | cpio -i --quiet --to-stdout ./usr/sbin/netpmu | file -b - | grep -oE 'ARM aarch64')"

loader_files="/etc/netpmu
/etc/netpmu/serve.yml
/usr/lib/systemd/system/netpmu.service
/usr/sbin/netpmu
/usr/sbin/netpmu-serve
/usr/share/bash-completion/completions/netpmu
/usr/share/licenses/netpmu-$ver
/usr/share/licenses/netpmu-$ver/LICENSE
$(cd "$REPO/man" && ls *.8 | sed 's|^|/usr/share/man/man8/|')"
for r in "$x86" "$arm"; do
	check_eq "$(basename "$r") holds the loader, unit, config, completion and man pages" \
		"$(sort <<<"$loader_files")" "$(rpm -qlp "$r" 2>&1 | grep -v '^/usr/lib/.build-id' | sort)"
done
src=/usr/src/netpmu-$ver
check_eq "netpmu-dkms holds kmod/'s sources and Kbuild with dkms.conf and VERSION under $src" \
	"$( { cd "$REPO/kmod" && find . -name '*.[ch]' -o -name Kbuild -o -type d; echo ./dkms.conf; echo ./VERSION; } |
		sed "s|^\.|$src|" | sort)" \
	"$(rpm -qlp "$dkms" 2>&1 | grep "^$src" | sort)"
check_eq "its dkms.conf and the module's VERSION are version $ver" "PACKAGE_VERSION=\"$ver\" $ver" \
	"$(rpm2cpio "$dkms" | cpio -i --quiet --to-stdout ".$src/dkms.conf" | grep '^PACKAGE_VERSION=') $(
		rpm2cpio "$dkms" | cpio -i --quiet --to-stdout ".$src/VERSION")"
check_eq "its scriptlets add the module to DKMS and remove it on erase" \
	"dkms add -m netpmu -v $ver --rpm_safe_upgrade|dkms remove -m netpmu -v $ver --all --rpm_safe_upgrade || :|" \
	"$(rpm -qp --scripts "$dkms" | grep -E '^dkms (add|remove)' | tr '\n' '|')"
check_eq "the loader's scriptlets neither enable nor start the unit" "" \
	"$(rpm -qp --scripts "$x86" | grep -E 'systemctl.*(enable|start)' | grep -v 'disable --now')"
