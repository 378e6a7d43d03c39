#pragma once
// A map-backed Session for tests and benchmarks (the snmp_exporter
// scraper/mock.go idea): serves walks and gets from a VarbindStore and
// records every call, so tests can assert what the driver asked for.
//
// Threading: io_context thread only. Answers are posted to the io_context,
// as a real session's would be.

#include <boost/asio/io_context.hpp>
#include <map>
#include <string>
#include <vector>

#include "drivers/snmp/session.hpp"
#include "drivers/snmp/varbind_store.hpp"

namespace opticsd::snmp {

class MockSession : public Session {
 public:
  MockSession(boost::asio::io_context& io, VarbindStore data) : io_(io), data_(std::move(data)) {}

  void walk(const Oid& root, Callback done) override;
  void get(const std::vector<Oid>& oids, Callback done) override;
  void cancel() override { ++generation_; }

  // Make every request under `root` fail with `message` (a dead subtree).
  void failUnder(const Oid& root, std::string message) { failures_[root] = std::move(message); }
  void setData(VarbindStore data) { data_ = std::move(data); }

  const std::vector<Oid>& walked() const { return walked_; }
  const std::vector<std::vector<Oid>>& gets() const { return gets_; }
  void clearCalls() {
    walked_.clear();
    gets_.clear();
  }

 private:
  const std::string* failureFor(const Oid& oid) const;
  void answer(Callback done, Result<std::vector<Varbind>> result);

  boost::asio::io_context& io_;
  VarbindStore data_;
  std::map<Oid, std::string> failures_;
  std::vector<Oid> walked_;
  std::vector<std::vector<Oid>> gets_;
  unsigned generation_ = 0;
};

}  // namespace opticsd::snmp
