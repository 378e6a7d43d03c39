#include "daemon/service/daemon_service.hpp"

#include <malloc.h>
#include <prometheus/gauge.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "daemon/config/config.hpp"
#include "daemon/config/listen_address.hpp"
#include "daemon/exporter/metrics_exporter.hpp"
#include "daemon/log/log.hpp"
#include "daemon/pipeline/pipeline.hpp"
#include "daemon/remote_write/remote_writer.hpp"
#include "daemon/rules/rules_engine.hpp"
#include "daemon/scheduler/scheduler.hpp"
#include "daemon/service/poll_progress.hpp"
#include "daemon/service/poll_sinks.hpp"
#include "daemon/service/target_plans.hpp"
#include "daemon/store/findings_history.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "daemon/web/daemon_page_data.hpp"
#include "daemon/web/remote_far_end.hpp"
#include "daemon/web/web_pages.hpp"
#include "drivers/options/secret_source.hpp"
#include "drivers/registry.hpp"

namespace opticsd {
namespace {

constexpr auto kHousekeepingPeriod = std::chrono::seconds(2);
// Every poll allocates and frees a fleet's worth of Samples across threads
// (poller, store writer, rules); glibc keeps freed pages resident, so RSS crept
// up 40 % in a 10-minute soak with a flat live heap. Hand them back now and then.
constexpr int kTrimEveryHousekeeping = 30;  // 60 s
constexpr auto kShutdownFlushTimeout = std::chrono::seconds(20);
// A store already failing at shutdown (read-only or full disk, a lock held
// elsewhere) gets this long to write again before the flush is given up:
// waiting the whole timeout for a failure that will not clear only delays
// the stop (and systemd's restart).
constexpr auto kShutdownFailingGrace = std::chrono::seconds(3);

double unixSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

ConfigResult load(const RunOptions& options) {
  return options.config_path ? loadConfigFile(*options.config_path) : loadDemoConfig();
}

// Room for a scraper under a connection flood: the HTTP server evicts the
// connection that has waited longest, so the more it may hold, the longer a
// new connection has to send its request while a flood churns. systemd's
// soft limit of 1,024 open files is raised towards the hard limit for that.
constexpr rlim_t kWantedOpenFiles = 8192;
constexpr std::size_t kMaxHttpConnections = 2048;

void sizeConnectionTable(ExporterOptions& options) {
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < kWantedOpenFiles) {
    files.rlim_cur = std::min<rlim_t>(kWantedOpenFiles, files.rlim_max);
    (void)::setrlimit(RLIMIT_NOFILE, &files);
    (void)::getrlimit(RLIMIT_NOFILE, &files);
  }
  // Leave a quarter of the descriptors to the store, SNMP sockets and netlink.
  const std::size_t fit = static_cast<std::size_t>(files.rlim_cur) * 3 / 4;
  options.max_connections = std::max(options.max_connections, std::min(kMaxHttpConnections, fit));
  options.max_connections_per_source = options.max_connections / 2;
}

Result<ExporterOptions> exporterOptions(const ListenConfig& listen) {
  ExporterOptions options;
  options.listen = listen.address;
  sizeConnectionTable(options);
  // The operator's own limits (listen: section) over the sized defaults.
  if (listen.max_connections) {
    options.max_connections = *listen.max_connections;
    options.max_connections_per_source = std::max<std::size_t>(1, options.max_connections / 2);
  }
  if (listen.max_connections_per_source) {
    options.max_connections_per_source = std::min(options.max_connections, *listen.max_connections_per_source);
  }
  if (listen.request_timeout) options.idle_timeout = *listen.request_timeout;
  if (listen.tls_handshake_timeout) options.handshake_timeout = *listen.tls_handshake_timeout;
  if (listen.write_timeout) options.write_timeout = *listen.write_timeout;
  if (!listen.basic_auth_user.empty()) {
    auto password = readSecretFile(listen.basic_auth_password_file);
    if (!password) return fail("listen.basic_auth_password_file: " + password.error().message);
    options.basic_auth = ExporterOptions::BasicAuth{listen.basic_auth_user, *password};
  }
  if (!listen.tls_cert_file.empty()) options.tls = ExporterOptions::Tls{listen.tls_cert_file, listen.tls_key_file};
  return options;
}

// Secrets readable by other local users are as good as published: warn at
// start about a secret file (a driver's secret keys as *_file, the basic-auth password file)
// or a config holding inline secrets that others can read. Paths and key
// names only, never the secret.
void warnAboutReadableSecrets(const Config& config) {
  auto othersCanRead = [](const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && (st.st_mode & S_IROTH) != 0;
  };
  auto warn = [](const std::string& path, const std::string& holds) {
    spdlog::warn("secret readable by other users path={} holds={} fix=\"chmod o-rwx\"", logValue(path),
                 logValue(holds));
  };
  std::vector<std::string> inline_secrets;
  for (const auto& target : config.targets) {
    const DriverEntry* driver = findDriver(target.driver);
    if (driver == nullptr || !target.options.IsMap()) continue;
    for (const auto& key : driver->secret_keys) {
      const YAML::Node file = target.options[std::string(key) + "_file"];
      if (file && file.IsScalar() && othersCanRead(file.Scalar())) {
        warn(file.Scalar(), target.name + "." + std::string(key));
      }
      if (target.options[std::string(key)]) inline_secrets.push_back(target.name + "." + std::string(key));
    }
  }
  const auto& auth_file = config.listen.basic_auth_password_file;
  if (!auth_file.empty() && othersCanRead(auth_file)) warn(auth_file, "listen.basic_auth_password_file");
  for (std::size_t i = 0; i < config.instances.entries.size(); ++i) {
    const auto& file = config.instances.entries[i].basic_auth_password_file;
    if (!file.empty() && othersCanRead(file))
      warn(file, "instances[" + std::to_string(i) + "].basic_auth_password_file");
  }
  const auto& tls_key = config.listen.tls_key_file;
  if (!tls_key.empty() && othersCanRead(tls_key)) warn(tls_key, "listen.tls_key_file");
  if (auto open = openMetricsWarning(config.listen.address, !config.listen.tls_cert_file.empty(),
                                     !config.listen.basic_auth_user.empty())) {
    spdlog::warn("metrics open to the network detail={}", logValue(*open));
  }
  if (!inline_secrets.empty() && config.source != "<embedded demo>" && othersCanRead(config.source)) {
    std::string keys;
    for (const auto& k : inline_secrets) keys += (keys.empty() ? "" : ",") + k;
    warn(config.source, "inline " + keys);
  }
}

class DaemonService {
 public:
  DaemonService(RunOptions options, Config config) : options_(std::move(options)), config_(std::move(config)) {}

