#pragma once
// Several arrays of one element type in one allocation, each starting an odd number of cache
// lines after the previous one.
//
// Why not one allocation per array: large allocations come back page-aligned, so element s of
// every array falls in the same set of the L1 cache. A loop that reads element s of more arrays
// than the cache has ways (8 here) then evicts its own data at every step: the leaf prefilter
// reads 20 arrays per flying slot, the exact test 9 per triangle. Staggering by an odd number of
// lines puts element s of array i in set (s_line + i * odd) mod 64, all different for i < 64.
// Measured in docs/design-notes.md ("Staggered leaf arrays").
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "geometry/mappable_array.hpp"
#include "geometry/populated_vector.hpp"

namespace kdop {

template <class T>
class StaggeredArrays {
 public:
  static constexpr std::size_t line_bytes = 64;
  static_assert(line_bytes % sizeof(T) == 0);

  // `arrays` arrays of `size` elements each, all set to `value`, readable `padding` elements
  // past the end.
  void assign(int arrays, std::size_t size, std::size_t padding, T value) {
    stride_ = stride_for(size, padding);
    storage_ = populated_vector(stride_ * static_cast<std::size_t>(arrays), value);
  }

  // The same layout viewed in place: a whole allocation as data() gives it (gaps included), kept
  // alive by `keeper` (a mapped hierarchy file).
  void assign_view(int arrays, std::size_t size, std::size_t padding, const T* all,
                   std::shared_ptr<const void> keeper) {
    stride_ = stride_for(size, padding);
    storage_ =
        MappableArray<T>::view(all, stride_ * static_cast<std::size_t>(arrays), std::move(keeper));
  }

  // Elements from one array's start to the next: size + padding rounded up to an odd number of
  // cache lines.
  static std::size_t stride_for(std::size_t size, std::size_t padding) {
    std::size_t lines = ((size + padding) * sizeof(T) + line_bytes - 1) / line_bytes;
    if (lines % 2 == 0) ++lines;
    return lines * (line_bytes / sizeof(T));
  }

  // Array i, writable only while owned (the builder that fills it).
  T* mutable_array(int i) {
    return storage_.mutable_data() + static_cast<std::size_t>(i) * stride_;
  }
  const T* operator[](int i) const {
    return storage_.data() + static_cast<std::size_t>(i) * stride_;
  }
  std::size_t bytes() const { return storage_.size() * sizeof(T); }
  // The whole allocation, gaps included, as a hierarchy file stores it (io/hierarchy_file.hpp).
  const T* data() const { return storage_.data(); }

 private:
  MappableArray<T> storage_;
  std::size_t stride_ = 0;  // elements from one array's start to the next
};

}  // namespace kdop
