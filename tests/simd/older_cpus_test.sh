#!/usr/bin/env bash
# The kdop binary on older CPUs, emulated by qemu-user (Debian qemu-user), which raises SIGILL
# for instructions the emulated CPU lacks: Core 2 (no SSE4.2: the scalar kernels), Nehalem
# (SSE4.2, no AVX), Haswell (AVX2). Each must pick its ISA and give the same answer.
# A hierarchy file's value scan has a baseline and an AVX2 copy (target_clones): the io tests of
# damaged values also run on Core 2, where the baseline copy must find them.
# Usage: older_cpus_test.sh KDOP_BINARY SCRATCH_DIR [IO_TEST_BINARY]
set -uo pipefail
kdop="$1"
dir="$2"
io_tests="${3:-}"
if ! command -v qemu-x86_64 >/dev/null; then
  echo "qemu-x86_64 not installed (scripts/setup installs qemu-user); skipping" >&2
  exit 77
fi
mkdir -p "$dir" && cd "$dir" || exit 1
cat >box.obj <<'OBJ'
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
OBJ
# A hierarchy file too: loading it runs the value scan's copy for the CPU (target_clones).
"$kdop" build --mesh box.obj --out box.kdop >/dev/null 2>&1 || { echo "FAIL: kdop build" >&2; exit 1; }
reference=$("$kdop" check --env box.obj --object box.obj --pose 0.5,0.25,0.125,0.9,0.1,0.3,-0.2 --all-contacts --json | grep -o '"pairs":\[[^]]*\]*\]')
failed=0
for cpu_isa in core2duo:scalar Nehalem:sse4 Haswell:avx2; do
  cpu=${cpu_isa%%:*}
  isa=${cpu_isa##*:}
  version=$(qemu-x86_64 -cpu "$cpu" "$kdop" --version 2>/dev/null)
  if ! grep -q "ISA in use: $isa " <<<"$version"; then
    echo "FAIL: on $cpu expected ISA $isa: $version" >&2
    failed=1
  fi
  for env in box.obj box.kdop; do
    out=$(qemu-x86_64 -cpu "$cpu" "$kdop" check --env "$env" --object box.obj \
      --pose 0.5,0.25,0.125,0.9,0.1,0.3,-0.2 --all-contacts --json 2>err.txt)
    code=$?
    if [[ $code -ne 1 ]] || [[ "$(grep -o '"pairs":\[[^]]*\]*\]' <<<"$out")" != "$reference" ]]; then
      echo "FAIL: on $cpu with $env exit $code, output differs: $out $(cat err.txt)" >&2
      failed=1
    fi
  done
done
if [[ -n "$io_tests" ]] &&
  ! qemu-x86_64 -cpu core2duo "$io_tests" --gtest_filter='HierarchyFileErrors.ValueDamage*' >io.txt 2>&1; then
  echo "FAIL: the io tests of damaged values on core2duo: $(tail -20 io.txt)" >&2
  failed=1
fi
if ((failed == 0)); then echo "older CPUs: ok (core2duo scalar, Nehalem sse4, Haswell avx2)"; fi
exit $failed
