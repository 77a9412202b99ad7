#!/usr/bin/env bash
# End-to-end tests of the kdop command line: answers, output formats, exit codes and errors.
# Usage: cli_test.sh path/to/kdop scratch_dir
set -uo pipefail
kdop="$1"
dir="$2"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"  # for examples/
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 2
passed=0
failed=0

check() {  # check NAME EXPECTED_EXIT COMMAND...
  local name="$1" expected="$2"
  shift 2
  "$@" >out.txt 2>err.txt
  local code=$?
  if [[ $code -eq $expected ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: exit $code, expected $expected" >&2
    head -5 out.txt err.txt >&2
  fi
}
expect() {  # expect NAME CONDITION...
  local name="$1"
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $name" >&2; fi
}

# A unit cube [0,1]^3 in four formats (12 triangles, quads fanned in OBJ and OFF).
cat >cube.obj <<'OBJ'
# unit cube
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
cat >cube.off <<'END_OFF'
OFF
8 6 0
0 0 0
1 0 0
1 1 0
0 1 0
0 0 1
1 0 1
1 1 1
0 1 1
4 0 3 2 1
4 4 5 6 7
4 0 1 5 4
4 1 2 6 5
4 2 3 7 6
4 3 0 4 7
END_OFF
{
  echo "ply"; echo "format ascii 1.0"; echo "element vertex 8"
  echo "property float x"; echo "property float y"; echo "property float z"
  echo "property uchar red"
  echo "element face 6"; echo "property list uchar int vertex_indices"; echo "end_header"
  echo "0 0 0 1"; echo "1 0 0 1"; echo "1 1 0 1"; echo "0 1 0 1"
  echo "0 0 1 1"; echo "1 0 1 1"; echo "1 1 1 1"; echo "0 1 1 1"
  echo "4 0 3 2 1"; echo "4 4 5 6 7"; echo "4 0 1 5 4"; echo "4 1 2 6 5"; echo "4 2 3 7 6"; echo "4 3 0 4 7"
} >cube.ply
{
  echo "solid cube"
  tri() { echo " facet normal 0 0 0"; echo "  outer loop"; echo "   vertex $1"; echo "   vertex $2"; echo "   vertex $3"; echo "  endloop"; echo " endfacet"; }
  tri "0 0 0" "0 1 0" "1 1 0"; tri "0 0 0" "1 1 0" "1 0 0"
  tri "0 0 1" "1 0 1" "1 1 1"; tri "0 0 1" "1 1 1" "0 1 1"
  tri "0 0 0" "1 0 0" "1 0 1"; tri "0 0 0" "1 0 1" "0 0 1"
  tri "1 0 0" "1 1 0" "1 1 1"; tri "1 0 0" "1 1 1" "1 0 1"
  tri "1 1 0" "0 1 0" "0 1 1"; tri "1 1 0" "0 1 1" "1 1 1"
  tri "0 1 0" "0 0 0" "0 0 1"; tri "0 1 0" "0 0 1" "0 1 1"
  echo "endsolid cube"
} >cube.stl

# Answers.
check "overlapping cubes collide" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0
check "separated cubes are clear" 0 "$kdop" check --env cube.obj --object cube.obj --pose 2,0,0,1,0,0,0
expect "clear output says no" grep -q "collides: no" out.txt
check "face touching counts as contact" 1 "$kdop" check --env cube.obj --object cube.obj --pose 1,0,0,1,0,0,0
check "corner touching counts as contact" 1 "$kdop" check --env cube.obj --object cube.obj --pose 1,1,1,1,0,0,0
check "one ulp apart is clear" 0 "$kdop" check --env cube.obj --object cube.obj --pose 1.0000000000000002,0,0,1,0,0,0
sed 's/^v \([01]\) \([01]\) \([01]\)$/v 0.\15 0.\25 0.\35/' cube.obj >small.obj  # [0.05, 0.15]^3
check "nested without touching is clear" 0 "$kdop" check --env cube.obj --object small.obj --pose 0.3,0.3,0.3,1,0,0,0
check "scaled matrix rejected" 2 "$kdop" check --env cube.obj --object cube.obj --matrix 0.5,0,0,0.25,0,0.5,0,0.25,0,0,0.5,0.25,0,0,0,1
expect "scaled matrix names the problem" grep -q "orthonormal" err.txt

# The same query in every format, every BV, pose and matrix forms: the same pairs.
check "reference all-contacts" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.25,0.125,1,0,0,0 --all-contacts --json
reference=$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)
expect "reference has pairs" test -n "$reference"
for env in cube.obj cube.off cube.ply cube.stl; do
  for bv in kdop6 dop8 kdop14 kdop18 kdop26 kdop32 obb rss; do
    check "$env $bv" 1 "$kdop" check --env "$env" --object cube.stl --pose 0.5,0.25,0.125,1,0,0,0 --all-contacts --json --bv "$bv"
    expect "$env $bv same pairs" test "$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)" = "$reference"
  done
done
check "affine tumbling, Algorithm 1" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.25,0.125,1,0,0,0 --all-contacts --json --tumble affine --descent environment
expect "same pairs with other options" test "$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)" = "$reference"
for rule in splatter longest-side min-sum min-max surface-area zachmann; do
  for split in mean median binned; do
    if [[ $split == binned && $rule != min-* && $rule != surface-area ]]; then
      # Only the volume rules cost candidate planes: said rather than ignored.
      check "rule $rule binned refused" 2 "$kdop" check --env cube.obj --object cube.obj --rule "$rule" --split binned
      expect "rule $rule binned says why" grep -q -- "^kdop: --split binned needs a volume rule (--rule min-sum, min-max or surface-area), not $rule$" err.txt
      continue
    fi
    check "rule $rule $split" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.25,0.125,1,0,0,0 --all-contacts --json --rule "$rule" --split "$split" --env-leaf 1 --object-leaf 1
    expect "rule $rule $split same pairs" test "$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)" = "$reference"
  done
done
check "all directions, 3 bins" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.25,0.125,1,0,0,0 --all-contacts --json --rule min-max --split binned --bins 3 --all-directions --k 26
expect "all directions same pairs" test "$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)" = "$reference"
check "unknown split" 2 "$kdop" check --env cube.obj --object cube.obj --split middle
check "all directions without a volume rule" 2 "$kdop" check --env cube.obj --object cube.obj --all-directions
expect "all directions without a volume rule says why" grep -q -- "^kdop: --all-directions needs a volume rule (--rule min-sum, min-max or surface-area), not the default rule$" err.txt
for bv in kdop6 obb rss; do
  # Their builds split along x, y and z only: --all-directions would change nothing.
  check "all directions with $bv refused" 2 "$kdop" check --env cube.obj --object cube.obj --bv "$bv" --rule min-sum --all-directions
  expect "all directions with $bv says why" grep -q -- "^kdop: --all-directions: $bv trees split along x, y and z only, there are no other directions to try$" err.txt
done
# Hierarchy files of such a type alone: nothing is built, so the option is only noted as ignored.
check "all directions: kdop6 env file" 0 "$kdop" build --mesh cube.obj --role env --bv kdop6 --out cube6_env.kdop
check "all directions: kdop6 object file" 0 "$kdop" build --mesh cube.obj --role object --bv kdop6 --out cube6_obj.kdop
check "all directions with kdop6 files only" 1 "$kdop" check --env cube6_env.kdop --object cube6_obj.kdop --rule min-sum --all-directions
expect "all directions with kdop6 files only: noted" grep -q "ignored, the file's hierarchy was built with" err.txt
check "all directions with a kdop6 file and a mesh" 2 "$kdop" check --env cube6_env.kdop --object cube.obj --rule min-sum --all-directions
expect "all directions with a kdop6 file and a mesh says why" grep -q -- "^kdop: --all-directions: kdop6 trees split along x, y and z only" err.txt
check "all directions with dop8's four diagonals" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.25,0.125,1,0,0,0 --all-contacts --json --rule min-sum --all-directions --bv dop8
expect "all directions dop8 same pairs" test "$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)" = "$reference"
check "binned with the obb default rule" 2 "$kdop" build --mesh cube.obj --out never.kdop --bv obb --split binned
expect "binned with the obb default rule says so" grep -q -- "not the default rule$" err.txt
expect "binned refused: no file" test ! -e never.kdop
check "one bin is too few" 2 "$kdop" check --env cube.obj --object cube.obj --split binned --bins 1
check "unknown tumble" 2 "$kdop" check --env cube.obj --object cube.obj --tumble spin
check "unknown descent" 2 "$kdop" check --env cube.obj --object cube.obj --descent sideways
check "unknown root method" 2 "$kdop" check --env cube.obj --object cube.obj --root hull
expect "root error names the choices" grep -q "expected exact, vertices or auto, got 'hull'" err.txt
pairs_of_root=()
for root in exact vertices auto; do
  check "root $root" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.25,0.125,0.9,0.3,0.2,0.1 --all-contacts --json --k 14 --root "$root"
  pairs_of_root+=("$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)")
done
expect "every root method the same pairs" test "${pairs_of_root[0]}" = "${pairs_of_root[1]}" -a "${pairs_of_root[0]}" = "${pairs_of_root[2]}"
check "matrix form" 1 "$kdop" check --env cube.obj --object cube.obj --matrix 1,0,0,0.5,0,1,0,0.25,0,0,1,0.125,0,0,0,1 --all-contacts --json --k 14
expect "matrix form same pairs" test "$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)" = "$reference"
check "json fields" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 --json
for key in '"collides":true' '"contacts":1' '"n_v":' '"n_p":' '"n_u":' '"build":' '"query":'; do
  expect "json has $key" grep -q "$key" out.txt
done
check "rotated pose" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,0.9,0.1,0.3,-0.2 --all-contacts

# --out writes the result to a file, stdout stays empty.
check "out file" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 --json --out result.json
check "check out as csv" 2 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 --out result.csv
expect "check out as csv says so" grep -q -- "^kdop: --out: expected a .json (JSON) or .txt (text) file name, got 'result.csv'$" err.txt
expect "check out as csv: nothing written" test ! -e result.csv
check "check out without an extension" 2 "$kdop" check --env cube.obj --object cube.obj --out result
expect "check out without an extension: nothing written" test ! -e result
check "check out as text" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 --out result.txt
expect "check out as text holds text" grep -q "^collides: yes" result.txt
expect "out file written" grep -q '"collides":true' result.json
expect "stdout empty with --out" test ! -s out.txt

# Errors: exit 2, one line naming what is wrong, no output file.
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n' >bad_index.obj
printf 'v 0 0 0\nv 1 0 nan\nv 0 1 0\nf 1 2 3\n' >nan.obj
head -c 100 /dev/zero >truncated.stl
: >empty.off
check "missing file" 2 "$kdop" check --env nope.obj --object cube.obj --out never.json
expect "missing file named" grep -q "nope.obj" err.txt
expect "missing file one line" test "$(wc -l <err.txt)" -eq 1
expect "no partial output" test ! -e never.json
check "bad index" 2 "$kdop" check --env bad_index.obj --object cube.obj --out never.json
expect "bad index names line" grep -q "bad_index.obj: line 4" err.txt
expect "no partial output 2" test ! -e never.json
check "nan coordinate" 2 "$kdop" check --env cube.obj --object nan.obj
expect "nan names line" grep -q "nan.obj: line 2" err.txt
check "truncated stl" 2 "$kdop" check --env truncated.stl --object cube.obj
expect "truncated names file" grep -q "truncated.stl" err.txt
# Beyond +-1e30 the float bounding volumes cannot hold a contact: refused, not answered wrongly
# (two crossing triangles near 4e38 were called clear by every BV type).
printf 'v 4e38 0 -2e38\nv 4e38 0 0\nv 5e38 5e37 -1e38\nf 1 2 3\n' >huge.obj
check "huge coordinate" 2 "$kdop" check --env huge.obj --object cube.obj
expect "huge coordinate names line and range" grep -q "huge.obj: line 1: coordinate '4e38' is beyond +-1e30" err.txt
# A whole mesh under 1e-30 too: a mesh at 1e-157 gave false negatives with OBB and RSS.
printf 'v 0 0 0\nv 1e-157 0 0\nv 0 1e-157 0\nf 1 2 3\n' >tiny.obj
check "tiny mesh" 2 "$kdop" check --env cube.obj --object tiny.obj
expect "tiny mesh says why" grep -q "tiny.obj: every coordinate is below 1e-30 in magnitude (the largest is 1e-157)" err.txt
check "huge translation" 2 "$kdop" check --env cube.obj --object cube.obj --pose 2e30,0,0,1,0,0,0
expect "huge translation named" grep -q -- "--pose: translation tx = 2e+30 is beyond +-1e30" err.txt
check "huge matrix translation" 2 "$kdop" check --env cube.obj --object cube.obj --matrix 1,0,0,0,0,1,0,0,0,0,1,-3e31,0,0,0,1
expect "huge matrix translation named" grep -q -- "--matrix: translation tz" err.txt
check "empty off" 2 "$kdop" check --env empty.off --object cube.obj
check "unknown extension" 2 "$kdop" check --env cube.xyz --object cube.obj
expect "unknown extension names the hierarchy files too" grep -q "^kdop: cube.xyz: unknown extension '.xyz' (expected .stl, .obj, .ply or .off, or a .kdop hierarchy file (kdop build))$" err.txt
check "pose needs 7 numbers" 2 "$kdop" check --env cube.obj --object cube.obj --pose 1,2,3,4,5,6
check "pose not a number" 2 "$kdop" check --env cube.obj --object cube.obj --pose 1,2,3,x,0,0,0
check "zero quaternion" 2 "$kdop" check --env cube.obj --object cube.obj --pose 0,0,0,0,0,0,0
check "reflection matrix" 2 "$kdop" check --env cube.obj --object cube.obj --matrix 1,0,0,0,0,1,0,0,0,0,-1,0,0,0,0,1
check "pose and matrix together" 2 "$kdop" check --env cube.obj --object cube.obj --pose 0,0,0,1,0,0,0 --matrix 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1
check "unknown bv" 2 "$kdop" check --env cube.obj --object cube.obj --bv kdop7
expect "unknown bv lists dop8, obb, rss" grep -q -- "--bv: expected kdop6, kdop14, kdop18, kdop26, kdop32, dop8, obb or rss, got 'kdop7'" err.txt
check "unknown k" 2 "$kdop" check --env cube.obj --object cube.obj --k 10
expect "unknown k lists the k values" grep -q -- "--k: expected 6, 14, 18, 26, 32 or 8, got 10" err.txt
check "k 0 is refused, not the default" 2 "$kdop" check --env cube.obj --object cube.obj --k 0
expect "k 0 lists the k values" grep -q -- "--k: expected 6, 14, 18, 26, 32 or 8, got 0" err.txt
check "path k 0 is refused" 2 "$kdop" path --scene "$repo/examples/path/scene.json" --trajectory "$repo/examples/path/trajectory.csv" --k 0
check "k 8 is dop8" 1 "$kdop" check --env cube.obj --object cube.obj --k 8 --json
expect "k 8 names dop8" grep -q '"bv":"dop8"' out.txt
check "unknown rule" 2 "$kdop" check --env cube.obj --object cube.obj --rule best
check "missing env" 2 "$kdop" check --object cube.obj
check "unknown flag" 2 "$kdop" check --env cube.obj --object cube.obj --frobnicate
check "no command" 2 "$kdop"

# kdop batch: pose files in, results out.
{
  echo "pose_id,tx,ty,tz,qw,qx,qy,qz"
  echo "apart,2,0,0,1,0,0,0"
  echo "overlap,0.5,0.5,0.5,1,0,0,0"
  echo "touch,1,0,0,1,0,0,0"
  echo "turned,0.5,0.25,0.125,0.9,0.1,0.3,-0.2"
} >poses.csv
check "batch finds contacts" 1 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --out results.csv -q
expect "batch csv header" test "$(head -1 results.csv)" = "pose_id,collides,contacts,n_v,n_p,n_u,time_us,env_triangle,object_triangle"
expect "batch rows in order" test "$(cut -d, -f1,2 results.csv | tail -4 | tr '\n' ' ')" = "apart,0 overlap,1 touch,1 turned,1 "
check "batch all json" 1 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode all --out results.json --pairs pairs.csv
expect "batch json parses" python3 -c "import json; r=json.load(open('results.json')); assert [x['pose_id'] for x in r]==['apart','overlap','touch','turned']; assert r[0]['collides'] is False and r[1]['contacts']>0"
expect "batch pairs file" test "$(grep -c '^overlap,' pairs.csv)" -eq "$(python3 -c "import json; print(json.load(open('results.json'))[1]['contacts'])")"
expect "batch summary on stderr" grep -q "4 poses, 3 colliding" err.txt
head -2 poses.csv >one_pose.csv
check "batch of one pose" 0 "$kdop" batch --env cube.obj --object cube.obj --poses one_pose.csv --out one_result.csv --threads 1
expect "batch of one pose says pose, thread" grep -q "^kdop batch: 1 pose, 0 colliding, 0 contacts (mode first), .* on 1 thread (" err.txt
check "batch all equals check all-contacts" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.25,0.125,0.9,0.1,0.3,-0.2 --all-contacts --json
expect "batch pairs = check pairs" test "$(python3 -c "import json; print(json.load(open('out.txt'))['contacts'])")" -eq "$(grep -c '^turned,' pairs.csv)"
check "batch count mode" 1 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode count -q
expect "batch to stdout" grep -q "^overlap,1," out.txt
check "batch stdin" 1 sh -c "cat poses.csv | '$kdop' batch --env cube.obj --object cube.obj --poses - -q"
expect "batch stdin rows" test "$(wc -l <out.txt)" -eq 5
check "batch threads 1" 1 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --threads 1 --out r1.csv -q
check "batch threads 3" 1 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --threads 3 --out r3.csv -q
expect "batch threads 3: nothing on stderr (more threads than cores are granted, no warning)" test ! -s err.txt
expect "batch same for any thread count" test "$(cut -d, -f1-6,8,9 r1.csv)" = "$(cut -d, -f1-6,8,9 r3.csv)"
{
  echo "pose_id,object,tx,ty,tz,qw,qx,qy,qz"
  echo "a,big,2,0,0,1,0,0,0"
  echo "b,small,0.3,0.3,0.3,1,0,0,0"
  echo "c,small,0.95,0.3,0.3,1,0,0,0"
} >two.csv
check "batch two objects" 1 "$kdop" batch --env cube.obj --object big=cube.obj --object small=small.obj --poses two.csv --out two_results.csv -q
expect "batch object column" test "$(cut -d, -f1-3 two_results.csv | tail -3 | tr '\n' ' ')" = "a,big,0 b,small,0 c,small,1 "
# One object and an object column: the column is echoed (and in the pairs file).
printf 'pose_id,object,tx,ty,tz,qw,qx,qy,qz\nb,small,0.3,0.3,0.3,1,0,0,0\nc,small,0.95,0.3,0.3,1,0,0,0\n' >one_named.csv
check "batch one object named" 1 "$kdop" batch --env cube.obj --object small=small.obj --poses one_named.csv --out one_named_results.csv --pairs one_named_pairs.csv --mode all -q
expect "batch one object column echoed" test "$(cut -d, -f1-3 one_named_results.csv | tr '\n' ' ')" = "pose_id,object,collides b,small,0 c,small,1 "
expect "batch one object pairs name it" grep -q "^c,small," one_named_pairs.csv
# A file whose name holds a '=' is that file when it exists (not NAME=FILE).
cp small.obj 'sm=all.obj'
check "batch object file with =" 0 "$kdop" batch --env cube.obj --object 'sm=all.obj' --poses poses.csv -q --out eq.csv
# When the part after '=' is a file too, which was meant is not guessed; ./ names the file.
cp small.obj 'sm=cube.obj'
check "batch object file with = or NAME=FILE" 2 "$kdop" batch --env cube.obj --object 'sm=cube.obj' --poses poses.csv -q --out eq2.csv
expect "batch object file with = or NAME=FILE says so" grep -q -- "^kdop: --object sm=cube.obj: both the file 'sm=cube.obj' and NAME=FILE ('sm' = 'cube.obj') exist; give ./sm=cube.obj for the file$" err.txt
check "batch object file with = by ./" 0 "$kdop" batch --env cube.obj --object './sm=cube.obj' --poses poses.csv -q --out eq2.csv
python3 - <<'PY'
import struct
rows = [(2, 0, 0, 1, 0, 0, 0), (0.5, 0.5, 0.5, 1, 0, 0, 0)]
header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 7), }"
header += " " * (64 - 10 - len(header) - 1) + "\n"
with open("poses.npy", "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    for r in rows:
        f.write(struct.pack("<7d", *r))
PY
check "batch npy" 1 "$kdop" batch --env cube.obj --object cube.obj --poses poses.npy -q
expect "batch npy ids are rows" test "$(cut -d, -f1,2 out.txt | tail -2 | tr '\n' ' ')" = "0,0 1,1 "
check "batch npy on stdin" 1 sh -c "cat poses.npy | '$kdop' batch --env cube.obj --object cube.obj --poses - -q"
expect "batch npy on stdin: by its magic" test "$(cut -d, -f1,2 out.txt | tail -2 | tr '\n' ' ')" = "0,0 1,1 "
cp poses.npy poses_npy.csv
check "batch npy named .csv" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses_npy.csv -q
expect "batch npy named .csv says so" grep -q "poses_npy.csv: line 1: this is a NumPy (.npy) file, read as CSV (name it .npy)" err.txt
# Pipes by name (/dev/stdin, a shell's <(...)): meshes and poses by their content.
check "batch poses from /dev/stdin" 1 sh -c "'$kdop' batch --env cube.obj --object cube.obj --poses /dev/stdin -q < poses.csv"
expect "batch poses from /dev/stdin rows" test "$(wc -l <out.txt)" -eq 5
check "batch npy from /dev/stdin" 1 sh -c "'$kdop' batch --env cube.obj --object cube.obj --poses /dev/stdin -q < poses.npy"
check "batch meshes from pipes" 1 bash -c "'$kdop' batch --env <(cat cube.obj) --object <(cat cube.obj) --poses <(cat poses.csv) -q"
expect "batch meshes from pipes rows" test "$(wc -l <out.txt)" -eq 5
check "check mesh from a pipe that is no mesh" 2 bash -c "'$kdop' check --env <(echo hello) --object cube.obj"
expect "check mesh from a pipe that is no mesh says so" grep -q "^kdop: /dev/fd/[0-9]*: no file extension, and the content is not STL, OBJ, PLY or OFF" err.txt

# Batch errors: exit 2, one line, no output file.
printf 'pose_id,tx,ty,tz,qw,qx,qy,qz\nok,0,0,0,1,0,0,0\nbad,0,0,0,0,0,0,0\n' >zero_q.csv
# A value just beyond the range is written as it was read, not rounded to 1e+30.
printf 'pose_id,tx,ty,tz,qw,qx,qy,qz\nfar,1.0000001e30,0,0,1,0,0,0\n' > beyond.csv
check "batch translation just beyond the range" 2 "$kdop" batch --env cube.obj --object cube.obj --poses beyond.csv
expect "batch translation just beyond the range says it" grep -q "^kdop: beyond.csv: line 2: translation tx = 1.0000001e+30 is beyond +-1e30" err.txt
check "batch zero quaternion" 2 "$kdop" batch --env cube.obj --object cube.obj --poses zero_q.csv --out never.csv
expect "batch zero quaternion names line 3" grep -q "zero_q.csv: line 3" err.txt
expect "batch no partial output" test ! -e never.csv
printf 'pose_id,tx,ty,tz,qw,qx\n' >short_header.csv
check "batch missing column" 2 "$kdop" batch --env cube.obj --object cube.obj --poses short_header.csv
expect "batch missing column named" grep -q "qy" err.txt
check "batch unknown object" 2 "$kdop" batch --env cube.obj --object big=cube.obj --object small=small.obj --poses poses.csv
check "batch bad mode" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode most
check "batch pairs without all" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --pairs p.csv
check "batch bad out extension" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --out r.txt
check "bad KDOP_ISA" 2 env KDOP_ISA=mmx "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv
check "batch help" 0 "$kdop" batch --help
for flag in --env --object --poses --threads --mode --bv --out --pairs --chunk --quiet; do
  expect "batch help mentions $flag" grep -q -- "$flag" out.txt
done

# A mesh from a FIFO is read whole (the hierarchy-file probe must not take its first bytes; it
# did, and the object came out shifted by a vertex).
printf 'v 9 9 9\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 50 50 50\nf 2 3 4\n' >fifo_tri.obj
printf 'v -10 -10 0\nv 10 -10 0\nv 0 10 0\nf 1 2 3\n' >fifo_flat.obj
check "mesh file: no contact" 0 "$kdop" check --env fifo_flat.obj --object fifo_tri.obj --pose -5,-5,-1,1,0,0,0
rm -f fifo_mesh.obj && mkfifo fifo_mesh.obj
cat fifo_tri.obj >fifo_mesh.obj &
check "mesh from a FIFO: no contact" 0 "$kdop" check --env fifo_flat.obj --object fifo_mesh.obj --pose -5,-5,-1,1,0,0,0
wait
cat fifo_tri.obj >fifo_mesh.obj &
check "mesh from a FIFO: contact" 1 "$kdop" check --env fifo_flat.obj --object fifo_mesh.obj --pose -5,-5,0,1,0,0,0
wait

# Ctrl-C: exit 130 and no output file, even mid-run. The poses come through a FIFO this script
# holds open, so kdop is certainly still running (waiting for more poses) when the signal comes.
rm -f fifo_poses.csv && mkfifo fifo_poses.csv
"$kdop" batch --env cube.obj --object cube.obj --poses fifo_poses.csv --chunk 1 --out interrupted.csv -q 2>err.txt &
pid=$!
# Read-write, so opening never blocks (Linux), even if kdop has already died.
exec 3<>fifo_poses.csv
printf 'pose_id,tx,ty,tz,qw,qx,qy,qz\n1,0.5,0.5,0.5,1,0,0,0\n2,3,0,0,1,0,0,0\n' >&3
# The results' temporary exists once kdop is past its start (its signal handler is installed
# first): on a loaded machine a fixed pause could send the signal before that.
for _ in $(seq 1 200); do [[ -e interrupted.csv.tmp.$pid ]] && break; sleep 0.05; done
sleep 0.1
kill -INT $pid
wait $pid
code=$?
exec 3>&-
expect "interrupt exits 130" test $code -eq 130
expect "interrupt leaves no output" test -z "$(ls interrupted.csv* 2>/dev/null)"
expect "interrupt says so" grep -q "interrupted" err.txt
check "version names the ISA" 0 "$kdop" --version
expect "version ISA line" grep -q "ISA in use:" out.txt
check "version with a bad KDOP_ISA" 2 env KDOP_ISA=avx3 "$kdop" --version
expect "version with a bad KDOP_ISA says why" grep -q "^ISA in use: none (KDOP_ISA=avx3: expected scalar, sse4, avx2 or avx512)" out.txt
check "KDOP_ISA in any case" 0 env KDOP_ISA=SCALAR "$kdop" --version
expect "KDOP_ISA in any case: scalar" grep -q "^ISA in use: scalar" out.txt
check "bare kdop" 2 "$kdop"
expect "bare kdop lists the commands" grep -q "^SUBCOMMANDS:\|^Subcommands:" err.txt

# Hierarchy files: kdop build, then check and batch load them wherever they take a mesh.
python3 - <<'PY'
import math, random
# A deformed torus (512 triangles) and 300 poses around it.
with open("torus.obj", "w") as f:
    n, m = 32, 8
    for i in range(n):
        for j in range(m):
            u, v = 2 * math.pi * i / n, 2 * math.pi * j / m
            r = 1 + 0.1 * math.sin(3 * u)
            f.write("v %r %r %r\n" % ((3 + r * math.cos(v)) * math.cos(u), (3 + r * math.cos(v)) * math.sin(u), r * math.sin(v)))
    for i in range(n):
        for j in range(m):
            a, b = i * m + j + 1, ((i + 1) % n) * m + j + 1
            c, d = ((i + 1) % n) * m + (j + 1) % m + 1, i * m + (j + 1) % m + 1
            f.write("f %d %d %d\nf %d %d %d\n" % (a, b, c, a, c, d))
rng = random.Random(5)
with open("torus_poses.csv", "w") as f:
    f.write("pose_id,tx,ty,tz,qw,qx,qy,qz\n")
    for k in range(300):
        q = [rng.gauss(0, 1) for _ in range(4)]
        f.write("p%d,%r,%r,%r,%r,%r,%r,%r\n" % (k, rng.uniform(-4, 4), rng.uniform(-4, 4), rng.uniform(-1, 1), *q))
PY
no_time() { cut -d, -f1-6,8,9 "$1"; }
for bv in kdop6 dop8 kdop14 kdop18 kdop26 kdop32 obb rss; do
  check "build env $bv" 0 "$kdop" build --mesh torus.obj --out env_$bv.kdop --bv $bv
  check "build object $bv" 0 "$kdop" build --mesh torus.obj -o object_$bv.kdop --role object --bv $bv
  for mode in first all; do
    check "batch $mode from meshes $bv" 1 "$kdop" batch --env torus.obj --object torus.obj --poses torus_poses.csv --mode $mode --bv $bv --out from_mesh.csv -q
    check "batch $mode from files $bv" 1 "$kdop" batch --env env_$bv.kdop --object object_$bv.kdop --poses torus_poses.csv --mode $mode --out from_file.csv -q
    expect "batch $mode files = meshes $bv" test "$(no_time from_mesh.csv)" = "$(no_time from_file.csv)"
  done
  cut -d, -f1-3 from_mesh.csv >contacts_$bv.csv
done
for bv in kdop6 dop8 kdop14 kdop26 kdop32 obb rss; do
  expect "batch all: $bv finds kdop18's contacts" cmp -s contacts_$bv.csv contacts_kdop18.csv
done
check "build env obb" 0 "$kdop" build --mesh torus.obj --out env_obb.kdop --bv obb
expect "obb builds by Gottschalk's rule" grep -q "env_obb.kdop: obb env hierarchy, obb-axis / mean, leaf size 1" err.txt
check "build object obb" 0 "$kdop" build --mesh torus.obj --out object_obb.kdop --bv obb --role object
expect "obb objects have leaves of 8" grep -q "object_obb.kdop: obb object hierarchy, obb-axis / mean, leaf size 8" err.txt
check "obb object file, no note on the default leaf" 1 "$kdop" check --env torus.obj --object object_obb.kdop --pose 0.5,0.3,0.2,1,0,0,0
expect "no note on the object's default leaf" test ! -s err.txt
check "obb file with a mesh object" 1 "$kdop" check --env env_obb.kdop --object torus.obj --pose 0.5,0.3,0.2,1,0,0,0
expect "no note on the default rule" test ! -s err.txt
check "build env kdop18" 0 "$kdop" build --mesh torus.obj --out env_k18.kdop
expect "k-DOP environments have leaves of 3" grep -q "env_k18.kdop: kdop18 env hierarchy, splatter / mean, leaf size 3" err.txt
check "k-DOP env file, no note on the default leaf" 1 "$kdop" check --env env_k18.kdop --object torus.obj --pose 0.5,0.3,0.2,1,0,0,0
expect "no note on the environment's default leaf" test ! -s err.txt
check "k-DOP env file, --env-leaf 1 noted" 1 "$kdop" check --env env_k18.kdop --object torus.obj --pose 0.5,0.3,0.2,1,0,0,0 --env-leaf 1
expect "--env-leaf 1 against a file of leaves of 3 is noted" grep -q "env_k18.kdop: --env-leaf ignored" err.txt
check "k-DOP env file, --env-leaf 3 as built" 1 "$kdop" check --env env_k18.kdop --object torus.obj --pose 0.5,0.3,0.2,1,0,0,0 --env-leaf 3
expect "--env-leaf equal to the file's is not noted" test ! -s err.txt
check "obb env file, --env-leaf 3" 1 "$kdop" check --env env_obb.kdop --object torus.obj --pose 0.5,0.3,0.2,1,0,0,0 --env-leaf 3
expect "--env-leaf 3 against an obb file of leaves of 1 is noted" grep -q "env_obb.kdop: --env-leaf ignored" err.txt
check "build env kdop18, leaves of 1" 0 "$kdop" build --mesh torus.obj --out env_k18_1.kdop --leaf 1
check "same contacts with environment leaves of 1 and 3" 1 "$kdop" check --env env_k18_1.kdop --object torus.obj --pose 0.5,0.3,0.2,1,0,0,0 --all-contacts --json --out leaf1.json
check "same contacts, leaves of 3" 1 "$kdop" check --env env_k18.kdop --object torus.obj --pose 0.5,0.3,0.2,1,0,0,0 --all-contacts --json --out leaf3.json
expect "environment leaves of 1 and 3 give the same pairs" test "$(grep -o '"pairs":\[[][0-9,]*\]' leaf1.json)" = "$(grep -o '"pairs":\[[][0-9,]*\]' leaf3.json)"
expect "the compared pairs are not empty" grep -q '"pairs":\[\[2,4\]' leaf3.json
expect "batch files have contacts and misses" test "$(cut -d, -f2 from_file.csv | sort -u | tr '\n' ' ')" = "0 1 collides "
check "build env options" 0 "$kdop" build --mesh torus.obj --out env_opts.kdop --k 14 --rule longest-side --split median --leaf 3
expect "build says what it wrote" grep -q "env_opts.kdop: kdop14 env hierarchy, longest-side / median, leaf size 3" err.txt
check "build object options" 0 "$kdop" build --mesh torus.obj --out object_opts.kdop --k 14 --rule longest-side --split median --leaf 10 --role object
check "batch options from meshes" 1 "$kdop" batch --env torus.obj --object torus.obj --poses torus_poses.csv --mode all --k 14 --rule longest-side --split median --env-leaf 3 --object-leaf 10 --out from_mesh.csv -q
check "batch options from files" 1 "$kdop" batch --env env_opts.kdop --object object_opts.kdop --poses torus_poses.csv --mode all --out from_file.csv -q
expect "batch options files = meshes" test "$(no_time from_mesh.csv)" = "$(no_time from_file.csv)"
# The volume rules and Zachmann's, stored in the file: same results as building from the mesh,
# and the same answers (pairs aside from counters) as the default rule.
for rule in min-sum zachmann; do
  planes=()  # candidate planes: the volume rule's only
  [[ $rule == min-sum ]] && planes=(--split binned --bins 4 --all-directions)
  check "build env $rule" 0 "$kdop" build --mesh torus.obj --out env_$rule.kdop --k 26 --rule $rule "${planes[@]}"
  check "build object $rule" 0 "$kdop" build --mesh torus.obj --out object_$rule.kdop --k 26 --rule $rule "${planes[@]}" --role object --leaf 6
  check "batch $rule from meshes" 1 "$kdop" batch --env torus.obj --object torus.obj --poses torus_poses.csv --mode all --k 26 --rule $rule "${planes[@]}" --object-leaf 6 --out ${rule}_mesh.csv -q
  check "batch $rule from files" 1 "$kdop" batch --env env_$rule.kdop --object object_$rule.kdop --poses torus_poses.csv --mode all --out ${rule}_file.csv -q
  expect "batch $rule files = meshes" test "$(no_time ${rule}_mesh.csv)" = "$(no_time ${rule}_file.csv)"
  expect "batch $rule same contacts as default" test "$(cut -d, -f1-3 ${rule}_mesh.csv)" = "$(cut -d, -f1-3 from_mesh.csv)"
done
check "batch env file, object mesh" 1 "$kdop" batch --env env_opts.kdop --object torus.obj --poses torus_poses.csv --mode all --rule longest-side --split median --object-leaf 10 --out mixed.csv
expect "batch mixed = meshes" test "$(no_time from_mesh.csv)" = "$(no_time mixed.csv)"
expect "batch summary names the file's bv" grep -q "kdop14" err.txt
expect "options a file ignores are noted" grep -q "env_opts.kdop: --rule, --split ignored, the file's hierarchy was built with longest-side / median, leaf size 3" err.txt
check "file without build options" 0 "$kdop" check --env env_opts.kdop --object torus.obj --pose 9,9,9,1,0,0,0
expect "no note without build options" test -z "$(grep note err.txt)"
check "check from meshes" 1 "$kdop" check --env torus.obj --object torus.obj --pose 0.5,0.3,0.2,0.9,0.1,0.3,-0.2 --all-contacts --json
mesh_pairs=$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)
check "check from files" 1 "$kdop" check --env env_kdop18.kdop --object object_kdop18.kdop --pose 0.5,0.3,0.2,0.9,0.1,0.3,-0.2 --all-contacts --json
expect "check files = meshes" test "$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)" = "$mesh_pairs"
expect "check files report triangles" grep -q '"triangles":512' out.txt
cp env_kdop18.kdop env_renamed.bin
check "file found by magic" 1 "$kdop" check --env env_renamed.bin --object object_kdop18.kdop --pose 0.5,0.3,0.2,0.9,0.1,0.3,-0.2 --all-contacts --json
expect "magic file = meshes" test "$(grep -o '"pairs":\[[^]]*\]*\]' out.txt)" = "$mesh_pairs"
check "explicit same bv is fine" 1 "$kdop" check --env env_kdop18.kdop --object torus.obj --bv kdop18 --pose 0.5,0.3,0.2,1,0,0,0
check "conflicting bv" 2 "$kdop" check --env env_kdop18.kdop --object torus.obj --bv kdop14
expect "conflicting bv named" grep -q "env_kdop18.kdop: a kdop18 hierarchy, but --bv/--k asks for kdop14" err.txt
check "conflicting k" 2 "$kdop" batch --env torus.obj --object object_kdop6.kdop --poses torus_poses.csv --k 26
check "files disagree" 2 "$kdop" check --env env_kdop18.kdop --object object_kdop6.kdop
expect "files disagree named" grep -q "object_kdop6.kdop: a kdop6 hierarchy, but env_kdop18.kdop is a kdop18 one" err.txt
check "object file as env" 2 "$kdop" check --env object_kdop18.kdop --object torus.obj
expect "role named" grep -q "object_kdop18.kdop: byte 34: holds an object hierarchy, expected an env one" err.txt
check "env file as object" 2 "$kdop" batch --env torus.obj --object env_kdop18.kdop --poses torus_poses.csv --out never.csv
expect "env role named" grep -q "env_kdop18.kdop: byte 34: holds an env hierarchy, expected an object one" err.txt
expect "role error one line" test "$(wc -l <err.txt)" -eq 1
expect "role error no output" test ! -e never.csv
head -c 1000 env_kdop18.kdop >truncated.kdop
check "truncated hierarchy" 2 "$kdop" check --env truncated.kdop --object torus.obj
expect "truncated hierarchy named" grep -q "truncated.kdop: byte 24: header says the file has .* bytes, but it has 1000 (truncated)" err.txt
cp torus.obj not_a_tree.kdop
check "mesh named .kdop" 2 "$kdop" check --env not_a_tree.kdop --object torus.obj
expect "mesh named .kdop says magic" grep -q "not_a_tree.kdop: byte 0: not a kdop hierarchy file" err.txt
mkdir -p folder.kdop
check "directory as hierarchy" 2 "$kdop" check --env folder.kdop --object torus.obj
expect "directory named" grep -q "folder.kdop: cannot read (Is a directory)" err.txt
check "build unknown role" 2 "$kdop" build --mesh torus.obj --out never.kdop --role flying
check "build bad mesh" 2 "$kdop" build --mesh bad_index.obj --out never.kdop
check "build into missing folder" 2 "$kdop" build --mesh torus.obj --out no/such/dir.kdop
expect "build no partial output" test -z "$(ls never.kdop* 2>/dev/null)"
check "build help" 0 "$kdop" build --help
for flag in --mesh --out --bv --k --rule --split --leaf --role; do
  expect "build help mentions $flag" grep -q -- "$flag" out.txt
