#include "drivers/gnmi/gnmi_options.hpp"

#include <spdlog/spdlog.h>

#include <fstream>
#include <sstream>

#include "drivers/options/secret_source.hpp"

namespace opticsd::gnmi {
namespace {

// One secret from exactly one of KEY, KEY_file, KEY_credential (the SNMP
// driver's secret sources, shared).
std::optional<std::string> secret(OptionReader& options, const std::string& key) {
  auto inline_value = options.optionalString(key);
  auto file = options.optionalString(key + "_file");
  auto credential = options.optionalString(key + "_credential");
  const int given = (inline_value ? 1 : 0) + (file ? 1 : 0) + (credential ? 1 : 0);
  if (given > 1) {
    options.error(key, "give only one of " + key + ", " + key + "_file, " + key + "_credential");
    return std::nullopt;
  }
  if (inline_value) return inline_value;
  if (!file && !credential) return std::nullopt;
  auto read = file ? readSecretFile(*file) : readCredential(*credential);
  if (!read) {
    options.error(file ? key + "_file" : key + "_credential", read.error().message);
    return std::nullopt;
  }
  return *read;
}

// A PEM file read whole (certificates are public; a key file is treated as a secret).
std::optional<std::string> pemFile(OptionReader& options, const std::string& key) {
  auto path = options.optionalString(key);
  if (!path) return std::nullopt;
  std::ifstream in(*path, std::ios::binary);
  if (!in) {
    options.error(key, "cannot read " + *path);
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().find("-----BEGIN") == std::string::npos) {
    options.error(key, *path + " is not PEM");
    return std::nullopt;
  }
  return text.str();
}

std::optional<std::chrono::milliseconds> durationIn(OptionReader& options, std::string_view key, std::int64_t min_ms,
                                                    std::int64_t max_ms) {
  auto d = options.optionalDuration(key);
  if (!d) return std::nullopt;
  if (d->count() < min_ms || d->count() > max_ms) {
    options.error(key, "expected " + std::to_string(min_ms) + " ms .. " + std::to_string(max_ms) + " ms");
    return std::nullopt;
  }
  return d;
}

}  // namespace

std::string GnmiOptions::describe() const {
  std::string out = "gnmi " + address + " " + std::string(variant ? variant->name : "?");
  out += tls ? " tls" : " plaintext";
  if (!username.empty()) out += " user=" + username;
  out += mode == SubscribeMode::kOnce ? " once" : mode == SubscribeMode::kPoll ? " poll" : " stream";
  return out;
}

std::optional<GnmiOptions> readGnmiOptions(OptionReader& options) {
  GnmiOptions out;
  out.address = options.requiredString("address");
  if (!out.address.empty() && out.address.find(':') == std::string::npos) {
    options.error("address", "expected host:port (gNMI has no default port)");
  }
  const std::string variant = options.optionalString("variant").value_or("openconfig");
  bool dir_failed = false;  // then an unknown variant may be the bad file's: its error says why
  if (auto dirs = options.directoryList("variant_dir"); !dirs.empty()) {
    if (auto sources = readVariantDirectories(dirs); !sources) {
      options.error("variant_dir", sources.error().message);
      dir_failed = true;
    } else {
      auto set = std::make_shared<const VariantSet>(loadVariantSet(*sources, findVendorVariant));
      for (const auto& e : set->errors) options.error("variant_dir", e);
      dir_failed = !set->errors.empty();
      for (std::size_t i = 0; i < set->variants.size(); ++i) {
        if (set->variants[i] && findVendorVariant(set->variants[i]->variant.name)) {
          spdlog::info("gnmi variant {} from {} replaces the shipped one", set->variants[i]->variant.name,
                       set->labels[i]);
        }
      }
      out.variant_dir = std::move(set);
    }
  }
  out.variant = out.variant_dir ? out.variant_dir->find(variant) : nullptr;
  if (!out.variant) out.variant = findVendorVariant(variant);
  if (auto file = options.optionalString("variant_file")) {
    if (options.has("variant")) options.error("variant", "give variant or variant_file, not both");
    if (auto loaded = loadVariantFile(*file); loaded) {
      out.variant_file = *loaded;
      out.variant = &out.variant_file->variant;
    } else {
      options.error("variant_file", loaded.error().message);
      out.variant = findVendorVariant("openconfig");
    }
  } else if (!out.variant && !dir_failed) {
    std::string known;
    for (const auto& v : vendorVariants()) known += (known.empty() ? "" : ", ") + std::string(v.name);
    if (out.variant_dir) {
      for (const auto& v : out.variant_dir->variants) {
        if (v && !findVendorVariant(v->variant.name)) known += ", " + std::string(v->variant.name);
      }
    }
    options.error("variant", "unknown gNMI variant '" + variant + "' (known: " + known + ")");
  }
  if (auto base = options.optionalString("channel_base")) {
    if (*base == "0" || *base == "1") {
      out.channel_base = *base == "1" ? 1 : 0;
    } else if (*base != "auto") {
      options.error("channel_base", "expected auto, 0 or 1 (the raw channel index of lane 1)");
    }
  }
  if (auto e = options.optionalString("encoding")) {
    if (*e == "auto") {
      out.encoding = EncodingChoice::kAuto;
    } else if (*e == "proto") {
      out.encoding = EncodingChoice::kProto;
    } else if (*e == "json_ietf") {
      out.encoding = EncodingChoice::kJsonIetf;
    } else if (*e == "json") {
      out.encoding = EncodingChoice::kJson;
    } else {
      options.error("encoding", "expected auto, proto, json_ietf or json");
    }
  }
  if (auto m = options.optionalString("mode")) {
    if (*m == "stream") {
      out.mode = SubscribeMode::kStream;
    } else if (*m == "once") {
      out.mode = SubscribeMode::kOnce;
    } else if (*m == "poll") {
      out.mode = SubscribeMode::kPoll;
    } else {
      options.error("mode", "expected stream, once or poll");
    }
  }
  // The poll interval is the natural sample interval: the target's own here,
  // poll.interval at create (forPollInterval).
  if (auto d = durationIn(options, "interval", 1, 86400000)) out.sample_interval = *d;
  if (auto d = durationIn(options, "sample_interval", 100, 86400000)) out.sample_interval = *d;
  out.sample_interval_given = options.has("interval") || options.has("sample_interval");
  out.heartbeat_interval = durationIn(options, "heartbeat_interval", 100, 86400000);
  if (auto u = options.optionalBool("updates_only")) out.updates_only = *u;
  if (auto t = options.optionalBool("tls")) out.tls = *t;
  if (auto ca = pemFile(options, "ca_file")) out.ca_pem = *ca;
  if (auto cert = pemFile(options, "client_cert_file")) out.client_cert_pem = *cert;
  if (auto key = pemFile(options, "client_key_file")) out.client_key_pem = *key;
  if (out.client_cert_pem.empty() != out.client_key_pem.empty()) {
    options.error("client_cert_file", "client_cert_file and client_key_file go together");
  }
  if (!out.tls && (!out.ca_pem.empty() || !out.client_cert_pem.empty())) {
    options.error("tls", "tls: false with a CA or client certificate given");
  }
  if (auto name = options.optionalString("tls_server_name")) out.tls_server_name = *name;
  if (auto user = options.optionalString("username")) out.username = *user;
  if (auto password = secret(options, "password")) out.password = *password;
  if (!out.password.empty() && out.username.empty()) options.error("password", "a password needs a username");
  if (auto size = options.optionalByteSize("max_message_size")) {
    if (*size < 1024 || *size > (1ull << 30)) {
      options.error("max_message_size", "expected 1KiB..1GiB");
    } else {
      out.max_message_bytes = *size;
    }
  }
  if (auto n = options.optionalInt("max_updates_per_interval", 1, 1'000'000'000)) {
    out.max_updates_per_interval = static_cast<std::size_t>(*n);
  }
  if (auto d = durationIn(options, "connect_timeout", 10, 600000)) out.connect_timeout = *d;
  if (auto d = durationIn(options, "reconnect_min", 10, 3600000)) out.reconnect_min = *d;
  if (auto d = durationIn(options, "reconnect_max", 10, 3600000)) out.reconnect_max = *d;
  if (out.reconnect_max < out.reconnect_min) options.error("reconnect_max", "shorter than reconnect_min");
  out.stale_after = 3 * out.sample_interval;
  if (auto d = durationIn(options, "stale_after", 100, 86400000)) out.stale_after = *d;
  out.stale_after_given = options.has("stale_after");
  if (!options.valid()) return std::nullopt;
  return out;
}

GnmiOptions GnmiOptions::forPollInterval(std::chrono::milliseconds poll_interval) const {
  GnmiOptions out = *this;
  if (!sample_interval_given && poll_interval.count() > 0) out.sample_interval = poll_interval;
  if (!stale_after_given) out.stale_after = 3 * out.sample_interval;
  return out;
}

}  // namespace opticsd::gnmi
