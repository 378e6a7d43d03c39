#pragma once
// The checks on files a config names that `run` would otherwise only meet
// when it starts serving or writing: done while the config is loaded, so
// `check-config` (systemd's ExecStartPre) refuses what `run` would refuse,
// with the file, line and column of the key.

#include <filesystem>
#include <optional>
#include <string>

namespace opticsd {

// Why `path` cannot be read (a secret file, a certificate), or nothing.
std::optional<std::string> unreadableFileProblem(const std::string& path);

// Why the PEM certificate chain and key would not load as a TLS server
// identity (unreadable, not PEM, or a key that is not the certificate's).
std::optional<std::string> tlsFilesProblem(const std::string& cert_file, const std::string& key_file);

// Why a history database could never be created at `path`: it is a
// directory, or it lies under something that is not a directory.
std::optional<std::string> databasePathProblem(const std::filesystem::path& path);

}  // namespace opticsd
