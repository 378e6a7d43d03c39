#include "daemon/exporter/metrics_exporter.hpp"

#include <prometheus/text_serializer.h>

#include <algorithm>
#include <map>
#include <utility>

#include "daemon/exporter/accept_encoding.hpp"
#include "daemon/exporter/collectable_text.hpp"
#include "daemon/exporter/exposition_text.hpp"
#include "daemon/exporter/gzip_body.hpp"
#include "daemon/exporter/query_parameter.hpp"
#include "daemon/exporter/slice_plan.hpp"
#include "daemon/exporter/target_collectable.hpp"

namespace opticsd {
namespace {

constexpr std::string_view kMetricsPath = "/metrics";
constexpr std::string_view kThresholdsPath = "/metrics/thresholds";
constexpr std::string_view kSelfPath = "/metrics/self";
constexpr std::string_view kDiscoveryPath = "/sd";

constexpr unsigned kBadRequest = 400;
constexpr unsigned kNotFound = 404;

HttpAnswer answer(std::unique_ptr<HttpBodySource> body, bool gzip) {
  HttpAnswer out;
  out.gzip = gzip;
  out.body = gzip ? gzipBody(std::move(body)) : std::move(body);
  return out;
}

HttpAnswer status(unsigned code) {
  HttpAnswer out;
  out.status = code;
  return out;
}

// The snapshot's entry for `target`, if this instance has Samples for it.
const LatestSamples::TargetSamples* find(const LatestSamples::Snapshot& snapshot, std::string_view target) {
  const auto it = std::lower_bound(snapshot.begin(), snapshot.end(), target,
                                   [](const auto& t, std::string_view name) { return t.target < name; });
  return it != snapshot.end() && it->target == target ? &*it : nullptr;
}

}  // namespace

MetricsExporter::MetricsExporter(std::string_view version)
    : registry_(std::make_shared<prometheus::Registry>()),
      self_metrics_(*registry_, version),
      samples_(std::make_shared<LatestSamples>()),
      freshness_(std::make_shared<TargetFreshness>()),
      policy_(std::make_shared<const ExportPolicy>()) {
  collectables_.push_back(freshness_);
  samples_->keepFecBinsAtFullDetailOnly(policy_);
}

// server_ is declared last, so it is destroyed (stopped, threads joined)
// before anything a scrape reads.
MetricsExporter::~MetricsExporter() = default;

Result<std::unique_ptr<MetricsExporter>> MetricsExporter::start(const ExporterOptions& options,
                                                                std::string_view version,
                                                                std::vector<std::string> page_paths) {
  if (options.listen.empty()) return fail("exporter: empty listen address");
  std::unique_ptr<MetricsExporter> exporter(new MetricsExporter(version));
  std::vector<std::string> paths{std::string(kMetricsPath), std::string(kThresholdsPath), std::string(kSelfPath),
                                 std::string(kDiscoveryPath)};
  paths.insert(paths.end(), page_paths.begin(), page_paths.end());
  exporter->page_paths_ = std::move(page_paths);
  auto server = HttpServer::start(options, std::move(paths),
                                  [e = exporter.get()](const HttpRequest& request) { return e->route(request); });
  if (!server) return fail("exporter: cannot serve metrics: " + server.error().message);
  exporter->server_ = std::move(*server);
  return exporter;
}

void MetricsExporter::setPages(HttpRouter pages) {
  auto shared = std::make_shared<const HttpRouter>(std::move(pages));
  std::lock_guard lock(config_mutex_);
  pages_ = std::move(shared);
}

void MetricsExporter::registerCollectable(const std::weak_ptr<prometheus::Collectable>& collectable) {
  std::lock_guard lock(collectables_mutex_);
  collectables_.push_back(collectable);
}

void MetricsExporter::setExportPolicy(ExportPolicy policy) {
  std::lock_guard lock(config_mutex_);
  if (*policy_ == policy) return;  // keep the rendered buffers of an unchanged policy
  policy_ = std::make_shared<const ExportPolicy>(std::move(policy));
  // A port newly at full gets its bins back from its next poll on.
  samples_->keepFecBinsAtFullDetailOnly(policy_);
}

void MetricsExporter::setServedTargets(std::vector<ServedTarget> targets) {
  std::vector<std::string> names;
  for (const auto& t : targets) names.push_back(t.name);
  std::sort(names.begin(), names.end());
  rendered_.retain(names);
  std::lock_guard lock(config_mutex_);
  served_ = std::move(targets);
}

std::shared_ptr<const ExportPolicy> MetricsExporter::policy() const {
  std::lock_guard lock(config_mutex_);
  return policy_;
}

// A whole-instance scrape: family by family, the series of every target in
// name order, each taken from that target's render of its latest poll
// (RenderedTargets, shared with every other scrape), then the registries.
// It keeps no snapshot of the fleet, only its place (family, target), the
// targets' texts of the slice of families it is in (shared with the other
// scrapes in that slice, rendered_targets.hpp) and the one text it is
// sending, and gives the server at most kPartBytes at a time: a slow reader
// pins no old poll (issue 15), and no scrape keeps the fleet's text. The
// slices are planned when the scrape starts, from a count of each family's
// series (slice_plan.hpp). A target polled again while a scrape is under way
// is read from its newer poll for the families not sent yet; every series
// still appears once, but a family that had no series in the fleet when the
// scrape started is not sent by it.
class MetricsExporter::Scrape : public HttpBodySource {
 public:
  static constexpr std::size_t kPartBytes = 16 * 1024;

