#pragma once
// A gNMI target's options, read from its config mapping. Secrets (password,
// client key) are resolved here from the config, a file or a systemd
// credential, and never printed: describe() and every error leave them out.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "drivers/gnmi/variant_file.hpp"
#include "drivers/gnmi/vendor_variants.hpp"
#include "drivers/options/option_reader.hpp"

namespace opticsd::gnmi {

enum class EncodingChoice : std::uint8_t { kAuto, kProto, kJsonIetf, kJson };
// stream: ONCE for the first poll, then a STREAM subscription (SAMPLE values,
// ON_CHANGE state); for targets without STREAM: once, a ONCE subscription
// every poll, or poll, one POLL subscription sent a Poll request every poll.
enum class SubscribeMode : std::uint8_t { kStream, kOnce, kPoll };

struct GnmiOptions {
  std::string address;  // host:port
  const VendorVariant* variant = nullptr;
  // `variant_file:` a variant as data (variant_file.hpp); variant points into it.
  std::shared_ptr<const LoadedVariant> variant_file;
  // `variant_dir:` a user's variant files, tried before the shipped ones
  // (one named as a shipped variant replaces it); variant may point into it.
  std::shared_ptr<const VariantSet> variant_dir;
  // The raw channel index of lane 1; unset: decided from what the device sends.
  std::optional<int> channel_base;
  EncodingChoice encoding = EncodingChoice::kAuto;
  SubscribeMode mode = SubscribeMode::kStream;
  std::chrono::milliseconds sample_interval{10000};
  std::optional<std::chrono::milliseconds> heartbeat_interval;
  bool updates_only = false;
  // TLS: on unless `tls: false`; the CA file (else the system roots), an
  // optional client certificate and key, and a name to check the server's
  // certificate against where it is not the address.
  bool tls = true;
  std::string ca_pem;
  std::string client_cert_pem;
  std::string client_key_pem;  // secret
  std::string tls_server_name;
  std::string username;
  std::string password;  // secret
  std::size_t max_message_bytes = 4 * 1024 * 1024;
  std::size_t max_updates_per_interval = 2'000'000;
  std::chrono::milliseconds connect_timeout{10000};
  std::chrono::milliseconds reconnect_min{1000};
  std::chrono::milliseconds reconnect_max{60000};
  std::chrono::milliseconds stale_after{30000};
  // Whether sample_interval / stale_after were given (`interval` or
  // `sample_interval`, `stale_after`); else they follow the poll interval.
  bool sample_interval_given = false;
  bool stale_after_given = false;

  // These options with the sample interval the target's poll interval (its
  // own or poll.interval, known only when the driver is created), where no
  // interval was given; stale_after then three sample intervals.
  GnmiOptions forPollInterval(std::chrono::milliseconds poll_interval) const;

  // "gnmi 10.0.0.1:6030 openconfig tls user=ops" (no secrets).
  std::string describe() const;
};

std::optional<GnmiOptions> readGnmiOptions(OptionReader& options);

}  // namespace opticsd::gnmi
