#pragma once
// A Session over net-snmp's single-session API (snmp_sess_*), driven by a
// Boost.Asio io_context: the session's UDP socket is watched with
// posix::stream_descriptor::async_wait, and net-snmp's retransmission and
// timeout schedule runs on a steady_timer (snmp_sess_select_info2 says
// when, snmp_sess_timeout acts). Nothing blocks: SNMPv3 engine discovery
// is done with an asynchronous probe instead of net-snmp's synchronous one.
//
// Host names: open() takes config.resolved_address (or a numeric
// config.address) and refuses names, so that net-snmp never resolves (that
// would block). SNMPv3 credentials are isolated per session even when two
// targets share an engine ID and user name (see activateUser()).
//
// Many requests may be in flight on one session (walks of several
// subtrees in parallel). Threading: io_context thread only. Owns the
// net-snmp session and its socket; destroying it drops pending requests
// without calling their callbacks.

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>

#include "drivers/snmp/netsnmp_log.hpp"
#include "drivers/snmp/session.hpp"
#include "drivers/snmp/session_config.hpp"

struct snmp_pdu;
struct snmp_session;
struct usmUser;

namespace opticsd::snmp {

class NetSnmpSession : public Session {
 public:
  // Opens the session (no network traffic yet). Errors: bad address,
  // socket failure, bad v3 key material; never a secret in the message.
  static Result<std::unique_ptr<NetSnmpSession>> open(boost::asio::io_context& io, const SessionConfig& config);
  ~NetSnmpSession() override;
  NetSnmpSession(const NetSnmpSession&) = delete;
  NetSnmpSession& operator=(const NetSnmpSession&) = delete;

  void walk(const Oid& root, Callback done) override;
  void get(const std::vector<Oid>& oids, Callback done) override;
  void cancel() override;

  // Varbinds received so far (for the benchmark's per-varbind figures).
  std::uint64_t varbindsReceived() const { return varbinds_received_; }

 private:
  struct Request;
  NetSnmpSession(boost::asio::io_context& io, const SessionConfig& config);
  Result<void> start();
  // After snmp_sess_open: the USM user now if the engine ID is known, else after the probe.
  Result<void> startUsm(bool engine_known);

  static int onPdu(int operation, snmp_session* session, int reqid, snmp_pdu* pdu, void* magic);
  void handlePdu(int operation, int reqid, snmp_pdu* pdu);
  void handleProbe(int operation, snmp_pdu* pdu);
  void continueWalk(std::uint64_t id, Request& request, snmp_pdu* pdu);
  void send(std::uint64_t id);
  void finish(std::uint64_t id, Result<std::vector<Varbind>> result);
  void failAll(const std::string& message);
  void armSocket();
  void idle();
  void armTimer();
  int installUser(snmp_session* s);
  void activateUser();
  void releaseUser();

  boost::asio::io_context& io_;
  SessionConfig config_;
  void* sessp_ = nullptr;
  usmUser* user_ = nullptr;  // v3: this session's own USM user (keys), see activateUser()
  std::unique_ptr<SecretGuard> secrets_;
  std::optional<boost::asio::posix::stream_descriptor> socket_;
  boost::asio::steady_timer timer_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  bool watching_ = false;
  bool timer_armed_ = false;
  std::chrono::steady_clock::time_point timer_at_{};

  // v3: requests wait for engine discovery; probe_state_ tracks it.
  enum class Probe : std::uint8_t { kNotNeeded, kPending, kInFlight, kDone };
  Probe probe_ = Probe::kNotNeeded;
  int probe_reqid_ = 0;
  unsigned generation_ = 0;  // bumped by cancel(): posted callbacks of older requests are dropped

  std::map<std::uint64_t, Request> requests_;
  std::map<int, std::uint64_t> by_reqid_;  // net-snmp request id -> our request
  std::uint64_t next_id_ = 1;
  std::uint64_t varbinds_received_ = 0;
};

}  // namespace opticsd::snmp
