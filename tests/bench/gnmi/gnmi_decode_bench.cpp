// CPU per gNMI leaf update, end to end into the Sample: parse of the
// serialized SubscribeResponse, path join, rule match, value conversion,
// the update of the TelemetryState, and (once per port per sample, as a
// poll does) the port's share of the snapshot into Samples.
//
// The fleet figure of issue 17: 1,000 switches x 64 ports, each port's
// transceiver leaves sampled every 10 s. An 800G DR8 port sends 26 leaves a
// sample (8 channels x Rx, Tx, bias; temperature; supply voltage), so
// 64,000 ports x 26 leaves / 10 s = 166,400 updates/s; the 190,000/s
// is about 30 leaves a port (FEC counters, BER besides). The "updates" counter is
// leaves per second of one core; us/update = 1e6 / that rate.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include "drivers/gnmi/notification_decoder.hpp"

namespace opticsd::gnmi {
namespace {

constexpr int kPorts = 64;
constexpr int kChannels = 8;

void addElem(::gnmi::Path& p, const std::string& name, const char* key = nullptr, const std::string& value = {}) {
  auto* e = p.add_elem();
  e->set_name(name);
  if (key) (*e->mutable_key())[key] = value;
}

// One port's SAMPLE notification, as an OpenConfig target sends it.
std::string portNotification(int port, bool json_ietf, int* leaves) {
  ::gnmi::SubscribeResponse response;
  auto* n = response.mutable_update();
  n->set_timestamp(1'700'000'000'000'000'000);
  addElem(*n->mutable_prefix(), "components");
  addElem(*n->mutable_prefix(), "component", "name", "Ethernet" + std::to_string(port));
  auto decimal = [](::gnmi::TypedValue* v, double x) {
    v->mutable_decimal_val()->set_digits(static_cast<std::int64_t>(x * 100));
    v->mutable_decimal_val()->set_precision(2);
  };
  *leaves = 0;
  {
    auto* u = n->add_update();
    for (const char* e : {"state", "temperature", "instant"}) addElem(*u->mutable_path(), e);
    decimal(u->mutable_val(), 41.5);
    ++*leaves;
    u = n->add_update();
    for (const char* e : {"transceiver", "state", "supply-voltage", "instant"}) addElem(*u->mutable_path(), e);
    decimal(u->mutable_val(), 3.29);
    ++*leaves;
  }
  for (int ch = 0; ch < kChannels; ++ch) {
    auto channel = [&](::gnmi::Path& p) {
      addElem(p, "transceiver");
      addElem(p, "physical-channels");
      addElem(p, "channel", "index", std::to_string(ch));
      addElem(p, "state");
    };
    if (json_ietf) {
      auto* u = n->add_update();
      channel(*u->mutable_path());
      nlohmann::json j = {{"openconfig-platform-transceiver:input-power", {{"instant", "-2.31"}}},
                          {"output-power", {{"instant", "1.02"}}},
                          {"laser-bias-current", {{"instant", "7.50"}}}};
      u->mutable_val()->set_json_ietf_val(j.dump());
      *leaves += 3;
      continue;
    }
    for (const char* leaf : {"input-power", "output-power", "laser-bias-current"}) {
      auto* u = n->add_update();
      channel(*u->mutable_path());
      addElem(*u->mutable_path(), leaf);
      addElem(*u->mutable_path(), "instant");
      decimal(u->mutable_val(), -2.31);
      ++*leaves;
    }
  }
  return response.SerializeAsString();
}

void runDecode(benchmark::State& bench, bool json_ietf) {
  const VendorVariant& variant = *findVendorVariant("openconfig");
  auto rules = LeafRules::compile(variant.rules, variant.origins);
  TelemetryState state(variant, *rules);
  NotificationDecoder decoder(state);
  std::vector<std::string> wire;
  int leaves = 0;
  for (int p = 1; p <= kPorts; ++p) wire.push_back(portNotification(p, json_ietf, &leaves));
  // The interface -> transceiver mapping, once (ON_CHANGE).
  for (int p = 1; p <= kPorts; ++p) {
    auto path = parsePath("/interfaces/interface[name=Ethernet" + std::to_string(p) + "]/state/transceiver");
    state.apply(*path, LeafValue::ofText("Ethernet" + std::to_string(p)), 0);
  }
  ::gnmi::SubscribeResponse response;
  std::int64_t updates = 0;
  std::size_t samples = 0;
  std::int64_t now_ms = 1000;
  for (auto _ : bench) {
    for (const auto& bytes : wire) {
      response.ParseFromString(bytes);
      auto counts = decoder.apply(response.update(), now_ms);
      updates += static_cast<std::int64_t>(counts.mapped);
    }
    auto snapshot = state.snapshot(now_ms, 30000);  // one poll: every port once
    samples += snapshot.size();
    benchmark::DoNotOptimize(snapshot);
    now_ms += 10000;
  }
  if (samples != static_cast<std::size_t>(kPorts) * bench.iterations()) bench.SkipWithError("wrong number of Samples");
  if (updates != static_cast<std::int64_t>(leaves) * kPorts * bench.iterations())
    bench.SkipWithError("leaves unmapped");
  bench.counters["updates"] = benchmark::Counter(static_cast<double>(updates), benchmark::Counter::kIsRate);
  bench.counters["leaves_per_port"] = leaves;
}

void BM_GnmiLeafUpdateProtoDecimal64(benchmark::State& bench) { runDecode(bench, false); }
void BM_GnmiLeafUpdateJsonIetf(benchmark::State& bench) { runDecode(bench, true); }
BENCHMARK(BM_GnmiLeafUpdateProtoDecimal64)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GnmiLeafUpdateJsonIetf)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace opticsd::gnmi
