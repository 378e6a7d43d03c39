#include "drivers/snmp/netsnmp_session.hpp"

#include <boost/asio/post.hpp>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <set>

// clang-format off
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/library/large_fd_set.h>
// clang-format on
// net-snmp aliases these GETBULK fields to errstat/errindex with macros that
// would also rewrite our own member names.
#undef non_repeaters
#undef max_repetitions

#include "drivers/snmp/host_resolver.hpp"
#include "drivers/snmp/netsnmp_log.hpp"
#include "drivers/snmp/netsnmp_varbind.hpp"

namespace opticsd::snmp {

struct NetSnmpSession::Request {
  bool is_walk = true;
  Oid root;               // walk: the subtree
  Oid next;               // walk: where the next GETBULK starts (the last OID seen, exceptions too)
  std::size_t seen = 0;   // walk: varbinds seen, exceptions too (bounded like results)
  std::vector<Oid> oids;  // get
  std::vector<Varbind> results;
  Callback done;
  int reqid = 0;                                     // 0 while waiting for v3 discovery
  std::chrono::steady_clock::time_point deadline{};  // backstop when net-snmp drops a request silently
};

namespace {

void initLibrary() {
  static std::once_flag once;
  std::call_once(once, [] {
    // A library inside a daemon: no snmp.conf side effects, no persistent
    // state files, no MIB parsing (numeric OIDs only), no stderr chatter.
    netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_PERSIST_STATE, 1);
    netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
    netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
    netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
    setenv("MIBS", "", 0);
    setenv("MIBDIRS", "/nonexistent", 0);
    routeNetSnmpLogging();
    snmp_set_do_debugging(0);  // debug output could dump key material
    init_snmp("opticsd");
  });
}

// RFC 3414 section 5, usmStats counters an agent reports on a v3 failure.
std::string reportReason(const netsnmp_pdu* pdu) {
  static const oid kUsmStats[] = {1, 3, 6, 1, 6, 3, 15, 1, 1};
  if (pdu->variables && pdu->variables->name_length > 9 &&
      std::memcmp(pdu->variables->name, kUsmStats, sizeof(kUsmStats)) == 0) {
    switch (pdu->variables->name[9]) {
      case 1:
        return "unsupported security level (usmStatsUnsupportedSecLevels)";
      case 2:
        return "not in time window (usmStatsNotInTimeWindows)";
      case 3:
        return "unknown user name (usmStatsUnknownUserNames)";
      case 4:
        return "unknown engine ID (usmStatsUnknownEngineIDs)";
      case 5:
        return "authentication failed: wrong digest, check the auth password and protocol (usmStatsWrongDigests)";
      case 6:
        return "decryption failed: check the privacy password and protocol (usmStatsDecryptionErrors)";
      default:
        break;
    }
  }
  return "agent sent a report";
}

Result<std::vector<unsigned char>> hexBytes(const std::string& hex) {
  std::vector<unsigned char> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<unsigned char>(std::strtoul(hex.substr(i, 2).c_str(), nullptr, 16)));
  }
  if (out.size() < 5 || out.size() > 32) return fail("engine_id must be 5..32 bytes");
  return out;
}

// net-snmp keeps USM users in one process-wide list keyed by (engine ID,
// user name) and looks them up there both to sign/encrypt a request and to
// check and decrypt its response. Two targets with the same engine ID and
// user name but different passwords (cloned switch configs) would share one
// entry: one target's keys would be used for the other. So each v3 session
// owns its usmUser and puts it into the list just before every net-snmp call
// that may use it (activateUser); the calls and the swap happen under
// netsnmpMutex(), so nothing else can swap in between.
std::recursive_mutex& netsnmpMutex() {
  static std::recursive_mutex m;
  return m;
}

// Users owned by a live session (not to be freed when swapped out).
std::set<const usmUser*>& ownedUsers() {
  static std::set<const usmUser*> users;
  return users;
}

// Takes whatever user holds (engine, name) out of the list; frees it unless
// a session owns it (then that session puts it back when it needs it).
void evictUser(const u_char* engine, size_t engine_len, const char* name) {
  if (auto* old = usm_get_user(engine, engine_len, name)) {
    usm_remove_user(old);
    if (!ownedUsers().count(old)) usm_free_user(old);
  }
}

