# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# run_vmtests_retried CATS ATTEMPTS: run the upstream run_vmtests.sh of the
# current directory for the categories CATS, then run each test that
# failed again alone, as run_vmtests.sh ran it, until it passes or has run
# ATTEMPTS times in all. Prints run_vmtests.sh's TAP with every failed
# attempt (its output and its result line) prefixed with RETRY_TAG, which
# scripts/ktap.py lists as RETRIED and does not count, and the last
# attempt's result under the test's own number. A test that skips after
# a failed attempt counts as failed. Returns 1 if a test failed its last
# attempt, 4 if a test skipped, 0 otherwise. When run_vmtests.sh ended in
# another way (a set-up that failed, a signal: an exit code other than 0,
# 1 or 4, or 1 with no failed test listed), one failed result more, and
# its exit code.
# A retry costs the one test's time, not its category's: the ksm
# category's first run takes about 7 minutes under TCG.
# VMTESTS_RAW: a file that gets the output of run_vmtests.sh and of each
# retry as it comes (appended), so that a run that run.sh's timeout kills
# leaves what it printed (the TAP above is printed only at the end). The
# output of the test that was running may be missing from it (run_test()
# pipes each test through sed, which buffers), but its title is there.
RETRY_TAG='# [first attempt failed, retried] '

# vmtests_command NAME: the command run_vmtests.sh ran for the test it
# names NAME (pretty_name() takes "./" or "bash ./" off), if it can be
# run again from here: the first word a file of this directory
vmtests_command() {
	local first=${1%% *}
	[ -f "./$first" ] || return 1
	if [[ $first == *.sh ]]; then
		echo "bash ./$1"
	else
		echo "./$1"
	fi
}

# vmtests_retry NUM NAME ATTEMPTS: the test's next attempts; prints the TAP
# of each (the failed ones tagged), returns 0 if the last one passed
vmtests_retry() {
	local num=$1 name=$2 attempts=$3 a cmd out rc res
	cmd=$(vmtests_command "$name") || return 1
	for ((a = 2; a <= attempts; a++)); do
		# word splitting of $cmd is what run_vmtests.sh's "$@" had;
		# no stdin: the caller reads the TAP from it
		# shellcheck disable=SC2086
		out=$({ printf -- '--- attempt %d of %s alone ---\n' "$a" "$name"
			$cmd 2>&1 </dev/null 3<&-; } | tee -a "${VMTESTS_RAW:-/dev/null}"
			exit "${PIPESTATUS[0]}")
		rc=$?
		case $rc in
		0) res="ok $num $name # attempt $a alone" ;;
		# KSFT_SKIP after a failure is no pass
		4) res="not ok $num $name # exit=4 (skip) after a failed attempt, attempt $a alone" ;;
		*) res="not ok $num $name # exit=$rc, attempt $a alone" ;;
		esac
		if [ $rc = 0 ] || [ "$a" -ge "$attempts" ]; then
			printf '%s\n' "$out" | sed 's/^/# /'
			echo "$res"
			[ $rc = 0 ]
			return
		fi
		{ printf '%s\n' "$out" | sed 's/^/# /'; echo "$res"; } | sed "s/^/$RETRY_TAG/"
	done
	return 1
}

run_vmtests_retried() {
	local cats=$1 attempts=$2 out rc line failed=0 listed=0 last=0 num name
	local -a block=()
	out=$(./run_vmtests.sh -t "$cats" 2>&1 | tee -a "${VMTESTS_RAW:-/dev/null}"
		exit "${PIPESTATUS[0]}")
	rc=$?
	while IFS= read -r line <&3; do
		[[ $line =~ ^(not\ )?ok\ ([0-9]+) ]] && last=${BASH_REMATCH[2]}
		num='' name=''
		if [[ $line =~ ^not\ ok\ ([0-9]+)\ (.*)\ \#\ exit=[0-9]+$ ]]; then
			num=${BASH_REMATCH[1]} name=${BASH_REMATCH[2]}
		fi
		# a failed test that can be run again from here
		if [ -n "$name" ] && [ "$attempts" -gt 1 ] && vmtests_command "$name" >/dev/null; then
			listed=1
			# the test's whole block: its kselftest subtests are
			# results too
			printf '%s\n' "${block[@]}" "$line" | sed "s/^/$RETRY_TAG/"
			vmtests_retry "$num" "$name" "$attempts" || failed=1
			block=()
		elif [[ $line =~ ^(not\ )?ok\ [0-9]+ ]]; then
			[[ $line == not* ]] && failed=1 listed=1
			printf '%s\n' "${block[@]}" "$line"
			block=()
		elif [[ $line == "TAP version"* ]]; then
			# the stream's header, not the first test's output
			echo "$line"
		else
			block+=("$line")
		fi
	done 3<<<"$out"
	[ ${#block[@]} = 0 ] || printf '%s\n' "${block[@]}"
	# ended in another way than its tests' results say: one failure more,
	# so that a run cut short cannot pass
	# (4 with no result at all: it stopped before its first test)
	if { [ $rc != 0 ] && [ $rc != 4 ] && { [ $rc != 1 ] || [ $listed = 0 ]; }; } ||
	   { [ $rc = 4 ] && [ "$last" = 0 ]; }; then
		echo "not ok $((last + 1)) run_vmtests.sh -t $cats # exit=$rc, no failed test listed"
		return "$rc"
	fi
	[ $failed = 1 ] && return 1
	# run_vmtests.sh exits 4 (KSFT_SKIP) when a test skipped, also when
	# an earlier one failed (a later skip overwrites its exit code)
	grep -q '^ok [0-9]* .*# SKIP' <<<"$out" && return 4
	return 0
}
