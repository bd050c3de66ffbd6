#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then builds and runs
# samples/basic as an outside project would: find_package(pliant), link
# pliant::engine, include only <pliant/pliant.h>. Checks that only the public
# headers are installed, and that a user's own model/model.h on the include
# path does not shadow Pliant's.
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null

include=$work/prefix/include
test -f "$include/pliant/pliant.h" || { echo "missing include/pliant/pliant.h"; exit 1; }
for internal in solvers/workspace.h engine/workspace.h solvers/newton_solver.h \
                engine/collision/collision_scratch.h model/parser.h; do
  if [ -e "$include/pliant/$internal" ]; then
    echo "internal header installed: $internal"
    exit 1
  fi
done
echo "installed headers: $(cd "$include" && find . -name '*.h' | sort | tr '\n' ' ')"
if [ -n "$(find "$include/pliant" -mindepth 1 -type d)" ]; then
  echo "public headers are to live in include/pliant/ itself, not in subfolders"
  exit 1
fi
# An installed header includes only the standard library, Eigen and other
# public headers.
if grep -n '#include "' "$include"/pliant/*.h | grep -v '#include "pliant/'; then
  echo "an installed header includes a non-public header"
  exit 1
fi

# Each public header alone, with no language standard set by the consumer.
cmake -S "$source/tests/install/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
echo "each public header compiles on its own"

# A user header with the same relative path as one of Pliant's.
mkdir -p "$work/user/model"
echo '#error "the user model/model.h was included instead of Pliant'"'"'s"' \
  >"$work/user/model/model.h"

cmake -S "$source/samples/basic" -B "$work/basic" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_FLAGS="-I$work/user" \
  -DPLIANT_DEFAULT_SCENE="$source/samples/scenes/default.xml" >/dev/null
cmake --build "$work/basic" >/dev/null
"$work/basic/basic"
