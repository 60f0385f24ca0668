# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Counting with callgrind, for the benches that count rather than time
# (providers-wrcount, verbs-count), sourced by them. The program under
# count calls each counted verb from a function of its own; callgrind
# collects only inside those functions, and the cost of one call is the
# function's inclusive cost divided by its calls.

# cg_count BASE TOGGLE CMD...: run CMD under callgrind, collecting only
# inside the functions that match TOGGLE (valgrind's --toggle-collect),
# with system calls counted; leaves BASE.out and BASE.err (CMD's),
# BASE.cg (callgrind's) and BASE.annotate (inclusive costs of every
# function). Returns CMD's status, or 1 if the annotation failed.
cg_count()
{
	local base=$1 toggle=$2 rc
	shift 2
	timeout 600 valgrind --tool=callgrind --collect-atstart=no \
		--toggle-collect="$toggle" --collect-systime=yes \
		--callgrind-out-file="$base.cg" "$@" >"$base.out" 2>"$base.err"
	rc=$?
	((rc == 0)) || return "$rc"
	callgrind_annotate --inclusive=yes --threshold=100 "$base.cg" \
		>"$base.annotate" 2>&1
}

# cg_costs ANNOTATE PREFIX: "function Ir sysCount" for every function
# whose name begins with PREFIX, one pass over the file (a function
# without system calls shows "." in callgrind_annotate: 0).
cg_costs()
{
	awk -v pre="$2" '
		{
			for (i = 1; i <= NF; i++) {
				if (!index($i, ":" pre))
					continue
				fn = $i
				sub(/.*:/, "", fn)
				if (index(fn, pre) != 1 || fn in seen)
					break
				seen[fn] = 1
				line = $0
				gsub(/\([^)]*\)/, "", line)
				split(line, f, " ")
				gsub(",", "", f[1])
				gsub(",", "", f[2])
				print fn, f[1], (f[2] ~ /^[0-9]+$/) ? f[2] : 0
				break
			}
		}' "$1"
}

# cg_cost ANNOTATE FN: the inclusive "Ir sysCount" of function FN.
cg_cost()
{
	cg_costs "$1" "$2" | awk -v fn="$2" '$1 == fn { print $2, $3; exit }'
}

# cg_show ANNOTATE N: the first N lines of the profile, headers left out.
cg_show()
{
	grep -v -E '^(-|$)' "$1" | head -n "$2"
}

# cg_whole BASE CMD...: run CMD under callgrind from its first instruction
# to its exit, its children not followed; leaves BASE.out and BASE.err
# (CMD's) and BASE.cg (callgrind's), and prints the instructions of the
# whole process. Returns CMD's status, or 1 without a total.
cg_whole()
{
	local base=$1 rc
	shift
	timeout 600 valgrind --tool=callgrind --trace-children=no \
		--callgrind-out-file="$base.cg" "$@" >"$base.out" 2>"$base.err"
	rc=$?
	((rc == 0)) || return "$rc"
	awk '$1 == "summary:" || $1 == "totals:" { print $2; found = 1; exit }
		END { exit !found }' "$base.cg"
}
