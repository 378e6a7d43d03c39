#include "daemon/web/instances_config.hpp"

#include <fnmatch.h>

#include <boost/asio/ssl/context.hpp>

#include "daemon/web/html_escape.hpp"
#include "drivers/options/secret_source.hpp"

namespace opticsd {
namespace {

bool httpUrl(std::string_view url) {
  const bool scheme = url.starts_with("http://") || url.starts_with("https://");
  return scheme && url.find_first_of("?# \t\r\n\"<>") == std::string_view::npos && url.size() > url.find("://") + 3;
}

// Basic auth and the CA file towards one instance, checked now so
// check-config refuses what a fetch would fail on later.
void readCredentials(OptionReader& r, InstanceEntry& e) {
  e.basic_auth_user = r.optionalString("basic_auth_user").value_or("");
  const auto password_file = r.optionalString("basic_auth_password_file");
  if (e.basic_auth_user.empty() != !password_file) {
    r.error("basic_auth_user", "basic_auth_user and basic_auth_password_file go together");
  } else if (password_file) {
    e.basic_auth_password_file = *password_file;
    if (auto secret = readSecretFile(*password_file)) {
      e.basic_auth_password = std::move(*secret);
    } else {
      r.error("basic_auth_password_file", secret.error().message);
    }
  }
  e.tls_ca_file = r.optionalString("tls_ca_file").value_or("");
  if (e.tls_ca_file.empty()) return;
  if (!(e.url.empty() ? e.url_template : e.url).starts_with("https://")) {
    r.error("tls_ca_file", "a CA file needs an https:// url or url_template");
    return;
  }
  boost::asio::ssl::context context(boost::asio::ssl::context::tls_client);
  boost::system::error_code ec;
  context.load_verify_file(e.tls_ca_file, ec);
  if (ec) r.error("tls_ca_file", "cannot load " + e.tls_ca_file + " as PEM CA certificates: " + ec.message());
}

}  // namespace

std::optional<std::string> InstancesConfig::baseUrlFor(std::string_view target) const {
  auto match = find(target);
  if (!match) return std::nullopt;
  return std::move(match->base_url);
}

std::optional<InstanceMatch> InstancesConfig::find(std::string_view target) const {
  const std::string name(target);
  for (const auto& e : entries) {
    for (const auto& pattern : e.targets) {
      if (::fnmatch(pattern.c_str(), name.c_str(), 0) != 0) continue;
      if (!e.url.empty()) return InstanceMatch{e.url, &e};
      std::string url = e.url_template;
      for (auto at = url.find("{target}"); at != std::string::npos; at = url.find("{target}", at)) {
        const std::string escaped = web::urlComponent(target);
        url.replace(at, 8, escaped);
        at += escaped.size();
      }
      while (!url.empty() && url.back() == '/') url.pop_back();
      return InstanceMatch{std::move(url), &e};
    }
  }
  return std::nullopt;
}

InstancesConfig parseInstances(const YAML::Node& node, const std::string& file, std::vector<ConfigIssue>& issues) {
  InstancesConfig out;
  if (!node || node.IsNull()) return out;
  if (!node.IsSequence()) {
    issues.push_back(ConfigIssue{file, node.Mark().line + 1, node.Mark().column + 1, "instances",
                                 "expected a list of {url or url_template, targets}"});
    return out;
  }
  for (std::size_t i = 0; i < node.size(); ++i) {
    OptionReader r(node[i], file, "instances[" + std::to_string(i) + "]", issues);
    InstanceEntry e;
    e.url = r.optionalString("url").value_or("");
    e.url_template = r.optionalString("url_template").value_or("");
    while (!e.url.empty() && e.url.back() == '/') e.url.pop_back();
    e.targets = r.stringList("targets");
    if (e.url.empty() == e.url_template.empty()) {
      r.error("", "give either url or url_template");
    } else if (!e.url.empty() && !httpUrl(e.url)) {
      r.error("url", "expected an http:// or https:// URL without query or fragment");
    } else if (!e.url_template.empty() &&
               (e.url_template.find("{target}") == std::string::npos || !httpUrl(e.url_template))) {
      r.error("url_template", "expected an http:// or https:// URL containing {target}");
    }
    if (e.targets.empty()) r.error("targets", "name at least one target pattern (\"leaf-*\")");
    readCredentials(r, e);
    r.rejectUnknownKeys();
    out.entries.push_back(std::move(e));
  }
  return out;
}

}  // namespace opticsd
