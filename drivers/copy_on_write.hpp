#pragma once
// A value held through a shared pointer, for the parts of a Sample that are
// the same poll after poll (a module's identity and thresholds): copying the
// Sample copies a pointer, and the exporter's latest Samples of an unchanged
// module point at one object instead of one copy per poll.
//
// Readers see a const T; a holder that was never written reads as T{} (no
// thresholds, no identity), never as a table of zeros. The one writer of a
// holder asks for mutate(), which first clones the value when any other
// holder shares it, so a write never shows through another Sample.
//
// Thread-safety: as a plain value. Holders on different threads may share an
// object; the object is never written while shared.

#include <atomic>
#include <memory>

namespace opticsd {

template <typename T>
class CopyOnWrite {
 public:
  const T& operator*() const { return ptr_ ? *ptr_ : empty(); }
  const T* operator->() const { return &**this; }

  // The value of this holder alone, to write (cloned if shared, T{} if unset).
  T& mutate() {
    if (!ptr_) {
      ptr_ = std::make_shared<T>();
    } else if (ptr_.use_count() != 1) {
      ptr_ = std::make_shared<T>(*ptr_);
    } else {
      // The last other holder may have let go on another thread: its reads
      // happen before this write (pairs with the release of its decrement).
      std::atomic_thread_fence(std::memory_order_acquire);
    }
    return *ptr_;
  }

  // Back to unset: reads as T{}.
  void reset() { ptr_.reset(); }

  // Whether this holder alone has its object, so mutate() writes it in place.
  bool unique() const { return ptr_ && ptr_.use_count() == 1; }

  // Whether both read the same value from one object (or both are unset).
  bool sharesWith(const CopyOnWrite& other) const { return ptr_ == other.ptr_; }

  // Points at `other`'s object when it holds an equal value, so equal values
  // are held once. Returns whether the two now share.
  bool shareIfEqual(const CopyOnWrite& other) {
    if (ptr_ == other.ptr_) return true;
    if (!(**this == *other)) return false;
    ptr_ = other.ptr_;
    return true;
  }

 private:
  static const T& empty() {
    static const T kEmpty{};
    return kEmpty;
  }

  std::shared_ptr<T> ptr_;  // never written while another holder has it
};

}  // namespace opticsd