  int run() {
    auto exporter_options = exporterOptions(config_.listen);
    if (!exporter_options) return fatal(exporter_options.error().message);
    auto exporter = MetricsExporter::start(*exporter_options, OPTICSD_VERSION, web::WebPages::paths());
    if (!exporter) return fatal(exporter.error().message);
    exporter_ = std::move(*exporter);
    exporter_->self().recordConfigLoad(true, unixSeconds());

    openStore();
    startRules();
    startRemoteWrite();
    sinks_ = std::make_unique<PollSinks>(*exporter_, rules_.get(), store_.get(), remote_writer_.get());
    pipeline_ = std::make_unique<Pipeline>();
    sinks_->attach(*pipeline_);
    scheduler_ = std::make_unique<Scheduler>(io_, schedulerOptions(config_),
                                             [this](PollReport& report) { pipeline_->onReport(report); });
    applyTargets(config_);
    announce();

    boost::asio::signal_set signals(io_, SIGINT, SIGTERM, SIGHUP);
    std::function<void(const boost::system::error_code&, int)> on_signal = [&](const boost::system::error_code& ec,
                                                                               int signal) {
      if (ec) return;
      if (signal == SIGHUP) {
        reload();
        signals.async_wait(on_signal);
        return;
      }
      spdlog::info("stopping signal={}", signal == SIGTERM ? "SIGTERM" : "SIGINT");
      sd_notify(0, "STOPPING=1\nSTATUS=stopping: flushing history");
      scheduler_->stop();
      io_.stop();
    };
    signals.async_wait(on_signal);
    housekeeping();
    sd_notify(0, "READY=1");
    io_.run();
    return shutdown();
  }

 private:
  int fatal(const std::string& message) {
    spdlog::critical("cannot start: {}", message);
    std::fprintf(stderr, "opticsd: cannot start: %s\n", message.c_str());
    return 1;
  }