std::string sessionError(void* sessp) {
  int liberr = 0, syserr = 0;
  char* text = nullptr;
  snmp_sess_error(sessp, &liberr, &syserr, &text);
  std::string out = text ? text : "unknown net-snmp error";
  std::free(text);
  return out;
}

}  // namespace

NetSnmpSession::NetSnmpSession(boost::asio::io_context& io, const SessionConfig& config)
    : io_(io), config_(config), timer_(io) {}

Result<std::unique_ptr<NetSnmpSession>> NetSnmpSession::open(boost::asio::io_context& io, const SessionConfig& config) {
  initLibrary();
  std::unique_ptr<NetSnmpSession> session(new NetSnmpSession(io, config));
  auto started = session->start();
  if (!started) return tl::unexpected(started.error());
  return session;
}

namespace {

::oid* authProtocolOid(AuthProtocol protocol) {
  switch (protocol) {
    case AuthProtocol::kMd5:
      return usmHMACMD5AuthProtocol;
    case AuthProtocol::kSha:
      return usmHMACSHA1AuthProtocol;
    case AuthProtocol::kSha224:
      return usmHMAC128SHA224AuthProtocol;
    case AuthProtocol::kSha256:
      return usmHMAC192SHA256AuthProtocol;
    case AuthProtocol::kSha384:
      return usmHMAC256SHA384AuthProtocol;
    case AuthProtocol::kSha512:
      return usmHMAC384SHA512AuthProtocol;
  }
  return usmHMACSHA1AuthProtocol;
}

void setPrivProtocol(netsnmp_session& s, PrivProtocol protocol) {
  switch (protocol) {
    case PrivProtocol::kAes128:
      s.securityPrivProto = usmAESPrivProtocol;
      s.securityPrivProtoLen = USM_PRIV_PROTO_AES_LEN;
      break;
    case PrivProtocol::kDes:
      s.securityPrivProto = usmDESPrivProtocol;
      s.securityPrivProtoLen = USM_PRIV_PROTO_DES_LEN;
      break;
    // net-snmp extends the key to the cipher's length when it localizes it.
    case PrivProtocol::kAes192:
      s.securityPrivProto = usmAES192PrivProtocol;
      s.securityPrivProtoLen = std::size(usmAES192PrivProtocol);
      break;
    case PrivProtocol::kAes256:
      s.securityPrivProto = usmAES256PrivProtocol;
      s.securityPrivProtoLen = std::size(usmAES256PrivProtocol);
      break;
    case PrivProtocol::kAes192Cisco:
      s.securityPrivProto = usmAES192CiscoPrivProtocol;
      s.securityPrivProtoLen = std::size(usmAES192CiscoPrivProtocol);
      break;
    case PrivProtocol::kAes256Cisco:
      s.securityPrivProto = usmAES256CiscoPrivProtocol;
      s.securityPrivProtoLen = std::size(usmAES256CiscoPrivProtocol);
      break;
  }
}

// The USM keys (Ku) from the passwords, as the security level needs them.
Result<void> deriveUsmKeys(netsnmp_session& s, const SessionConfig& config) {
  if (config.level == SecurityLevel::kNoAuthNoPriv) return {};
  s.securityAuthProto = authProtocolOid(config.auth_protocol);
  s.securityAuthProtoLen = USM_AUTH_PROTO_SHA_LEN;
  s.securityAuthKeyLen = USM_AUTH_KU_LEN;
  if (generate_Ku(s.securityAuthProto, static_cast<u_int>(s.securityAuthProtoLen),
                  reinterpret_cast<const u_char*>(config.auth_password.data()), config.auth_password.size(),
                  s.securityAuthKey, &s.securityAuthKeyLen) != SNMPERR_SUCCESS) {
    return fail(config.describe() + ": cannot derive the authentication key");
  }
  if (config.level != SecurityLevel::kAuthPriv) return {};
  setPrivProtocol(s, config.priv_protocol);
  s.securityPrivKeyLen = USM_PRIV_KU_LEN;
  if (generate_Ku(s.securityAuthProto, static_cast<u_int>(s.securityAuthProtoLen),
                  reinterpret_cast<const u_char*>(config.priv_password.data()), config.priv_password.size(),
                  s.securityPrivKey, &s.securityPrivKeyLen) != SNMPERR_SUCCESS) {
    return fail(config.describe() + ": cannot derive the privacy key");
  }
  return {};
}

void setCommunity(netsnmp_session& s, SessionConfig& config) {
  s.version = SNMP_VERSION_2c;
  s.community = reinterpret_cast<u_char*>(config.community.data());
  s.community_len = config.community.size();
}

// SNMPv3 USM: user, level, context, keys and a configured engine ID (kept in
// `engine`, which must outlive snmp_sess_open).
Result<void> setUsmSecurity(netsnmp_session& s, SessionConfig& config, std::vector<unsigned char>& engine) {
  s.version = SNMP_VERSION_3;
  s.securityModel = SNMP_SEC_MODEL_USM;
  s.securityName = config.user.data();
  s.securityNameLen = config.user.size();
  s.securityLevel = config.level == SecurityLevel::kNoAuthNoPriv ? SNMP_SEC_LEVEL_NOAUTH
                    : config.level == SecurityLevel::kAuthNoPriv ? SNMP_SEC_LEVEL_AUTHNOPRIV
                                                                 : SNMP_SEC_LEVEL_AUTHPRIV;
  if (!config.context.empty()) {
    s.contextName = config.context.data();
    s.contextNameLen = config.context.size();
  }
  auto keys = deriveUsmKeys(s, config);
  if (!keys) return keys;
  if (!config.engine_id_hex.empty()) {
    auto bytes = hexBytes(config.engine_id_hex);
    if (!bytes) return fail(config.describe() + ": " + bytes.error().message);
    engine = std::move(*bytes);
    s.securityEngineID = engine.data();
    s.securityEngineIDLen = engine.size();
    s.contextEngineID = engine.data();
    s.contextEngineIDLen = engine.size();
  }
  // net-snmp's own engine discovery is a blocking exchange inside the first
  // send; we probe asynchronously instead (see handleProbe).
  s.flags |= SNMP_FLAGS_DONT_PROBE;
  return {};
}

std::string peerName(const std::string& host, std::uint16_t port) {
  return host.find(':') != std::string::npos ? "udp6:[" + host + "]:" + std::to_string(port)
                                             : "udp:" + host + ":" + std::to_string(port);
}

}  // namespace

