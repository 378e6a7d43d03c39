#pragma once
// The varbinds of one poll, sorted by OID, with lookups by table column and
// row index. Profiles read only from here, so decoding needs no session.
//
// A plain value type; built on one thread, then read.

#include <optional>
#include <span>
#include <vector>

#include "drivers/snmp/varbind.hpp"

namespace opticsd::snmp {

// The rows of one table column: varbinds under `column`, addressed by the
// index arcs that follow it.
class Column {
 public:
  Column() = default;
  Column(std::span<const Varbind> rows, std::size_t prefix_len) : rows_(rows), prefix_len_(prefix_len) {}

  std::span<const Varbind> rows() const { return rows_; }
  std::span<const std::uint32_t> indexOf(const Varbind& vb) const {
    return std::span<const std::uint32_t>(vb.oid.arcs()).subspan(prefix_len_);
  }
  const Varbind* find(std::span<const std::uint32_t> index) const;
  const Varbind* find(std::uint32_t index) const { return find(std::span<const std::uint32_t>(&index, 1)); }
  bool empty() const { return rows_.empty(); }

 private:
  std::span<const Varbind> rows_;
  std::size_t prefix_len_ = 0;
};

class VarbindStore {
 public:
  VarbindStore() = default;
  explicit VarbindStore(std::vector<Varbind> varbinds) { add(std::move(varbinds)); }

  // Adds varbinds (any order); exceptions (noSuchObject ...) are dropped and
  // a repeated OID keeps its first value.
  void add(std::vector<Varbind> varbinds);
  void merge(const VarbindStore& other);

  const Varbind* find(const Oid& oid) const;
  std::span<const Varbind> subtree(const Oid& prefix) const;
  Column column(const Oid& entry, std::uint32_t column) const;
  std::size_t size() const { return varbinds_.size(); }
  const std::vector<Varbind>& all() const { return varbinds_; }

 private:
  std::vector<Varbind> varbinds_;
};

}  // namespace opticsd::snmp
