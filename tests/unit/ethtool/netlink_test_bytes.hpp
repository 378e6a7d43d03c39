#pragma once
// A tiny, independent netlink attribute writer for building kernel-shaped
// replies in tests (the code under test builds requests with libmnl; the
// tests do not reuse it, so a shared mistake cannot hide).

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace opticsd::ethtool::testing {

using Bytes = std::vector<std::uint8_t>;

inline void appendRaw(Bytes& out, const void* data, std::size_t n) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  out.insert(out.end(), p, p + n);
}
inline void pad(Bytes& out) {
  while (out.size() % 4 != 0) out.push_back(0);
}
inline Bytes attr(std::uint16_t type, const Bytes& payload) {
  Bytes out;
  const auto len = static_cast<std::uint16_t>(4 + payload.size());
  appendRaw(out, &len, 2);
  appendRaw(out, &type, 2);
  out.insert(out.end(), payload.begin(), payload.end());
  pad(out);
  return out;
}
template <typename T>
Bytes scalarBytes(T value) {
  Bytes out(sizeof(T));
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}
inline Bytes u64s(std::initializer_list<std::uint64_t> values) {
  Bytes out;
  for (auto v : values) appendRaw(out, &v, 8);
  return out;
}
inline Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
inline Bytes str(const std::string& s) {
  Bytes out(s.begin(), s.end());
  out.push_back(0);
  return out;
}
// A generic netlink payload: genlmsghdr then attributes.
inline Bytes genl(std::uint8_t cmd, const Bytes& attributes) {
  Bytes out{cmd, 1, 0, 0};
  out.insert(out.end(), attributes.begin(), attributes.end());
  return out;
}
inline Bytes nlmsg(std::uint16_t type, std::uint16_t flags, std::uint32_t seq, const Bytes& payload) {
  Bytes out;
  const auto len = static_cast<std::uint32_t>(16 + payload.size());
  const std::uint32_t pid = 0;
  appendRaw(out, &len, 4);
  appendRaw(out, &type, 2);
  appendRaw(out, &flags, 2);
  appendRaw(out, &seq, 4);
  appendRaw(out, &pid, 4);
  out.insert(out.end(), payload.begin(), payload.end());
  pad(out);
  return out;
}

}  // namespace opticsd::ethtool::testing
