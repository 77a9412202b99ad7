#include "engine/oriented_dispatch.hpp"

namespace kdop {

// The instantiations live in engine/isa/ (see dop_dispatch.cpp).
extern template void query_oriented<simd::ScalarArch, ObbBv>(const OrientedTree<ObbBv>&,
                                                             const FlyingOrientedTree<ObbBv>&,
                                                             const Pose&, const QueryOptions&,
                                                             OrientedQueryScratch<ObbBv>&,
                                                             QueryResult&);
extern template void query_oriented<simd::ScalarArch, RssBv>(const OrientedTree<RssBv>&,
                                                             const FlyingOrientedTree<RssBv>&,
                                                             const Pose&, const QueryOptions&,
                                                             OrientedQueryScratch<RssBv>&,
                                                             QueryResult&);
extern template void query_oriented<xsimd::sse4_2, ObbBv>(const OrientedTree<ObbBv>&,
                                                          const FlyingOrientedTree<ObbBv>&,
                                                          const Pose&, const QueryOptions&,
                                                          OrientedQueryScratch<ObbBv>&,
                                                          QueryResult&);
extern template void query_oriented<xsimd::sse4_2, RssBv>(const OrientedTree<RssBv>&,
                                                          const FlyingOrientedTree<RssBv>&,
                                                          const Pose&, const QueryOptions&,
                                                          OrientedQueryScratch<RssBv>&,
                                                          QueryResult&);
extern template void query_oriented<xsimd::avx2, ObbBv>(const OrientedTree<ObbBv>&,
                                                        const FlyingOrientedTree<ObbBv>&,
                                                        const Pose&, const QueryOptions&,
                                                        OrientedQueryScratch<ObbBv>&, QueryResult&);
extern template void query_oriented<xsimd::avx2, RssBv>(const OrientedTree<RssBv>&,
                                                        const FlyingOrientedTree<RssBv>&,
                                                        const Pose&, const QueryOptions&,
                                                        OrientedQueryScratch<RssBv>&, QueryResult&);
extern template void query_oriented<xsimd::avx512bw, ObbBv>(const OrientedTree<ObbBv>&,
                                                            const FlyingOrientedTree<ObbBv>&,
                                                            const Pose&, const QueryOptions&,
                                                            OrientedQueryScratch<ObbBv>&,
                                                            QueryResult&);
extern template void query_oriented<xsimd::avx512bw, RssBv>(const OrientedTree<RssBv>&,
                                                            const FlyingOrientedTree<RssBv>&,
                                                            const Pose&, const QueryOptions&,
                                                            OrientedQueryScratch<RssBv>&,
                                                            QueryResult&);

template <class Bv>
OrientedQueryFn<Bv> oriented_query_for(simd::Isa isa) {
  switch (isa) {
    case simd::Isa::sse4:
      return &query_oriented<xsimd::sse4_2, Bv>;
    case simd::Isa::avx2:
      return &query_oriented<xsimd::avx2, Bv>;
    case simd::Isa::avx512:
      return &query_oriented<xsimd::avx512bw, Bv>;
    case simd::Isa::scalar:
      break;
  }
  return &query_oriented<simd::ScalarArch, Bv>;
}

template OrientedQueryFn<ObbBv> oriented_query_for<ObbBv>(simd::Isa);
template OrientedQueryFn<RssBv> oriented_query_for<RssBv>(simd::Isa);

}  // namespace kdop
