// The k-DOP and oriented queries compiled for the avx512 ISA. Compile flags: -mavx512f -mavx512cd
// -mavx512dq -mavx512bw -mavx512vl (set for this file only, in CMakeLists.txt).
// engine/dop_dispatch.cpp picks it at run time.
#include "engine/dop_query.hpp"
#include "engine/oriented_query.hpp"

namespace kdop {

template void query_dop<xsimd::avx512bw, 6>(const DopTree<6>&, const FlyingDopTree<6>&, const Pose&,
                                            const QueryOptions&, DopQueryScratch<6>&, QueryResult&);
template void query_dop<xsimd::avx512bw, 8>(const DopTree<8>&, const FlyingDopTree<8>&, const Pose&,
                                            const QueryOptions&, DopQueryScratch<8>&, QueryResult&);
template void query_dop<xsimd::avx512bw, 14>(const DopTree<14>&, const FlyingDopTree<14>&,
                                             const Pose&, const QueryOptions&, DopQueryScratch<14>&,
                                             QueryResult&);
template void query_dop<xsimd::avx512bw, 18>(const DopTree<18>&, const FlyingDopTree<18>&,
                                             const Pose&, const QueryOptions&, DopQueryScratch<18>&,
                                             QueryResult&);
template void query_dop<xsimd::avx512bw, 26>(const DopTree<26>&, const FlyingDopTree<26>&,
                                             const Pose&, const QueryOptions&, DopQueryScratch<26>&,
                                             QueryResult&);
template void query_dop<xsimd::avx512bw, 32>(const DopTree<32>&, const FlyingDopTree<32>&,
                                             const Pose&, const QueryOptions&, DopQueryScratch<32>&,
                                             QueryResult&);

template void query_oriented<xsimd::avx512bw, ObbBv>(const OrientedTree<ObbBv>&,
                                                     const FlyingOrientedTree<ObbBv>&, const Pose&,
                                                     const QueryOptions&,
                                                     OrientedQueryScratch<ObbBv>&, QueryResult&);
template void query_oriented<xsimd::avx512bw, RssBv>(const OrientedTree<RssBv>&,
                                                     const FlyingOrientedTree<RssBv>&, const Pose&,
                                                     const QueryOptions&,
                                                     OrientedQueryScratch<RssBv>&, QueryResult&);

// The environment keys' cache, for the tests' check against the scalar key (dop_dispatch.hpp).
template const simd::PrefilterTriangle& cached_key<xsimd::avx512bw>(PrefilterKeyCache&,
                                                                    std::uint32_t,
                                                                    const ObjectFrame&,
                                                                    const LeafTriangles&,
                                                                    std::uint32_t, bool);

// The tumble frames, for the tests' check against the scalar frame (dop_dispatch.hpp).
template TumbleFrame<6> make_tumble_frame<xsimd::avx512bw, 6>(const FlyingDopTree<6>&, const Pose&);
template TumbleFrame<8> make_tumble_frame<xsimd::avx512bw, 8>(const FlyingDopTree<8>&, const Pose&);
template TumbleFrame<14> make_tumble_frame<xsimd::avx512bw, 14>(const FlyingDopTree<14>&,
                                                                const Pose&);
template TumbleFrame<18> make_tumble_frame<xsimd::avx512bw, 18>(const FlyingDopTree<18>&,
                                                                const Pose&);
template TumbleFrame<26> make_tumble_frame<xsimd::avx512bw, 26>(const FlyingDopTree<26>&,
                                                                const Pose&);
template TumbleFrame<32> make_tumble_frame<xsimd::avx512bw, 32>(const FlyingDopTree<32>&,
                                                                const Pose&);

}  // namespace kdop