  void openStore() {
    if (!config_.storage.enabled) return;
    std::error_code ec;
    std::filesystem::create_directories(config_.storage.path.parent_path(), ec);
    StoreOptions options;
    options.path = config_.storage.path;
    options.queue_capacity_cycles = config_.storage.queue_cycles;
    options.retention = config_.storage.retention;
    options.sample_interval = config_.storage.sample_interval;
    options.max_size_bytes = config_.storage.max_size_bytes;
    options.downsample = config_.storage.downsample;
    options.deadband = config_.storage.deadband;
    options.log = [](std::string_view message) { spdlog::warn("store {}", message); };
    // A database that cannot be opened yet (locked, full, corrupt) is retried
    // by the writer; the failure shows in the log and the opticsd_store_* metrics.
    auto store = SqliteStore::openRetrying(options);
    if (!store) {
      // Export goes on without history: losing metrics too would be worse.
      spdlog::error("history disabled path={} error={}", logValue(config_.storage.path.string()),
                    logValue(store.error().message));
      return;
    }
    store_ = std::move(*store);
  }

  // Rules engine: findings and suspects to /metrics and, through the history
  // writer (off the polling thread, retried like samples), to the findings
  // tables; active findings survive a restart.
  void startRules() {
    rules_ = std::make_unique<RulesEngine>(config_.rules, config_.topology, store_.get());
    if (store_) {
      FindingsFilter filter;
      filter.active_only = true;
      if (auto active = loadFindings(config_.storage.path, filter)) {
        spdlog::info("findings restored active={}", active->size());
        rules_->restore(std::move(*active));
      }
    }
    exporter_->registerCollectable(rules_->view());
    startPages();
  }

  // The operator's pages (daemon/web) on the same listener, reading what
  // /metrics reads plus the history file.
  void startPages() {
    web::DaemonPageData::Sources sources{&exporter_->samples(), &exporter_->freshness(), rules_->view(), {}};
    if (config_.storage.enabled && store_) sources.history_path = config_.storage.path;
    pages_ = std::make_shared<web::DaemonPageData>(std::move(sources));
    // Always there, so a reload can give it the first `instances:` too.
    remote_far_end_ = std::make_shared<web::RemoteFarEnd>(config_.instances);
    auto pages = std::make_shared<web::WebPages>(pages_, remote_far_end_);
    exporter_->setPages([pages](const HttpRequest& request) { return pages->route(request); });
    // Alert annotations link to the pages through this (deploy/prometheus/opticsd-alerts.yml).
    web_info_ = &prometheus::BuildGauge()
                     .Name("opticsd_web_info")
                     .Help(
                         "Where this instance's pages are reached (listen.external_url; empty: at the scrape "
                         "address). Always 1.")
                     .Register(exporter_->registry());
    web_info_->Add({{"external_url", config_.listen.external_url}}).Set(1);
  }

  // A reload's `instances:` and listen.external_url: both only shape what
  // the pages and /metrics say next, so they apply at once.
  void reloadPageSettings(const Config& loaded) {
    if (remote_far_end_ && loaded.instances != config_.instances) {
      remote_far_end_->setInstances(loaded.instances);
      spdlog::info("config reload: instances applied entries={}", loaded.instances.entries.size());
    }
    if (web_info_ && loaded.listen.external_url != config_.listen.external_url) {
      web_info_->Remove(&web_info_->Add({{"external_url", config_.listen.external_url}}));
      web_info_->Add({{"external_url", loaded.listen.external_url}}).Set(1);
      spdlog::info("config reload: listen.external_url applied url={}", logValue(loaded.listen.external_url));
    }
  }

  // Every poll also goes to the remote-write receiver, if one is configured
  // (built once, like the listener: a reload's edits wait for a restart).
  void startRemoteWrite() {
    if (!config_.remote_write) return;
    remote_writer_ = std::make_unique<RemoteWriter>(*config_.remote_write, exporter_->registry());
    if (rules_) remote_writer_->setTargetSource(rules_->view());
    spdlog::info("remote write on url={}", logValue(config_.remote_write->url));
  }

  // The series budget and what /sd lists (the targets this instance polls).
  void publishExportSettings(const Config& config, const std::vector<std::string>& names) {
    exporter_->setExportPolicy(config.export_policy);
    if (remote_writer_) remote_writer_->setExportPolicy(config.export_policy);
    const std::set<std::string> polled(names.begin(), names.end());
    std::vector<ServedTarget> served;
    for (const auto& target : config.targets) {
      if (polled.contains(target.name)) {
        served.push_back({target.name, target.driver});
      }
    }
    if (pages_) {
      std::vector<std::pair<std::string, std::string>> named;
      for (const auto& t : served) named.emplace_back(t.name, t.driver);
      pages_->setTargets(std::move(named));
    }
    exporter_->setServedTargets(std::move(served));
  }

