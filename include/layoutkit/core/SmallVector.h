//===- SmallVector.h - Vector with inline storage ----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `SmallVector<T, N>` keeps up to N trivially copyable elements inline and
/// moves to the heap only beyond that, so small layouts are built, copied
/// and transformed without allocation.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CORE_SMALLVECTOR_H
#define LAYOUTKIT_CORE_SMALLVECTOR_H

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>

namespace lk {

template <class T, size_t N> class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>,
                "SmallVector holds trivially copyable elements only");
  static_assert(N > 0, "SmallVector needs inline room for one element");

public:
  SmallVector() = default;
  SmallVector(std::initializer_list<T> init) {
    assign(init.begin(), init.size());
  }
  SmallVector(const SmallVector &o) { assign(o.data(), o.size()); }
  SmallVector(SmallVector &&o) noexcept { steal(o); }
  SmallVector &operator=(const SmallVector &o) {
    if (this != &o) {
      size_ = 0;
      assign(o.data(), o.size());
    }
    return *this;
  }
  SmallVector &operator=(SmallVector &&o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T *data() { return data_; }
  const T *data() const { return data_; }
  T *begin() { return data_; }
  T *end() { return data_ + size_; }
  const T *begin() const { return data_; }
  const T *end() const { return data_ + size_; }
  T &operator[](size_t i) {
    assert(i < size_);
    return data_[i];
  }
  const T &operator[](size_t i) const {
    assert(i < size_);
    return data_[i];
  }
  T &back() {
    assert(size_ > 0);
    return data_[size_ - 1];
  }
  const T &back() const {
    assert(size_ > 0);
    return data_[size_ - 1];
  }

  void push_back(const T &v) {
    if (size_ == capacity_) [[unlikely]]
      grow(size_ + 1);
    data_[size_++] = v;
  }
  void pop_back() {
    assert(size_ > 0);
    --size_;
  }
  void clear() { size_ = 0; }
  /// Sets the size to n <= size(); the first n elements stay. No capacity
  /// check: for a result written in place into a larger block.
  [[gnu::always_inline]] void truncate(size_t n) {
    assert(n <= size_);
    size_ = n;
  }
  void resize(size_t n, const T &fill = T()) {
    if (n > capacity_)
      grow(n);
    for (size_t i = size_; i < n; ++i)
      data_[i] = fill;
    size_ = n;
  }
  /// Sets the size to n without initialising new elements (the caller
  /// writes them) and returns the data, for results written in place.
  [[gnu::always_inline]] T *resizeForOverwrite(size_t n) {
    if (n > capacity_)
      grow(n);
    size_ = n;
    return data_;
  }
  /// resizeForOverwrite to at most N elements, which every SmallVector
  /// holds without growing (the inline ones, or a larger heap block): no
  /// capacity test. @pre n <= N
  [[gnu::always_inline]] T *resizeWithinInline(size_t n) {
    assert(n <= N);
    size_ = n;
    return data_;
  }
  void append(const T *first, size_t count) {
    if (size_ + count > capacity_)
      grow(size_ + count);
    copyElements(data_ + size_, first, count);
    size_ += count;
  }
  void insert(size_t pos, const T &v) {
    assert(pos <= size_);
    push_back(v);
    std::rotate(begin() + pos, end() - 1, end());
  }
  void erase(size_t pos) {
    assert(pos < size_);
    std::copy(begin() + pos + 1, end(), begin() + pos);
    --size_;
  }

  bool operator==(const SmallVector &o) const {
    return size_ == o.size_ && std::equal(begin(), end(), o.begin());
  }

private:
  bool isInline() const { return data_ == inlineData(); }
  T *inlineData() { return reinterpret_cast<T *>(inline_); }
  const T *inlineData() const { return reinterpret_cast<const T *>(inline_); }
  /// Short runs are copied inline: a call to memcpy costs more than the
  /// copy for the few elements small layouts have.
  static void copyElements(T *dst, const T *src, size_t n) {
    if (n <= 8) {
      for (size_t i = 0; i < n; ++i)
        dst[i] = src[i];
    } else {
      std::memcpy(dst, src, n * sizeof(T));
    }
  }
  void assign(const T *src, size_t n) {
    if (n > capacity_)
      grow(n);
    copyElements(data_, src, n);
    size_ = n;
  }
  void grow(size_t need) {
    size_t cap = std::max(need, capacity_ * 2);
    T *mem = static_cast<T *>(std::malloc(cap * sizeof(T)));
    if (!mem)
      throw std::bad_alloc(); // out of memory is not a recoverable input error
    if (size_)
      std::memcpy(mem, data_, size_ * sizeof(T));
    if (!isInline())
      std::free(data_);
    data_ = mem;
    capacity_ = cap;
  }
  void release() {
    if (!isInline())
      std::free(data_);
    data_ = inlineData();
    capacity_ = N;
    size_ = 0;
  }
  /// Takes o's heap block, or copies o's inline elements. @pre this is empty
  /// and inline
  void steal(SmallVector &o) {
    if (!o.isInline()) {
      data_ = o.data_;
      capacity_ = o.capacity_;
      size_ = o.size_;
      o.data_ = o.inlineData();
      o.capacity_ = N;
      o.size_ = 0;
    } else {
      assign(o.data_, o.size_);
    }
  }

  T *data_ = inlineData();
  size_t size_ = 0;
  size_t capacity_ = N;
  alignas(T) unsigned char inline_[N * sizeof(T)];
};

} // namespace lk

#endif // LAYOUTKIT_CORE_SMALLVECTOR_H
