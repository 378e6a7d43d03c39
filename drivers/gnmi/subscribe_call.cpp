#include "drivers/gnmi/subscribe_call.hpp"

#include <algorithm>

namespace opticsd::gnmi {

StreamCore::StreamCore(const VendorVariant& variant, LeafRules rules, std::size_t max_updates_per_interval,
                       std::optional<int> channel_base)
    : rules_(std::move(rules)),
      state_(variant, rules_, StateLimits{}, channel_base),
      decoder_(state_),
      max_updates_(max_updates_per_interval) {}

void StreamCore::decode(const ::gnmi::Notification& notification) {
  const auto now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  const std::size_t n = static_cast<std::size_t>(notification.update_size());
  std::lock_guard lock(mu_);
  if (updates_ + n > max_updates_) {
    dropped_ += n;
    return;
  }
  updates_ += n;
  counts_.add(decoder_.apply(notification, now_ms));
}

StreamCore::Taken StreamCore::take(std::int64_t now_ms, std::int64_t stale_after_ms) {
  std::lock_guard lock(mu_);
  Taken out;
  out.samples = state_.snapshot(now_ms, stale_after_ms);
  out.counts = std::exchange(counts_, {});
  out.updates = std::exchange(updates_, 0);
  out.dropped = std::exchange(dropped_, 0);
  out.channel_base = state_.channelBase();
  if (trace_) {
    out.trace = std::exchange(*trace_, {});
  }
  return out;
}

void StreamCore::enableTrace() {
  std::lock_guard lock(mu_);
  if (!trace_) trace_ = std::make_unique<DecodeTrace>();
  decoder_.setTrace(trace_.get());
}

void StreamCore::track(grpc::ClientContext* context) {
  std::lock_guard lock(calls_mu_);
  calls_.push_back(context);
  ++live_;
}

void StreamCore::forget(grpc::ClientContext* context) {
  std::lock_guard lock(calls_mu_);
  std::erase(calls_, context);
}

void StreamCore::finished() {
  std::lock_guard lock(calls_mu_);
  if (--live_ == 0) idle_.notify_all();
}

void StreamCore::cancelAll() {
  std::lock_guard lock(calls_mu_);
  for (auto* context : calls_) context->TryCancel();  // OnDone follows on a gRPC thread, never inline
}

bool StreamCore::waitIdle(std::chrono::milliseconds limit) {
  std::unique_lock lock(calls_mu_);
  return idle_.wait_for(lock, limit, [this] { return live_ == 0; });
}

class SubscribeCall final : public grpc::ClientBidiReactor<::gnmi::SubscribeRequest, ::gnmi::SubscribeResponse> {
 public:
  SubscribeCall(std::shared_ptr<StreamCore> core, ::gnmi::SubscribeRequest request, CallEvents events,
                std::shared_ptr<CallHandle> handle)
      : core_(std::move(core)), request_(std::move(request)), events_(std::move(events)), handle_(std::move(handle)) {
    poll_request_.mutable_poll();
    if (handle_) {
      std::lock_guard lock(handle_->mu_);
      handle_->call_ = this;
    }
  }

  // One write in flight at a time (gRPC's rule): a Poll asked for meanwhile waits for OnWriteDone.
  void requestPoll() {
    std::lock_guard lock(write_mu_);
    if (writing_) {
      ++polls_waiting_;
      return;
    }
    writing_ = true;
    StartWrite(&poll_request_);
  }

  void cancel() { context_.TryCancel(); }

  void begin(::gnmi::gNMI::Stub& stub, const std::vector<std::pair<std::string, std::string>>& metadata,
             std::optional<std::chrono::system_clock::time_point> deadline) {
    for (const auto& [key, value] : metadata) context_.AddMetadata(key, value);
    if (deadline) context_.set_deadline(*deadline);
    core_->track(&context_);
    stub.async()->Subscribe(&context_, this);
    {
      std::lock_guard lock(write_mu_);
      writing_ = true;
      StartWrite(&request_);
    }
    StartRead(&response_);
    StartCall();
  }

  void OnWriteDone(bool ok) override {
    std::lock_guard lock(write_mu_);
    if (ok && polls_waiting_ > 0) {
      --polls_waiting_;
      StartWrite(&poll_request_);
      return;
    }
    writing_ = false;
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // the stream ended: OnDone follows
    if (!answered_) {
      answered_ = true;
      if (events_.first_response) events_.first_response();
    }
    if (response_.has_update()) core_->decode(response_.update());
    if (response_.response_case() == ::gnmi::SubscribeResponse::kSyncResponse && response_.sync_response() &&
        events_.sync) {
      events_.sync();
    }
    response_.Clear();
    StartRead(&response_);
  }

  void OnDone(const grpc::Status& status) override {
    core_->forget(&context_);  // first: cancelAll must not reach the context deleted below
    if (handle_) {
      std::lock_guard lock(handle_->mu_);
      handle_->call_ = nullptr;
    }
    if (events_.done) events_.done(status);
    auto core = core_;
    delete this;
    core->finished();  // last: the owner may go away once every call has finished
  }

 private:
  std::shared_ptr<StreamCore> core_;
  grpc::ClientContext context_;
  ::gnmi::SubscribeRequest request_;
  ::gnmi::SubscribeResponse response_;
  CallEvents events_;
  std::shared_ptr<CallHandle> handle_;
  ::gnmi::SubscribeRequest poll_request_;
  std::mutex write_mu_;
  bool writing_ = false;
  int polls_waiting_ = 0;
  bool answered_ = false;
};

void CallHandle::poll() {
  std::lock_guard lock(mu_);
  if (call_) call_->requestPoll();
}

bool CallHandle::live() {
  std::lock_guard lock(mu_);
  return call_ != nullptr;
}

void CallHandle::cancel() {
  // Under mu_: OnDone clears call_ under it before the call is deleted.
  std::lock_guard lock(mu_);
  if (call_) call_->cancel();
}

namespace {

struct CapabilitiesCall {
  grpc::ClientContext context;
  ::gnmi::CapabilityRequest request;
  ::gnmi::CapabilityResponse response;
};

}  // namespace

void startSubscribe(::gnmi::gNMI::Stub& stub, std::shared_ptr<StreamCore> core, ::gnmi::SubscribeRequest request,
                    const std::vector<std::pair<std::string, std::string>>& metadata,
                    std::optional<std::chrono::system_clock::time_point> deadline, CallEvents events,
                    std::shared_ptr<CallHandle> handle) {
  auto* call = new SubscribeCall(std::move(core), std::move(request), std::move(events), std::move(handle));
  call->begin(stub, metadata, deadline);
}

void startCapabilities(::gnmi::gNMI::Stub& stub, std::shared_ptr<StreamCore> core,
                       const std::vector<std::pair<std::string, std::string>>& metadata,
                       std::chrono::system_clock::time_point deadline,
                       std::function<void(const grpc::Status&, const ::gnmi::CapabilityResponse&)> done) {
  auto call = std::make_shared<CapabilitiesCall>();
  for (const auto& [key, value] : metadata) call->context.AddMetadata(key, value);
  call->context.set_deadline(deadline);
  core->track(&call->context);
  stub.async()->Capabilities(&call->context, &call->request, &call->response,
                             [call, core, done = std::move(done)](grpc::Status status) mutable {
                               core->forget(&call->context);
                               done(status, call->response);
                               call.reset();      // the context, before the owner may go away
                               core->finished();  // last, as in SubscribeCall::OnDone
                             });
}

}  // namespace opticsd::gnmi
