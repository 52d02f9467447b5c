#!/bin/sh
# placeholder: replaced by the screen tests
set -u
. "$TESTLIB"
done_testing
