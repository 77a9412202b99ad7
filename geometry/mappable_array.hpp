#pragma once
// A read-only array that either owns its elements (a builder made them) or views them in place
// in memory someone else keeps alive: a memory-mapped hierarchy file (io/hierarchy_file.hpp),
// so loading a file copies nothing. Readers see one type either way: data(), size(), [].
//
// Why not std::vector: a vector cannot adopt memory it did not allocate, and copying a
// 1,000,000-triangle environment out of its mapping (292 MB) cost 4x more than checking it.
// Owned elements are written only while a builder fills them (mutable_data()); a view is never
// written, as its mapping is read-only.
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace kdop {

template <class T>
class MappableArray {
 public:
  MappableArray() = default;
  // Takes the elements (implicit, so builders assign a filled vector).
  MappableArray(std::vector<T> elements)  // NOLINT(google-explicit-constructor)
      : owned_(std::move(elements)), data_(owned_.data()), size_(owned_.size()) {}

  // `size` elements at `data`, valid as long as `keeper` (shared by every copy) lives.
  static MappableArray view(const T* data, std::size_t size, std::shared_ptr<const void> keeper) {
    MappableArray a;
    a.keeper_ = std::move(keeper);
    a.data_ = data;
    a.size_ = size;
    return a;
  }

  MappableArray(const MappableArray& o) : owned_(o.owned_), keeper_(o.keeper_), size_(o.size_) {
    data_ = keeper_ ? o.data_ : owned_.data();
  }
  // A moved vector keeps its buffer, so data_ stays valid.
  MappableArray(MappableArray&& o) noexcept
      : owned_(std::move(o.owned_)), keeper_(std::move(o.keeper_)), data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  MappableArray& operator=(const MappableArray& o) {
    if (this != &o) *this = MappableArray(o);
    return *this;
  }
  MappableArray& operator=(MappableArray&& o) noexcept {
    if (this == &o) return *this;
    owned_ = std::move(o.owned_);
    keeper_ = std::move(o.keeper_);
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
    o.size_ = 0;
    return *this;
  }

  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  // True if the elements live in memory this array does not own (a mapped file).
  bool is_view() const { return keeper_ != nullptr; }

  // The owned elements, for the builder that fills them.
  T* mutable_data() {
    if (is_view()) throw std::logic_error("MappableArray: a view of a mapped file is read-only");
    return owned_.data();
  }

 private:
  std::vector<T> owned_;
  std::shared_ptr<const void> keeper_;  // set for a view
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Bytes held by an array: a MappableArray or a std::vector.
template <class Array>
std::size_t array_bytes(const Array& a) {
  return a.size() * sizeof(*a.data());
}

}  // namespace kdop
