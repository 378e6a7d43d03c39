#pragma once
// One gNMI Subscribe RPC on gRPC's callback API. gRPC runs it on its own
// threads: responses are decoded there into the shared StreamCore (under its
// mutex), and the events that steer the session (first response, sync,
// end) are handed to the owner, which posts them to its io_context.
//
// Every call (and the Capabilities call) registers its ClientContext with
// the core, so the owner can cancel all of them and wait until gRPC is done
// with them before it goes away.

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "drivers/gnmi/notification_decoder.hpp"
#include "schemas/gnmi/gnmi.grpc.pb.h"

namespace opticsd::gnmi {

// What the calls of one target share with its driver.
class StreamCore {
 public:
  StreamCore(const VendorVariant& variant, LeafRules rules, std::size_t max_updates_per_interval,
             std::optional<int> channel_base = std::nullopt);

  // The stream's side (gRPC threads).
  void decode(const ::gnmi::Notification& notification);

  // The poll's side (io thread): the Samples so far, and the counts since the last take.
  struct Taken {
    std::vector<Sample> samples;
    DecodeCounts counts;
    std::size_t updates = 0;
    std::size_t dropped = 0;
    ChannelBase channel_base;
    std::optional<DecodeTrace> trace;  // since the last take, when tracing
  };
  // `poll-once --explain`: record every received path's outcome from now on.
  void enableTrace();
  Taken take(std::int64_t now_ms, std::int64_t stale_after_ms);

  // Call registry: cancel everything in flight; wait until gRPC has finished
  // them. A call that ends first leaves the cancel list (forget), then frees
  // its context, then says it is finished: cancelAll must never reach a
  // context being destroyed (it did, under load: "pure virtual method called"
  // in grpc_call_cancel as poll-once tore down, 19-gnmi-faults.sh's flake).
  void track(grpc::ClientContext* context);
  void forget(grpc::ClientContext* context);
  void finished();
  void cancelAll();
  bool waitIdle(std::chrono::milliseconds limit);

 private:
  std::mutex mu_;
  LeafRules rules_;
  TelemetryState state_;
  NotificationDecoder decoder_;
  std::unique_ptr<DecodeTrace> trace_;
  DecodeCounts counts_;
  std::size_t updates_ = 0;
  std::size_t dropped_ = 0;
  std::size_t max_updates_;

  std::mutex calls_mu_;
  std::condition_variable idle_;
  std::vector<grpc::ClientContext*> calls_;  // cancellable
  std::size_t live_ = 0;                     // tracked and not yet finished
};

class SubscribeCall;

// A live Subscribe that takes further requests (POLL mode). Thread-safe; a
// no-op once gRPC has finished the call.
class CallHandle {
 public:
  void poll();  // sends a Poll request: the target answers with its data and a sync_response
  bool live();
  void cancel();  // ends the call (its done event follows, on a gRPC thread)

 private:
  friend class SubscribeCall;
  std::mutex mu_;
  SubscribeCall* call_ = nullptr;
};

struct CallEvents {
  std::function<void()> first_response;
  std::function<void()> sync;
  std::function<void(const grpc::Status&)> done;
};

// Starts a Subscribe with `request` on `stub`; the call owns itself and is
// deleted once gRPC reports it done.
void startSubscribe(::gnmi::gNMI::Stub& stub, std::shared_ptr<StreamCore> core, ::gnmi::SubscribeRequest request,
                    const std::vector<std::pair<std::string, std::string>>& metadata,
                    std::optional<std::chrono::system_clock::time_point> deadline, CallEvents events,
                    std::shared_ptr<CallHandle> handle = nullptr);

// Starts a Capabilities call; `done` gets the status and the response.
void startCapabilities(::gnmi::gNMI::Stub& stub, std::shared_ptr<StreamCore> core,
                       const std::vector<std::pair<std::string, std::string>>& metadata,
                       std::chrono::system_clock::time_point deadline,
                       std::function<void(const grpc::Status&, const ::gnmi::CapabilityResponse&)> done);

}  // namespace opticsd::gnmi