Result<void> NetSnmpSession::start() {
  // net-snmp would resolve a host name itself, blocking this thread (see
  // HostResolver): it only ever gets a numeric address.
  const std::string& host = config_.resolved_address.empty() ? config_.address : config_.resolved_address;
  if (!isNumericAddress(host)) {
    return fail(config_.describe() + ": '" + host + "' is not a numeric address (host names are resolved first)");
  }
  secrets_ = std::make_unique<SecretGuard>(std::vector<std::string>{
      config_.version == SnmpVersion::kV2c ? config_.community : "", config_.auth_password, config_.priv_password});
  std::lock_guard lock(netsnmpMutex());
  netsnmp_session s;
  snmp_sess_init(&s);
  std::string peer = peerName(host, config_.port);
  s.peername = peer.data();
  s.timeout = static_cast<long>(config_.timeout.count()) * 1000;
  s.retries = config_.retries;
  std::vector<unsigned char> engine;
  if (config_.version == SnmpVersion::kV2c) {
    setCommunity(s, config_);
  } else if (auto usm = setUsmSecurity(s, config_, engine); !usm) {
    return usm;
  }

  sessp_ = snmp_sess_open(&s);
  // The session copied the key material; wipe our stack copy.
  std::memset(s.securityAuthKey, 0, sizeof(s.securityAuthKey));
  std::memset(s.securityPrivKey, 0, sizeof(s.securityPrivKey));
  if (!sessp_) return fail(config_.describe() + ": cannot open session: " + snmp_api_errstring(s.s_snmp_errno));
  if (config_.version == SnmpVersion::kV3) {
    auto user = startUsm(!engine.empty());
    if (!user) return user;
  }
  netsnmp_transport* transport = snmp_sess_transport(sessp_);
  if (!transport || transport->sock < 0) return fail(config_.describe() + ": session has no socket");
  socket_.emplace(io_, transport->sock);
  return {};
}