  Scrape(MetricsExporter& exporter, std::shared_ptr<const ExportPolicy> policy)
      : exporter_(exporter), policy_(std::move(policy)) {}

  bool next(HttpBody& out) override {
    std::string part;
    part.reserve(kPartBytes);
    bool more = true;
    while (part.size() < kPartBytes && more) {
      if (text_ && offset_ < text_->size()) {
        const std::size_t n = std::min(kPartBytes - part.size(), text_->size() - offset_);
        part.append(*text_, offset_, n);
        offset_ += n;
      } else {
        more = advance();
      }
    }
    if (!part.empty()) out.push_back(std::move(part));
    return more;
  }

 private:
  // The slices of this scrape, from the series the fleet has now (the
  // snapshot is let go at once: the scrape keeps none).
  void plan() {
    const SeriesSelection selection{policy_.get(), true, false};
    const std::vector<std::size_t> counts = sampleFamilySeriesCounts(exporter_.samples_->snapshot(), selection);
    std::size_t total = 0;
    for (const std::size_t n : counts) total += n;
    plan_ = planSlices(counts, sliceSeriesBound(total));
    if (!plan_.empty()) family_ = plan_.front().first;
  }

  // Moves on to the next text to send; false once there is none.
  bool advance() {
    offset_ = 0;
    text_ = std::move(after_header_);
    if (text_) return true;
    if (!planned_) {
      planned_ = true;
      plan();
    }
    while (range_ < plan_.size()) {
      const FamilyRange range = plan_[range_];
      const auto target = exporter_.samples_->after(target_);
      if (!target) {
        target_.clear();
        header_sent_ = false;
        if (++family_ == range.end) {
          slice_.clear();  // this slice is sent: its texts go
          if (++range_ < plan_.size()) family_ = plan_[range_].first;
        }
        continue;
      }
      target_ = target->target;
      // A target polled again since is read from its new poll's slice (the
      // one other scrapes share), so no old text outlives its poll for long.
      Held& held = slice_[target_];
      const bool same_poll = !held.samples.owner_before(target->samples) && !target->samples.owner_before(held.samples);
      if (!held.texts || !same_poll) {
        held.samples = target->samples;
        held.texts = exporter_.rendered_.slice(*target, policy_, range);
      }
      SharedText series = (*held.texts)[family_];
      // The slice's last family (never one without series): this target's
      // texts of the slice go now, not when every target has been sent, so a
      // slice of one family holds one target's text at a time.
      if (family_ + 1 == range.end) slice_.erase(target_);
      if (!series) continue;
      if (header_sent_) {
        text_ = std::move(series);
      } else {
        header_sent_ = true;
        text_ = familyHeader(family_);
        after_header_ = std::move(series);
      }
      return true;
    }
    // Then the registries, a family at a time, each text let go once sent:
    // the self-metrics, then each collectable's (the rules engine's written
    // target by target, collectable_text.hpp), never all of them at once.
    while (next_text_ == texts_.size()) {
      texts_.clear();
      next_text_ = 0;
      if (!self_sent_) {
        self_sent_ = true;
        collectables_ = exporter_.liveCollectables();
        for (auto& family : exporter_.collectSelf()) {
          std::vector<prometheus::MetricFamily> one;
          one.push_back(std::move(family));
          texts_.push_back(prometheus::TextSerializer().Serialize(one));
        }
      } else if (next_collectable_ < collectables_.size()) {
        texts_ = collectableFamilyTexts(*collectables_[next_collectable_]);
        collectables_[next_collectable_++].reset();
      } else {
        collectables_.clear();
        return false;
      }
    }
    text_ = std::make_shared<const std::string>(std::move(texts_[next_text_++]));
    return true;
  }

