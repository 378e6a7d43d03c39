// The exporter's cache keeps a port's FEC codeword histogram only where the
// export policy serves the bins (full detail): at the default level the tail
// and margin stay on the Sample and on /metrics, the bins are not retained.
#include "daemon/exporter/fec_bin_retention.hpp"

#include <gtest/gtest.h>

#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/metrics_exporter.hpp"

namespace opticsd {
namespace {

std::vector<Sample> withBins(const std::string& target) {
  std::vector<Sample> out;
  for (int p = 1; p <= 3; ++p) {
    Sample s;
    s.target = target;
    s.port = "Ethernet" + std::to_string(p);
    s.fec.correctable_symbols = 15;
    for (std::uint16_t k = 0; k < 16; ++k) s.fec.histogram.push_back({k, k, 1000u - k, {}});
    s.fec.tail.symbols = 6;
    out.push_back(std::move(s));
  }
  out.emplace_back().port = "Ethernet9";  // no histogram at all
  return out;
}

TEST(FecBinRetention, BinsStayOnlyWhereExportedAtFull) {
  ExportPolicy policy;
  policy.setTarget("leaf-1", ExportDetail::kFull, {"Ethernet2"});
  const auto samples = withBins("leaf-1");
  auto slim = withoutUnexportedFecBins("leaf-1", samples, policy);
  ASSERT_TRUE(slim);
  ASSERT_EQ(slim->size(), samples.size());
  EXPECT_TRUE((*slim)[0].fec.histogram.empty());
  EXPECT_EQ((*slim)[0].fec.histogram.capacity(), 0u) << "the bins' memory is freed, not only cleared";
  EXPECT_EQ((*slim)[1].fec.histogram.size(), 16u);  // Ethernet2: full
  EXPECT_TRUE((*slim)[2].fec.histogram.empty());
  // What the default level exports of the FEC stays.
  EXPECT_EQ((*slim)[0].fec.tail.symbols, std::optional<std::uint16_t>(6));
  EXPECT_EQ((*slim)[0].fec.margin((*slim)[0].fec.tail.symbols), std::optional<std::uint16_t>(9));
  // The published Samples are not touched.
  for (const auto& s : samples) {
    if (s.port != "Ethernet9") {
      EXPECT_EQ(s.fec.histogram.size(), 16u);
    }
  }
}

TEST(FecBinRetention, NothingToDropSharesAsIs) {
  const auto samples = withBins("leaf-1");
  EXPECT_FALSE(withoutUnexportedFecBins("leaf-1", samples, ExportPolicy(ExportDetail::kFull)));
  std::vector<Sample> none(2);
  EXPECT_FALSE(withoutUnexportedFecBins("leaf-1", none, ExportPolicy()));
}

TEST(FecBinRetention, TheExportersCacheAppliesItsPolicy) {
  ExporterOptions listen;
  listen.listen = "127.0.0.1:0";
  auto exporter = MetricsExporter::start(listen, "test");
  ASSERT_TRUE(exporter) << exporter.error().message;
  auto published = std::make_shared<const std::vector<Sample>>(withBins("leaf-1"));
  (*exporter)->samples().replaceTarget("leaf-1", published);
  auto cached = (*exporter)->samples().snapshot();
  ASSERT_EQ(cached.size(), 1u);
  EXPECT_NE(cached[0].samples, published) << "default detail: a slim copy, not the published poll";
  EXPECT_TRUE((*cached[0].samples)[0].fec.histogram.empty());
  const std::string text = (*exporter)->render();
  EXPECT_NE(text.find("opticsd_port_fec_tail_symbols{target=\"leaf-1\",port=\"Ethernet1\"} 6"), std::string::npos);

  (*exporter)->setExportPolicy(ExportPolicy(ExportDetail::kFull));
  (*exporter)->samples().replaceTarget("leaf-1", published);
  cached = (*exporter)->samples().snapshot();
  EXPECT_EQ(cached[0].samples, published) << "full detail: the published poll, shared";
  EXPECT_NE((*exporter)->render().find("opticsd_port_fec_codewords_total{"), std::string::npos);
}

}  // namespace
}  // namespace opticsd
