#include "daemon/topology/topology.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace opticsd {
namespace {

std::string substitute(const std::string& text, int number) {
  std::string out = text;
  const std::string n = std::to_string(number);
  for (std::size_t at = out.find("{n}"); at != std::string::npos; at = out.find("{n}", at + n.size())) {
    out.replace(at, 3, n);
  }
  return out;
}

struct PortRange {
  std::string prefix;
  int first = 0;
  int last = 0;
};

std::optional<PortRange> parseRange(std::string_view text) {
  const auto dash = text.rfind('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  std::size_t digits = dash;
  while (digits > 0 && text[digits - 1] >= '0' && text[digits - 1] <= '9') --digits;
  if (digits == dash) return std::nullopt;
  PortRange r;
  r.prefix = std::string(text.substr(0, digits));
  const auto a = text.substr(digits, dash - digits);
  const auto b = text.substr(dash + 1);
  if (std::from_chars(a.data(), a.data() + a.size(), r.first).ec != std::errc() ||
      std::from_chars(b.data(), b.data() + b.size(), r.last).ec != std::errc() || b.empty()) {
    return std::nullopt;
  }
  if (r.first < 0 || r.last < r.first || r.last - r.first > 100'000) return std::nullopt;
  return r;
}

void readLinks(const YAML::Node& list, const std::string& file, const std::string& path,
               std::vector<ConfigIssue>& issues, Topology& out) {
  if (!list || list.IsNull()) return;  // absent (a topology from a file only)
  if (!list.IsSequence()) {
    OptionReader(list, file, path, issues).error("", "expected a list of {switch, port, host, nic, gpu, rail}");
    return;
  }
  std::size_t i = 0;
  for (const auto& item : list) {
    OptionReader r(item, file, path + "[" + std::to_string(i++) + "]", issues);
    const std::string target = r.requiredString("switch");
    const auto port = r.optionalString("port");
    const auto ports = r.optionalString("ports");
    Endpoint e;
    e.host = r.optionalString("host").value_or("");
    e.nic = r.optionalString("nic").value_or("");
    e.gpu = r.optionalString("gpu").value_or("");
    e.rail = r.optionalString("rail").value_or("");
    e.peer_target = r.optionalString("peer_switch").value_or("");
    e.peer_port = r.optionalString("peer_port").value_or("");
    r.rejectUnknownKeys();
    if (port.has_value() == ports.has_value()) {
      r.error("", "give exactly one of port or ports");
      continue;
    }
    if (e.peer_target.empty() != e.peer_port.empty()) r.error("", "peer_switch and peer_port go together");
    if (e.empty()) r.error("", "say what is behind the port: host, nic, gpu, rail or peer_switch/peer_port");
    if (!r.valid()) continue;
    if (port) {
      out.add(target, *port, e);
      continue;
    }
    auto range = parseRange(*ports);
    if (!range) {
      r.error("ports", "expected <prefix>A-B such as Ethernet1-32, got '" + *ports + "'");
      continue;
    }
    for (int n = range->first; n <= range->last; ++n) {
      Endpoint x;
      x.host = substitute(e.host, n);
      x.nic = substitute(e.nic, n);
      x.gpu = substitute(e.gpu, n);
      x.rail = substitute(e.rail, n);
      x.peer_target = substitute(e.peer_target, n);
      x.peer_port = substitute(e.peer_port, n);
      out.add(target, range->prefix + std::to_string(n), std::move(x));
    }
  }
}

}  // namespace

std::string Endpoint::describe() const {
  std::string out;
  const auto add = [&](std::string_view key, const std::string& v) {
    if (v.empty()) return;
    if (!out.empty()) out += ' ';
    out += std::string(key) + "=" + v;
  };
  add("host", host);
  add("nic", nic);
  add("gpu", gpu);
  add("rail", rail);
  if (!peer_target.empty()) add("peer", peer_target + ":" + peer_port);
  return out;
}

void Topology::add(const std::string& target, const std::string& port, Endpoint endpoint) {
  if (!endpoint.peer_target.empty()) ++configured_peers_;
  auto [it, inserted] = configured_[target].insert_or_assign(port, std::move(endpoint));
  (void)it;
  if (inserted) ++configured_count_;
  ++generation_;
}

void Topology::replaceConfigured(Topology other) {
  configured_ = std::move(other.configured_);
  configured_peers_ = other.configured_peers_;
  configured_count_ = other.configured_count_;
  ++generation_;
}

void Topology::setNeighbors(const std::string& target, const std::vector<LinkNeighbor>& neighbors) {
  auto& ports = lldp_[target];
  bool changed = ports.size() != neighbors.size();
  std::map<std::string, LinkNeighbor, std::less<>> next;
  for (const auto& n : neighbors) {
    if (n.port.empty() || (n.remote_system.empty() && n.remote_port.empty())) continue;
    auto it = ports.find(n.port);
    if (it == ports.end() || it->second.remote_system != n.remote_system || it->second.remote_port != n.remote_port) {
      changed = true;
    }
    next.emplace(n.port, n);
  }
  if (!changed) return;
  for (const auto& [port, n] : ports) discovered_peers_ -= n.remote_system.empty() ? 0 : 1;
  for (const auto& [port, n] : next) discovered_peers_ += n.remote_system.empty() ? 0 : 1;
  ports = std::move(next);
  ++generation_;
}

std::size_t Topology::discovered() const {
  std::size_t n = 0;
  for (const auto& [target, ports] : lldp_) n += ports.size();
  return n;
}

std::optional<Endpoint> Topology::find(std::string_view target, std::string_view port) const {
  std::optional<Endpoint> out;
  if (auto t = configured_.find(target); t != configured_.end()) {
    if (auto p = t->second.find(port); p != t->second.end()) out = p->second;
  }
  if (auto t = lldp_.find(target); t != lldp_.end()) {
    if (auto p = t->second.find(port); p != t->second.end()) {
      if (!out) out.emplace();
      const LinkNeighbor& n = p->second;
      bool used = false;
      if (out->host.empty() && !n.remote_system.empty()) {
        out->host = n.remote_system;
        used = true;
      }
      if (out->nic.empty() && !n.remote_port.empty()) {
        out->nic = n.remote_port;
        used = true;
      }
      // The far end may itself be polled: the engine checks the name.
      if (out->peer_target.empty() && !n.remote_system.empty()) {
        out->peer_target = n.remote_system;
        out->peer_port = n.remote_port;
        used = true;
      }
      out->from_lldp = used;
    }
  }
  return out;
}

Topology parseTopology(const YAML::Node& node, const std::string& file, std::vector<ConfigIssue>& issues) {
  Topology out;
  if (!node || node.IsNull()) return out;
  if (node.IsSequence()) {
    readLinks(node, file, "topology", issues, out);
    return out;
  }
  OptionReader r(node, file, "topology", issues);
  if (auto path = r.optionalString("file")) {
    std::filesystem::path p(*path);
    if (p.is_relative() && !file.empty() && file.front() != '<') p = std::filesystem::path(file).parent_path() / p;
    std::ifstream in(p);
    if (!in) {
      r.error("file", "cannot read topology file " + p.string());
    } else {
      std::ostringstream text;
      text << in.rdbuf();
      try {
        YAML::Node loaded = YAML::Load(text.str());
        if (loaded.IsMap()) {
          OptionReader f(loaded, p.string(), "", issues);
          readLinks(f.raw("links").value_or(YAML::Node()), p.string(), "links", issues, out);
          f.rejectUnknownKeys();
        } else {
          readLinks(loaded, p.string(), "links", issues, out);
        }
      } catch (const YAML::ParserException& e) {
        issues.push_back(
            ConfigIssue{p.string(), e.mark.line + 1, e.mark.column + 1, "", "YAML syntax error: " + e.msg});
      }
    }
  }
  readLinks(r.raw("links").value_or(YAML::Node()), file, "topology.links", issues, out);
  r.rejectUnknownKeys();
  return out;
}

}  // namespace opticsd
