#pragma once
// Deterministic noise: every simulated value is a pure function of a key
// built from (seed, port, lane, what, time bucket), so two runs with the same
// seed agree bit for bit and nothing needs to be remembered between polls.

#include <cstdint>
#include <string_view>

namespace opticsd::sim {

// SplitMix64 finaliser: a cheap bijective mixer with good avalanche.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

constexpr std::uint64_t hashCombine(std::uint64_t a, std::uint64_t b) { return mix64(a ^ mix64(b)); }

template <typename... Rest>
constexpr std::uint64_t hashKey(std::uint64_t first, Rest... rest) {
  std::uint64_t h = mix64(first);
  ((h = hashCombine(h, static_cast<std::uint64_t>(rest))), ...);
  return h;
}

// FNV-1a, for the default seed taken from the target name.
constexpr std::uint64_t hashString(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

// Uniform in [-1, 1] from a hash (53 high bits, so exact in a double).
constexpr double unitNoise(std::uint64_t h) { return static_cast<double>(h >> 11) * (2.0 / 9007199254740992.0) - 1.0; }

// Uniform in [0, 1).
constexpr double unitInterval(std::uint64_t h) { return static_cast<double>(h >> 11) / 9007199254740992.0; }

}  // namespace opticsd::sim
