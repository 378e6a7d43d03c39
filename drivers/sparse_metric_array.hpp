#pragma once
// An array of N optional values indexed by a metric, that stores only the
// metrics written. A lane has room for 49 metrics and a module reports 3 to
// 20 of them; every module's last Sample is kept, so a fixed array spent most
// of a lane's half kilobyte on slots that never held a value.
//
// Storage is a chain of blocks of K slots (a slot: the metric and its value).
// The first block is inline, so a lane with up to K metrics needs no heap;
// further blocks are allocated as needed and never moved or freed until the
// array is, so a reference to a slot stays valid across later writes to any
// metric (code holds two at once, or one across a write). A bit mask says
// which metrics have a slot: a lookup of a metric without one costs one test.
//
// The interface is std::array's, as far as it goes: the const operator[]
// reads (an unwritten metric reads as T{}, i.e. absent) and never allocates;
// the non-const operator[] gives a slot to write, allocating one on first
// use, so a read through a non-const array should use find() instead (a slot
// holding an absent value is harmless but takes room). Iteration visits
// every metric in index order, present or not. Assigning or moving a whole
// array invalidates references into it, as for any container.

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <utility>

namespace opticsd {

template <typename Key, typename T, std::size_t N, std::size_t K>
class SparseMetricArray {
  static_assert(N <= 64, "the slot mask is one 64-bit word");
  static_assert(K > 0 && K < 256);

 public:
  SparseMetricArray() = default;
  SparseMetricArray(const SparseMetricArray& other) : slotted_(other.slotted_), head_(other.head_) {}
  SparseMetricArray(SparseMetricArray&& other) noexcept
      : slotted_(std::exchange(other.slotted_, 0)), head_(std::move(other.head_)) {
    other.head_.clear();
  }
  SparseMetricArray& operator=(const SparseMetricArray& other) {
    if (this != &other) {
      slotted_ = other.slotted_;
      head_ = other.head_;
    }
    return *this;
  }
  SparseMetricArray& operator=(SparseMetricArray&& other) noexcept {
    if (this != &other) {
      slotted_ = std::exchange(other.slotted_, 0);
      head_ = std::move(other.head_);
      other.head_.clear();
    }
    return *this;
  }
  ~SparseMetricArray() = default;

  const T& operator[](Key k) const {
    const T* v = find(k);
    return v != nullptr ? *v : kAbsent;
  }
  T& operator[](Key k) {
    if (T* v = find(k)) return *v;
    return insert(k);
  }
  // Writing an absent value where nothing was written allocates nothing.
  void set(Key k, const T& v) {
    if (T* slot = find(k)) {
      *slot = v;
    } else if (static_cast<bool>(v)) {
      insert(k) = v;
    }
  }

  // The metric's slot, or nullptr where it was never written.
  const T* find(Key k) const {
    const std::size_t i = index(k);
    if ((slotted_ & bit(i)) == 0) return nullptr;
    for (const Block* b = &head_; b != nullptr; b = b->next.get()) {
      // All K keys, used or not (an unused one is kNoKey): a fixed count the compiler unrolls.
      for (std::size_t s = 0; s < K; ++s) {
        if (b->keys[s] == i) return &b->slots[s];
      }
    }
    return nullptr;
  }
  T* find(Key k) { return const_cast<T*>(std::as_const(*this).find(k)); }

  // True when no metric holds a value (slots holding an absent one don't count).
  bool empty() const {
    for (const Block* b = &head_; b != nullptr; b = b->next.get()) {
      for (std::size_t s = 0; s < b->used; ++s) {
        if (static_cast<bool>(b->slots[s])) return false;
      }
    }
    return true;
  }
  // Forgets every metric, as a new array would, but keeps its blocks for the
  // next writes: only the keys are reset (no zeroing of slots, no heap
  // traffic). References into the array are invalidated, as by assignment.
  void clear() {
    slotted_ = 0;
    for (Block* b = &head_; b != nullptr; b = b->next.get()) {
      b->keys = noKeys();
      b->used = 0;
    }
  }
  static constexpr std::size_t size() { return N; }
  // A bit per metric with a slot (bit i: metric i), written since the last
  // clear(); a superset of the metrics holding a value. Lets a reader visit
  // the few metrics a lane holds rather than all N.
  std::uint64_t slottedMask() const { return slotted_; }
  // Slots allocated (present or not): what the array costs, for tests and benchmarks.
  std::size_t slotCount() const { return static_cast<std::size_t>(std::popcount(slotted_)); }

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;
    const_iterator() = default;
    const_iterator(const SparseMetricArray* array, std::size_t i) : array_(array), i_(i) {}
    reference operator*() const { return (*array_)[static_cast<Key>(i_)]; }
    pointer operator->() const { return &**this; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++i_;
      return before;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }

   private:
    const SparseMetricArray* array_ = nullptr;
    std::size_t i_ = 0;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, N}; }

 private:
  struct Block {
    std::array<T, K> slots{};
    std::array<std::uint8_t, K> keys = noKeys();
    std::uint8_t used = 0;
    std::unique_ptr<Block> next;

    Block() = default;
    Block(const Block& other)
        : slots(other.slots),
          keys(other.keys),
          used(other.used),
          next(other.next ? std::make_unique<Block>(*other.next) : nullptr) {}
    Block(Block&&) noexcept = default;
    Block& operator=(const Block& other) {
      if (this != &other) *this = Block(other);
      return *this;
    }
    Block& operator=(Block&&) noexcept = default;
    ~Block() = default;
    void clear() {
      keys = noKeys();
      used = 0;
      next.reset();
    }
  };

  static constexpr T kAbsent{};
  static constexpr std::uint8_t kNoKey = 0xff;  // no metric: N <= 64
  static constexpr std::array<std::uint8_t, K> noKeys() {
    std::array<std::uint8_t, K> keys{};
    keys.fill(kNoKey);
    return keys;
  }

  static std::size_t index(Key k) {
    const auto i = static_cast<std::size_t>(k);
    assert(i < N);
    return i;
  }
  static constexpr std::uint64_t bit(std::size_t i) { return std::uint64_t{1} << i; }

  T& insert(Key k) {
    const std::size_t i = index(k);
    Block* b = &head_;
    while (b->used == K) {
      if (!b->next) b->next = std::make_unique<Block>();
      b = b->next.get();
    }
    const std::size_t s = b->used++;
    b->keys[s] = static_cast<std::uint8_t>(i);
    b->slots[s] = T{};
    slotted_ |= bit(i);
    return b->slots[s];
  }

  std::uint64_t slotted_ = 0;  // bit i: metric i has a slot
  Block head_;
};

}  // namespace opticsd
