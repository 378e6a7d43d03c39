#pragma once
// Asks the CPU to bring memory into cache ahead of its use. A fleet's state
// does not fit in cache: code that walks it in a known order (the rules
// engine over a poll's modules, the backtest over a poll's stored rows)
// otherwise waits on every module in turn; asking for the next one while the
// current one is worked on overlaps those waits. A hint only: it changes no
// value, and an address it names is never read by it.

#include <cstddef>

namespace opticsd {

inline constexpr std::size_t kCacheLineBytes = 64;

// Every cache line of [p, p + bytes).
inline void prefetchBytes(const void* p, std::size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (std::size_t off = 0; off < bytes; off += kCacheLineBytes) __builtin_prefetch(c + off);
}

}  // namespace opticsd