  MetricsExporter& exporter_;
  const std::shared_ptr<const ExportPolicy> policy_;
  bool planned_ = false;
  std::vector<FamilyRange> plan_;
  std::size_t range_ = 0;   // the slice being sent (index in plan_)
  std::size_t family_ = 0;  // the family being sent, in plan_[range_]
  std::string target_;      // the last target sent of this family ("" before the first)
  bool header_sent_ = false;
  bool self_sent_ = false;
  std::vector<std::shared_ptr<prometheus::Collectable>> collectables_;
  std::size_t next_collectable_ = 0;  // the next of collectables_ to write
  std::vector<std::string> texts_;    // the registry texts being sent
  std::size_t next_text_ = 0;         // the next of texts_ to send
  // Each target's render of the slice of families being sent, until its last
  // family is sent: at most one slice of the fleet's text at a time. `samples`
  // tells polls apart without keeping one.
  struct Held {
    std::weak_ptr<const std::vector<Sample>> samples;
    std::shared_ptr<const FamilyTexts> texts;
  };
  std::map<std::string, Held, std::less<>> slice_;
  SharedText text_;  // being sent, from offset_
  std::size_t offset_ = 0;
  SharedText after_header_;
};

std::vector<std::shared_ptr<prometheus::Collectable>> MetricsExporter::liveCollectables() {
  std::vector<std::shared_ptr<prometheus::Collectable>> live;
  std::lock_guard lock(collectables_mutex_);
  std::erase_if(collectables_, [](const auto& c) { return c.expired(); });
  for (const auto& c : collectables_) {
    if (auto p = c.lock()) live.push_back(std::move(p));
  }
  return live;
}

std::vector<prometheus::MetricFamily> MetricsExporter::collectSelf() {
  if (server_) {
    const HttpServer::ConnectionCounts counts = server_->connectionCounts();
    self_metrics_.setHttpConnectionCounts(counts.evicted_total, counts.refused_total);
  }
  return registry_->Collect();
}

std::string MetricsExporter::renderRegistries(Registries which) {
  std::vector<prometheus::MetricFamily> families = collectSelf();
  for (const auto& c : liveCollectables()) {
    // The per-target series (rules engine) belong to the per-target scrapes.
    if (which == Registries::kSelfOnly && dynamic_cast<const TargetCollectable*>(c.get()) != nullptr) continue;
    auto more = c->Collect();
    families.insert(families.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  return prometheus::TextSerializer().Serialize(families);
}

std::string MetricsExporter::renderTargetCollectables(std::string_view target) {
  std::vector<prometheus::MetricFamily> families;
  for (const auto& c : liveCollectables()) {
    if (const auto* per_target = dynamic_cast<const TargetCollectable*>(c.get())) {
      auto more = per_target->collectTarget(target);
      families.insert(families.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
  }
  return families.empty() ? std::string() : prometheus::TextSerializer().Serialize(families);
}

std::unique_ptr<HttpBodySource> MetricsExporter::scrape() { return std::make_unique<Scrape>(*this, policy()); }

std::string MetricsExporter::render() {
  std::string body;
  auto source = scrape();
  HttpBody parts;
  for (bool more = true; more;) {
    parts.clear();
    more = source->next(parts);
    appendJoined(parts, body);
  }
  return body;
}

bool MetricsExporter::serves(std::string_view target) const {
  std::lock_guard lock(config_mutex_);
  return std::any_of(served_.begin(), served_.end(), [&](const ServedTarget& t) { return t.name == target; });
}

HttpAnswer MetricsExporter::metrics(std::optional<std::string> target, bool gzip) {
  rendered_.dropStale();  // O(targets); what a poll since the last scrape made old goes now
  if (!target) return answer(scrape(), gzip);
  const LatestSamples::Snapshot snapshot = samples_->snapshot();
  const LatestSamples::TargetSamples* samples = find(snapshot, *target);
  // A target listed on /sd whose first poll has not landed yet is served
  // empty, not refused: Prometheus would mark it down until its next scrape.
  if (samples == nullptr && !serves(*target)) return status(kNotFound);
  // The Samples' text is the shared buffer; the rules engine's few series
  // per port are rendered fresh (they change between polls).
  std::vector<SharedText> buffers;
  if (samples != nullptr) {
    if (gzip) {
      buffers.push_back(rendered_.gzip(*samples, policy()));
    } else {
      buffers = targetText(*rendered_.families(*samples, policy()));
    }
  }
  std::string rules = renderTargetCollectables(*target);
  if (gzip) {
    // Two gzip members back to back are one valid gzip body (RFC 1952 2.2).
    if (!rules.empty()) buffers.push_back(std::make_shared<const std::string>(gzipped(rules)));
  } else {
    buffers.push_back(std::make_shared<const std::string>(std::move(rules)));
  }
  // Nothing at all is still a body: an empty gzip member when gzip.
  if (gzip && buffers.empty()) buffers.push_back(std::make_shared<const std::string>(gzipped({})));
  HttpAnswer out;
  out.gzip = gzip;
  out.body = sharedBufferBody(std::move(buffers));
  return out;
}

HttpAnswer MetricsExporter::thresholds(std::optional<std::string> target, bool gzip) {
  LatestSamples::Snapshot snapshot = samples_->snapshot();
  if (target) {
    const LatestSamples::TargetSamples* one = find(snapshot, *target);
    if (one == nullptr && !serves(*target)) return status(kNotFound);
    snapshot = one == nullptr ? LatestSamples::Snapshot{} : LatestSamples::Snapshot{*one};
  }
  std::string text;
  appendSampleExposition(snapshot, text, SeriesSelection{nullptr, false, true});
  return answer(wholeBody({std::move(text)}), gzip);
}

HttpAnswer MetricsExporter::route(const HttpRequest& request) {
  if (std::find(page_paths_.begin(), page_paths_.end(), request.path) != page_paths_.end()) {
    std::shared_ptr<const HttpRouter> pages;
    {
      std::lock_guard lock(config_mutex_);
      pages = pages_;
    }
    return pages ? (*pages)(request) : status(kNotFound);
  }
  const bool gzip = acceptsGzip(request.accept_encoding);
  auto target = queryParameter(request.query, "target");
  if (!target || (*target && (*target)->empty())) return status(kBadRequest);
  if (request.path == kMetricsPath) return metrics(std::move(*target), gzip);
  if (request.path == kThresholdsPath) return thresholds(std::move(*target), gzip);
  if (request.path == kSelfPath) return answer(wholeBody({renderRegistries(Registries::kSelfOnly)}), gzip);
  if (request.path == kDiscoveryPath) {
    std::vector<ServedTarget> served;
    {
      std::lock_guard lock(config_mutex_);
      served = served_;
    }
    const std::string address =
        request.host.empty() ? "127.0.0.1:" + std::to_string(port()) : std::string(request.host);
    HttpAnswer out = answer(wholeBody({serviceDiscoveryJson(served, address)}), gzip);
    out.content_type = "application/json";
    return out;
  }
  return status(kNotFound);
}

}  // namespace opticsd