Result<void> NetSnmpSession::startUsm(bool engine_known) {
  // snmp_sess_open clears DONT_PROBE on the session it returns; without it
  // the first send runs net-snmp's blocking engine-ID probe on our thread.
  snmp_sess_session(sessp_)->flags |= SNMP_FLAGS_DONT_PROBE;
  if (!engine_known) {
    probe_ = Probe::kPending;
    return {};
  }
  if (installUser(snmp_sess_session(sessp_)) != SNMPERR_SUCCESS) {
    return fail(config_.describe() + ": cannot set up the SNMPv3 user");
  }
  probe_ = Probe::kDone;
  return {};
}

NetSnmpSession::~NetSnmpSession() {
  std::lock_guard lock(netsnmpMutex());
  *alive_ = false;
  requests_.clear();
  by_reqid_.clear();
  timer_.cancel();
  if (socket_) {
    boost::system::error_code ec;
    socket_->cancel(ec);
    socket_->release();  // net-snmp owns and closes the descriptor
  }
  if (sessp_) snmp_sess_close(sessp_);
  releaseUser();
}

int NetSnmpSession::installUser(snmp_session* s) {
  releaseUser();
  evictUser(s->securityEngineID, s->securityEngineIDLen, s->securityName);
  s->flags &= ~SNMP_FLAGS_USER_CREATED;  // else net-snmp skips the creation
  if (create_user_from_session(s) != SNMPERR_SUCCESS) return SNMPERR_GENERR;
  user_ = usm_get_user(s->securityEngineID, s->securityEngineIDLen, s->securityName);
  if (!user_) return SNMPERR_GENERR;
  ownedUsers().insert(user_);
  return SNMPERR_SUCCESS;
}

// Called under netsnmpMutex() right before net-snmp may sign, encrypt,
// check or decrypt a message of this session.
void NetSnmpSession::activateUser() {
  if (!user_ || usm_get_user(user_->engineID, user_->engineIDLen, user_->name) == user_) return;
  evictUser(user_->engineID, user_->engineIDLen, user_->name);
  usm_add_user(user_);
}

void NetSnmpSession::releaseUser() {
  if (!user_) return;
  if (usm_get_user(user_->engineID, user_->engineIDLen, user_->name) == user_) usm_remove_user(user_);
  ownedUsers().erase(user_);
  usm_free_user(user_);
  user_ = nullptr;
}

void NetSnmpSession::walk(const Oid& root, Callback done) {
  auto id = next_id_++;
  Request& r = requests_[id];
  r.is_walk = true;
  r.root = root;
  r.next = root;
  r.done = std::move(done);
  send(id);
}

void NetSnmpSession::get(const std::vector<Oid>& oids, Callback done) {
  auto id = next_id_++;
  Request& r = requests_[id];
  r.is_walk = false;
  r.oids = oids;
  r.done = std::move(done);
  send(id);
}

void NetSnmpSession::cancel() {
  requests_.clear();
  by_reqid_.clear();
  if (probe_ == Probe::kInFlight) probe_ = Probe::kPending;
  ++generation_;
  idle();
}

