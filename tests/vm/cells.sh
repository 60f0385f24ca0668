# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The cells of the VM tier's differential checks, sourced by tests/vm/clients
# and tests/vm/verbs_diff.  A cell is "<core>/<providers>", each "deb"
# (Debian's) or "ours" (the build's):
#
#   deb/deb    Debian's libibverbs, Debian's rxe and siw providers
#   ours/deb   our libibverbs, Debian's providers
#   deb/ours   Debian's libibverbs, our providers
#   ours/ours  our libibverbs, our providers
#
# The core is chosen by LD_LIBRARY_PATH, the providers by the driver files
# /etc/libibverbs.d/rxe.driver and siw.driver, rewritten in place: the
# guest's root is a throw-away overlay.  Only those two change, so every
# other provider of the system stays as it is.  The callers set OURS (the
# build's library directory) and CELL_SAVE (a scratch directory), and
# call cell_save once before the first set_providers.

# The plugins' file endings, from releases/table: Debian's are those of
# the release of the root the job runs in (Debian 12's -rdmav34.so on the
# host, forky's -rdmav65.so in its root). Ours are built for every
# provider ABI; a core takes the one it looks for: Debian's its release's
# ending, ours the newest's first (our_sfx).
# shellcheck source=releases/release.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../releases/release.sh"
OUR_SFX=$(release_plugin_suffix)
DEB_RELEASE=$(release_of_system) || DEB_RELEASE=$(release_newest)
DEB_SFX=$(release_plugin_suffix_of "$DEB_RELEASE")

# our_sfx CELL: the ending of our plug-ins that CELL's core loads.
our_sfx()
{
	if [[ ${1%/*} == ours ]]; then
		echo "$OUR_SFX"
	else
		echo "$DEB_SFX"
	fi
}

CELL_CONF=/etc/libibverbs.d
DEB_LIBDIR=/usr/lib/x86_64-linux-gnu
DEB_PROVIDERS=$DEB_LIBDIR/libibverbs

# The file a path names, as /proc/PID/maps shows it.
real()
{
	readlink -f "$1"
}

cell_valid()
{
	case $1 in
	deb/deb | ours/deb | deb/ours | ours/ours) return 0 ;;
	esac
	return 1
}

cell_save()
{
	cp "$CELL_CONF/rxe.driver" "$CELL_SAVE/rxe.driver.orig" &&
		cp "$CELL_CONF/siw.driver" "$CELL_SAVE/siw.driver.orig"
}

# set_providers pristine|deb|ours: Debian's own driver files; Debian's
# providers named by path (our library, built for another prefix, finds
# them no other way); or our plug-ins named by path.
set_providers()
{
	local hw dir=$DEB_PROVIDERS
	[[ $1 == ours ]] && dir=$OURS
	for hw in rxe siw; do
		if [[ $1 == pristine ]]; then
			cp "$CELL_SAVE/$hw.driver.orig" "$CELL_CONF/$hw.driver"
		else
			echo "driver $dir/lib$hw" >"$CELL_CONF/$hw.driver"
		fi
	done
}

# cell_providers CELL: put the cell's providers in place.  deb/deb keeps
# Debian's files untouched: it is the reference of every comparison.
cell_providers()
{
	case $1 in
	deb/deb) set_providers pristine ;;
	*/deb) set_providers deb ;;
	*/ours) set_providers ours ;;
	esac
}

# cell_missing CELL: echo what the build lacks to run the cell.
cell_missing()
{
	local hw
	if [[ ${1%/*} == ours && ! -e $OURS/libibverbs.so.1 ]]; then
		echo "our library is not built ($OURS/libibverbs.so.1)"
		return 0
	fi
	if [[ ${1#*/} == ours ]]; then
		for hw in rxe siw; do
			[[ -e $OURS/lib$hw$(our_sfx "$1") ]] && continue
			echo "our $hw provider is not built ($OURS/lib$hw$(our_sfx "$1"))"
			return 0
		done
	fi
	cell_unloadable "$1"
}

# cell_unloadable CELL: echo why the cell's providers cannot load under
# its core, as the dynamic loader finds it: ldd -r binds every symbol,
# with the cell's core preloaded as it is when the core opens a plug-in
# (our plug-ins' RUNPATH would otherwise find our core). A core that
# lacks the provider ABI the plug-ins import (Debian's lib*-rdmav65.so
# under a core without IBVERBS_PRIVATE_65's commands) would otherwise
# show as clients finding no device, case after case.
cell_unloadable()
{
	local hw so core=$DEB_LIBDIR/libibverbs.so.1 out n
	[[ ${1%/*} == ours ]] && core=$OURS/libibverbs.so.1
	# A driver file names a plug-in without its ending: Debian's core
	# adds its own release's, for which we build ours too.
	for hw in rxe siw; do
		so=$DEB_PROVIDERS/lib$hw$DEB_SFX
		[[ ${1#*/} == ours ]] && so=$OURS/lib$hw$(our_sfx "$1")
		if [[ ! -e $so ]]; then
			echo "no $so"
			return 0
		fi
		out=$(env -u LD_LIBRARY_PATH LD_PRELOAD="$core" ldd -r "$so" 2>&1 |
			grep -E "undefined symbol|version .* not found")
		[[ -n $out ]] || continue
		n=$(grep -c . <<<"$out")
		out=$(head -n 1 <<<"$out" | sed -E 's/[[:space:]]*\(.*$//; s/^.*: (version)/\1/')
		echo "${so##*/} does not load under the ${1%/*} core ($n unresolved; $out)"
		return 0
	done
	return 1
}

cell_describe()
{
	echo "core $2, providers: $(cat "$CELL_CONF/rxe.driver"), $(cat "$CELL_CONF/siw.driver")"
}

# wrong_maps FILE CORE CELL DEVICE...: FILE is what the probe
# (maps_probe.c) logged for the processes of one run; echo why it is not
# the core CORE (a path) with the CELL's provider of each DEVICE, and
# nothing else of either name.
wrong_maps()
{
	local f=$1 core=$2 cell=$3 dev hw want path prov=$DEB_PROVIDERS
	shift 3
	[[ ${cell#*/} == ours ]] && prov=$(real "$OURS")
	[[ -s $f ]] || { echo "no process logged its mappings"; return 0; }
	core=$(real "$core")
	while read -r _ _ path; do
		[[ ${path##*/} == libibverbs.so* && $path != "$core" ]] &&
			{ echo "${path##*/} mapped from ${path%/*}"; return 0; }
	done <"$f"
	grep -q -F -x -- "$core" <(awk '{ print $3 }' "$f") ||
		{ echo "the core $core not mapped"; return 0; }
	for dev; do
		hw=${dev%%[0-9]*}
		want=$prov/lib$hw$DEB_SFX
		[[ ${cell#*/} == ours ]] && want=$prov/lib$hw$(our_sfx "$cell")
		while read -r _ _ path; do
			[[ ${path##*/} == lib$hw-rdmav*.so && $path != "$want" ]] &&
				{ echo "${path##*/} mapped from ${path%/*}"; return 0; }
		done <"$f"
		grep -q -F -x -- "$want" <(awk '{ print $3 }' "$f") ||
			{ echo "$want not mapped"; return 0; }
	done
	return 1
}

# cell_mapped FILE: the core and the rxe and siw plug-ins a probe log
# names, each once, on one line.
cell_mapped()
{
	awk '$3 ~ /libibverbs[.]so|lib(rxe|siw)-rdmav/ { print $3 }' "$1" |
		sort -u | tr '\n' ' '
}
