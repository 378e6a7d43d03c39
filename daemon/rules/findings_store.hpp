#pragma once
// Findings and suspects in the SQLite history (tables from
// schemas/migrations/0002_findings.sql), and each module's Tx bias baseline
// (0003_bias_baselines.sql), read back once at open for the next engine. The engine's calls only queue; one
// writer thread of this class owns its own connection and writes batches, so
// the polling thread never waits on the disk. A failing disk drops the
// oldest queued events beyond the cap and logs once per transition.
//
// The static read functions open their own read-only connection (the CLI, and
// the daemon at start to restore active findings).
//
// Thread-safety: record(), replaceSuspects(), flush() from any thread.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <variant>
#include <vector>

#include "daemon/rules/finding_sink.hpp"
#include "drivers/result.hpp"

namespace opticsd {

struct FindingsFilter {
  bool active_only = false;
  std::optional<std::int64_t> since_ms;  // findings active at or after this time
  std::string target;
};

class FindingsStore : public FindingSink {
 public:
  // Opens (creating and migrating if needed) the database at `path`.
  static Result<std::unique_ptr<FindingsStore>> open(const std::filesystem::path& path,
                                                     std::function<void(std::string_view)> log = {});
  ~FindingsStore() override;

  void record(const Finding& finding) override;
  void replaceSuspects(const std::string& target, std::vector<Suspect> suspects) override;
  void recordBaseline(const BiasBaseline& baseline) override;
  // The baselines the database held at open (once; later calls get none).
  std::vector<BiasBaseline> takeStoredBaselines() override;
  // Waits until everything queued before the call is written; false on timeout.
  bool flush(std::chrono::milliseconds timeout);

  // For the self-metrics: findings that did not reach the disk.
  struct Stats {
    std::uint64_t dropped_total = 0;       // events dropped from a full queue
    std::uint64_t write_errors_total = 0;  // failed write transactions (retried)
    bool failing = false;                  // the last write failed
  };
  Stats stats();

  static Result<std::vector<Finding>> loadFindings(const std::filesystem::path& path, const FindingsFilter& filter);
  static Result<std::vector<Suspect>> loadSuspects(const std::filesystem::path& path);

 private:
  struct SuspectsUpdate {
    std::string target;
    std::vector<Suspect> suspects;
  };
  using Event = std::variant<Finding, SuspectsUpdate, BiasBaseline>;
  struct Connection;

  FindingsStore() = default;
  // `baselines` (when given) receives the stored bias baselines.
  static Result<std::unique_ptr<Connection>> openConnection(const std::filesystem::path& path,
                                                            std::vector<BiasBaseline>* baselines);
  Result<void> ensureConnection();
  void run();
  Result<void> write(std::vector<Event>& batch);
  void enqueue(Event event);
  static Result<void> writeBaseline(Connection& c, const BiasBaseline& baseline);

  static constexpr std::size_t kMaxQueued = 100'000;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::deque<Event> queue_;
  std::uint64_t queued_total_ = 0;
  std::uint64_t finished_total_ = 0;
  std::uint64_t dropped_total_ = 0;
  std::uint64_t write_errors_total_ = 0;
  bool failing_ = false;
  bool stop_ = false;
  std::function<void(std::string_view)> log_;
  std::filesystem::path path_;
  std::unique_ptr<Connection> connection_;  // writer thread only, after open
  std::vector<BiasBaseline> stored_baselines_;  // read at open, before the writer starts
  std::thread writer_;
};

}  // namespace opticsd