done

# kdop path: a cube flies through a thin plate between two free waypoints.
mkdir -p path && cat >path/plate.obj <<'OBJ'
v 5 -3 -3
v 5 3 -3
v 5 0 4
f 1 2 3
OBJ
cp cube.obj path/box.obj
cat >path/scene.json <<'JSON'
{"environment": [{"name": "plate", "mesh": "plate.obj"}],
 "objects": [{"name": "box", "mesh": "box.obj", "padding": 0.0}]}
JSON
cat >path/traj.csv <<'CSV'
t,object,tx,ty,tz,qw,qx,qy,qz
0,box,0,-0.5,-0.5,1,0,0,0
1,box,10,-0.5,-0.5,1,0,0,0
CSV
check "path discrete misses the thin plate" 0 "$kdop" path --scene path/scene.json --trajectory path/traj.csv
expect "path summary" grep -q "segments: 1 (1 free" out.txt
expect "path summary counts the waypoints" grep -q "^waypoints: 2 checked, 0 collide$" out.txt
printf 't,object,note,tx,ty,tz,qw,qx,qy,qz\n0,box,start,0,-0.5,-0.5,1,0,0,0\n1,box,,10,-0.5,-0.5,1,0,0,0\n' >path/noted.csv
check "path trajectory with another column" 1 "$kdop" path --scene path/scene.json --trajectory path/noted.csv --continuous
expect "path trajectory's other column is ignored" grep -q "^first collision: t=0.4 box with plate$" out.txt
check "path --k 26" 0 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --k 26
check "path --k with --bv" 2 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --k 26 --bv kdop14
check "path continuous finds it" 1 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --continuous --out path/out.json --plot path/out.svg
expect "path json segment collides" grep -q '"status":"collides"' path/out.json
expect "path json t_hit" grep -q '"t_hit":0.39999' path/out.json
expect "path json has summary" grep -q '"summary"' path/out.json
expect "path plot svg" grep -q "<svg" path/out.svg
check "path csv report" 1 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --continuous --out path/out.csv --plot path/out.png -q
expect "path csv header" grep -q "^object,t0,t1,status,t_hit,with,object_triangle,with_triangle,min_distance,steps,time_us,min_distance_t,min_distance_with$" path/out.csv
expect "path png" test "$(head -c 4 path/out.png | tail -c 3)" = "PNG"
check "path small step sees it" 1 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --step 0.01
expect "path step samples are not called waypoints" grep -q "^samples: [0-9]\+ checked (2 at waypoints, [0-9]\+ --step), [0-9]\+ collide$" out.txt
check "path on one thread" 0 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --threads 1
expect "path on one thread says thread" grep -q " s on 1 thread$" out.txt
check "path clearance" 1 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --continuous --clearance 0.1
check "path missing scene" 2 "$kdop" path --scene path/none.json --trajectory path/traj.csv
check "path bad extension" 2 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --out path/out.txt
check "path bad plot extension" 2 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --plot path/out.pdf
check "path obb rejected" 2 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --bv obb
printf 't,object,tx,ty,tz,qw,qx,qy,qz\n0,box,0,0,0,1,0,0,0\n0,ghost,0,0,0,1,0,0,0\n' >path/ghost.csv
check "path unknown object" 2 "$kdop" path --scene path/scene.json --trajectory path/ghost.csv
expect "path unknown object named with its line" grep -q "^kdop: path/ghost.csv: line 3: moves object 'ghost'" err.txt
# Work that cannot fit is refused before it starts: --step samples beyond the memory available,
# and a motion that overflows between two finite waypoints.
printf 't,object,tx,ty,tz,qw,qx,qy,qz\n0,box,0,0,0,1,0,0,0\n1e15,box,1,0,0,1,0,0,0\n' >path/long.csv
check "path step beyond memory" 2 timeout 20 "$kdop" path --scene path/scene.json --trajectory path/long.csv --step 1
expect "path step beyond memory says so" grep -q "^kdop: --step: path/long.csv would take about 1e+15 samples" err.txt
printf 't,object,tx,ty,tz,qw,qx,qy,qz\n-1e308,box,0,0,0,1,0,0,0\n1e308,box,1,0,0,1,0,0,0\n' >path/overflow.csv
check "path motion overflow" 2 "$kdop" path --scene path/scene.json --trajectory path/overflow.csv --step 0.25
expect "path motion overflow names the line" grep -q "^kdop: path/overflow.csv: line 3: the motion" err.txt
check "path plot in a missing folder" 2 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --out path/early.json --plot path/nodir/p.svg
expect "path plot in a missing folder: no report either" test ! -e path/early.json
check "path time tolerance 0" 2 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --continuous --time-tolerance 0
expect "path time tolerance message is short" test "$(wc -c <err.txt)" -lt 120
printf 't,object,tx,ty,tz,qw,qx,qy,qz\n1,box,0,0,0,1,0,0,0\n0,box,0,0,0,1,0,0,0\n' >path/back.csv
check "path time going back" 2 "$kdop" path --scene path/scene.json --trajectory path/back.csv
expect "path time error names the line" grep -q "line 3" err.txt
printf '{"objects": [{"name": "box", "mesh": "box.obj", "colour": 1}]}' >path/badkey.json
check "path unknown scene key" 2 "$kdop" path --scene path/badkey.json --trajectory path/traj.csv
expect "path unknown key named" grep -q "colour" err.txt
check "path into missing folder" 2 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --continuous --out no/such/out.json
# Hierarchy files in a scene: their BV type is used; OBB files and mixed types are errors.
check "path build object" 0 "$kdop" build --mesh path/box.obj --role object --k 14 --out path/box14.kdop
check "path build env" 0 "$kdop" build --mesh path/plate.obj --role env --k 14 --out path/plate14.kdop
check "path build obb" 0 "$kdop" build --mesh path/box.obj --role object --bv obb --out path/box_obb.kdop
printf '{"environment": [{"name": "plate", "mesh": "plate14.kdop"}], "objects": [{"name": "box", "mesh": "box14.kdop"}]}' >path/files.json
check "path with hierarchy files" 1 "$kdop" path --scene path/files.json --trajectory path/traj.csv --continuous
expect "path with hierarchy files finds it" grep -q "first collision: t=0.4 box with plate" out.txt
printf '{"environment": [{"name": "plate", "mesh": "plate.obj"}], "objects": [{"name": "box", "mesh": "box_obb.kdop"}]}' >path/obbfile.json
check "path obb file rejected" 2 "$kdop" path --scene path/obbfile.json --trajectory path/traj.csv
check "path file against --bv" 2 "$kdop" path --scene path/files.json --trajectory path/traj.csv --bv kdop18
expect "path file against --bv says which" grep -q -- "^kdop: path/plate14.kdop: a kdop14 hierarchy, but --bv/--k asks for kdop18 (leave both out to use the file's)$" err.txt
check "path build env kdop26" 0 "$kdop" build --mesh path/plate.obj --role env --k 26 --out path/plate26.kdop
printf '{"environment": [{"name": "plate", "mesh": "plate26.kdop"}], "objects": [{"name": "box", "mesh": "box14.kdop"}]}' >path/mixed.json
check "path files of two types" 2 "$kdop" path --scene path/mixed.json --trajectory path/traj.csv
expect "path files of two types names both" grep -q -- "^kdop: path/box14.kdop: a kdop14 hierarchy, but path/plate26.kdop is a kdop26 one$" err.txt
printf 'v 0 0 0\nv 1 0 0\nf 1 2 3\n' >path/broken.obj
printf '{"objects": [{"name": "box", "mesh": "broken.obj"}]}' >path/broken.json
check "path broken mesh" 2 "$kdop" path --scene path/broken.json --trajectory path/traj.csv
expect "path broken mesh named" grep -q "broken.obj: line 3" err.txt
check "path help" 0 "$kdop" path --help
for flag in --scene --trajectory --continuous --step --clearance --time-tolerance --max-steps --threads --out --plot; do
  expect "path help mentions $flag" grep -q -- "$flag" out.txt