  void applyTargets(const Config& config) {
    std::vector<std::string> errors;
    auto plans = buildTargetPlans(config, io_, errors);
    for (const auto& error : errors) spdlog::error("target not started {}", error);
    std::vector<std::string> names;
    for (const auto& plan : plans) names.push_back(plan.name);
    sinks_->served().setKeepStaleFor(config.poll.keep_stale_for);
    // Ports paused by `maintenance:` are marked in the preparation, before any sink sees them.
    pipeline_->setMaintenanceMarker(
        [list = config.maintenance](const std::string& target, std::vector<Sample>& samples) {
          list.apply(target, samples);
        });
    pipeline_->setTargets(names);  // every sink forgets the targets no longer polled
    publishExportSettings(config, names);
    scheduler_->setOptions(schedulerOptions(config));
    auto longest = config.poll.interval;
    for (const auto& target : config.targets) longest = std::max(longest, target.interval.value_or(longest));
    progress_.setLimit(PollProgress::limitFor(longest, config.poll.max_backoff, config.poll.timeout));
    const auto removed = scheduler_->setTargets(std::move(plans));
    for (const auto& name : removed) spdlog::info("target removed target={}", name);
  }

  void announce() {
    const std::string where = config_.storage.enabled && store_ ? config_.storage.path.string() : "(disabled)";
    const char* scheme = config_.listen.tls_cert_file.empty() ? "http" : "https";
    std::printf(
        "opticsd %s: polling %zu targets from %s\n  pages:   %s://%s/\n  metrics: %s://%s/metrics\n  history: %s\n",
        OPTICSD_VERSION, scheduler_->targetCount(), config_.source.c_str(), scheme, boundAddress().c_str(), scheme,
        boundAddress().c_str(), where.c_str());
    std::fflush(stdout);
    spdlog::info("started config={} targets={} listen={} history={}", logValue(config_.source),
                 scheduler_->targetCount(), boundAddress(), logValue(where));
  }

  std::string boundAddress() const {
    const auto& address = config_.listen.address;
    return address.substr(0, address.rfind(':') + 1) + std::to_string(exporter_->port());
  }

  void reload() {
    sd_notify(0, "RELOADING=1");
    auto loaded = load(options_);
    if (!loaded) {
      exporter_->self().recordConfigLoad(false, unixSeconds());
      spdlog::error("config reload refused, keeping the running config source={} errors={}",
                    logValue(options_.config_path ? options_.config_path->string() : "<embedded demo>"),
                    logValue(loaded.error().format()));
      sd_notify(0, "READY=1");
      return;
    }
    // The HTTP server, the history writer and the remote writer are built once: say which edits wait for a restart.
    ListenConfig listen_at_start = loaded->listen;
    listen_at_start.external_url = config_.listen.external_url;  // applied now (reloadPageSettings)
    for (const auto& [section, changed] : {std::pair{"listen", listen_at_start != config_.listen},
                                           std::pair{"storage", loaded->storage != config_.storage},
                                           std::pair{"remote_write", loaded->remote_write != config_.remote_write}}) {
      if (changed) spdlog::warn("config reload: changes take effect at the next restart section={}", section);
    }
    warnAboutReadableSecrets(*loaded);
    configureLogging(loaded->log_level);
    rules_->reconfigure(loaded->rules, loaded->topology);  // parsed and validated by the load above
    reloadPageSettings(*loaded);
    applyTargets(*loaded);
    config_ = std::move(*loaded);
    exporter_->self().recordConfigLoad(true, unixSeconds());
    spdlog::info("config reloaded targets={}", scheduler_->targetCount());
    sd_notify(0, "READY=1");
  }

