#pragma once
// The oriented-volume query for the ISA a batch runs on, chosen once per batch (see
// engine/dop_dispatch.hpp).
#include "engine/oriented_query.hpp"
#include "simd/isa.hpp"

namespace kdop {

template <class Bv>
using OrientedQueryFn = void (*)(const OrientedTree<Bv>&, const FlyingOrientedTree<Bv>&,
                                 const Pose&, const QueryOptions&, OrientedQueryScratch<Bv>&,
                                 QueryResult&);

template <class Bv>
OrientedQueryFn<Bv> oriented_query_for(simd::Isa isa);

extern template OrientedQueryFn<ObbBv> oriented_query_for<ObbBv>(simd::Isa);
extern template OrientedQueryFn<RssBv> oriented_query_for<RssBv>(simd::Isa);

}  // namespace kdop