done

# --clearance on check and batch: unit cubes 0.5 apart along x.
check "check clearance within" 1 "$kdop" check --env cube.obj --object cube.obj --pose 1.5,0,0,1,0,0,0 --clearance 0.6
expect "check clearance distance" grep -q "min distance: 0.5$" out.txt
check "check clearance beyond" 0 "$kdop" check --env cube.obj --object cube.obj --pose 1.5,0,0,1,0,0,0 --clearance 0.4
check "check clearance json" 1 "$kdop" check --env cube.obj --object cube.obj --pose 1.5,0,0,1,0,0,0 --clearance 0.5 --all-contacts --json
expect "check clearance json distance" grep -q '"min_distance":0.5' out.txt
check "check clearance obb rejected" 2 "$kdop" check --env cube.obj --object cube.obj --pose 1.5,0,0,1,0,0,0 --clearance 0.5 --bv obb
check "check negative clearance" 2 "$kdop" check --env cube.obj --object cube.obj --clearance -1
printf 'pose_id,tx,ty,tz,qw,qx,qy,qz\nnear,1.5,0,0,1,0,0,0\nfar,3,0,0,1,0,0,0\n' >clear.csv
check "batch clearance" 1 "$kdop" batch --env cube.obj --object cube.obj --poses clear.csv --clearance 0.6 -q
expect "batch clearance column" grep -q "^pose_id,collides,contacts,n_v,n_p,n_u,time_us,env_triangle,object_triangle,min_distance$" out.txt
expect "batch clearance near" grep -q "^near,1,1,.*,0.5$" out.txt
expect "batch clearance far" grep -q "^far,0,0,.*,2$" out.txt
check "batch clearance json" 1 "$kdop" batch --env cube.obj --object cube.obj --poses clear.csv --clearance 0.6 -q --out clear.json --mode all
expect "batch clearance json distance" grep -q '"min_distance":2}' clear.json
# A corner exactly 5/1024 from a tilted face (plane 3x + 4y = 0.3 through exact doubles): within
# a clearance of exactly that distance, not within the next double below it.
printf 'v 0.115625 -0.01171875 0\nv 0.084375 0.01171875 0\nv 0.1 0 1\nf 1 2 3\n' > tilted_face.obj
printf 'v 0.1029296875 0.00390625 0.25\nv 9 9 9\nv 9 10 9\nf 1 2 3\n' > tilted_corner.obj
check "clearance exactly at the distance" 1 "$kdop" check --env tilted_face.obj --object tilted_corner.obj --clearance 0.0048828125
expect "clearance at the distance prints it" grep -q "min distance: 0.0048828125$" out.txt
check "clearance an ulp below the distance" 0 "$kdop" check --env tilted_face.obj --object tilted_corner.obj --clearance 0.004882812499999999
# Cases the double distance puts on the wrong side (an independent probe's, checked with exact
# rationals): parallel faces exactly 6.5 apart (the double says 6.500000000000001), and a pair
# more than 1.6666666666666657 apart (the double says 1.6666666666666656).
printf 'v 0.5 0.5 0.0\nv 4.9 -2.8000000000000003 0.0\nv 0.5 0.5 1.1\nf 1 2 3\n' > parallel_env.obj
printf 'v 5.5 4.875 0.275\nv 9.9 1.5749999999999997 0.275\nv 5.5 4.875 1.375\nf 1 2 3\n' > parallel_obj.obj
check "clearance exactly at a rounded distance" 1 "$kdop" check --env parallel_env.obj --object parallel_obj.obj --clearance 6.5
expect "clearance exactly at a rounded distance prints it" grep -q "min distance: 6.5$" out.txt
printf 'pose_id,tx,ty,tz,qw,qx,qy,qz\nat,0,0,0,1,0,0,0\n' > at_origin.csv
check "batch clearance exactly at a rounded distance" 1 "$kdop" batch --env parallel_env.obj --object parallel_obj.obj --poses at_origin.csv --clearance 6.5 --mode all -q
expect "batch clearance exactly at a rounded distance counts the pair" grep -q "^at,1,1,.*,6.5$" out.txt
printf 'v 0 0 0\nv 24 -18 0\nv 0 0 6\nf 1 2 3\n' > beyond_env.obj
printf 'v 7 -3.166666666666667 1.5\nv 37 -25.666666666666668 1.5\nv 7 -3.166666666666667 9\nf 1 2 3\n' > beyond_obj.obj
check "clearance just beyond a rounded distance" 0 "$kdop" check --env beyond_env.obj --object beyond_obj.obj --clearance 1.6666666666666656 --all-contacts
# Two pairs near D (the probe's): one exactly 6.5 apart, whose double distance is above the
# other's (6.50000000007761); just below 6.5 nothing is within, and the least distance is 6.5.
printf 'v 1048576.0 1048576.0 1048576.0\nv 1048656.0 1048536.0 1048576.0\nv 1048656.0 1048576.0 1048536.0\nf 1 2 3\n' > two_near_env.obj
printf 'v 1048635.5000000002 1048569.0 1048563.0\nv 1048635.5000000002 1048569.5 1048562.5\nv 1048636.5156250002 1048569.03125 1048562.53125\nv 1048635.5 1048571.5 1048560.5\nv 1048635.5 1048572.0 1048560.0\nv 1048636.515625 1048571.53125 1048560.03125\nf 1 2 3\nf 4 5 6\n' > two_near_obj.obj
check "two pairs near D: within at D" 1 "$kdop" check --env two_near_env.obj --object two_near_obj.obj --clearance 6.5 --all-contacts --json
expect "two pairs near D: the pair exactly at D" grep -q '"pairs":\[\[0,1\]\]' out.txt
check "two pairs near D: beyond just below" 0 "$kdop" check --env two_near_env.obj --object two_near_obj.obj --clearance 6.499999999999999
expect "two pairs near D: the least distance is the exact one" grep -q "min distance: 6.5$" out.txt

