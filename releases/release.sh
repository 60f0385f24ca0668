# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
# releases/table for shell scripts. Source it, then:
#   release_list            the releases, oldest first, one a line
#   release_oldest, release_newest
#   release_field R FIELD   FIELD (debian suite abi pabi kernel qp_ex
#                           dmabuf group) of R;
#                           fails, saying so, for a release not in the table
#   release_plugin_suffix   -rdmav<pabi>.so of the plugins this tree builds
#   release_plugin_suffix_of R   the same for release R
#   release_of_suite SUITE  the release of Debian suite SUITE
#   release_of_system       the release of the running system's suite
#                           (/etc/os-release, or OS_RELEASE)
# RELEASE_TABLE may name another table (the scripts' own tests do).

: "${RELEASE_TABLE:=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/table}"

release_list()
{
	awk '/^[0-9]/ { print $1 }' "$RELEASE_TABLE"
}

release_oldest()
{
	release_list | head -n 1
}

release_newest()
{
	release_list | tail -n 1
}

release_field()
{
	local col

	case $2 in
	debian) col=2 ;;
	suite) col=3 ;;
	abi) col=4 ;;
	pabi) col=5 ;;
	kernel) col=6 ;;
	qp_ex) col=7 ;;
	dmabuf) col=8 ;;
	group) col=9 ;;
	*)
		echo "release_field: no column '$2' in $RELEASE_TABLE" >&2
		return 2
		;;
	esac
	awk -v r="$1" -v c="$col" '$1 == r { print $c; found = 1 }
		END { exit !found }' "$RELEASE_TABLE" && return 0
	echo "release_field: release '$1' is not in $RELEASE_TABLE" \
		"(it has: $(release_list | paste -sd' '))" >&2
	return 1
}

# The file name ending of the provider plugins this tree builds (the
# newest release's), and of release R's: -rdmav<pabi>.so.
release_plugin_suffix()
{
	release_plugin_suffix_of "$(release_newest)"
}

release_plugin_suffix_of()
{
	local pabi

	pabi=$(release_field "$1" pabi) || return 1
	echo "-rdmav$pabi.so"
}

release_of_suite()
{
	awk -v s="$1" '/^[0-9]/ && $3 == s { print $1; found = 1 }
		END { exit !found }' "$RELEASE_TABLE" && return 0
	echo "release_of_suite: no release of suite '$1' in $RELEASE_TABLE" >&2
	return 1
}

# The suite is VERSION_CODENAME of os-release(5).
release_of_system()
{
	local f=${OS_RELEASE:-/etc/os-release} suite

	suite=$(sed -n 's/^VERSION_CODENAME="\{0,1\}\([a-z]*\)"\{0,1\}$/\1/p' "$f" 2>/dev/null)
	if [ -z "$suite" ]; then
		echo "release_of_system: $f names no suite (VERSION_CODENAME)" >&2
		return 1
	fi
	release_of_suite "$suite"
}
