// The k-DOP and oriented queries compiled for the scalar ISA. Compile flags: none: the baseline
// x86-64 build, the reference (set for this file only, in CMakeLists.txt). engine/dop_dispatch.cpp
// picks it at run time.
#include "engine/dop_query.hpp"
#include "engine/oriented_query.hpp"

namespace kdop {

template void query_dop<simd::ScalarArch, 6>(const DopTree<6>&, const FlyingDopTree<6>&,
                                             const Pose&, const QueryOptions&, DopQueryScratch<6>&,
                                             QueryResult&);
template void query_dop<simd::ScalarArch, 8>(const DopTree<8>&, const FlyingDopTree<8>&,
                                             const Pose&, const QueryOptions&, DopQueryScratch<8>&,
                                             QueryResult&);
template void query_dop<simd::ScalarArch, 14>(const DopTree<14>&, const FlyingDopTree<14>&,
                                              const Pose&, const QueryOptions&,
                                              DopQueryScratch<14>&, QueryResult&);
template void query_dop<simd::ScalarArch, 18>(const DopTree<18>&, const FlyingDopTree<18>&,
                                              const Pose&, const QueryOptions&,
                                              DopQueryScratch<18>&, QueryResult&);
template void query_dop<simd::ScalarArch, 26>(const DopTree<26>&, const FlyingDopTree<26>&,
                                              const Pose&, const QueryOptions&,
                                              DopQueryScratch<26>&, QueryResult&);
template void query_dop<simd::ScalarArch, 32>(const DopTree<32>&, const FlyingDopTree<32>&,
                                              const Pose&, const QueryOptions&,
                                              DopQueryScratch<32>&, QueryResult&);

template void query_oriented<simd::ScalarArch, ObbBv>(const OrientedTree<ObbBv>&,
                                                      const FlyingOrientedTree<ObbBv>&, const Pose&,
                                                      const QueryOptions&,
                                                      OrientedQueryScratch<ObbBv>&, QueryResult&);
template void query_oriented<simd::ScalarArch, RssBv>(const OrientedTree<RssBv>&,
                                                      const FlyingOrientedTree<RssBv>&, const Pose&,
                                                      const QueryOptions&,
                                                      OrientedQueryScratch<RssBv>&, QueryResult&);

// The environment keys' cache, for the tests' check against the scalar key (dop_dispatch.hpp).
template const simd::PrefilterTriangle& cached_key<simd::ScalarArch>(PrefilterKeyCache&,
                                                                     std::uint32_t,
                                                                     const ObjectFrame&,
                                                                     const LeafTriangles&,
                                                                     std::uint32_t, bool);

// The tumble frames, for the tests' check against the scalar frame (dop_dispatch.hpp).
template TumbleFrame<6> make_tumble_frame<simd::ScalarArch, 6>(const FlyingDopTree<6>&,
                                                               const Pose&);
template TumbleFrame<8> make_tumble_frame<simd::ScalarArch, 8>(const FlyingDopTree<8>&,
                                                               const Pose&);
template TumbleFrame<14> make_tumble_frame<simd::ScalarArch, 14>(const FlyingDopTree<14>&,
                                                                 const Pose&);
template TumbleFrame<18> make_tumble_frame<simd::ScalarArch, 18>(const FlyingDopTree<18>&,
                                                                 const Pose&);
template TumbleFrame<26> make_tumble_frame<simd::ScalarArch, 26>(const FlyingDopTree<26>&,
                                                                 const Pose&);
template TumbleFrame<32> make_tumble_frame<simd::ScalarArch, 32>(const FlyingDopTree<32>&,
                                                                 const Pose&);

}  // namespace kdop
