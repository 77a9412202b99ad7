#pragma once
// The k-DOP query for the ISA a batch runs on: a function pointer chosen once per batch
// (never per node), pointing at the instantiation compiled with that ISA's flags
// (engine/isa/query_*.cpp).
#include "engine/dop_query.hpp"
#include "simd/isa.hpp"

namespace kdop {

template <int K>
using DopQueryFn = void (*)(const DopTree<K>&, const FlyingDopTree<K>&, const Pose&,
                            const QueryOptions&, DopQueryScratch<K>&, QueryResult&);

template <int K>
DopQueryFn<K> dop_query_for(simd::Isa isa);

extern template DopQueryFn<6> dop_query_for<6>(simd::Isa);
extern template DopQueryFn<8> dop_query_for<8>(simd::Isa);
extern template DopQueryFn<14> dop_query_for<14>(simd::Isa);
extern template DopQueryFn<18> dop_query_for<18>(simd::Isa);
extern template DopQueryFn<26> dop_query_for<26>(simd::Isa);
extern template DopQueryFn<32> dop_query_for<32>(simd::Isa);

// The environment triangles' prefilter keys through the per-pose cache as one ISA's queries
// compute them (engine/leaf_test.hpp, cached_key: on a vector ISA a group of consecutive slots at
// once): for the tests, which check them against the scalar key bit for bit.
using CachedKeyFn = const simd::PrefilterTriangle& (*)(PrefilterKeyCache&, std::uint32_t,
                                                       const ObjectFrame&, const LeafTriangles&,
                                                       std::uint32_t, bool);
CachedKeyFn cached_key_for(simd::Isa isa);

// The tumble frame of a pose as one ISA's queries make it (engine/tumble.hpp, make_tumble_frame: on
// a vector ISA a slab per lane): for the tests, which check it against the scalar frame.
template <int K>
using TumbleFrameFn = TumbleFrame<K> (*)(const FlyingDopTree<K>&, const Pose&);

template <int K>
TumbleFrameFn<K> tumble_frame_for(simd::Isa isa);

extern template TumbleFrameFn<6> tumble_frame_for<6>(simd::Isa);
extern template TumbleFrameFn<8> tumble_frame_for<8>(simd::Isa);
extern template TumbleFrameFn<14> tumble_frame_for<14>(simd::Isa);
extern template TumbleFrameFn<18> tumble_frame_for<18>(simd::Isa);
extern template TumbleFrameFn<26> tumble_frame_for<26>(simd::Isa);
extern template TumbleFrameFn<32> tumble_frame_for<32>(simd::Isa);

}  // namespace kdop
