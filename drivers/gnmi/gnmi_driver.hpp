#pragma once
// The gNMI driver: one target, one gRPC channel. The first poll subscribes
// ONCE (a complete snapshot, all poll-once needs); then a STREAM
// subscription runs (SAMPLE at the sample interval for values, ON_CHANGE for
// oper-status, presence and identity) and each poll snapshots what it has
// accumulated (mode once: ONCE every poll; mode poll: one POLL subscription,
// a Poll request every poll). Capabilities comes first on every new subscription, to pick
// the encoding and to log what the target supports.
//
// While the stream is down a poll fails ("gNMI stream down: ..."), so
// opticsd_target_up goes to 0; the stream is retried with exponential
// backoff (reconnect_min doubling up to reconnect_max).
//
// Threading: created, polled and destroyed on the io_context thread. gRPC
// runs the calls on its own threads and decodes there (StreamCore); events
// come back to the io_context with boost::asio::post.

#include <boost/asio/steady_timer.hpp>
#include <memory>
#include <optional>

#include "drivers/driver.hpp"
#include "drivers/fec_tail.hpp"
#include "drivers/gnmi/gnmi_options.hpp"
#include "drivers/gnmi/subscribe_call.hpp"

namespace opticsd::gnmi {

class GnmiDriver : public Driver {
 public:
  GnmiDriver(boost::asio::io_context& io, std::string target, GnmiOptions options, LeafRules rules);
  ~GnmiDriver() override;

  void poll(std::int64_t now_ms, Done done) override;
  void cancel() override;

 private:
  enum class StreamState : std::uint8_t { kIdle, kConnecting, kUp, kDown };

  // Runs `then` with the encoding to subscribe with (after Capabilities), or reports the failure.
  void withEncoding(std::function<void(Result<::gnmi::Encoding>)> then);
  // One request per prefix target the variant's paths name (most variants: one).
  std::vector<::gnmi::SubscribeRequest> subscriptions(::gnmi::SubscriptionList::Mode mode,
                                                      ::gnmi::Encoding encoding) const;
  void startOnce(std::int64_t now_ms, Done done);
  void pollTarget(std::int64_t now_ms, Done done);
  void finishOnce(std::uint64_t round, std::optional<std::string> error);
  void startStream();
  void streamEnded(const grpc::Status& status);
  void scheduleReconnect();
  PollResult snapshot(std::int64_t now_ms);
  // `poll-once --explain`: the subscription, the channel base and every path's outcome, to the sink.
  void explain(const StreamCore::Taken& taken) const;
  // Runs `fn` on the io_context if this driver still exists.
  void onIo(std::function<void()> fn);
  std::string describeStatus(const grpc::Status& status) const;

  boost::asio::io_context& io_;
  std::string target_;
  GnmiOptions options_;
  std::shared_ptr<StreamCore> core_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<::gnmi::gNMI::Stub> stub_;
  std::vector<std::pair<std::string, std::string>> metadata_;  // holds the password: never logged
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  boost::asio::steady_timer reconnect_timer_;

  // The ONCE round in flight.
  std::uint64_t round_ = 0;
  Done once_done_;
  std::int64_t once_now_ms_ = 0;
  bool once_synced_ = false;
  std::vector<std::shared_ptr<CallHandle>> poll_calls_;  // POLL mode: the live subscriptions, one per target
  std::size_t poll_syncs_pending_ = 0;                   // of the Poll request in flight

  bool snapshot_taken_ = false;  // a ONCE succeeded: stream mode streams from now on
  StreamState stream_ = StreamState::kIdle;
  std::string stream_error_;
  bool stream_failed_ = false;  // since the last response: reconnecting is still down
  // Counts startStream calls: the end of a call of an earlier stream (its
  // siblings, cancelled when one of them ended) is not news.
  std::uint64_t stream_generation_ = 0;
  std::chrono::milliseconds backoff_{0};
  std::chrono::steady_clock::time_point reconnect_at_{};
  bool logged_unknown_ = false;
  bool logged_ambiguous_ = false;
  // `poll-once --explain`: the last subscription sent, in words.
  mutable std::string subscription_sent_;
  FecTailTracker fec_tails_;  // each port's codeword histogram of the previous poll: the window's FEC tail
};

// The registry's row for this driver (drivers/CMakeLists.txt: opticsd_driver(gnmi)).
const DriverEntry& driverEntry();

}  // namespace opticsd::gnmi
