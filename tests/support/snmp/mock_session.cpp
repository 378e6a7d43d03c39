#include "tests/support/snmp/mock_session.hpp"

#include <boost/asio/post.hpp>

namespace opticsd::snmp {

const std::string* MockSession::failureFor(const Oid& oid) const {
  for (const auto& [root, message] : failures_) {
    if (oid.startsWith(root) || root.startsWith(oid)) return &message;
  }
  return nullptr;
}

void MockSession::answer(Callback done, Result<std::vector<Varbind>> result) {
  boost::asio::post(io_,
                    [this, generation = generation_, done = std::move(done), result = std::move(result)]() mutable {
                      if (generation != generation_) return;
                      done(std::move(result));
                    });
}

void MockSession::walk(const Oid& root, Callback done) {
  walked_.push_back(root);
  if (const auto* message = failureFor(root)) return answer(std::move(done), fail(*message));
  auto rows = data_.subtree(root);
  answer(std::move(done), std::vector<Varbind>(rows.begin(), rows.end()));
}

void MockSession::get(const std::vector<Oid>& oids, Callback done) {
  gets_.push_back(oids);
  std::vector<Varbind> out;
  for (const auto& oid : oids) {
    if (const auto* message = failureFor(oid)) return answer(std::move(done), fail(*message));
    if (const auto* vb = data_.find(oid)) {
      out.push_back(*vb);
    } else {
      Varbind missing;
      missing.oid = oid;
      missing.type = VarType::kNoSuchObject;
      out.push_back(std::move(missing));
    }
  }
  answer(std::move(done), std::move(out));
}

}  // namespace opticsd::snmp
