#!/usr/bin/env bash
# `pliant run` verdicts: a failing check exits 1 and names the check; a bad
# scenario exits 2 with its file and line.
set -u
pliant=$1
data=$2
out=$("$pliant" run --quiet "$data/failing.scenario.xml" 2>&1); code=$?
echo "$out"
[ $code -eq 1 ] || { echo "FAIL: failing scenario exited $code, expected 1"; exit 1; }
echo "$out" | grep -q "FAIL  t=0.5  body ball pos" || { echo "FAIL: the failed check is not named"; exit 1; }
out=$("$pliant" run --quiet "$data/bad.scenario.xml" 2>&1); code=$?
echo "$out"
[ $code -eq 2 ] || { echo "FAIL: bad scenario exited $code, expected 2"; exit 1; }
echo "$out" | grep -q "bad.scenario.xml:2: <ctrl> needs 'actuator'" || { echo "FAIL: no file:line message"; exit 1; }
echo "PASS"
