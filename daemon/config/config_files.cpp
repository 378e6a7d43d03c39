#include "daemon/config/config_files.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>

namespace opticsd {
namespace {

std::string openSslError() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown OpenSSL error";
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

}  // namespace

std::optional<std::string> unreadableFileProblem(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return "cannot read " + path + ": is a directory";
  std::ifstream in(path);
  if (!in) return "cannot read " + path + ": " + std::strerror(errno);
  return std::nullopt;
}

std::optional<std::string> tlsFilesProblem(const std::string& cert_file, const std::string& key_file) {
  if (auto problem = unreadableFileProblem(cert_file)) return problem;
  if (auto problem = unreadableFileProblem(key_file)) return problem;
  const std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> context(SSL_CTX_new(TLS_server_method()), &SSL_CTX_free);
  if (!context) return "cannot check TLS files: " + openSslError();
  ERR_clear_error();
  if (SSL_CTX_use_certificate_chain_file(context.get(), cert_file.c_str()) != 1) {
    return "cannot load TLS certificate " + cert_file + ": " + openSslError();
  }
  if (SSL_CTX_use_PrivateKey_file(context.get(), key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    if (ERR_GET_REASON(ERR_peek_error()) == X509_R_KEY_VALUES_MISMATCH) {
      ERR_clear_error();
      return "TLS key " + key_file + " does not belong to certificate " + cert_file;
    }
    return "cannot load TLS key " + key_file + ": " + openSslError();
  }
  if (SSL_CTX_check_private_key(context.get()) != 1) {
    return "TLS key " + key_file + " does not belong to certificate " + cert_file;
  }
  return std::nullopt;
}

std::optional<std::string> databasePathProblem(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return path.string() + " is a directory; name the database file, e.g. " + (path / "history.db").string();
  }
  // The nearest part of the path that exists must be a directory.
  for (auto parent = path.parent_path(); !parent.empty(); parent = parent.parent_path()) {
    const auto status = std::filesystem::status(parent, ec);
    if (std::filesystem::exists(status)) {
      if (!std::filesystem::is_directory(status)) {
        return path.string() + " lies under " + parent.string() + ", which is not a directory";
      }
      break;
    }
    if (parent == parent.root_path()) break;
  }
  return std::nullopt;
}

}  // namespace opticsd