# kdop nc --moves: a G-code program expanded into its moves.
mkdir -p nc && cat >nc/part.ngc <<'NGC'
%
(a pocket corner and a drilled hole)
N10 G21 G90 G17 F300
N20 G0 X0 Y0 Z5
N30 G1 Z-1
N40 G2 X10 Y0 I5 J0
N50 G81 X20 Y0 Z-3 R2
N60 G80 M30
%
NGC
check "nc moves" 0 "$kdop" nc --program nc/part.ngc --moves nc/moves.csv
expect "nc moves header" grep -q "^line,n,kind,x0,y0,z0,x1,y1,z1,cx,cy,cz,plane,dir,turns,tool,tool_length,block$" nc/moves.csv
expect "nc moves arc row" grep -q "^6,40,arc,0,0,-1,10,0,-1,5,0,-1,17,cw,1,0,0,N40 G2 X10 Y0 I5 J0$" nc/moves.csv
expect "nc moves rows" test "$(wc -l <nc/moves.csv)" -eq 8
printf 'G21 F100\nG0 X0\nG2 X10 Y0 R4\n' >nc/bad.ngc
check "nc without setup or moves" 2 "$kdop" nc --program nc/part.ngc
expect "nc without setup or moves says so once" grep -q "^kdop: give --setup SETUP.json" err.txt
check "nc bad program" 2 "$kdop" nc --program nc/bad.ngc --moves nc/bad.csv
expect "nc error names the line" grep -q "nc/bad.ngc: line 3: arc radius" err.txt
expect "nc no partial output" test ! -e nc/bad.csv
expect "nc no temporary left" test -z "$(ls nc | grep tmp)"
check "nc without --moves" 2 "$kdop" nc --program nc/part.ngc
expect "nc says --setup" grep -q -- "--setup" err.txt
check "nc missing program" 2 "$kdop" nc --program nc/none.ngc --moves nc/x.csv
check "nc bad extension" 2 "$kdop" nc --program nc/part.ngc --moves nc/x.txt
printf 'G21 G90\rG0 X10\rY20\r' >nc/cr.ngc
check "nc CR-only line endings" 2 "$kdop" nc --program nc/cr.ngc --moves nc/cr.csv
expect "nc CR-only line endings named" grep -q "^kdop: nc/cr.ngc: line 1: carriage return inside the line" err.txt
expect "nc CR-only: no moves file" test ! -e nc/cr.csv

