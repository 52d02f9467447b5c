#!/bin/sh
# The command line: version, help, dispatch, usage errors.
set -u
. "$TESTLIB"

v=$($PAGETOP --version)
check_match "--version prints the version" "$v" '^pagetop [0-9]+\.[0-9]+\.[0-9]+$'
h=$($PAGETOP --help)
check_match "--help lists snapshot" "$h" '^  snapshot '
check_fails "an unknown command fails" $PAGETOP frobnicate
err=$($PAGETOP frobnicate 2>&1)
check_eq "... with one line naming it" "$err" "pagetop: unknown command 'frobnicate' (see pagetop --help)"
$PAGETOP frobnicate >/dev/null 2>&1
check_eq "... and exit status 2" "$?" 2
check_fails "an unknown snapshot option fails" $PAGETOP snapshot --bogus
err=$($PAGETOP snapshot --proc-root /nonexistent 2>&1)
check_eq "a missing proc root is one clear line" "$err" "pagetop: /nonexistent: No such file or directory"
check_fails "... with a nonzero exit" $PAGETOP snapshot --proc-root /nonexistent
check_fails "a stray argument fails" $PAGETOP snapshot extra
done_testing
