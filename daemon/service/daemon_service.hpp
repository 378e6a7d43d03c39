#pragma once
// `opticsd run`: wires config, exporter, store, scheduler and pipeline
// together on one io_context, and handles signals and systemd.
//
// SIGTERM/SIGINT: stop polling, flush the store, exit 0. SIGHUP: reload the
// config; a bad one is refused with a log line and the old one keeps running.

#include <filesystem>
#include <optional>

namespace opticsd {

struct RunOptions {
  std::optional<std::filesystem::path> config_path;  // none: the embedded demo
};

// Runs until a stop signal. Returns the process exit status.
int runDaemon(const RunOptions& options);

}  // namespace opticsd
