# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
# A private apt configuration: apt-get and apt-cache run with
# APT_CONFIG=DIR/apt.conf see only the sources given here, keep their
# lists and downloads under DIR, and take DIR/status as the installed
# packages, so nothing of the host's apt state is read or written.
# An expired Release file is accepted (see below).
# Sourced by the tests that write archives of their own.

# apt_private DIR SOURCES-LINE...: writes DIR/apt.conf and the tree it
# names (DIR/status starts empty) and brings its lists up to date; on
# failure prints apt's words and returns 1.
apt_private()
{
	local d=$1
	shift
	mkdir -p "$d/state/lists/partial" "$d/cache/archives/partial" \
		"$d/etc/sources.list.d" "$d/etc/apt.conf.d" "$d/etc/preferences.d"
	printf '%s\n' "$@" >"$d/etc/sources.list"
	: >"$d/status"
	{
		echo "Dir::Etc \"$d/etc\";"
		echo "Dir::Etc::SourceList \"$d/etc/sources.list\";"
		echo "Dir::Etc::SourceParts \"$d/etc/sources.list.d\";"
		echo "Dir::Etc::Parts \"$d/etc/apt.conf.d\";"
		echo "Dir::State \"$d/state\";"
		echo "Dir::State::status \"$d/status\";"
		echo "Dir::Cache \"$d/cache\";"
		echo 'APT::Architecture "amd64";'
		echo 'APT::Architectures { "amd64"; };'
		echo 'Acquire::Languages "none";'
		# A suite's Release file carries a Valid-Until date, and the
		# archive we are given may be a copy that outlived it (forky's
		# did). Its signature is still checked; the date only guards
		# against a stale mirror, and the tests pin the versions they
		# take anyway.
		echo 'Acquire::Check-Valid-Until "false";'
		# As root apt hands downloads to _apt, which cannot write here.
		((EUID == 0)) && echo 'APT::Sandbox::User "root";'
	} >"$d/apt.conf"
	APT_CONFIG=$d/apt.conf apt-get -q update >"$d/update.log" 2>&1 && return 0
	cat "$d/update.log"
	echo "apt_private: apt-get update failed for $*"
	return 1
}
