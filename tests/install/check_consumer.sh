#!/usr/bin/env bash
# Usage: check_consumer.sh <kdop build dir> <kdop source dir> <scratch dir>
# Installs the (already built) library into <scratch>/prefix, then configures, builds and runs
# examples/consumer against that prefix. $CMAKE (default: cmake) picks the cmake to run.
set -euo pipefail

build_dir=$1
source_dir=$2
scratch=$3
cmake=${CMAKE:-cmake}

rm -rf "$scratch"
mkdir -p "$scratch"

"$cmake" --install "$build_dir" --prefix "$scratch/prefix"
"$cmake" -S "$source_dir/examples/consumer" -B "$scratch/consumer-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_BUILD_TYPE=Release
"$cmake" --build "$scratch/consumer-build"
"$scratch/consumer-build/kdop_consumer"
