#include "drivers/snmp/varbind_store.hpp"

#include <algorithm>

namespace opticsd::snmp {
namespace {

bool lessOid(const Varbind& a, const Varbind& b) { return a.oid < b.oid; }

}  // namespace

const Varbind* Column::find(std::span<const std::uint32_t> index) const {
  auto it = std::lower_bound(rows_.begin(), rows_.end(), index, [this](const Varbind& vb, auto key) {
    auto own = indexOf(vb);
    return std::lexicographical_compare(own.begin(), own.end(), key.begin(), key.end());
  });
  if (it == rows_.end()) return nullptr;
  auto own = indexOf(*it);
  if (!std::equal(own.begin(), own.end(), index.begin(), index.end())) return nullptr;
  return &*it;
}

void VarbindStore::add(std::vector<Varbind> varbinds) {
  std::erase_if(varbinds, [](const Varbind& vb) { return vb.isException(); });
  bool was_empty = varbinds_.empty();
  std::size_t old_size = varbinds_.size();
  for (auto& vb : varbinds) varbinds_.push_back(std::move(vb));
  auto mid = varbinds_.begin() + static_cast<std::ptrdiff_t>(old_size);
  if (!std::is_sorted(mid, varbinds_.end(), lessOid)) std::stable_sort(mid, varbinds_.end(), lessOid);
  if (!was_empty) std::inplace_merge(varbinds_.begin(), mid, varbinds_.end(), lessOid);
  auto last = std::unique(varbinds_.begin(), varbinds_.end(),
                          [](const Varbind& a, const Varbind& b) { return a.oid == b.oid; });
  varbinds_.erase(last, varbinds_.end());
}

void VarbindStore::merge(const VarbindStore& other) { add(other.varbinds_); }

const Varbind* VarbindStore::find(const Oid& oid) const {
  auto it = std::lower_bound(varbinds_.begin(), varbinds_.end(), oid,
                             [](const Varbind& vb, const Oid& key) { return vb.oid < key; });
  if (it == varbinds_.end() || it->oid != oid) return nullptr;
  return &*it;
}

std::span<const Varbind> VarbindStore::subtree(const Oid& prefix) const {
  auto first = std::lower_bound(varbinds_.begin(), varbinds_.end(), prefix,
                                [](const Varbind& vb, const Oid& key) { return vb.oid < key; });
  // The subtree is one sorted run: find its end by bisection too (a linear
  // scan made every column lookup O(rows), and resolve() O(sensors x rows)).
  auto last =
      std::partition_point(first, varbinds_.end(), [&](const Varbind& vb) { return vb.oid.startsWith(prefix); });
  return {first, last};
}

Column VarbindStore::column(const Oid& entry, std::uint32_t col) const {
  Oid prefix = entry.child(col);
  return Column(subtree(prefix), prefix.size());
}

}  // namespace opticsd::snmp