void NetSnmpSession::send(std::uint64_t id) {
  auto it = requests_.find(id);
  if (it == requests_.end()) return;
  Request& r = it->second;
  std::lock_guard lock(netsnmpMutex());
  if (probe_ == Probe::kPending) {
    // RFC 3414 section 4: an unauthenticated request with an empty user
    // makes the agent report its snmpEngineID (and boots/time).
    netsnmp_pdu* probe = snmp_pdu_create(SNMP_MSG_GET);
    probe->version = SNMP_VERSION_3;
    probe->securityName = strdup("");
    probe->securityNameLen = 0;
    probe->securityLevel = SNMP_SEC_LEVEL_NOAUTH;
    probe->securityModel = SNMP_SEC_MODEL_USM;
    int reqid = snmp_sess_async_send(sessp_, probe, &NetSnmpSession::onPdu, this);
    if (reqid == 0) {
      snmp_free_pdu(probe);
      failAll(config_.describe() + ": SNMPv3 discovery send failed: " + sessionError(sessp_));
      return;
    }
    probe_reqid_ = reqid;
    probe_ = Probe::kInFlight;
  }
  if (probe_ == Probe::kInFlight) {
    armSocket();
    armTimer();
    return;  // sent when discovery completes
  }

  netsnmp_pdu* pdu = nullptr;
  if (r.is_walk) {
    pdu = snmp_pdu_create(SNMP_MSG_GETBULK);
    pdu->errstat = 0;                         // non-repeaters (RFC 3416 section 4.2.3)
    pdu->errindex = config_.max_repetitions;  // max-repetitions
    std::vector<oid> name(r.next.arcs().begin(), r.next.arcs().end());
    snmp_add_null_var(pdu, name.data(), name.size());
  } else {
    pdu = snmp_pdu_create(SNMP_MSG_GET);
    for (const auto& o : r.oids) {
      std::vector<oid> name(o.arcs().begin(), o.arcs().end());
      snmp_add_null_var(pdu, name.data(), name.size());
    }
  }
  activateUser();
  int reqid = snmp_sess_async_send(sessp_, pdu, &NetSnmpSession::onPdu, this);
  if (reqid == 0) {
    snmp_free_pdu(pdu);
    finish(id, fail(config_.describe() + ": send failed: " + sessionError(sessp_)));
    return;
  }
  r.reqid = reqid;
  r.deadline =
      std::chrono::steady_clock::now() + config_.timeout * (config_.retries + 1) + std::chrono::milliseconds(200);
  by_reqid_[reqid] = id;
  armSocket();
  armTimer();
}

int NetSnmpSession::onPdu(int operation, snmp_session*, int reqid, snmp_pdu* pdu, void* magic) {
  static_cast<NetSnmpSession*>(magic)->handlePdu(operation, reqid, pdu);
  return 1;
}

void NetSnmpSession::handlePdu(int operation, int reqid, snmp_pdu* pdu) {
  if (!*alive_) return;
  if (operation == NETSNMP_CALLBACK_OP_RESEND) return;  // a retransmission, not an answer
  if (probe_ == Probe::kInFlight && reqid == probe_reqid_) return handleProbe(operation, pdu);
  auto found = by_reqid_.find(reqid);
  if (found == by_reqid_.end()) return;  // cancelled
  auto id = found->second;
  by_reqid_.erase(found);
  auto it = requests_.find(id);
  if (it == requests_.end()) return;
  Request& r = it->second;

  if (operation == NETSNMP_CALLBACK_OP_TIMED_OUT) {
    return finish(id, fail(config_.describe() + ": timeout: no answer after " + std::to_string(config_.retries + 1) +
                           " tries of " + std::to_string(config_.timeout.count()) + " ms"));
  }
  if (operation == NETSNMP_CALLBACK_OP_SEC_ERROR && pdu) {
    return finish(id, fail(config_.describe() + ": SNMPv3 " + reportReason(pdu)));
  }
  if (operation != NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE || !pdu) {
    return finish(id,
                  fail(config_.describe() + ": request failed (net-snmp operation " + std::to_string(operation) + ")"));
  }
  if (pdu->command == SNMP_MSG_REPORT) {
    return finish(id, fail(config_.describe() + ": SNMPv3 " + reportReason(pdu)));
  }
  if (pdu->errstat != SNMP_ERR_NOERROR) {
    return finish(id, fail(config_.describe() + ": agent error " + snmp_errstring(static_cast<int>(pdu->errstat)) +
                           " (index " + std::to_string(pdu->errindex) + ")"));
  }
  if (r.is_walk) return continueWalk(id, r, pdu);
  std::vector<Varbind> out;
  for (auto* var = pdu->variables; var; var = var->next_variable) {
    auto vb = fromNetsnmp(*var);
    if (!vb) return finish(id, fail(config_.describe() + ": bad varbind: " + vb.error().message));
    ++varbinds_received_;
    out.push_back(std::move(*vb));
  }
  finish(id, std::move(out));
}

