# SPDX-License-Identifier: GPL-2.0
# Packages (debian/) and the release tarball. `make deb` builds
# netpmu_VERSION_ARCH.deb for each of DEB_ARCHES (the loader, its unit, config
# and man pages) and netpmu-dkms_VERSION_all.deb (the module's source for DKMS)
# into $(OUTPUT)/deb/, from a copy of the checkout's files (tracked and new),
# so that the build leaves nothing in the tree. `make dist` writes
# $(OUTPUT)/dist/netpmu-VERSION.tar.gz: the tracked files and a VERSION file.

# The one version, a Debian one (it begins with a digit): a release tarball's
# VERSION file; else from git: tag vX.Y gives X.Y, N commits after it
# X.Y+N.gHASH; no tag, 0~N.gHASH (N: commits so far); +dirty with uncommitted
# changes. It is the loader's NETPMU_VERSION (netpmu --version, read where
# the Makefile's CFLAGS and version.stamp are expanded, after this), the
# packages' version and the DKMS module's.
ifneq ($(wildcard VERSION),)
PKG_VERSION := $(shell cat VERSION)
else
PKG_VERSION := $(shell { git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null || \
	echo "0~$$(git rev-list --count HEAD 2>/dev/null || echo 0)-g$$(git describe --always --dirty 2>/dev/null || echo unknown)"; } | \
	sed -E 's/^v//; s/-([0-9]+)-g/+\1.g/; s/^0~([0-9]+)-g/0~\1.g/; s/-dirty$$/+dirty/')
endif
NETPMU_VERSION := $(PKG_VERSION)
DEB_ARCHES ?= $(patsubst x86_64,amd64,$(HOST_ARCH)) $(filter-out $(patsubst x86_64,amd64,$(HOST_ARCH)),amd64 arm64)
DEB_OUT := $(OUTPUT)/deb
DEB_SRC := $(DEB_OUT)/src/netpmu-$(PKG_VERSION)
DEB_HOST := $(shell dpkg --print-architecture 2>/dev/null)

.PHONY: deb deb-version dist
deb-version:
	@echo $(PKG_VERSION)

# The first architecture builds both packages; others the loader only
# (-B), cross-built with the build dependencies of this machine (-d: the
# cross toolchain and :arm64 libraries of scripts/install-deps).
deb:
	$(Q)rm -rf $(DEB_OUT) && mkdir -p $(DEB_SRC)
	$(Q)git ls-files -z -c -o --exclude-standard | xargs -0 cp -a --parents -t $(DEB_SRC)
	$(Q)printf '%s\n' 'netpmu ($(PKG_VERSION)) unstable; urgency=medium' '' \
		'  * Built from git by make deb.' '' \
		" -- $$(sed -n 's/^Maintainer: //p' debian/control)  $$(date -R)" > $(DEB_SRC)/debian/changelog
	$(Q)for a in $(DEB_ARCHES); do \
		if [ $$a = $(DEB_HOST) ]; then opts=-b; else opts="-B -d -a $$a"; fi; \
		$(if $(filter 1,$(V)),,printf '  %-8s %s\n' DEB "netpmu $(PKG_VERSION) $$a";) \
		(cd $(DEB_SRC) && dpkg-buildpackage $$opts -us -uc) \
			$(if $(filter 1,$(V)),,>$(DEB_OUT)/build-$$a.log 2>&1 || { tail -30 $(DEB_OUT)/build-$$a.log; exit 1; }) || exit 1; \
		(cd $(DEB_SRC) && debian/rules clean >/dev/null); \
	done
	$(Q)mv $(DEB_OUT)/src/*.deb $(DEB_OUT)/

DIST_DIR := $(OUTPUT)/dist/netpmu-$(PKG_VERSION)
dist:
	$(msg) DIST $(OUTPUT)/dist/netpmu-$(PKG_VERSION).tar.gz
	$(Q)rm -rf $(OUTPUT)/dist && mkdir -p $(DIST_DIR)
	$(Q)git ls-files -z -c | xargs -0 cp -a --parents -t $(DIST_DIR)
	$(Q)echo '$(PKG_VERSION)' > $(DIST_DIR)/VERSION
	$(Q)tar -C $(OUTPUT)/dist --owner=0 --group=0 -czf $(DIST_DIR).tar.gz netpmu-$(PKG_VERSION)
	$(Q)rm -rf $(DIST_DIR)

# `make rpm`: from the dist tarball, rpmbuild (Debian's rpm) builds netpmu for
# each of RPM_TARGETS and netpmu-dkms (noarch) into $(OUTPUT)/rpm/RPMS/.
# --nodeps: the BuildRequires name RPM distributions' packages, which this
# Debian machine has as .debs (scripts/install-deps).
RPM_TARGETS ?= x86_64 aarch64
RPM_OUT := $(OUTPUT)/rpm
.PHONY: rpm
rpm: dist
	$(Q)rm -rf $(RPM_OUT) && mkdir -p $(RPM_OUT)/SOURCES
	$(Q)cp $(OUTPUT)/dist/netpmu-$(PKG_VERSION).tar.gz $(RPM_OUT)/SOURCES/
	$(Q)for t in $(RPM_TARGETS); do \
		$(if $(filter 1,$(V)),,printf '  %-8s %s\n' RPM "netpmu $(PKG_VERSION) $$t";) \
		rpmbuild --define '_topdir $(RPM_OUT)' --define 'netpmu_version $(PKG_VERSION)' \
			--target $$t --nodeps -bb rpm/netpmu.spec \
			$(if $(filter 1,$(V)),,>$(RPM_OUT)/build-$$t.log 2>&1 || { tail -30 $(RPM_OUT)/build-$$t.log; exit 1; }) || exit 1; \
	done
