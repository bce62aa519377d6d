# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# run_vmtests_retried CATS ATTEMPTS: run the upstream run_vmtests.sh of the
# current directory for the categories CATS, then run each test that
# failed again alone, in the same way run_vmtests.sh runs it, until it
# passes or has run ATTEMPTS times in all. Prints run_vmtests.sh's TAP with
# every failed attempt (its output and its result line) prefixed with
# RETRY_TAG, which scripts/ktap.py lists as RETRIED and does not count, and
# the last attempt's result under the test's own number. Returns 1 if a
# test failed its last attempt, else run_vmtests.sh's exit code (4 when a
# test skipped), 0 when it failed only in attempts that were retried.
# A retry costs the one test's time, not its category's: the ksm
# category's first run takes about 7 minutes under TCG.
RETRY_TAG='# [first attempt failed, retried] '

# the command run_vmtests.sh ran for the test it names NAME (pretty_name():
# "./" or "bash ./" taken off)
vmtests_command() {
	local first=${1%% *}
	if [[ $first == *.sh ]]; then
		echo "bash ./$1"
	else
		echo "./$1"
	fi
}

# vmtests_retry NUM NAME ATTEMPTS: the test's next attempts; prints the TAP
# of each (the failed ones tagged), returns 0 if the last one passed or
# skipped
vmtests_retry() {
	local num=$1 name=$2 attempts=$3 a cmd out rc res
	cmd=$(vmtests_command "$name")
	for ((a = 2; a <= attempts; a++)); do
		# as run_test() before each test of these two categories
		if [[ $name == khugepaged* || $name == transhuge-stress* || $name == split_huge_page_test* ]]; then
			echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
			echo 1 >/proc/sys/vm/compact_memory 2>/dev/null
		fi
		# word splitting of $cmd is what run_vmtests.sh's "$@" had
		# shellcheck disable=SC2086
		out=$(printf -- '--- attempt %d of %s alone ---\n' "$a" "$name"; $cmd 2>&1)
		rc=$?
		case $rc in
		0) res="ok $num $name # attempt $a alone" ;;
		4) res="ok $num $name # SKIP attempt $a alone" ;;
		*) res="not ok $num $name # exit=$rc, attempt $a alone" ;;
		esac
		if [ $rc = 0 ] || [ $rc = 4 ] || [ "$a" -ge "$attempts" ]; then
			printf '%s\n' "$out" | sed 's/^/# /'
			echo "$res"
			[ $rc = 0 ] || [ $rc = 4 ]
			return
		fi
		{ printf '%s\n' "$out" | sed 's/^/# /'; echo "$res"; } | sed "s/^/$RETRY_TAG/"
	done
	return 1
}

run_vmtests_retried() {
	local cats=$1 attempts=$2 out rc line failed=0
	local -a block=()
	out=$(./run_vmtests.sh -t "$cats" 2>&1)
	rc=$?
	while IFS= read -r line; do
		if [[ $line =~ ^not\ ok\ ([0-9]+)\ (.*)\ \#\ exit=[0-9]+$ ]] && [ "$attempts" -gt 1 ]; then
			# the test's whole block: its kselftest subtests are
			# results too
			printf '%s\n' "${block[@]}" "$line" | sed "s/^/$RETRY_TAG/"
			vmtests_retry "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "$attempts" || failed=1
			block=()
		elif [[ $line =~ ^(not\ )?ok\ [0-9]+ ]]; then
			[[ $line == not* ]] && failed=1
			printf '%s\n' "${block[@]}" "$line"
			block=()
		else
			block+=("$line")
		fi
	done <<<"$out"
	[ ${#block[@]} = 0 ] || printf '%s\n' "${block[@]}"
	if [ $failed = 1 ]; then
		return 1
	elif [ $rc = 4 ]; then
		return 4
	fi
	# run_vmtests.sh exits 4 (KSFT_SKIP) when a test skipped, also when
	# an earlier one failed (a later skip overwrites its exit code)
	grep -q '^ok [0-9]* .*# SKIP' <<<"$out" && return 4
	return 0
}
