#include "geometry/mappable_array.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "geometry/staggered_arrays.hpp"

namespace kdop {
namespace {

TEST(MappableArray, OwnedElementsAreCopiedAndMovedWithTheirValues) {
  MappableArray<int> a = std::vector<int>{1, 2, 3};
  EXPECT_FALSE(a.is_view());
  MappableArray<int> copy = a;
  EXPECT_NE(copy.data(), a.data());  // a copy owns its own elements
  copy.mutable_data()[0] = 9;
  EXPECT_EQ(a[0], 1);
  EXPECT_EQ(copy[0], 9);
  const int* before = a.data();
  MappableArray<int> moved = std::move(a);
  EXPECT_EQ(moved.data(), before);  // the buffer moves with it
  EXPECT_EQ(moved.size(), 3u);
  EXPECT_EQ(moved.back(), 3);
  copy = moved;
  EXPECT_EQ(copy[0], 1);
  EXPECT_NE(copy.data(), moved.data());
  int sum = 0;
  for (int v : copy) sum += v;
  EXPECT_EQ(sum, 6);
  MappableArray<int>& same = copy;
  copy = std::move(same);  // self-move keeps the elements
  EXPECT_EQ(copy.size(), 3u);
  EXPECT_EQ(copy[2], 3);
}

TEST(MappableArray, ViewKeepsItsMemoryAliveAndIsReadOnly) {
  auto memory = std::make_shared<std::vector<float>>(std::vector<float>{4, 5, 6, 7});
  std::weak_ptr<std::vector<float>> watch = memory;
  MappableArray<float> view = MappableArray<float>::view(memory->data() + 1, 3, memory);
  memory.reset();
  ASSERT_FALSE(watch.expired());  // the view holds it
  EXPECT_TRUE(view.is_view());
  EXPECT_EQ(view.size(), 3u);
  EXPECT_EQ(view.front(), 5);
  EXPECT_THROW(view.mutable_data(), std::logic_error);
  MappableArray<float> shared = view;
  EXPECT_EQ(shared.data(), view.data());  // copies of a view share the memory
  view = MappableArray<float>();
  EXPECT_FALSE(watch.expired());
  shared = MappableArray<float>();
  EXPECT_TRUE(watch.expired());  // the last view let go
}

TEST(StaggeredArrays, ViewServesTheSameArraysAsTheOwnedLayout) {
  StaggeredArrays<double> owned;
  owned.assign(3, 10, 2, 0.0);
  for (int a = 0; a < 3; ++a) {
    for (int i = 0; i < 10; ++i) owned.mutable_array(a)[i] = a * 100 + i;
  }
  auto bytes =
      std::make_shared<std::vector<double>>(owned.data(), owned.data() + owned.bytes() / 8);
  StaggeredArrays<double> view;
  view.assign_view(3, 10, 2, bytes->data(), bytes);
  EXPECT_EQ(view.bytes(), owned.bytes());
  for (int a = 0; a < 3; ++a) {
    for (int i = 0; i < 10; ++i) EXPECT_EQ(view[a][i], a * 100 + i);
  }
  EXPECT_THROW(view.mutable_array(0), std::logic_error);
}

}  // namespace
}  // namespace kdop