# kdop nc --setup: the example job (examples/nc) has one rapid into the stock, one 0.5 mm gouge
# and the holder running into a jaw.
cp -r "$repo/examples/nc" ncx
check "nc check finds" 1 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --out ncx/r.json
expect "nc json rapid" grep -q '"line":16,"n":120,"block":"N120 G0 Z-1","kind":"rapid_into_material","tool_part":"cutter","object":"stock"' ncx/r.json
expect "nc json gouge" grep -q '"kind":"gouge","tool_part":"cutter","object":"part","position":\[30.0,20.0,' ncx/r.json
expect "nc json holder" grep -q '"line":24,"n":180,"block":"N180 G1 Z-2 F300","kind":"collision","tool_part":"holder","object":"jaw"' ncx/r.json
# Positions to 0.1 micron and depths rounded up to 1e-6 mm: no float noise (-200.00003051757812).
expect "nc json position rounded" grep -q '"object":"stock","position":\[70.0,45.0,-200.0\],"depth":1.00000[0-9],' ncx/r.json
check "nc csv report" 1 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --out ncx/r.csv
expect "nc csv position rounded" grep -q "^16,120,N120 G0 Z-1,rapid_into_material,cutter,stock,70,45,-200,1.00000[0-9],0,0,8$" ncx/r.csv
expect "nc json summary" grep -q '"summary": {"moves":17,"unchecked_moves":0,"findings":5,"collisions":3,"rapids_into_material":1,"gouges":1' ncx/r.json
# The stock is followed as it is cut: a rapid into the faced band is clear on the box stock, and a
# possible false alarm (labelled) on the same stock given as a mesh, which has no removal model.
check "nc stock model clears" 0 "$kdop" nc --setup ncx/setup.json --program ncx/face_then_rapid.nc --out ncx/f.json
expect "nc stock model summary" grep -q '"stock_model":"height_field","stock_cell":[0-9.e-]*,"cleared_by_stock_model":1' ncx/f.json
expect "nc no gouge: depth 0, not -0" grep -q '"max_gouge_depth":0.0,' ncx/f.json
printf 'v 0 0 -220\nv 100 0 -220\nv 0 60 -220\nv 100 60 -220\nv 0 0 -200\nv 100 0 -200\nv 0 60 -200\nv 100 60 -200\nf 1 3 4\nf 1 4 2\nf 5 6 8\nf 5 8 7\nf 1 2 6\nf 1 6 5\nf 3 7 8\nf 3 8 4\nf 1 5 7\nf 1 7 3\nf 2 4 8\nf 2 8 6\n' > ncx/stock.obj
sed 's|"stock": {"box": \[0, 0, -220, 100, 60, -200\]}|"stock": {"mesh": "stock.obj"}|' ncx/setup.json > ncx/setup_mesh.json
# A mesh stock is followed as it is cut too (a height field bounding it from above).
check "nc mesh stock clears" 0 "$kdop" nc --setup ncx/setup_mesh.json --program ncx/face_then_rapid.nc --out ncx/fm.json
expect "nc mesh stock summary" grep -q '"stock_model":"height_field","stock_cell":[0-9.e-]*,"cleared_by_stock_model":1' ncx/fm.json
check "nc stock cell" 0 "$kdop" nc --setup ncx/setup.json --program ncx/face_then_rapid.nc --stock-cell 0.2
expect "nc stock cell used" grep -q "height field, 0.2 mm cells" out.txt
check "nc stock cell needs setup" 2 "$kdop" nc --program ncx/face_then_rapid.nc --moves ncx/m.csv --stock-cell 0.2
# Every output waits for the check to end, and a folder that does not exist fails before it.
check "nc out in a missing folder" 2 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --moves ncx/early.csv --out ncx/nodir/r.json
expect "nc out in a missing folder: no moves either" test ! -e ncx/early.csv
# A file name holding a line break: the error is still one line (control bytes as \xNN), for a
# bad file so named, a missing one, and an unknown command.
printf 'v 1 2\n' >"$(printf 'bad\nname.obj')"
check "error with a line break in a file name" 2 "$kdop" check --env "$(printf 'bad\nname.obj')" --object cube.obj
expect "error with a line break in a file name: one line" test "$(wc -l <err.txt)" -eq 1
expect "error with a line break in a file name: escaped" grep -qF 'bad\x0aname.obj: line 1' err.txt
rm -f "$(printf 'bad\nname.obj')"
check "missing file with a line break in its name" 2 "$kdop" check --env "$(printf 'gone\nname.obj')" --object cube.obj
expect "missing file with a line break in its name: escaped" grep -qF 'gone\x0aname.obj' err.txt
check "unknown command with a line break" 2 "$kdop" "$(printf 'chk\nx')"
expect "unknown command with a line break: one line" test "$(wc -l <err.txt)" -eq 1
# Outputs are all or none: one that fails late (a full device) leaves no other output and no
# temporaries (found by a hostile walk: the report stayed). kdop batch: the pairs file fails as
# it is finished, before the results are renamed.
rm -f with_full_pairs.csv
check "batch outputs together" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode all --out with_full_pairs.csv --pairs /dev/full -q
expect "batch outputs together: no results file" test ! -e with_full_pairs.csv
expect "batch outputs together says why" grep -q "^kdop: /dev/full: cannot write (No space left on device)$" err.txt
check "nc outputs together" 2 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --moves ncx/together.csv --out ncx/together.json --plot /dev/full
expect "nc outputs together says why" grep -q "^kdop: /dev/full: cannot write (No space left on device)$" err.txt
expect "nc outputs together: no report" test ! -e ncx/together.json
expect "nc outputs together: no moves" test ! -e ncx/together.csv
expect "nc outputs together: no temporaries" test -z "$(ls ncx | grep tmp)"
check "nc threads out of range" 2 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --threads 100000000
# A canned cycle that would expand past the memory budget is refused before it expands (found by
# the G-code fuzzer as an out-of-memory kill).
printf 'G21 G90\nG83 X4 Y1 Z-9 R9199. Q0.9 L1000 F100\n' > ncx/huge_cycle.nc
check "nc cycle beyond the budget" 2 "$kdop" nc --program ncx/huge_cycle.nc --moves ncx/huge.csv --max-memory 100M
expect "nc cycle beyond the budget says why" grep -q "huge_cycle.nc: line 2: G83 would make about 30700000 moves, more than the limit of [0-9]* (about [0-9]* bytes each within the 100.0 MB --max-memory allows)" err.txt
expect "nc cycle beyond the budget no output" test ! -e ncx/huge.csv
# A peck depth typed a million times too small (a user's probe: 36 million moves and 13 GB before).
printf 'G21 G90 G54\nT1 M6\nG43 H1\nG0 X50 Y30 Z30\nG83 X50 Y30 Z-10 R2 Q0.000001 F100\n' > ncx/tiny_q.nc
check "nc tiny peck refused" 2 "$kdop" nc --setup ncx/setup.json --program ncx/tiny_q.nc --out ncx/tiny_q.json
expect "nc tiny peck says why" grep -q "^kdop: ncx/tiny_q.nc: line 5: G83 with Q1e-06 would peck 12000000 times per hole, more than 100000: Q is the peck depth, in the program's units$" err.txt
expect "nc tiny peck no output" test ! -e ncx/tiny_q.json
check "nc stock cell positive" 2 "$kdop" nc --setup ncx/setup.json --program ncx/face_then_rapid.nc --stock-cell 0
# A number beyond double's range in a JSON file: named by byte and key path, no report.
sed 's/"tolerance": [0-9.]*/"tolerance": 1e400/' ncx/setup.json > ncx/huge_number.json
check "nc setup number beyond double" 2 "$kdop" nc --setup ncx/huge_number.json --program ncx/demo.nc --out ncx/huge_number.csv
expect "nc setup number beyond double says where" grep -q "^kdop: ncx/huge_number.json: byte [0-9]*: tolerance: expected a number within double's range (magnitude below 1.8e308), got 1e400$" err.txt
expect "nc setup number beyond double: no report" test ! -e ncx/huge_number.csv
# A program with no move has nothing to check: refused (an empty or wrong file), and expanded to a
# header alone.
: > ncx/empty.nc
printf '%%\n(only words)\nG21 G90\nM30\n%%\n' > ncx/no_motion.nc
check "nc empty program" 2 "$kdop" nc --setup ncx/setup.json --program ncx/empty.nc --out ncx/empty.json
expect "nc empty program says so" grep -q "^kdop: ncx/empty.nc: no moves (expected G0, G1, G2, G3 or a canned cycle), nothing to check$" err.txt
expect "nc empty program: no report" test ! -e ncx/empty.json
check "nc program without motion" 2 "$kdop" nc --setup ncx/setup.json --program ncx/no_motion.nc
expect "nc program without motion says so" grep -q "ncx/no_motion.nc: no moves" err.txt
check "nc program without motion expands" 0 "$kdop" nc --program ncx/no_motion.nc --moves ncx/none.csv
expect "nc program without motion: header only" test "$(wc -l <ncx/none.csv)" -eq 1
# A stock smaller than the tool: the default cell stops at 0.01 mm (0.001 mm cells took minutes).
printf '{"units": "mm", "stock": {"box": [0, 0, -201, 1, 1, -200]}, "tools": "tools.json", "work_offsets": {"G54": [0, 0, -200]}}\n' > ncx/tiny.json
printf 'G21 G90 G54\nT1 M6\nG43 H1\nG0 X0.5 Y0.5 Z10\nG0 Z-0.5\nG1 X1 F800\nG1 Y1\nG0 Z10\nM30\n' > ncx/tiny.nc
check "nc tiny stock" 1 "$kdop" nc --setup ncx/tiny.json --program ncx/tiny.nc
expect "nc tiny stock cell" grep -q "height field, 0.01 mm cells" out.txt
# An inch program with an inch tool library (G20, "units": "inch"): positions in mm.
printf 'G20 G90 G54\nT1 M6\nG43 H1\nG0 X2.75 Y1.75 Z1.2\nG0 Z-0.04\nG0 Z1.2\nM30\n' > ncx/inch.nc
printf 'G20 G90 G54\nT1 M6\nG43 H1\nG0 X2.75 Y1.75 Z1.2\nG0 Z0.001\nG0 Z1.2\nM30\n' > ncx/inch_clear.nc
cat > ncx/tools_in.json <<'JSON'
{"units": "inch", "tools": {"1": {"shape": "flat", "diameter": 0.375, "cutting_length": 0.875,
  "shank_diameter": 0.375, "length": 2.375, "holder": [
  {"height": 0.625, "lower_diameter": 1, "upper_diameter": 1},
  {"height": 1, "lower_diameter": 1.25, "upper_diameter": 1.75}]}}}