void NetSnmpSession::handleProbe(int operation, snmp_pdu* pdu) {
  probe_reqid_ = 0;
  netsnmp_session* s = snmp_sess_session(sessp_);
  bool learned = s->securityEngineIDLen > 0;  // net-snmp may have taken it from the report itself
  // The probe's answer is a Report; net-snmp hands it over as a security error.
  bool answered = operation == NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE || operation == NETSNMP_CALLBACK_OP_SEC_ERROR;
  if (answered && pdu && (pdu->securityEngineIDLen > 0 || learned)) {
    if (s->securityEngineIDLen == 0) {
      s->securityEngineID = static_cast<u_char*>(netsnmp_memdup(pdu->securityEngineID, pdu->securityEngineIDLen));
      s->securityEngineIDLen = pdu->securityEngineIDLen;
    }
    if (s->contextEngineIDLen == 0) {
      s->contextEngineID = static_cast<u_char*>(netsnmp_memdup(s->securityEngineID, s->securityEngineIDLen));
      s->contextEngineIDLen = s->securityEngineIDLen;
    }
    if (installUser(s) != SNMPERR_SUCCESS) {
      probe_ = Probe::kPending;
      return failAll(config_.describe() + ": cannot set up the SNMPv3 user for the discovered engine");
    }
    probe_ = Probe::kDone;
    std::vector<std::uint64_t> waiting;
    for (const auto& [id, r] : requests_) {
      if (r.reqid == 0) waiting.push_back(id);
    }
    for (auto id : waiting) send(id);
    return;
  }
  probe_ = Probe::kPending;
  failAll(config_.describe() +
          (operation == NETSNMP_CALLBACK_OP_TIMED_OUT
               ? ": timeout: no answer to SNMPv3 engine discovery"
               : ": SNMPv3 engine discovery failed (operation " + std::to_string(operation) + ", engine ID length " +
                     std::to_string(pdu ? pdu->securityEngineIDLen : 0) + ")"));
}

void NetSnmpSession::continueWalk(std::uint64_t id, Request& r, snmp_pdu* pdu) {
  bool any = false;
  for (auto* var = pdu->variables; var; var = var->next_variable) {
    auto vb = fromNetsnmp(*var);
    if (!vb)
      return finish(
          id, fail(config_.describe() + ": walk of " + r.root.toString() + ": bad varbind: " + vb.error().message));
    ++varbinds_received_;
    if (vb->type == VarType::kEndOfMibView || !vb->oid.startsWith(r.root)) {
      return finish(id, std::move(r.results));
    }
    if (vb->oid <= r.next) {
      return finish(
          id, fail(config_.describe() + ": walk of " + r.root.toString() + ": agent returned " + vb->oid.toString() +
                   " after " + r.next.toString() + " (OIDs not increasing; the walk would loop)"));
    }
    // The walk goes on from every OID the agent names, an exception (noSuchInstance,
    // a Null) included: otherwise a reply of only exceptions is asked for again and again.
    r.next = vb->oid;
    any = true;
    if (++r.seen > config_.max_varbinds) {
      return finish(id, fail(config_.describe() + ": walk of " + r.root.toString() + " exceeded " +
                             std::to_string(config_.max_varbinds) + " varbinds (max_varbinds)"));
    }
    if (vb->isException()) continue;
    r.results.push_back(std::move(*vb));
  }
  if (!any) return finish(id, std::move(r.results));
  send(id);
}

void NetSnmpSession::finish(std::uint64_t id, Result<std::vector<Varbind>> result) {
  auto it = requests_.find(id);
  if (it == requests_.end()) return;
  Callback done = std::move(it->second.done);
  if (it->second.reqid) by_reqid_.erase(it->second.reqid);
  requests_.erase(it);
  if (requests_.empty() && probe_ != Probe::kInFlight) idle();
  // Never call back from inside net-snmp's read/timeout processing: the
  // caller may destroy this session in its callback.
  boost::asio::post(io_, [alive = alive_, this, generation = generation_, done = std::move(done),
                          result = std::move(result)]() mutable {
    if (!*alive || generation != generation_) return;
    done(std::move(result));
  });
}

