#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make dist (issue 15): the tarball holds the tracked files and VERSION, and
# unpacked where there is no git it builds a loader whose --version is the
# version make deb gives the packages. Builds the loader for this machine's
# arch only (ARCHES), in a temporary folder.
. "$(dirname "$0")/../lib/tap.sh"
plan 4
kind exact

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
ver=$(make -s -C "$REPO" deb-version)
tarball=$out/dist/netpmu-$ver.tar.gz

TAP_KIND="weak: an exit status; the tarball is checked below" \
	check_cmd "make dist" make -s -C "$REPO" OUTPUT="$out" dist
check_eq "the tarball holds the tracked files and VERSION, under netpmu-$ver/" \
	"$(cd "$REPO" && { git ls-files -c; echo VERSION; } | sed "s|^|netpmu-$ver/|" | sort)" \
	"$(tar -tzf "$tarball" 2>&1 | grep -v '/$' | sort)"
tar -C "$tmp" -xzf "$tarball"
host=$(uname -m)
[ "$host" = aarch64 ] && host=arm64
TAP_KIND="weak: an exit status; the loader's version is checked below" \
	check_cmd "the unpacked tarball builds the loader without git" \
	env GIT_CEILING_DIRECTORIES="$tmp" make -s -C "$tmp/netpmu-$ver" ARCHES="$host" OUTPUT="$tmp/build" netpmu
check_eq "its netpmu --version is the packages' version" "netpmu $ver" \
	"$("$tmp/build/$host/netpmu" --version 2>&1)"
