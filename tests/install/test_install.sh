#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then builds and runs
# samples/basic as an outside project would: find_package(pliant).
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source/samples/basic" -B "$work/basic" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DPLIANT_DEFAULT_SCENE="$source/samples/scenes/default.xml" >/dev/null
cmake --build "$work/basic" >/dev/null
"$work/basic/basic"