JSON
check "nc inch program" 1 "$kdop" nc --setup ncx/setup.json --tools ncx/tools_in.json --program ncx/inch.nc
expect "nc inch rapid in mm" grep -q "line 5: rapid_into_material, cutter with stock at (69.8500, 44.4500, -\(200.0000\|199.9999\))" out.txt
check "nc inch program 0.001 in above" 0 "$kdop" nc --setup ncx/setup.json --tools ncx/tools_in.json --program ncx/inch_clear.nc
# A CAMotics tool table (no holders there): the holder collisions go, the rest stays.
printf '{"1": {"units": "mm", "shape": "Cylindrical", "length": 22, "diameter": 10, "number": 1}}\n' > ncx/camotics.json
check "nc camotics tools" 1 "$kdop" nc --setup ncx/setup.json --tools ncx/camotics.json --program ncx/demo.nc
expect "nc camotics findings" grep -q "^findings: 2 (0 collisions, 1 rapid into material, 1 gouge)" out.txt
expect "nc camotics gouge" grep -q "line 20: gouge, cutter with part" out.txt
check "nc check csv" 1 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --out ncx/r.csv -q
expect "nc csv header" grep -q "^line,n,block,kind,tool_part,object,x,y,z,depth,near,initial_stock,move$" ncx/r.csv
expect "nc csv rows" test "$(wc -l <ncx/r.csv)" -eq 6
# --plot: PNG or SVG by extension; any other name is refused before the check, leaving nothing.
check "nc plot png" 1 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --plot ncx/plot.png -q
expect "nc plot png magic" test "$(head -c 8 ncx/plot.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a"
expect "nc plot png size" test "$(od -An -tu1 -j16 -N8 ncx/plot.png | tr -s ' ')" = " 0 0 4 176 0 0 2 188"
check "nc plot svg" 1 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --out ncx/p.json --plot ncx/plot.svg -q
expect "nc plot svg desc" grep -q "<desc>demo.nc: 17 moves, 5 findings (3 collisions, 1 rapid into material, 1 gouge)" ncx/plot.svg
expect "nc plot svg closed" grep -q "</svg>" ncx/plot.svg
expect "nc plot no temporary left" test -z "$(ls ncx | grep tmp)"
check "nc plot bad extension" 2 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --plot ncx/plot.bmp
expect "nc plot bad extension says why" grep -q -- "--plot: ncx/plot.bmp: unknown extension '.bmp' (expected .svg or .png)" err.txt
expect "nc plot bad extension checks nothing" test ! -s out.txt
expect "nc plot bad extension leaves no file" test -z "$(ls ncx | grep bmp)"
check "nc plot needs setup" 2 "$kdop" nc --program ncx/demo.nc --moves ncx/m.csv --plot ncx/plot2.png
expect "nc plot needs setup leaves no file" test ! -e ncx/plot2.png -a ! -e ncx/m.csv
check "nc help" 0 "$kdop" nc --help
expect "nc help mentions --plot" grep -q -- "--plot" out.txt
check "nc summary on stdout" 1 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --threads 1
expect "nc summary gouge line" grep -q "line 20: gouge, cutter with part" out.txt
# Fixed: the gouge within the tolerance, the rapid a feed, the cut away from the jaw.
sed -e 's/N120 G0 Z-1/N120 G1 Z-1 F300/' -e 's/Z-5.5/Z-5.005/' -e 's/Y52/Y40/' ncx/demo.nc >ncx/fixed.nc
check "nc fixed program is clean" 0 "$kdop" nc --setup ncx/setup.json --program ncx/fixed.nc
check "nc tolerance option" 1 "$kdop" nc --setup ncx/setup.json --program ncx/fixed.nc --tolerance 0.001
check "nc setup missing" 2 "$kdop" nc --setup ncx/none.json --program ncx/demo.nc
check "nc bad out extension" 2 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --out ncx/r.txt
expect "nc no report on error" test ! -e ncx/r.txt
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >ncx/open.obj
sed 's/"part.obj"/"open.obj"/' ncx/setup.json >ncx/open.json
check "nc part not a solid" 2 "$kdop" nc --setup ncx/open.json --program ncx/demo.nc
expect "nc solid error names it" grep -q "open.obj: part is not a closed solid" err.txt
printf 'G21 G90\nT7 M6\nG0 X0\n' >ncx/t7.nc
check "demo nc finds its three mistakes" 1 "$kdop" demo nc
expect "demo nc rapid" grep -q "line 15: rapid_into_material, cutter with stock" out.txt
expect "demo nc gouge" grep -q "line 27: gouge, cutter with part .* depth 0.5" out.txt
expect "demo nc holder" grep -q "line 31: collision, holder with jaw" out.txt
expect "demo nc follows the stock" grep -q "^stock: followed as it is cut (height field" out.txt
# Its files go to a new folder of its own (mkdtemp), removed at the end; a link planted under the
# name an earlier version used (kdop-demo-nc-PID) is not followed.
mkdir -p demo_tmp victim && echo precious >victim/setup.json
check "demo nc in its own folder" 1 env TMPDIR="$PWD/demo_tmp" bash -c 'ln -s "$PWD/victim" "demo_tmp/kdop-demo-nc-$$" && exec "$0" demo nc' "$kdop"
expect "demo nc in its own folder: the link's target untouched" test "$(cat victim/setup.json)" = precious
expect "demo nc in its own folder: removed (only the planted link is left)" test "$(find demo_tmp -mindepth 1 | wc -l)" -eq 1
expect "demo nc finds five" grep -q "^findings: 5 (3 collisions, 1 rapid into material, 1 gouge)" out.txt
expect "demo nc leaves no files" test -z "$(ls /tmp | grep "kdop-demo-nc-" || true)"
check "demo nc without a temporary folder" 2 env TMPDIR="$PWD/no_such_dir" "$kdop" demo nc
expect "demo nc without a temporary folder says TMPDIR" grep -q "^kdop: demo nc: no folder for temporary files (TMPDIR=.*no_such_dir)" err.txt
expect "demo nc without a temporary folder: one line" test "$(wc -l <err.txt)" -eq 1
# Without G43 the tool sits 60 mm low, its shank and holder inside the stock and the part: the
# stock model judges those findings quickly (its block bounds), and the shank's top face touching
# the stock's and the part's bottom (both at z = -220) is a contact on both, neither 'near'.
printf 'G21 G90 G54\nT1 M6\nG0 X50 Y30 Z20\nG0 Z10\nM30\n' >ncx/nog43.nc
check "nc tool buried without G43" 1 "$kdop" nc --setup ncx/setup.json --program ncx/nog43.nc --out ncx/nog43.json
expect "nc tool buried: ten findings" grep -q '"collisions":8,"rapids_into_material":2' ncx/nog43.json
expect "nc tool buried: the shank's touch alike on stock and part" test "$(grep -c '"block":"G0 Z10","kind":"collision","tool_part":"shank","object":"\(stock\|part\)".*"near":false' ncx/nog43.json)" -eq 2
check "nc unknown tool" 2 "$kdop" nc --setup ncx/setup.json --program ncx/t7.nc
expect "nc unknown tool line" grep -q "t7.nc: line 2" err.txt
# A program that relies on a preloaded tool (no M6): with no tool at all nothing could be checked,
# so it is refused; --tool or the setup's "initial_tool" loads one.
grep -v "T1 M6" ncx/demo.nc >ncx/nom6.nc
check "nc no tool refused" 2 "$kdop" nc --setup ncx/setup.json --program ncx/nom6.nc --out ncx/nom6.json
expect "nc no tool says where and how" grep -q "^kdop: ncx/nom6.nc: line 6: no tool is loaded .* --tool N or \"initial_tool\": N in ncx/setup.json$" err.txt
expect "nc no tool one line" test "$(wc -l <err.txt)" -eq 1
expect "nc no tool no report" test ! -e ncx/nom6.json
check "nc --tool loads one" 1 "$kdop" nc --setup ncx/setup.json --program ncx/nom6.nc --tool 1
expect "nc --tool checks every move" grep -q "^ncx/nom6.nc: 17 moves checked$" out.txt
expect "nc --tool finds the mistakes" grep -q "line 19: gouge, cutter with part" out.txt
sed 's/"tolerance": 0.01,/"tolerance": 0.01, "initial_tool": 1,/' ncx/setup.json >ncx/preloaded.json
check "nc initial_tool loads one" 1 "$kdop" nc --setup ncx/preloaded.json --program ncx/nom6.nc
expect "nc initial_tool checks every move" grep -q "^ncx/nom6.nc: 17 moves checked$" out.txt
check "nc --tool overrides initial_tool" 2 "$kdop" nc --setup ncx/preloaded.json --program ncx/nom6.nc --tool 0
sed 's/"tolerance": 0.01,/"tolerance": 0.01, "initial_tool": 9,/' ncx/setup.json >ncx/preloaded9.json
check "nc unknown initial_tool" 2 "$kdop" nc --setup ncx/preloaded9.json --program ncx/nom6.nc
expect "nc unknown initial_tool key path" grep -q "^kdop: ncx/preloaded9.json: initial_tool: tool 9 is not in the tool table" err.txt
check "nc unknown --tool" 2 "$kdop" nc --setup ncx/setup.json --program ncx/nom6.nc --tool 9
expect "nc unknown --tool says so" grep -q "^kdop: --tool: tool 9 is not in the tool table" err.txt
check "nc --tool needs setup" 2 "$kdop" nc --program ncx/nom6.nc --moves ncx/m.csv --tool 1
# Moves before the first tool change are not checked, and the summary says so without
# contradicting itself.
sed 's/^N20 T1 M6$/N15 G0 X-50\nN20 T1 M6/' ncx/demo.nc >ncx/late_m6.nc
check "nc moves before the first M6" 1 "$kdop" nc --setup ncx/setup.json --program ncx/late_m6.nc --out ncx/late.json
expect "nc moves before the first M6 summary" grep -q "^ncx/late_m6.nc: 18 moves, 17 checked, 1 before the first tool change (empty spindle)$" err.txt
expect "nc moves before the first M6 json" grep -q '"summary": {"moves":18,"unchecked_moves":1,' ncx/late.json
# Where the machine starts: a natural setup (stock top at machine z = 0, G54 at 0) collides on the
# first move from the machine origin, and is clean with a start above the stock. Without a part
# the summary says that gouges were not checked.
mkdir -p ncs && cp ncx/tools.json ncs/
printf '{"stock": {"box": [0, 0, -20, 100, 60, 0]}, "tools": "tools.json"}\n' >ncs/origin.json
printf '{"stock": {"box": [0, 0, -20, 100, 60, 0]}, "tools": "tools.json", "start": [0, 0, 200]}\n' >ncs/start.json
printf 'G21 G90 G17 G54\nT1 M6\nG43 H1\nG0 X5 Y5 Z10\nG0 Z2\nG1 Z-2 F300\nG1 X50\nG0 Z10\nM30\n' >ncs/p1.nc
check "nc start at the machine origin" 1 "$kdop" nc --setup ncs/origin.json --program ncs/p1.nc
expect "nc start at the origin collides on the first move" grep -q "line 4: collision, holder with stock" out.txt
check "nc start above the stock" 0 "$kdop" nc --setup ncs/start.json --program ncs/p1.nc --moves ncs/m.csv
expect "nc start is the first move's start" grep -q "^4,,rapid,0,0,100,5,5,10," ncs/m.csv
expect "nc no part: gouges not checked" grep -q "^findings: 0 (0 collisions, 0 rapids into material; gouges not checked: the setup has no part)$" out.txt

# Determinism (issue 8): 1, 2 and 8 threads give byte-identical results, timings left out, for
# batch --mode all (results and pairs) and for continuous path reports.
mkdir -p det
python3 - <<'PY'
import math, random
random.seed(5)
def latlong(path, r, n, m, shift=(0, 0, 0)):
    with open(path, "w") as f:
        for i in range(n + 1):
            th = math.pi * i / n
            for j in range(m):
                ph = 2 * math.pi * j / m
                f.write("v %.17g %.17g %.17g\n" % (shift[0] + r * math.sin(th) * math.cos(ph),
                        shift[1] + r * math.sin(th) * math.sin(ph), shift[2] + r * math.cos(th)))
        for i in range(n):
            for j in range(m):
                a, b = i * m + j + 1, i * m + (j + 1) % m + 1
                c, d = a + m, b + m
                if i > 0: f.write("f %d %d %d\n" % (a, c, b))
                if i < n - 1: f.write("f %d %d %d\n" % (b, c, d))
latlong("det/env.obj", 1.0, 40, 60)
latlong("det/obj.obj", 0.4, 12, 16)
with open("det/poses.csv", "w") as f:
    f.write("pose_id,tx,ty,tz,qw,qx,qy,qz\n")
    for k in range(600):
        q = [random.gauss(0, 1) for _ in range(4)]
        f.write("p%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n" % (
            k, random.uniform(-1.5, 1.5), random.uniform(-1.5, 1.5), random.uniform(-1.5, 1.5), *q))
with open("det/traj.csv", "w") as f:
    f.write("t,object,tx,ty,tz,qw,qx,qy,qz\n")
    for k in range(40):
        f.write("%d,ball,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n" % (
            k, random.uniform(-0.45, 0.45), random.uniform(-0.45, 0.45),
            random.uniform(-0.45, 0.45), *[random.gauss(0, 1) for _ in range(4)]))
with open("det/scene.json", "w") as f:
    f.write('{"environment": [{"name": "shell", "mesh": "env.obj"}], '
            '"objects": [{"name": "ball", "mesh": "obj.obj"}]}\n')
PY
strip_times() {  # JSON without timing keys, canonical
  python3 -c 'import json, sys
def drop(x):
    if isinstance(x, dict): return {k: drop(v) for k, v in x.items() if k not in ("time_us", "time_s", "threads", "poses_per_s")}
    if isinstance(x, list): return [drop(v) for v in x]
    return x
print(json.dumps(drop(json.load(open(sys.argv[1]))), sort_keys=True))' "$1"
}
for t in 1 2 8; do
  check "determinism batch $t threads" 1 "$kdop" batch --env det/env.obj --object det/obj.obj --poses det/poses.csv --mode all --threads $t --out det/b$t.json --pairs det/p$t.csv -q
  check "determinism path $t threads" 1 "$kdop" path --scene det/scene.json --trajectory det/traj.csv --continuous --threads $t --out det/path$t.json -q
done
expect "determinism batch has contacts" test "$(wc -l <det/p1.csv)" -gt 100
expect "determinism batch 1 = 2 threads" test "$(strip_times det/b1.json)" = "$(strip_times det/b2.json)"
expect "determinism batch 1 = 8 threads" test "$(strip_times det/b1.json)" = "$(strip_times det/b8.json)"
expect "determinism pairs 1 = 2 = 8 threads" sh -c "cmp -s det/p1.csv det/p2.csv && cmp -s det/p1.csv det/p8.csv"
expect "determinism path has free and colliding segments" sh -c "grep -q '\"status\":\"free\"' det/path1.json && grep -q '\"status\":\"collides\"' det/path1.json"
expect "determinism path 1 = 2 threads" test "$(strip_times det/path1.json)" = "$(strip_times det/path2.json)"
expect "determinism path 1 = 8 threads" test "$(strip_times det/path1.json)" = "$(strip_times det/path8.json)"

# Memory limits (issue 8): a mesh whose hierarchy would not fit is refused before building.
check "max memory refuses" 2 "$kdop" check --env cube.obj --object cube.obj --max-memory 2000
expect "max memory message" grep -q "cube.obj: 12 triangles need about 5400 bytes to build (about 450 bytes per triangle), more than the 2000 bytes --max-memory allows" err.txt
# The moving object's build needs more (its DOP vertices and convex hull): the environment fits,
# the same mesh as the object does not.
check "max memory refuses the object" 2 "$kdop" check --env cube.obj --object cube.obj --max-memory 6000
expect "max memory object message" grep -q "cube.obj: 12 triangles need about 11400 bytes to build (about 950 bytes per triangle), more than the [0-9]* bytes left of the 6000 bytes --max-memory allows (the hierarchies built or read before it hold [0-9]* bytes)" err.txt
# The budget bounds the whole run: the object's build alone fits in 12,000 bytes, but not beside
# the environment's hierarchy built before it.
check "max memory counts the environment" 2 "$kdop" check --env cube.obj --object cube.obj --max-memory 12000
expect "max memory counts the environment: message" grep -q "cube.obj: 12 triangles need about 11400 bytes to build (about 950 bytes per triangle), more than the [0-9]* bytes left of the 12000 bytes --max-memory allows (the hierarchies built or read before it hold [0-9]* bytes)" err.txt
check "max memory object alone fits" 1 "$kdop" check --env cube.obj --object cube.obj --max-memory 20000
check "max memory file" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --max-memory 100
expect "max memory file message" grep -q "cube.obj: the file has .* bytes, more than the 100 bytes --max-memory allows" err.txt
check "max memory enough" 1 "$kdop" check --env cube.obj --object cube.obj --max-memory 1M
# Hierarchy files count too: the environment's file (2,964 bytes held) leaves too little of 8000
# for the object's 9,024-byte file, which is refused before it is mapped.
"$kdop" build --mesh cube.obj --out mm_env.kdop 2>/dev/null
"$kdop" build --mesh cube.obj --role object --out mm_object.kdop 2>/dev/null
check "max memory counts a hierarchy file" 2 "$kdop" check --env mm_env.kdop --object mm_object.kdop --max-memory 8000
expect "max memory counts a hierarchy file: message" grep -q "mm_object.kdop: the file has 9024 bytes, more than the 5036 bytes left of the 8000 bytes --max-memory allows (the hierarchies built or read before it hold 2964 bytes)" err.txt
check "max memory hierarchy files fit" 1 "$kdop" check --env mm_env.kdop --object mm_object.kdop --max-memory 12000
rm -f mm_env.kdop mm_object.kdop
# An address-space limit (ulimit -v) below MemAvailable is the budget too: a file larger than it
# is refused (reading it would fail in mimalloc's operator new, which aborts). Not under the
# sanitizers, which reserve terabytes of address space. (grep reads all of nm's output: with -q it
# would stop early, nm would die of SIGPIPE, and pipefail would make the test run anyway.)
if ! nm "$kdop" 2>/dev/null | grep -E '__(asan|tsan)_' >/dev/null; then
  truncate -s 3G sparse3g.stl
  check "address-space limit refuses" 2 bash -c 'ulimit -v 2000000 && exec "$0" check --env sparse3g.stl --object cube.obj' "$kdop"
  expect "address-space limit message" grep -q "sparse3g.stl: the file has 3.22 GB, more than the .* that half the address space left under ulimit -v allows" err.txt
  # Even with --max-memory above it, and for a file just under the limit (the space in use and
  # the allocator's reservations count too).
  truncate -s 1900M sparse19.stl
  check "address-space limit under --max-memory" 2 bash -c 'ulimit -v 2000000 && exec "$0" check --env sparse19.stl --object cube.obj --max-memory 100G' "$kdop"
  expect "address-space limit under --max-memory: message" grep -q "sparse19.stl: the file has 1.99 GB, more than the .* that half the address space left under ulimit -v allows" err.txt
  rm -f sparse19.stl
  rm -f sparse3g.stl
