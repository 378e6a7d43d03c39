#pragma once
// The narrow SNMP transport seam: a session only walks and gets (in the
// manner of snmp_exporter's scraper interface). Profiles never see it, and
// unit tests replace it with MockSession.
//
// Threading: used from the io_context thread only. Callbacks run on that
// thread, never from inside the call that started the request.

#include <functional>
#include <vector>

#include "drivers/result.hpp"
#include "drivers/snmp/varbind.hpp"

namespace opticsd::snmp {

class Session {
 public:
  using Callback = std::function<void(Result<std::vector<Varbind>>)>;
  virtual ~Session() = default;

  // Every varbind under `root`, in OID order (GETBULK on v2c/v3). Fails
  // when the agent does not answer, loops, or exceeds the varbind limit.
  virtual void walk(const Oid& root, Callback done) = 0;
  // The listed scalars (one GET); missing ones come back as exceptions.
  virtual void get(const std::vector<Oid>& oids, Callback done) = 0;
  // Drops every request in flight; their callbacks are not called.
  virtual void cancel() = 0;
};

}  // namespace opticsd::snmp
