#include "daemon/remote_write/remote_write_config.hpp"

#include <regex>

#include "daemon/remote_write/remote_write_tls.hpp"
#include "drivers/options/secret_source.hpp"

namespace opticsd {
namespace {

constexpr std::string_view kHttp = "http://";
constexpr std::string_view kHttps = "https://";

bool validLabelName(const std::string& name) {
  static const std::regex kName("[a-zA-Z_][a-zA-Z0-9_]*");
  return std::regex_match(name, kName) && !name.starts_with("__");
}

// A secret from exactly one of KEY_file and KEY_credential (never inline:
// the config file is often world-readable). Empty when neither is given.
std::string readSecret(OptionReader& r, const std::string& key) {
  auto file = r.optionalString(key + "_file");
  auto credential = r.optionalString(key + "_credential");
  if (file && credential) {
    r.error(key + "_file", "give only one of " + key + "_file and " + key + "_credential");
    return {};
  }
  if (!file && !credential) return {};
  auto secret = file ? readSecretFile(*file) : readCredential(*credential);
  if (!secret) {
    r.error(file ? key + "_file" : key + "_credential", secret.error().message);
    return {};
  }
  return *secret;
}

}  // namespace

RemoteWriteConfig readRemoteWriteConfig(OptionReader r) {
  RemoteWriteConfig out;
  out.url = r.requiredString("url");
  if (out.url.empty()) {
    // requiredString said so
  } else if (const auto at = out.url.find('@'); at != std::string::npos && at < out.url.find('/', kHttps.size())) {
    // Logged as written: credentials belong in basic_auth_*, never in the url.
    r.error("url",
            "user:password@ in the url is not allowed (it would be logged); use basic_auth_user and "
            "basic_auth_password_file");
    out.url = "(refused)";
  } else if (!out.url.starts_with(kHttp) && !out.url.starts_with(kHttps)) {
    r.error("url", "expected http://HOST:PORT/PATH or https://HOST:PORT/PATH, got '" + out.url + "'");
  } else {
    out.tls = out.url.starts_with(kHttps);
    if (out.tls) out.port = "443";
    std::string rest = out.url.substr(out.tls ? kHttps.size() : kHttp.size());
    const auto slash = rest.find('/');
    if (slash != std::string::npos) {
      out.path = rest.substr(slash);
      rest.resize(slash);
    }
    const auto colon = rest.rfind(':');
    if (colon != std::string::npos && rest.find(']') == std::string::npos) {
      out.port = rest.substr(colon + 1);
      rest.resize(colon);
    }
    out.host = rest;
    if (out.host.empty() || out.port.empty() || out.port.find_first_not_of("0123456789") != std::string::npos) {
      r.error("url", "expected http://HOST:PORT/PATH, got '" + out.url + "'");
    }
  }
  if (auto labels = r.raw("external_labels")) {
    if (!labels->IsMap()) {
      r.error("external_labels", "expected a mapping of label names to values, e.g. {cluster: fab-a}");
    } else {
      for (const auto& entry : *labels) {
        const std::string name = entry.first.Scalar();
        if (!validLabelName(name)) r.error("external_labels", "'" + name + "' is not a label name");
        if (!entry.second.IsScalar() || entry.second.Scalar().empty()) {
          r.error("external_labels", "'" + name + "' needs a non-empty value");
        } else {
          out.external_labels[name] = entry.second.Scalar();
        }
      }
    }
  }
  if (auto v = r.optionalInt("queue_samples", 1000, 1'000'000'000)) out.queue_samples = static_cast<std::uint64_t>(*v);
  if (auto v = r.optionalInt("connections", 1, 64)) out.connections = static_cast<unsigned>(*v);
  if (auto v = r.optionalDuration("timeout")) out.timeout = *v;
  if (auto v = r.optionalDuration("max_backoff")) out.max_backoff = *v;
  if (out.max_backoff < out.min_backoff) r.error("max_backoff", "must be at least 100ms");
  if (auto v = r.optionalString("tls_ca_file")) out.tls_ca_file = *v;
  if (auto v = r.optionalString("tls_cert_file")) out.tls_cert_file = *v;
  if (auto v = r.optionalString("tls_key_file")) out.tls_key_file = *v;
  if (out.tls_cert_file.empty() != out.tls_key_file.empty()) {
    r.error("tls_cert_file", "tls_cert_file and tls_key_file go together");
  }
  const bool any_tls_file = !out.tls_ca_file.empty() || !out.tls_cert_file.empty();
  if (any_tls_file && !out.tls) {
    r.error("tls_ca_file", "TLS files need an https:// url");
  } else if (out.tls) {
    // Loads them as the writer will, so check-config finds a bad file.
    if (auto context = makeRemoteWriteTlsContext(out); !context) r.error("tls_ca_file", context.error().message);
  }
  if (auto v = r.optionalString("basic_auth_user")) out.basic_auth_user = *v;
  out.basic_auth_password = readSecret(r, "basic_auth_password");
  out.bearer_token = readSecret(r, "bearer_token");
  if (out.basic_auth_user.empty() != out.basic_auth_password.empty()) {
    r.error("basic_auth_user", "basic_auth_user and basic_auth_password_file (or _credential) go together");
  }
  if (!out.basic_auth_user.empty() && !out.bearer_token.empty()) {
    r.error("bearer_token_file", "give basic auth or a bearer token, not both");
  }
  r.rejectUnknownKeys();
  return out;
}

}  // namespace opticsd
