#include "drivers/gnmi/notification_decoder.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

namespace opticsd::gnmi {
namespace {

constexpr int kMaxJsonDepth = 16;

double decimal64(const ::gnmi::Decimal64& d) {
  // precision beyond 18 digits is not a decimal64 any target sends: capped, no overflow
  const int precision = static_cast<int>(std::min<std::uint32_t>(d.precision(), 18));
  return static_cast<double>(d.digits()) / std::pow(10.0, precision);
}

// bytes_val: the spec (2.3.2) leaves the content to the schema; what devices
// put there for a number is an IEEE 754 float32 (OpenConfig's ieeefloat32,
// Junos native sensors) or float64, in network byte order as OpenConfig's
// ieeefloat32 binary leaf is written: decided by length, anything else refused.
std::optional<double> ieeeFloat(const std::string& bytes) {
  std::uint64_t bits = 0;
  for (unsigned char c : bytes) bits = (bits << 8) | c;
  if (bytes.size() == 4) return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
  if (bytes.size() == 8) return std::bit_cast<double>(bits);
  return std::nullopt;
}

// A JSON_IETF member name may carry its module: "openconfig-platform:state".
std::string_view memberName(std::string_view name) {
  auto colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

std::optional<LeafValue> jsonScalar(const nlohmann::json& j) {
  if (j.is_boolean()) return LeafValue::ofBool(j.get<bool>());
  if (j.is_number_unsigned()) return LeafValue::ofCount(j.get<std::uint64_t>());
  if (j.is_number()) return LeafValue::ofNumber(j.get<double>());
  if (j.is_string()) return LeafValue::ofText(j.get<std::string>());
  if (j.is_array()) {
    std::vector<double> numbers;
    for (const auto& e : j) {
      if (e.is_number()) {
        numbers.push_back(e.get<double>());
      } else if (e.is_string()) {
        auto v = LeafValue::ofText(e.get<std::string>());
        char* end = nullptr;
        double d = std::strtod(v.text.c_str(), &end);
        if (v.text.empty() || *end != '\0') return std::nullopt;
        numbers.push_back(d);
      } else {
        return std::nullopt;
      }
    }
    return LeafValue::ofNumbers(std::move(numbers));
  }
  return std::nullopt;
}

}  // namespace

void DecodeCounts::add(const DecodeCounts& other) {
  mapped += other.mapped;
  unknown_paths += other.unknown_paths;
  bad_values += other.bad_values;
  over_limit += other.over_limit;
  if (first_unknown_path.empty()) first_unknown_path = other.first_unknown_path;
  if (first_bad_value_path.empty()) first_bad_value_path = other.first_bad_value_path;
}

std::optional<LeafValue> scalarValue(const ::gnmi::TypedValue& value) {
  using V = ::gnmi::TypedValue;
  switch (value.value_case()) {
    case V::kStringVal:
      return LeafValue::ofText(value.string_val());
    case V::kAsciiVal:
      return LeafValue::ofText(value.ascii_val());
    case V::kIntVal:
      return LeafValue::ofNumber(static_cast<double>(value.int_val()));
    case V::kUintVal:
      return LeafValue::ofCount(value.uint_val());
    case V::kBoolVal:
      return LeafValue::ofBool(value.bool_val());
    case V::kFloatVal:
      return LeafValue::ofNumber(value.float_val());
    case V::kDoubleVal:
      return LeafValue::ofNumber(value.double_val());
    case V::kDecimalVal:
      return LeafValue::ofNumber(decimal64(value.decimal_val()));
    case V::kBytesVal:
      if (auto f = ieeeFloat(value.bytes_val())) return LeafValue::ofNumber(*f);
      return std::nullopt;
    case V::kLeaflistVal: {
      std::vector<double> numbers;
      for (const auto& e : value.leaflist_val().element()) {
        auto v = scalarValue(e);
        if (!v || (v->kind != LeafValue::Kind::kNumber && v->kind != LeafValue::Kind::kCount)) return std::nullopt;
        numbers.push_back(v->number);
      }
      return LeafValue::ofNumbers(std::move(numbers));
    }
    default:
      return std::nullopt;
  }
}

std::string refusalReason(const ::gnmi::TypedValue& value) {
  using V = ::gnmi::TypedValue;
  switch (value.value_case()) {
    case V::kBytesVal:
      return "bytes_val of " + std::to_string(value.bytes_val().size()) +
             " bytes is no IEEE 754 float32 (4 bytes) or float64 (8 bytes)";
    case V::kProtoBytes:
      return "proto_bytes (a serialised protobuf of the target's own schema) is not decoded";
    case V::kLeaflistVal:
      return "a leaf-list with an element that is not a number";
    case V::kJsonVal:
    case V::kJsonIetfVal:
      return "JSON that does not parse, nests deeper than 16, or holds an array of non-numbers";
    case V::VALUE_NOT_SET:
      return "no value this client knows (empty, any_val, or a field newer than gNMI 0.10)";
    default:
      return "value not usable for this leaf";
  }
}

void joinPath(const ::gnmi::Path& prefix, const ::gnmi::Path& path, GnmiPath& out) {
  out.origin = !path.origin().empty() ? path.origin() : prefix.origin();
  const int total = prefix.elem_size() + path.elem_size();
  out.elems.resize(static_cast<std::size_t>(total));
  std::size_t i = 0;
  for (const auto* p : {&prefix, &path}) {
    for (const auto& elem : p->elem()) {
      PathElement& e = out.elems[i++];
      e.name.assign(elem.name());
      e.keys.resize(elem.key().size());
      std::size_t k = 0;
      for (const auto& [key, value] : elem.key()) {
        e.keys[k].first.assign(key);
        e.keys[k].second.assign(value);
        ++k;
      }
    }
  }
}

void NotificationDecoder::note(Applied applied, std::string_view refusal) {
  std::string path = path_.toString();
  auto it = trace_->outcome_by_path.find(path);
  if (it == trace_->outcome_by_path.end()) {
    if (trace_->outcome_by_path.size() >= DecodeTrace::kMaxPaths) {
      ++trace_->more;
      return;
    }
    it = trace_->outcome_by_path.emplace(std::move(path), std::string()).first;
  }
  auto bound = state_.rules().match(path_);
  switch (applied) {
    case Applied::kMapped:
      it->second = "mapped by " + std::string(bound ? bound->rule->pattern : "?");
      break;
    case Applied::kUnknownPath:
      it->second = bound ? "ignored: rule " + std::string(bound->rule->pattern) + " binds no interface or component"
                         : "ignored: " + state_.rules().explainMiss(path_);
      break;
    case Applied::kBadValue:
      it->second = "refused value: " + (refusal.empty() ? std::string("not usable for rule ") +
                                                              std::string(bound ? bound->rule->pattern : "?") +
                                                              " (wrong kind, or a channel index out of range)"
                                                        : std::string(refusal));
      break;
    case Applied::kOverLimit:
      it->second = "dropped: more components and interfaces than opticsd keeps per target";
      break;
  }
}

Applied NotificationDecoder::applyKeyless(const LeafValue& value, std::int64_t now_ms) {
  const std::size_t n = path_.elems.size();
  if (n < 2) return Applied::kUnknownPath;
  // A key leaf of a list sent without keys: ".../lane-data/lane-index".
  const PathElement& parent = path_.elems[n - 2];
  if (parent.keys.empty()) {
    if (const auto* keys = state_.rules().listKeys(localName(parent.name))) {
      const std::string_view leaf = localName(path_.elems.back().name);
      if (std::find(keys->begin(), keys->end(), leaf) != keys->end()) {
        std::string text = value.kind == LeafValue::Kind::kText    ? value.text
                           : value.kind == LeafValue::Kind::kCount ? std::to_string(value.count)
                           : value.kind == LeafValue::Kind::kNumber && std::floor(value.number) == value.number &&
                                   std::abs(value.number) < 1e15
                               ? std::to_string(static_cast<long long>(value.number))
                               : std::string();
        if (text.empty()) return Applied::kUnknownPath;
        const std::string list(localName(parent.name));
        std::erase_if(list_keys_seen_, [&](const auto& seen) { return seen.first == list; });
        list_keys_seen_.push_back({list, {std::string(leaf), std::move(text)}});
        return Applied::kUnknownPath;
      }
    }
  }
  bool keyed = false;
  for (auto& elem : path_.elems) {
    if (!elem.keys.empty()) continue;
    for (const auto& [list, key] : list_keys_seen_) {
      if (list == localName(elem.name)) {
        elem.keys.push_back(key);
        keyed = true;
      }
    }
  }
  return keyed ? state_.apply(path_, value, now_ms) : Applied::kUnknownPath;
}

void NotificationDecoder::count(Applied applied, DecodeCounts& counts) {
  if (trace_) note(applied, {});
  switch (applied) {
    case Applied::kMapped:
      ++counts.mapped;
      break;
    case Applied::kUnknownPath:
      ++counts.unknown_paths;
      if (counts.first_unknown_path.empty()) counts.first_unknown_path = path_.toString();
      break;
    case Applied::kBadValue:
      ++counts.bad_values;
      if (counts.first_bad_value_path.empty()) counts.first_bad_value_path = path_.toString();
      break;
    case Applied::kOverLimit:
      ++counts.over_limit;
      break;
  }
}

void NotificationDecoder::applyJson(std::string_view json, std::int64_t now_ms, DecodeCounts& counts) {
  auto parsed = nlohmann::json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    ++counts.bad_values;
    if (counts.first_bad_value_path.empty()) counts.first_bad_value_path = path_.toString();
    if (trace_) note(Applied::kBadValue, "JSON that does not parse");
    return;
  }
  // Walks a container, appending each member as a path element, applying its leaves.
  auto walk = [&](auto&& self, const nlohmann::json& node, int depth) -> void {
    // RFC 7951 section 5.4: a list is an array of entries, its keys among each entry's members.
    if (node.is_array() && !node.empty() && node.front().is_object() && !path_.elems.empty()) {
      const auto* keys = state_.rules().listKeys(localName(path_.elems.back().name));
      for (const auto& entry : node) {
        if (!entry.is_object()) {
          count(Applied::kBadValue, counts);
          continue;
        }
        path_.elems.back().keys.clear();
        for (const auto& key : keys ? *keys : std::vector<std::string>{}) {
          auto member = entry.find(key);
          if (member == entry.end()) continue;
          path_.elems.back().keys.emplace_back(key, member->is_string() ? member->get<std::string>() : member->dump());
        }
        self(self, entry, depth + 1);
      }
      path_.elems.back().keys.clear();
      return;
    }
    if (node.is_object()) {
      if (depth >= kMaxJsonDepth) {
        ++counts.bad_values;
        return;
      }
      for (const auto& [name, child] : node.items()) {
        path_.elems.push_back(PathElement{std::string(memberName(name)), {}});
        self(self, child, depth + 1);
        path_.elems.pop_back();
      }
      return;
    }
    auto leaf = jsonScalar(node);
    if (!leaf) {
      count(Applied::kBadValue, counts);
      return;
    }
    count(state_.apply(path_, *leaf, now_ms), counts);
  };
  walk(walk, parsed, 0);
}

DecodeCounts NotificationDecoder::apply(const ::gnmi::Notification& notification, std::int64_t now_ms) {
  DecodeCounts counts;
  list_keys_seen_.clear();
  static const ::gnmi::Path kNoPath;
  for (const auto& removed : notification.delete_()) {
    joinPath(notification.prefix(), removed, path_);
    state_.erase(path_);
  }
  for (const auto& update : notification.update()) {
    joinPath(notification.prefix(), update.has_path() ? update.path() : kNoPath, path_);
    const auto& val = update.val();
    if (val.value_case() == ::gnmi::TypedValue::kJsonIetfVal) {
      applyJson(val.json_ietf_val(), now_ms, counts);
    } else if (val.value_case() == ::gnmi::TypedValue::kJsonVal) {
      applyJson(val.json_val(), now_ms, counts);
    } else if (auto leaf = scalarValue(val)) {
      Applied applied = state_.apply(path_, *leaf, now_ms);
      if (applied == Applied::kUnknownPath) applied = applyKeyless(*leaf, now_ms);
      count(applied, counts);
    } else {
      if (trace_) note(Applied::kBadValue, refusalReason(val));
      counts.bad_values++;
      if (counts.first_bad_value_path.empty()) counts.first_bad_value_path = path_.toString();
    }
  }
  return counts;
}

}  // namespace opticsd::gnmi
