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
out=$("$pliant" run --quiet "$data/failing_sensor.scenario.xml" 2>&1); code=$?
echo "$out"
[ $code -eq 1 ] || { echo "FAIL: failing sensor scenario exited $code, expected 1"; exit 1; }
echo "$out" | grep -q "FAIL  t=0.5  sensor crate_touch = 19.62" || { echo "FAIL: the sensor check is not named"; exit 1; }
out=$("$pliant" run --quiet "$data/bad_sensor.scenario.xml" 2>&1); code=$?
echo "$out"
[ $code -eq 2 ] || { echo "FAIL: bad sensor scenario exited $code, expected 2"; exit 1; }
echo "$out" | grep -q "bad_sensor.scenario.xml:2: <expect> gives 2 values for sensor 'ball_vel', which has 3" || { echo "FAIL: no file:line message for the sensor size"; exit 1; }
echo "PASS"
