#!/usr/bin/env bash
# One binary must run on any x86-64. The per-ISA translation units (engine/isa/, simd/isa/) are
# compiled with -msse4.2 / -mavx2 / -mavx512*; if they defined an inline function that other code
# also uses (std::vector's growth path, a helper that is not templated on the ISA tag), the
# linker could keep their copy for everyone, and an older CPU would die of SIGILL. Checks:
#   1. no weak symbol of a per-ISA object is defined by any other object of the library;
#   2. in the linked kdop binary, VEX/EVEX instructions appear only in functions whose name
#      carries an AVX tag, and SSE4 instructions only in ones tagged SSE4 or AVX.
# Usage: isa_hygiene_test.sh KDOP_BINARY OBJECT...
set -uo pipefail
binary="$1"
shift
isa_objects=()
other_objects=()
for o in "$@"; do
  case "$o" in
    */query_sse4.cpp.o | */query_avx2.cpp.o | */query_avx512.cpp.o | */kernels_sse4.cpp.o | \
      */kernels_avx2.cpp.o | */kernels_avx512.cpp.o) isa_objects+=("$o") ;;
    *) other_objects+=("$o") ;;
  esac
done
if ((${#isa_objects[@]} != 6)); then
  echo "expected 6 per-ISA objects, found ${#isa_objects[@]}" >&2
  exit 1
fi
failed=0
nm --defined-only "${other_objects[@]}" 2>/dev/null | awk '$2 ~ /^[TtWVu]$/ {print $3}' | sort -u >base_symbols.txt
for o in "${isa_objects[@]}"; do
  nm --defined-only "$o" | awk '$2 ~ /^[WVu]$/ {print $3}' | grep -v '^DW\.ref\.' | sort -u >isa_symbols.txt
  shared=$(comm -12 isa_symbols.txt base_symbols.txt | c++filt)
  if [[ -n "$shared" ]]; then
    echo "FAIL: $o shares inline code with baseline objects:" >&2
    echo "$shared" >&2
    failed=1
  fi
  for p in "${isa_objects[@]}"; do
    [[ "$p" == "$o" ]] && continue
    nm --defined-only "$p" | awk '$2 ~ /^[WVu]$/ {print $3}' | grep -v '^DW\.ref\.' | sort -u >peer_symbols.txt
    both=$(comm -12 isa_symbols.txt peer_symbols.txt | c++filt)
    if [[ -n "$both" ]]; then
      echo "FAIL: $o and $p share inline code:" >&2
      echo "$both" >&2
      failed=1
    fi
  done
done
objdump -d --no-show-raw-insn -C "$binary" | awk '
  /^[0-9a-f]+ <.*>:$/ { fn = $0; next }
  {
    insn = $0
    sub(/^[ \t]*[0-9a-f]+:[ \t]*/, "", insn)
    split(insn, parts, /[ \t]+/)
    m = parts[1]
    vex = (m ~ /^v[a-z]/ && m !~ /^ver[rw]$/) || insn ~ /%[yz]mm|%k[0-7]/
    sse4 = m ~ /^(p?blendv|blendp|ptest|pminsd|pmaxsd|pminud|pmaxud|pminsb|pmaxsb|pminuw|pmaxuw|pmulld|round[sp][sd]|pextr[bdq]|pinsr[bdq]|insertps|extractps|dpp[sd]|pcmp[eg][qt]q|pmov[sz]x|packusdw|phminposuw|mpsadbw|pcmp[ei]str[im]|crc32|popcnt)/
    if (vex && fn !~ /avx/) bad[fn] = "VEX/EVEX"
    else if (sse4 && fn !~ /avx|sse4/) bad[fn] = "SSE4"
  }
  END { n = 0; for (f in bad) { print "FAIL: " bad[f] " instruction outside its ISA code: " f > "/dev/stderr"; n++ } exit n > 0 }'
((failed |= $?))
if ((failed == 0)); then echo "isa hygiene: ok"; fi
exit $failed
