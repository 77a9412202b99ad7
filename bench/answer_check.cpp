#include "bench/answer_check.hpp"

#include <algorithm>
#include <iterator>

#include "geometry/tri_tri.hpp"

namespace kdop::bench {
namespace {

bool exact_pair(const GeneratedScene& s, const Pose& pose, ContactPair p) {
  const Mesh& e = s.environment;
  const Mesh& o = s.object;
  auto env_corner = [&](std::uint32_t v) { return Vec3{e.x[v], e.y[v], e.z[v]}; };
  auto obj_corner = [&](std::uint32_t v) { return apply_pose(pose, Vec3{o.x[v], o.y[v], o.z[v]}); };
  const std::uint32_t a = p.env_triangle, b = p.object_triangle;
  return triangles_intersect({env_corner(e.a[a]), env_corner(e.b[a]), env_corner(e.c[a])},
                             {obj_corner(o.a[b]), obj_corner(o.b[b]), obj_corner(o.c[b])});
}

std::string pair_text(ContactPair p) {
  // Appended piece by piece: GCC 12 gives a false -Wrestrict on "(" + std::string&&.
  std::string s = "(";
  s += std::to_string(p.env_triangle);
  s += ", ";
  s += std::to_string(p.object_triangle);
  s += ")";
  return s;
}

}  // namespace

CheckTally check_answers(const GeneratedScene& scene, QueryMode mode,
                         const std::vector<PoseAnswer>& reference,
                         const std::vector<PoseAnswer>& answers, std::uint64_t& reference_errors,
                         std::vector<std::string>& reports) {
  CheckTally t;
  t.poses = answers.size();
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const PoseAnswer& mine = reference[i];
    const PoseAnswer& theirs = answers[i];
    const Pose& pose = scene.poses[i];
    if (mode == QueryMode::all_contacts) {
      if (mine.pairs == theirs.pairs) continue;
      ++t.disagreeing_poses;
      std::vector<ContactPair> only_mine, only_theirs;
      std::set_difference(mine.pairs.begin(), mine.pairs.end(), theirs.pairs.begin(),
                          theirs.pairs.end(), std::back_inserter(only_mine));
      std::set_difference(theirs.pairs.begin(), theirs.pairs.end(), mine.pairs.begin(),
                          mine.pairs.end(), std::back_inserter(only_theirs));
      for (ContactPair p : only_mine) {
        if (exact_pair(scene, pose, p)) {
          ++t.false_negatives;
        } else {
          ++reference_errors;
          reports.push_back(scene.name + " pose " + std::to_string(i) + ": kdop reported " +
                            pair_text(p) + ", which does not intersect");
        }
      }
      for (ContactPair p : only_theirs) {
        if (exact_pair(scene, pose, p)) {
          ++reference_errors;
          reports.push_back(scene.name + " pose " + std::to_string(i) + ": kdop missed " +
                            pair_text(p) + ", which intersects");
        } else {
          ++t.false_positives;
        }
      }
    } else {
      if (mine.collides == theirs.collides) continue;
      ++t.disagreeing_poses;
      // The side that says "collides" gives a witness; the exact test decides.
      const PoseAnswer& yes = mine.collides ? mine : theirs;
      const bool witness_ok = !yes.pairs.empty() && exact_pair(scene, pose, yes.pairs[0]);
      const bool kdop_right = mine.collides == witness_ok;
      if (kdop_right) {
        (mine.collides ? t.false_negatives : t.false_positives) += 1;
      } else {
        ++reference_errors;
        reports.push_back(scene.name + " pose " + std::to_string(i) + ": kdop says " +
                          (mine.collides ? "collides" : "free") + ", the exact test disagrees");
      }
    }
  }
  return t;
}

}  // namespace kdop::bench
