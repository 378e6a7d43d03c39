#include "daemon/remote_write/remote_write_tls.hpp"

namespace opticsd {

namespace ssl = boost::asio::ssl;

Result<std::shared_ptr<ssl::context>> makeRemoteWriteTlsContext(const RemoteWriteConfig& config) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                       ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  context->set_verify_mode(ssl::verify_peer);
  boost::system::error_code ec;
  if (config.tls_ca_file.empty()) {
    context->set_default_verify_paths(ec);
    if (ec) return fail("cannot load the system's CA certificates: " + ec.message());
  } else {
    context->load_verify_file(config.tls_ca_file, ec);
    if (ec) return fail("tls_ca_file " + config.tls_ca_file + ": " + ec.message());
  }
  if (!config.tls_cert_file.empty()) {
    context->use_certificate_chain_file(config.tls_cert_file, ec);
    if (ec) return fail("tls_cert_file " + config.tls_cert_file + ": " + ec.message());
    context->use_private_key_file(config.tls_key_file, ssl::context::pem, ec);
    if (ec) return fail("tls_key_file " + config.tls_key_file + ": " + ec.message());
  }
  return context;
}

}  // namespace opticsd