// Nothing in flight: stop watching, so that an idle session holds no work on
// the io_context (io_context::run() may return).
void NetSnmpSession::idle() {
  boost::system::error_code ec;
  if (watching_ && socket_) socket_->cancel(ec);
  if (timer_armed_) timer_.cancel();
  timer_armed_ = false;
}

void NetSnmpSession::failAll(const std::string& message) {
  std::vector<std::uint64_t> ids;
  for (const auto& [id, r] : requests_) ids.push_back(id);
  for (auto id : ids) finish(id, fail(message));
}

void NetSnmpSession::armSocket() {
  if (watching_ || (requests_.empty() && probe_ != Probe::kInFlight)) return;
  watching_ = true;
  socket_->async_wait(boost::asio::posix::stream_descriptor::wait_read,
                      [this, alive = alive_](const boost::system::error_code& ec) {
                        if (!*alive) return;
                        watching_ = false;
                        if (ec) return;
                        netsnmp_large_fd_set fds;
                        int fd = socket_->native_handle();
                        netsnmp_large_fd_set_init(&fds, fd + 1);
                        NETSNMP_LARGE_FD_SET(fd, &fds);
                        {
                          std::lock_guard lock(netsnmpMutex());
                          activateUser();
                          snmp_sess_read2(sessp_, &fds);
                        }
                        netsnmp_large_fd_set_cleanup(&fds);
                        if (!*alive) return;
                        armSocket();
                        armTimer();
                      });
}

void NetSnmpSession::armTimer() {
  if (requests_.empty() && probe_ != Probe::kInFlight) {
    if (timer_armed_) timer_.cancel();
    timer_armed_ = false;
    return;
  }
  int numfds = 0;
  int block = 0;
  struct timeval tv = {3600, 0};
  netsnmp_large_fd_set fds;
  netsnmp_large_fd_set_init(&fds, 1);
  {
    std::lock_guard lock(netsnmpMutex());
    snmp_sess_select_info2(sessp_, &numfds, &fds, &tv, &block);
  }
  netsnmp_large_fd_set_cleanup(&fds);
  auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::seconds(tv.tv_sec) +
                                                                    std::chrono::microseconds(tv.tv_usec));
  // Backstop: never sleep longer than a quarter of the request timeout while
  // requests are pending, whatever net-snmp's schedule says.
  auto backstop = std::max(std::chrono::milliseconds(10), config_.timeout / 4);
  if (wait > backstop) wait = backstop;
  auto at = std::chrono::steady_clock::now() + wait;
  // Re-arming costs a syscall; keep the timer when it already fires close to `at`.
  if (timer_armed_ && at >= timer_at_ && at - timer_at_ < std::chrono::milliseconds(5)) return;
  timer_at_ = at;
  timer_armed_ = true;
  timer_.expires_at(at);
  timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (!*alive || ec == boost::asio::error::operation_aborted) return;
    timer_armed_ = false;
    {
      std::lock_guard lock(netsnmpMutex());
      activateUser();  // a retransmission is signed anew
      snmp_sess_timeout(sessp_);
    }
    if (!*alive) return;
    // net-snmp drops some requests without a callback (e.g. a v3 report it
    // cannot authenticate); fail those ourselves once they are overdue.
    auto now = std::chrono::steady_clock::now();
    std::vector<std::uint64_t> overdue;
    for (const auto& [id, r] : requests_) {
      if (r.reqid != 0 && r.deadline != std::chrono::steady_clock::time_point{} && now > r.deadline) {
        overdue.push_back(id);
      }
    }
    for (auto id : overdue) {
      finish(id, fail(config_.describe() + ": no usable answer within " +
                      std::to_string(config_.timeout.count() * (config_.retries + 1)) +
                      " ms (timeout, or an SNMPv3 authentication failure the agent reported unauthenticated)"));
    }
    armSocket();
    armTimer();
  });
}

}  // namespace opticsd::snmp