fi
check "max memory nc mesh" 2 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --max-memory 100
expect "max memory nc mesh message" grep -q "part.obj: the file has .* bytes, more than the 100 bytes --max-memory allows" err.txt
check "max memory nc files together" 2 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --max-memory 300
expect "max memory nc files together: message" grep -q "clamp.obj: the file has 303 bytes, more than the 31 bytes left of the 300 bytes --max-memory allows (the setup's mesh files before it hold 269 bytes)" err.txt
# The part's build (12 triangles, 5,400 bytes) beside the stock box's tree.
check "max memory nc counts the stock" 2 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --max-memory 10000
expect "max memory nc counts the stock: message" grep -q "part.obj: 12 triangles need about 5400 bytes to build (about 450 bytes per triangle), more than the [0-9]* bytes left of the 10000 bytes --max-memory allows (the hierarchies built or read before it hold [0-9]* bytes)" err.txt
check "max memory nc fits" 1 "$kdop" nc --setup ncx/setup.json --program ncx/demo.nc --max-memory 20000
# A (sparse) mesh file larger than the memory: refused by kdop path before reading, not aborted
# by the allocator.
truncate -s 4T path/huge.stl
sed 's|"mesh": "plate.obj"|"mesh": "huge.stl"|' path/scene.json >path/huge_scene.json
check "path mesh larger than memory" 2 "$kdop" path --scene path/huge_scene.json --trajectory path/traj.csv
expect "path mesh larger than memory message" grep -q "huge.stl: the file has .* more than the .* available" err.txt
check "path max memory" 2 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --max-memory 100
expect "path max memory message" grep -q "box.obj: the file has [0-9]* bytes, more than the 65 bytes left of the 100 bytes --max-memory allows (the scene's files before it hold 35 bytes)" err.txt
# The files fit, but the box's build (12 triangles, 11,400 bytes as a moving object) does not fit
# beside the plate's tree (724 bytes).
check "path max memory counts the environment" 2 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --max-memory 12000
expect "path max memory counts the environment: message" grep -q "box.obj: 12 triangles need about 11400 bytes to build (about 950 bytes per triangle), more than the 11276 bytes left of the 12000 bytes --max-memory allows (the hierarchies built or read before it hold 724 bytes)" err.txt
check "path max memory fits" 0 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --max-memory 14000
check "path max memory steps" 2 "$kdop" path --scene path/scene.json --trajectory path/traj.csv --step 1e-6 --max-memory 1M
expect "path max memory steps message" grep -q "would take about 1e+06 samples (about 400 bytes each), more than the 1.0 MB --max-memory allows; use a larger --step" err.txt
rm -f path/huge.stl
check "max memory malformed" 2 "$kdop" check --env cube.obj --object cube.obj --max-memory 12x
check "max memory build" 2 "$kdop" build --mesh cube.obj --out never.kdop --max-memory 1K
expect "max memory build leaves no file" test ! -e never.kdop

# Help documents every flag.
check "help" 0 "$kdop" --help
expect "help mentions demo nc" grep -q "kdop demo nc" out.txt
check "check help" 0 "$kdop" check --help
for flag in --env --object --pose --matrix --clearance --bv --k --all-contacts --json --out --rule --split --bins --all-directions --env-leaf --object-leaf --tumble --descent --root; do
  expect "check help mentions $flag" grep -q -- "$flag" out.txt
done
check "demo help" 0 "$kdop" demo --help
# A seed past 2^64 - 1, or negative, is refused (CLI11 alone wrapped or saturated it).
check "demo seed past uint64" 2 "$kdop" demo --steps 1 --seed 18446744073709551616
expect "demo seed past uint64 says so" grep -q "^kdop: --seed: expected a whole number from 0 to 18446744073709551615, got '18446744073709551616'" err.txt
check "demo seed negative" 2 "$kdop" demo --steps 1 --seed -1
expect "demo help names no hierarchy files" bash -c "! grep -q 'hierarchy file' out.txt"
check "path help" 0 "$kdop" path --help
expect "path help mentions --k" grep -q -- "--k " out.txt
# kdop-nc-bench (beside kdop in a build tree) answers --help and refuses an unknown option instead
# of running the benchmark (the timeout keeps a regression from running it in full).
nc_bench="$(dirname "$kdop")/../../bench/kdop-nc-bench"
if [[ -x "$nc_bench" ]]; then
  check "nc bench help" 0 timeout 20 "$nc_bench" --help
  expect "nc bench usage" grep -q "^usage: kdop-nc-bench" out.txt
  check "nc bench unknown option" 2 timeout 20 "$nc_bench" --threads
  expect "nc bench unknown option says so" grep -q "unknown option --threads" err.txt
  check "nc bench missing value" 2 timeout 20 "$nc_bench" --moves
fi
# An output never overwrites an input or the other output: refused before any work, the input
# left as it was, no output file.
cp poses.csv same.csv
check "out is the pose file" 2 "$kdop" batch --env cube.obj --object cube.obj --poses same.csv --out same.csv -q
expect "out is the pose file says so" grep -q "^kdop: --out: same.csv is the --poses file; it would be overwritten$" err.txt
expect "pose file kept" cmp -s same.csv poses.csv
check "pairs is the out file" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode all --out twice.csv --pairs ./twice.csv -q
expect "pairs is the out file says so" grep -q "^kdop: --pairs: ./twice.csv is also the --out file$" err.txt
expect "pairs is the out file: no file" test ! -e twice.csv
cp cube.obj env_copy.obj
check "check out is the env" 2 "$kdop" check --env env_copy.obj --object cube.obj --out "$PWD/env_copy.obj"
expect "check out is the env: mesh kept" cmp -s env_copy.obj cube.obj
check "build out is the mesh" 2 "$kdop" build --mesh env_copy.obj --out ./env_copy.obj
expect "build out is the mesh: mesh kept" cmp -s env_copy.obj cube.obj
check "build out named as a mesh" 2 "$kdop" build --mesh cube.obj --out cube_tree.obj
expect "build out named as a mesh says .kdop" grep -q -- "^kdop: --out: cube_tree.obj: kdop build writes a hierarchy file; name it .kdop (.obj is read as another format)$" err.txt
expect "build out named as a mesh: no file" test ! -e cube_tree.obj
"$kdop" build --mesh cube.obj --out cube_tree.kdop 2>/dev/null
check "build from a hierarchy file" 2 "$kdop" build --mesh cube_tree.kdop --out again.kdop
expect "build from a hierarchy file says so" grep -q -- "^kdop: --mesh: cube_tree.kdop is a hierarchy file already; kdop build reads a mesh" err.txt
# Values that used to be taken silently.
check "empty pose" 2 "$kdop" check --env cube.obj --object cube.obj --pose ""
expect "empty pose says so" grep -q "^kdop: --pose: empty value" err.txt
check "empty matrix" 2 "$kdop" check --env cube.obj --object cube.obj --matrix ""
check "empty bv" 2 "$kdop" check --env cube.obj --object cube.obj --bv ""
check "empty env path" 2 "$kdop" batch --env "" --object cube.obj --poses poses.csv
check "nan clearance" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --clearance nan -q
expect "nan clearance says so" grep -q "^kdop: --clearance: expected a finite number >= 0, got 'nan'" err.txt
check "negative clearance" 2 "$kdop" check --env cube.obj --object cube.obj --clearance -1
check "clearance with a plus sign" 1 "$kdop" check --env cube.obj --object cube.obj --clearance +0.5
check "empty nc program" 2 "$kdop" nc --program "" --moves moves.csv
check "empty path scene" 2 "$kdop" path --scene "" --trajectory none.csv
check "empty path trajectory" 2 "$kdop" path --scene none.json --trajectory ""
check "empty nc moves" 2 "$kdop" nc --program none.ngc --moves ""
for command in check batch build demo path nc; do
  check "$command help" 0 "$kdop" "$command" --help
  expect "$command help has no code in it" test -z "$(grep -- '->check' out.txt)"
done
expect "negative clearance message is short" test "$(wc -c <err.txt)" -lt 120
check "k and bv together" 2 "$kdop" check --env cube.obj --object cube.obj --k 6 --bv kdop18
expect "k and bv together says so" grep -q "excludes" err.txt
check "unknown command" 2 "$kdop" frobnicate
expect "unknown command named" grep -q "^kdop: unknown command 'frobnicate'; expected one of check, batch" err.txt
# Any finite non-zero quaternion is normalized, even where its squared norm overflows.
check "huge quaternion" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1e300,1e300,0,0
check "version" 0 "$kdop" --version
check "demo held to --max-memory" 2 "$kdop" demo --max-memory 1K --steps 5
expect "demo max-memory says so" grep -q "^kdop: demo scene: 120000 triangles need about" err.txt
check "short demo" 0 "$kdop" demo --steps 20 --json
expect "demo json" grep -q '"steps":20' out.txt

# Messages name the option given and the number at fault.
check "k out of the list" 2 "$kdop" check --env cube.obj --object cube.obj --k 7
expect "k out of the list names --k" grep -q "^kdop: --k: expected 6, 14, 18, 26, 32 or 8, got 7$" err.txt
check "pose number underflows" 2 "$kdop" check --env cube.obj --object cube.obj --pose 1e-400,0,0,1,0,0,0
expect "pose number underflows says which" grep -q "^kdop: --pose: number 1 (tx), '1e-400', is outside double's range$" err.txt
check "clearance echoes its value" 0 "$kdop" check --env cube.obj --object cube.obj --clearance 0.3 --pose 5,0,0,1,0,0,0
expect "clearance echoes the shortest digits" grep -q "^within clearance 0.3: no$" out.txt
expect "clearance text has its times" grep -q "^time_ms: build=[0-9.e-]\+ query=[0-9.e-]\+ (again: [0-9.e-]\+)$" out.txt
check "first contact text" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0,0,1,0,0,0
expect "first contact text names one witness" grep -q "^witness (env_triangle object_triangle): [0-9]\+ [0-9]\+$" out.txt
expect "first contact text lists no pairs" bash -c '! grep -q "^pairs" out.txt'
expect "check text gives the query again" grep -q "^time_ms: build=[0-9.e-]\+ query=[0-9.e-]\+ (again: [0-9.e-]\+)$" out.txt
check "check json times" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0,0,1,0,0,0 --json
expect "check json has the warm query time" grep -q '"query_warm":[0-9.e-]\+' out.txt
# Options that would change nothing are refused, not ignored.
check "bins without binned splits" 2 "$kdop" check --env cube.obj --object cube.obj --bins 3
expect "bins without binned splits says so" grep -q -- "^kdop: --bins needs --split binned$" err.txt
check "bins with binned splits" 1 "$kdop" check --env cube.obj --object cube.obj --bins 3 --split binned --rule min-sum
check "affine tumbling of obb trees" 2 "$kdop" check --env cube.obj --object cube.obj --bv obb --tumble affine
expect "affine tumbling of obb trees says so" grep -q -- "^kdop: --tumble affine: obb trees" err.txt
check "exact root of obb trees" 2 "$kdop" check --env cube.obj --object cube.obj --bv obb --root exact
expect "exact root of obb trees says so" grep -q -- "^kdop: --root exact: obb trees rotate their boxes, they have no flying root DOP$" err.txt
check "vertices root of rss trees" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --bv rss --root vertices
check "automatic root of obb trees" 1 "$kdop" check --env cube.obj --object cube.obj --bv obb --root auto

# Out of distance queries: the turning arm's segments are undecided, and the summary says that the
# one stopped before the part's proved contact (a sweep's: its bisection outlasts --max-steps) may
# hold an earlier one. With the part turning too, no contact is proved: "none proved", not "none".
# A clearance the part is within from the start: each segment stops at its first contact (t0),
# and the others' distances there still count. From t=1 the part is 35 from the table and 4.75
# from the wall (found by a hostile walk: the segment said 35, the table's).
check "path clearance from the start" 1 "$kdop" path --scene "$repo/examples/path/scene.json" --trajectory "$repo/examples/path/trajectory.csv" --continuous --clearance 50 --out wide_clearance.json
expect "path clearance from the start: the wall counts at t0" grep -q '"object":"part","t0":1.0,"t1":2.0,"status":"collides","t_hit":1.0,"with":"table","pair":\[[0-9]*,[0-9]*\],"min_distance":4.75,"steps":[0-9]*,"time_us":[0-9.e]*,"min_distance_t":1.0,"min_distance_with":"wall"' wide_clearance.json
expect "path clearance from the start: the summary says how far" grep -q "^least distance: 4.75 at t=1 (part to wall), up to each segment's first contact$" err.txt
check "path outputs together" 2 "$kdop" path --scene "$repo/examples/path/scene.json" --trajectory "$repo/examples/path/trajectory.csv" --out together_path.json --plot /dev/full
expect "path outputs together: no report" test ! -e together_path.json
check "path out of steps" 1 "$kdop" path --scene "$repo/examples/path/scene.json" --trajectory "$repo/examples/path/trajectory.csv" --continuous --max-steps 1
expect "path out of steps summary" grep -q "^first collision: t=1.11875 part with wall; 1 undecided segment may hold an earlier one$" out.txt
sed 's/^1,part,40,0,40,1,0,0,0$/1,part,40,0,40,0.995,0.0998,0,0/' "$repo/examples/path/trajectory.csv" >turning.csv
check "path out of steps, turning" 1 "$kdop" path --scene "$repo/examples/path/scene.json" --trajectory turning.csv --continuous --max-steps 1
expect "path out of steps, turning summary" grep -q "^first collision: none proved; 4 undecided segments may hold one$" out.txt
expect "path discrete summary says samples" bash -c "'$kdop' path --scene '$repo/examples/path/scene.json' --trajectory '$repo/examples/path/trajectory.csv' | grep -q 'discrete: free means clear at the samples only'"