  // Pets the systemd watchdog from the event loop, so a wedged loop is
  // restarted; publishes store statistics and a status line.
  void housekeeping() {
    // A failing target backs off: its kept values expire on this timer, not at its next poll.
    sinks_->served().expireStale(static_cast<std::int64_t>(unixSeconds() * 1000));
    if (store_) {
      const StoreStats stats = store_->stats();
      exporter_->self().setStoreStats(SelfMetrics::StoreStats{
          stats.written_samples_total, stats.dropped_samples_total, stats.decimated_samples_total,
          stats.write_errors_total, stats.queued_cycles, stats.lag_seconds, stats.downsampled_rows_total,
          stats.retention_deleted_rows_total, stats.expired_rows_size_total});
      // Findings share the one writer: they persist exactly when samples do.
      exporter_->self().setFindingsStoreStats(
          {!stats.failing, stats.dropped_finding_events_total, stats.write_errors_total});
      if (pages_) pages_->setStoreProblem(stats.failing ? "the history writer is failing: " + stats.last_error : "");
    } else if (config_.storage.enabled) {
      exporter_->self().setFindingsStoreStats({});  // storage is on, but findings have nowhere to go
    }
    std::ostringstream status;
    status << "STATUS=polling " << scheduler_->targetCount() << " targets, " << pipeline_->cycles()
           << " polls done; history "
           << (!store_                   ? "disabled"
               : store_->stats().failing ? "failing"
                                         : "ok");
    // The loop runs (this timer fired); the watchdog also wants polls completing.
    const auto now = PollProgress::Clock::now();
    progress_.observe(pipeline_->cycles(), scheduler_->targetCount(), now);
    const bool stalled = progress_.stalled(now);
    if (stalled && !stall_logged_) {
      spdlog::error("no poll has completed for {}s: the systemd watchdog is no longer petted",
                    std::chrono::duration_cast<std::chrono::seconds>(progress_.idleFor(now)).count());
    }
    stall_logged_ = stalled;
    sd_notify(0, ((stalled ? "" : "WATCHDOG=1\n") + status.str()).c_str());
    if (++housekeeping_ticks_ % kTrimEveryHousekeeping == 0) malloc_trim(0);
    housekeeping_.expires_after(kHousekeepingPeriod);
    housekeeping_.async_wait([this](const boost::system::error_code& ec) {
      if (!ec) housekeeping();
    });
  }

  // Waits for the history queue to be written: up to kShutdownFlushTimeout
  // while the store writes, kShutdownFailingGrace while it keeps failing.
  bool flushHistory() {
    const auto start = std::chrono::steady_clock::now();
    const auto written_at_start = store_->stats().written_cycles_total;
    while (std::chrono::steady_clock::now() - start < kShutdownFlushTimeout) {
      if (store_->flush(std::chrono::milliseconds(250))) return true;
      const auto stats = store_->stats();
      if (stats.failing && stats.written_cycles_total == written_at_start &&
          std::chrono::steady_clock::now() - start >= kShutdownFailingGrace) {
        return false;
      }
    }
    return false;
  }

  int shutdown() {
    housekeeping_.cancel();
    if (store_ && !flushHistory()) {
      const auto stats = store_->stats();
      spdlog::error("history flush incomplete queued_cycles={} error={}", stats.queued_cycles,
                    logValue(stats.last_error));
    }
    rules_.reset();
    store_.reset();
    spdlog::info("stopped");
    return 0;
  }

  RunOptions options_;
  Config config_;
  boost::asio::io_context io_;
  boost::asio::steady_timer housekeeping_{io_};
  std::uint64_t housekeeping_ticks_ = 0;
  PollProgress progress_;
  bool stall_logged_ = false;
  std::unique_ptr<MetricsExporter> exporter_;
  std::shared_ptr<web::DaemonPageData> pages_;                 // also held by the exporter's page router
  std::shared_ptr<web::RemoteFarEnd> remote_far_end_;          // also held by the page router
  prometheus::Family<prometheus::Gauge>* web_info_ = nullptr;  // owned by the exporter's registry
  std::unique_ptr<RemoteWriter> remote_writer_;  // after exporter_: destroyed first, before the registry it counts on
  std::unique_ptr<SqliteStore> store_;
  std::unique_ptr<RulesEngine> rules_;  // after the store, its finding sink: destroyed first
  std::unique_ptr<PollSinks> sinks_;    // after what they feed: destroyed first
  std::unique_ptr<Pipeline> pipeline_;
  std::unique_ptr<Scheduler> scheduler_;
};

}  // namespace

int runDaemon(const RunOptions& options) {
  auto config = load(options);
  if (!config) {
    std::fprintf(stderr, "opticsd: invalid config:\n%s", config.error().format().c_str());
    return 2;
  }
  if (!configureLogging(config->log_level)) configureLogging("info");
  warnAboutReadableSecrets(*config);
  return DaemonService(options, std::move(*config)).run();
}

}  // namespace opticsd
