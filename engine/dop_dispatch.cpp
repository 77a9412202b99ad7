#include "engine/dop_dispatch.hpp"

namespace kdop {

// The instantiations live in engine/isa/; declaring them here keeps this baseline-compiled file
// from instantiating any vector code itself.
extern template void query_dop<simd::ScalarArch, 6>(const DopTree<6>&, const FlyingDopTree<6>&,
                                                    const Pose&, const QueryOptions&,
                                                    DopQueryScratch<6>&, QueryResult&);
extern template void query_dop<simd::ScalarArch, 8>(const DopTree<8>&, const FlyingDopTree<8>&,
                                                    const Pose&, const QueryOptions&,
                                                    DopQueryScratch<8>&, QueryResult&);
extern template void query_dop<simd::ScalarArch, 14>(const DopTree<14>&, const FlyingDopTree<14>&,
                                                     const Pose&, const QueryOptions&,
                                                     DopQueryScratch<14>&, QueryResult&);
extern template void query_dop<simd::ScalarArch, 18>(const DopTree<18>&, const FlyingDopTree<18>&,
                                                     const Pose&, const QueryOptions&,
                                                     DopQueryScratch<18>&, QueryResult&);
extern template void query_dop<simd::ScalarArch, 26>(const DopTree<26>&, const FlyingDopTree<26>&,
                                                     const Pose&, const QueryOptions&,
                                                     DopQueryScratch<26>&, QueryResult&);
extern template void query_dop<simd::ScalarArch, 32>(const DopTree<32>&, const FlyingDopTree<32>&,
                                                     const Pose&, const QueryOptions&,
                                                     DopQueryScratch<32>&, QueryResult&);
extern template void query_dop<xsimd::sse4_2, 6>(const DopTree<6>&, const FlyingDopTree<6>&,
                                                 const Pose&, const QueryOptions&,
                                                 DopQueryScratch<6>&, QueryResult&);
extern template void query_dop<xsimd::sse4_2, 8>(const DopTree<8>&, const FlyingDopTree<8>&,
                                                 const Pose&, const QueryOptions&,
                                                 DopQueryScratch<8>&, QueryResult&);
extern template void query_dop<xsimd::sse4_2, 14>(const DopTree<14>&, const FlyingDopTree<14>&,
                                                  const Pose&, const QueryOptions&,
                                                  DopQueryScratch<14>&, QueryResult&);
extern template void query_dop<xsimd::sse4_2, 18>(const DopTree<18>&, const FlyingDopTree<18>&,
                                                  const Pose&, const QueryOptions&,
                                                  DopQueryScratch<18>&, QueryResult&);
extern template void query_dop<xsimd::sse4_2, 26>(const DopTree<26>&, const FlyingDopTree<26>&,
                                                  const Pose&, const QueryOptions&,
                                                  DopQueryScratch<26>&, QueryResult&);
extern template void query_dop<xsimd::sse4_2, 32>(const DopTree<32>&, const FlyingDopTree<32>&,
                                                  const Pose&, const QueryOptions&,
                                                  DopQueryScratch<32>&, QueryResult&);
extern template void query_dop<xsimd::avx2, 6>(const DopTree<6>&, const FlyingDopTree<6>&,
                                               const Pose&, const QueryOptions&,
                                               DopQueryScratch<6>&, QueryResult&);
extern template void query_dop<xsimd::avx2, 8>(const DopTree<8>&, const FlyingDopTree<8>&,
                                               const Pose&, const QueryOptions&,
                                               DopQueryScratch<8>&, QueryResult&);
extern template void query_dop<xsimd::avx2, 14>(const DopTree<14>&, const FlyingDopTree<14>&,
                                                const Pose&, const QueryOptions&,
                                                DopQueryScratch<14>&, QueryResult&);
extern template void query_dop<xsimd::avx2, 18>(const DopTree<18>&, const FlyingDopTree<18>&,
                                                const Pose&, const QueryOptions&,
                                                DopQueryScratch<18>&, QueryResult&);
extern template void query_dop<xsimd::avx2, 26>(const DopTree<26>&, const FlyingDopTree<26>&,
                                                const Pose&, const QueryOptions&,
                                                DopQueryScratch<26>&, QueryResult&);
extern template void query_dop<xsimd::avx2, 32>(const DopTree<32>&, const FlyingDopTree<32>&,
                                                const Pose&, const QueryOptions&,
                                                DopQueryScratch<32>&, QueryResult&);
extern template void query_dop<xsimd::avx512bw, 6>(const DopTree<6>&, const FlyingDopTree<6>&,
                                                   const Pose&, const QueryOptions&,
                                                   DopQueryScratch<6>&, QueryResult&);
extern template void query_dop<xsimd::avx512bw, 8>(const DopTree<8>&, const FlyingDopTree<8>&,
                                                   const Pose&, const QueryOptions&,
                                                   DopQueryScratch<8>&, QueryResult&);
extern template void query_dop<xsimd::avx512bw, 14>(const DopTree<14>&, const FlyingDopTree<14>&,
                                                    const Pose&, const QueryOptions&,
                                                    DopQueryScratch<14>&, QueryResult&);
extern template void query_dop<xsimd::avx512bw, 18>(const DopTree<18>&, const FlyingDopTree<18>&,
                                                    const Pose&, const QueryOptions&,
                                                    DopQueryScratch<18>&, QueryResult&);
extern template void query_dop<xsimd::avx512bw, 26>(const DopTree<26>&, const FlyingDopTree<26>&,
                                                    const Pose&, const QueryOptions&,
                                                    DopQueryScratch<26>&, QueryResult&);
extern template void query_dop<xsimd::avx512bw, 32>(const DopTree<32>&, const FlyingDopTree<32>&,
                                                    const Pose&, const QueryOptions&,
                                                    DopQueryScratch<32>&, QueryResult&);

template <int K>
DopQueryFn<K> dop_query_for(simd::Isa isa) {
  switch (isa) {
    case simd::Isa::sse4:
      return &query_dop<xsimd::sse4_2, K>;
    case simd::Isa::avx2:
      return &query_dop<xsimd::avx2, K>;
    case simd::Isa::avx512:
      return &query_dop<xsimd::avx512bw, K>;
    case simd::Isa::scalar:
      break;
  }
  return &query_dop<simd::ScalarArch, K>;
}

template DopQueryFn<6> dop_query_for<6>(simd::Isa);
template DopQueryFn<8> dop_query_for<8>(simd::Isa);
template DopQueryFn<14> dop_query_for<14>(simd::Isa);
template DopQueryFn<18> dop_query_for<18>(simd::Isa);
template DopQueryFn<26> dop_query_for<26>(simd::Isa);
template DopQueryFn<32> dop_query_for<32>(simd::Isa);

extern template const simd::PrefilterTriangle& cached_key<simd::ScalarArch>(PrefilterKeyCache&,
                                                                            std::uint32_t,
                                                                            const ObjectFrame&,
                                                                            const LeafTriangles&,
                                                                            std::uint32_t, bool);
extern template const simd::PrefilterTriangle& cached_key<xsimd::sse4_2>(PrefilterKeyCache&,
                                                                         std::uint32_t,
                                                                         const ObjectFrame&,
                                                                         const LeafTriangles&,
                                                                         std::uint32_t, bool);
extern template const simd::PrefilterTriangle& cached_key<xsimd::avx2>(PrefilterKeyCache&,
                                                                       std::uint32_t,
                                                                       const ObjectFrame&,
                                                                       const LeafTriangles&,
                                                                       std::uint32_t, bool);
extern template const simd::PrefilterTriangle& cached_key<xsimd::avx512bw>(PrefilterKeyCache&,
                                                                           std::uint32_t,
                                                                           const ObjectFrame&,
                                                                           const LeafTriangles&,
                                                                           std::uint32_t, bool);

CachedKeyFn cached_key_for(simd::Isa isa) {
  switch (isa) {
    case simd::Isa::sse4:
      return &cached_key<xsimd::sse4_2>;
    case simd::Isa::avx2:
      return &cached_key<xsimd::avx2>;
    case simd::Isa::avx512:
      return &cached_key<xsimd::avx512bw>;
    case simd::Isa::scalar:
      break;
  }
  return &cached_key<simd::ScalarArch>;
}

extern template TumbleFrame<6> make_tumble_frame<simd::ScalarArch, 6>(const FlyingDopTree<6>&,
                                                                      const Pose&);
extern template TumbleFrame<8> make_tumble_frame<simd::ScalarArch, 8>(const FlyingDopTree<8>&,
                                                                      const Pose&);
extern template TumbleFrame<14> make_tumble_frame<simd::ScalarArch, 14>(const FlyingDopTree<14>&,
                                                                        const Pose&);
extern template TumbleFrame<18> make_tumble_frame<simd::ScalarArch, 18>(const FlyingDopTree<18>&,
                                                                        const Pose&);
extern template TumbleFrame<26> make_tumble_frame<simd::ScalarArch, 26>(const FlyingDopTree<26>&,
                                                                        const Pose&);
extern template TumbleFrame<32> make_tumble_frame<simd::ScalarArch, 32>(const FlyingDopTree<32>&,
                                                                        const Pose&);
extern template TumbleFrame<6> make_tumble_frame<xsimd::sse4_2, 6>(const FlyingDopTree<6>&,
                                                                   const Pose&);
extern template TumbleFrame<8> make_tumble_frame<xsimd::sse4_2, 8>(const FlyingDopTree<8>&,
                                                                   const Pose&);
extern template TumbleFrame<14> make_tumble_frame<xsimd::sse4_2, 14>(const FlyingDopTree<14>&,
                                                                     const Pose&);
extern template TumbleFrame<18> make_tumble_frame<xsimd::sse4_2, 18>(const FlyingDopTree<18>&,
                                                                     const Pose&);
extern template TumbleFrame<26> make_tumble_frame<xsimd::sse4_2, 26>(const FlyingDopTree<26>&,
                                                                     const Pose&);
extern template TumbleFrame<32> make_tumble_frame<xsimd::sse4_2, 32>(const FlyingDopTree<32>&,
                                                                     const Pose&);
extern template TumbleFrame<6> make_tumble_frame<xsimd::avx2, 6>(const FlyingDopTree<6>&,
                                                                 const Pose&);
extern template TumbleFrame<8> make_tumble_frame<xsimd::avx2, 8>(const FlyingDopTree<8>&,
                                                                 const Pose&);
extern template TumbleFrame<14> make_tumble_frame<xsimd::avx2, 14>(const FlyingDopTree<14>&,
                                                                   const Pose&);
extern template TumbleFrame<18> make_tumble_frame<xsimd::avx2, 18>(const FlyingDopTree<18>&,
                                                                   const Pose&);
extern template TumbleFrame<26> make_tumble_frame<xsimd::avx2, 26>(const FlyingDopTree<26>&,
                                                                   const Pose&);
extern template TumbleFrame<32> make_tumble_frame<xsimd::avx2, 32>(const FlyingDopTree<32>&,
                                                                   const Pose&);
extern template TumbleFrame<6> make_tumble_frame<xsimd::avx512bw, 6>(const FlyingDopTree<6>&,
                                                                     const Pose&);
extern template TumbleFrame<8> make_tumble_frame<xsimd::avx512bw, 8>(const FlyingDopTree<8>&,
                                                                     const Pose&);
extern template TumbleFrame<14> make_tumble_frame<xsimd::avx512bw, 14>(const FlyingDopTree<14>&,
                                                                       const Pose&);
extern template TumbleFrame<18> make_tumble_frame<xsimd::avx512bw, 18>(const FlyingDopTree<18>&,
                                                                       const Pose&);
extern template TumbleFrame<26> make_tumble_frame<xsimd::avx512bw, 26>(const FlyingDopTree<26>&,
                                                                       const Pose&);
extern template TumbleFrame<32> make_tumble_frame<xsimd::avx512bw, 32>(const FlyingDopTree<32>&,
                                                                       const Pose&);

template <int K>
TumbleFrameFn<K> tumble_frame_for(simd::Isa isa) {
  switch (isa) {
    case simd::Isa::sse4:
      return &make_tumble_frame<xsimd::sse4_2, K>;
    case simd::Isa::avx2:
      return &make_tumble_frame<xsimd::avx2, K>;
    case simd::Isa::avx512:
      return &make_tumble_frame<xsimd::avx512bw, K>;
    case simd::Isa::scalar:
      break;
  }
  return &make_tumble_frame<simd::ScalarArch, K>;
}

template TumbleFrameFn<6> tumble_frame_for<6>(simd::Isa);
template TumbleFrameFn<8> tumble_frame_for<8>(simd::Isa);
template TumbleFrameFn<14> tumble_frame_for<14>(simd::Isa);
template TumbleFrameFn<18> tumble_frame_for<18>(simd::Isa);
template TumbleFrameFn<26> tumble_frame_for<26>(simd::Isa);
template TumbleFrameFn<32> tumble_frame_for<32>(simd::Isa);

}  // namespace kdop