# Usage errors point at the command's own help; numbers given apart get a hint; a non-finite pose
# number is named; a CSV given where JSON belongs is said to be no JSON.
check "pose numbers apart" 2 "$kdop" check --env cube.obj --object cube.obj --pose 1 0 0 1 0 0 0
expect "pose numbers apart: hint" grep -q -- "--pose and --matrix take their numbers as one comma-separated argument (see kdop check --help)$" err.txt
check "pose with nan" 2 "$kdop" check --env cube.obj --object cube.obj --pose 0,nan,0,1,0,0,0
expect "pose with nan names ty" grep -q -- "^kdop: --pose: number 2 (ty) is not finite$" err.txt
check "scene and trajectory swapped" 2 "$kdop" path --scene path/traj.csv --trajectory path/scene.json
expect "scene and trajectory swapped says no JSON" grep -q -- "^kdop: path/traj.csv: byte 0: expected JSON (an object starting with '{'), got 't,object," err.txt

# Where an output goes: through a symbolic link (the link stays), into a FIFO in place (never
# replaced by a regular file), over a file keeping its permission bits; a folder or a read-only
# file is refused before any work, and a report that cannot reach standard output is an error.
mkdir -p outs
ln -s target.csv outs/link.csv
check "out through a dangling link" 1 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --out outs/link.csv -q --mode count
check "out through a link" 1 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --out outs/link.csv -q
expect "out link stays a link" test -L outs/link.csv
expect "out link target written" test "$(head -1 outs/target.csv)" = "pose_id,collides,contacts,n_v,n_p,n_u,time_us,env_triangle,object_triangle"
echo old >outs/private.txt && chmod 600 outs/private.txt
check "out over a private file" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 --out outs/private.txt
expect "out keeps the permission bits" test "$(stat -c %a outs/private.txt)" = 600
expect "out replaced the file" grep -q collides outs/private.txt
mkfifo outs/pipe.txt
(timeout 20 cat outs/pipe.txt >outs/from_pipe.txt) &
reader=$!
check "out into a fifo" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 --out outs/pipe.txt
wait $reader
expect "out fifo is still a fifo" test -p outs/pipe.txt
expect "out fifo carried the report" grep -q collides outs/from_pipe.txt
mkdir outs/folder.csv
check "out naming a folder" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --out outs/folder.csv
expect "out naming a folder says so" grep -q -- "^kdop: --out: outs/folder.csv: is a folder, expected a file$" err.txt
echo old >outs/locked.csv && chmod 444 outs/locked.csv
check "out naming a read-only file" 2 "$kdop" build --mesh cube.obj --out outs/locked.csv
expect "out naming a read-only file says so" grep -q -- "^kdop: --out: outs/locked.csv is read-only$" err.txt
expect "out read-only file kept" test "$(cat outs/locked.csv)" = old
check "pairs must be csv" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode all --pairs outs/pairs.json
expect "pairs must be csv says so" grep -q -- "--pairs: outs/pairs.json: expected a .csv file" err.txt
# /dev/stdout is standard output, whatever it is: a pipe gets the rows, `>>` appends them.
expect "out to /dev/stdout through a pipe" bash -c "'$kdop' check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 --out /dev/stdout | grep -q '^collides: yes'"
echo "first line" >outs/appended.txt
"$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 --out /dev/stdout >>outs/appended.txt 2>err.txt
expect "out to /dev/stdout appends" test "$(head -1 outs/appended.txt)" = "first line"
expect "out to /dev/stdout appends the report" grep -q '^collides: yes' outs/appended.txt
# A second output into standard output, which already takes the results or the summary, would
# interleave with it: refused before the work. /dev/null takes both.
check "pairs into standard output with the results" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode all --pairs /dev/stdout
expect "pairs into standard output says so" grep -q -- "^kdop: --pairs: /dev/stdout is standard output, which takes the results; name a file, or give --out one$" err.txt
expect "pairs into standard output writes nothing" test ! -s out.txt
check "pairs into the file standard output goes to" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode all --pairs out.txt
check "pairs to standard output with results in a file" 1 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode all --pairs /dev/stdout --out outs/with_pairs.csv -q
expect "pairs to standard output with results in a file: the pairs" test "$(head -1 out.txt)" = "pose_id,env_triangle,object_triangle"
expect "pairs and results to /dev/null" bash -c "'$kdop' batch --env cube.obj --object cube.obj --poses poses.csv --mode all --pairs /dev/null -q >/dev/null; test \$? -eq 1"
"$kdop" path --scene path/scene.json --trajectory path/traj.csv --plot outs/plot.svg >outs/plot.svg 2>err.txt
expect "path plot into the file standard output goes to" test $? -eq 2
expect "path plot into standard output says so" grep -q -- "--plot: outs/plot.svg is where standard output goes, which takes the summary" err.txt
# Another descriptor by name is a deliberate choice, even where it shows on the same screen.
"$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode all --pairs /dev/stderr >outs/stdout.txt 2>&1
expect "pairs to stderr beside results on stdout" test $? -eq 1
expect "pairs to stderr: both in the file" test "$(grep -c '^pose_id,' outs/stdout.txt)" -eq 2
"$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode all --pairs /dev/stdout >/dev/null 2>err.txt
expect "pairs and results into /dev/null by descriptor" test $? -eq 1
# "-" is no output name (it made a file called "-").
check "out named -" 2 "$kdop" check --env cube.obj --object cube.obj --out -
expect "out named - says so" grep -q -- "^kdop: --out: '-' is not an output name here; /dev/stdout is standard output$" err.txt
expect "out named - makes no file" test ! -e ./-
# A device or descriptor without an extension gets the default format: CSV results, JSON reports,
# CSV moves.
expect "batch out to /dev/stdout is CSV" bash -c "'$kdop' batch --env cube.obj --object cube.obj --poses poses.csv --out /dev/stdout -q | head -1 | grep -q '^pose_id,collides,'"
expect "path out to /dev/stdout is JSON" bash -c "'$kdop' path --scene path/scene.json --trajectory path/traj.csv --out /dev/stdout -q | head -c 1 | grep -q '{'"
expect "nc moves to /dev/stdout" bash -c "'$kdop' nc --program nc/part.ngc --moves /dev/stdout | head -1 | grep -q '^line,n,kind,'"
check "check out .json is JSON" 1 "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 --out outs/check.json
expect "check out .json is JSON: parses" python3 -c "import json; assert json.load(open('outs/check.json'))['collides'] is True"
# Pose ids and object names holding commas are quoted in the pairs file, as in the results.
printf 'pose_id,tx,ty,tz,qw,qx,qy,qz\n"c,1",0.5,0.5,0.5,1,0,0,0\n"x""y",0.5,0,0,1,0,0,0\n' >quoted_ids.csv
check "pairs with quoted ids" 1 "$kdop" batch --env cube.obj --object "a,b=cube.obj" --poses quoted_ids.csv --mode all --out outs/quoted.csv --pairs outs/quoted_pairs.csv -q
printf 'pose_id,object,tx,ty,tz,qw,qx,qy,qz\n1,"a,b",0.5,0.5,0.5,1,0,0,0\n2,"c""d",0.5,0,0,1,0,0,0\n' >quoted_objects.csv
check "pairs with quoted object names" 1 "$kdop" batch --env cube.obj --object "a,b=cube.obj" --object 'c"d=cube.obj' --poses quoted_objects.csv --mode all --out outs/quoted2.csv --pairs outs/quoted_pairs2.csv -q
expect "pairs with quoted object names: every row has 4 fields" python3 -c "
import csv
rows = list(csv.reader(open('outs/quoted_pairs2.csv')))
assert rows[0] == ['pose_id', 'object', 'env_triangle', 'object_triangle'], rows[0]
assert len(rows) > 2 and all(len(r) == 4 for r in rows), rows
assert {r[1] for r in rows[1:]} == {'a,b', 'c\"d'}, rows
"
expect "pairs with quoted ids: every row has 3 fields" python3 -c "
import csv
rows = list(csv.reader(open('outs/quoted_pairs.csv')))
assert rows[0] == ['pose_id', 'env_triangle', 'object_triangle'], rows[0]
assert len(rows) > 2 and all(len(r) == 3 for r in rows), rows
assert {r[0] for r in rows[1:]} == {'c,1', 'x\"y'}, rows
"
# Python's csv module quotes an id holding a line break across two lines (RFC 4180): read as one
# pose, and written back the same way in the results, CSV and JSON.
python3 -c "
import csv, sys
w = csv.writer(open('multiline_ids.csv', 'w', newline=''))
w.writerow(['pose_id', 'tx', 'ty', 'tz', 'qw', 'qx', 'qy', 'qz'])
w.writerow(['run 1\npose 1', 0.5, 0.5, 0.5, 1, 0, 0, 0])
w.writerow(['run 1\r\npose \"2\"', 2, 0, 0, 1, 0, 0, 0])
"
check "batch ids across lines" 1 "$kdop" batch --env cube.obj --object cube.obj --poses multiline_ids.csv --out outs/multiline.csv -q
expect "batch ids across lines: csv" python3 -c "
import csv
rows = list(csv.DictReader(open('outs/multiline.csv', newline='')))
assert [(r['pose_id'], r['collides']) for r in rows] == [('run 1\npose 1', '1'), ('run 1\npose \"2\"', '0')], rows
"
check "batch ids across lines: json" 1 "$kdop" batch --env cube.obj --object cube.obj --poses multiline_ids.csv --out outs/multiline.json -q
expect "batch ids across lines: json parses" python3 -c "
import json
assert [r['pose_id'] for r in json.load(open('outs/multiline.json'))] == ['run 1\npose 1', 'run 1\npose \"2\"']
"
printf 'pose_id,tx,ty,tz,qw,qx,qy,qz\nok,0,0,0,1,0,0,0\n"open,0,0,0,1,0,0,0\nmore,0,0,0,1,0,0,0\n' >open_quote.csv
check "batch quote never closed" 2 "$kdop" batch --env cube.obj --object cube.obj --poses open_quote.csv --out outs/open_quote.csv -q
expect "batch quote never closed: names the line" grep -q "open_quote.csv: line 3: a quoted field opened on this line is not closed before the end of the file" err.txt
expect "batch quote never closed: no output" test ! -e outs/open_quote.csv
# A reader that goes away: kdop stops with an error (exit 2), not killed by SIGPIPE, and leaves no
# temporary of its other output. (Far more rows than a pipe's buffer holds.)
python3 -c "
print('pose_id,tx,ty,tz,qw,qx,qy,qz')
for i in range(3000): print(f'{i},0.{i % 9 + 1},0.5,0.5,1,0,0,0')
" >many_poses.csv
code=$(bash -c "'$kdop' batch --env cube.obj --object cube.obj --poses many_poses.csv --mode all --pairs /dev/stdout --out outs/piped.csv -q 2>outs/piped_err.txt | head -1 >/dev/null; echo \${PIPESTATUS[0]}")
expect "closed pipe: exit 2" test "$code" = 2
expect "closed pipe: says so" grep -q "Broken pipe" outs/piped_err.txt
expect "closed pipe: no temporary left" bash -c "! ls outs | grep -q 'piped.csv'"
# A folder given as a mesh is named a folder.
mkdir -p meshes_folder
check "folder as mesh" 2 "$kdop" check --env meshes_folder --object cube.obj
expect "folder as mesh says so" grep -q "^kdop: meshes_folder: is a folder, expected a mesh file$" err.txt
echo "first line" >outs/errors.txt
"$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 --out /dev/stderr 2>>outs/errors.txt
expect "out to /dev/stderr appends" test "$(head -1 outs/errors.txt)" = "first line"
expect "out to /dev/stderr appends the report" grep -q '^collides: yes' outs/errors.txt
# With standard output closed, a report to it is an error, and it lands in no other file.
"$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --out outs/closed.csv >&- 2>err.txt
code=$?
expect "closed stdout: the results file is written" test "$(head -1 outs/closed.csv)" = "pose_id,collides,contacts,n_v,n_p,n_u,time_us,env_triangle,object_triangle"
"$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 >&- 2>err.txt
code=$?
expect "closed stdout: the report is an error" test "$code" -eq 2
expect "closed stdout: says so" grep -q "^kdop: <stdout>: cannot write" err.txt
# Two outputs that end in one file through a link to a file not yet made are refused.
ln -s fresh.csv outs/to_fresh.csv
check "out and pairs in one file through a link" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --mode all --out outs/to_fresh.csv --pairs outs/fresh.csv
expect "out and pairs in one file says so" grep -q -- "--pairs: outs/fresh.csv is also the --out file" err.txt
# A link into a missing folder, or a link loop, is refused before the work.
ln -s nodir/x.csv outs/into_nowhere.csv
check "out through a link into a missing folder" 2 "$kdop" batch --env cube.obj --object cube.obj --poses poses.csv --out outs/into_nowhere.csv
expect "out through a link into a missing folder says so" grep -q -- "--out: outs/into_nowhere.csv: folder outs/nodir does not exist" err.txt
ln -s loop_b.txt outs/loop_a.txt && ln -s loop_a.txt outs/loop_b.txt
check "out through a link loop" 2 "$kdop" check --env cube.obj --object cube.obj --out outs/loop_a.txt
expect "out through a link loop says so" grep -q -- "--out: outs/loop_a.txt: cannot follow the symbolic link" err.txt
# Hierarchy files fix the BV type after the options: affine tumbling of OBB files is refused too.
check "obb file for tumbling" 0 "$kdop" build --mesh cube.obj --out outs/cube_obb.kdop --bv obb
check "affine tumbling of obb files" 2 "$kdop" check --env outs/cube_obb.kdop --object cube.obj --tumble affine
expect "affine tumbling of obb files says so" grep -q -- "^kdop: --tumble affine: obb trees" err.txt
check "exact root of obb files" 2 "$kdop" check --env outs/cube_obb.kdop --object cube.obj --root exact
expect "exact root of obb files says so" grep -q -- "^kdop: --root exact: obb trees" err.txt
if [[ -c /dev/full ]]; then
  "$kdop" check --env cube.obj --object cube.obj --pose 0.5,0.5,0.5,1,0,0,0 >/dev/full 2>err.txt
  code=$?
  expect "check report to a full device exits 2" test "$code" -eq 2
  expect "check report to a full device says so" grep -q "^kdop: <stdout>: cannot write" err.txt
  "$kdop" path --scene "$repo/examples/path/scene.json" --trajectory "$repo/examples/path/trajectory.csv" >/dev/full 2>err.txt
  code=$?
  expect "path report to a full device exits 2" test "$code" -eq 2
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
