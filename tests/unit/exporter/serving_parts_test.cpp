// The pieces behind the scrape paths: query parameters, Accept-Encoding,
// streamed gzip, shared buffers and render-once-per-poll.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include "daemon/exporter/accept_encoding.hpp"
#include "daemon/exporter/exposition_text.hpp"
#include "daemon/exporter/gzip_body.hpp"
#include "daemon/exporter/query_parameter.hpp"
#include "daemon/exporter/rendered_targets.hpp"
#include "daemon/exporter/shared_buffer_body.hpp"

namespace opticsd {
namespace {

std::string drain(HttpBodySource& source) {
  std::string out;
  for (bool more = true; more;) {
    HttpBody parts;
    more = source.next(parts);
    for (const auto& p : parts) out += p;
  }
  return out;
}

std::string gunzipOne(const std::string& in) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  std::string out(in.size() * 50 + 1024, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

TEST(QueryParameter, FindsDecodesAndRefusesBrokenEscapes) {
  EXPECT_EQ(*queryParameter("target=leaf-1", "target"), std::optional<std::string>("leaf-1"));
  EXPECT_EQ(*queryParameter("a=1&target=sw%2F1+a&target=x", "target"), std::optional<std::string>("sw/1 a"));
  EXPECT_EQ(*queryParameter("targets=1", "target"), std::nullopt);
  EXPECT_EQ(*queryParameter("", "target"), std::nullopt);
  EXPECT_EQ(*queryParameter("target", "target"), std::optional<std::string>(""));
  EXPECT_FALSE(queryParameter("target=%4", "target"));
  EXPECT_FALSE(queryParameter("target=%zz", "target"));
}

TEST(AcceptEncoding, GzipOnlyWhenListedWithNonZeroQuality) {
  EXPECT_TRUE(acceptsGzip("gzip"));
  EXPECT_TRUE(acceptsGzip("identity, GZip;q=0.5"));
  EXPECT_TRUE(acceptsGzip("*"));
  EXPECT_TRUE(acceptsGzip("x-gzip"));
  EXPECT_FALSE(acceptsGzip(""));
  EXPECT_FALSE(acceptsGzip("identity"));
  EXPECT_FALSE(acceptsGzip("gzip;q=0"));
  EXPECT_FALSE(acceptsGzip("gzip; q=0.000, *"));
  EXPECT_FALSE(acceptsGzip("br, deflate"));
}

TEST(GzipBody, StreamedPartsInflateToTheSameText) {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "opticsd_lane_rx_power_dbm{target=\"leaf-1\",lane=\"" + std::to_string(i) + "\"} -3.5\n";
  HttpBody parts{text.substr(0, 1000), text.substr(1000, 300000), text.substr(301000)};
  auto packed = gzipBody(wholeBody(parts));
  const std::string compressed = drain(*packed);
  EXPECT_EQ(gunzipOne(compressed), text);
  EXPECT_LT(compressed.size() * 8, text.size());  // Prometheus text shrinks well
  EXPECT_EQ(gunzipOne(gzipped(text)), text);
  EXPECT_LT(gzipped(text).capacity() * 8, text.size());  // its memory too, not only its size
  EXPECT_EQ(gunzipOne(gzipped("")), "");
}

TEST(SharedBufferBody, ServesEveryBufferInSlicesWithoutOwningACopy) {
  auto big = std::make_shared<const std::string>(200'000, 'x');
  auto small = std::make_shared<const std::string>("tail\n");
  auto body = sharedBufferBody({big, nullptr, std::make_shared<const std::string>(), small});
  EXPECT_EQ(big.use_count(), 2);  // the body holds a reference, not a copy
  HttpBody first;
  EXPECT_TRUE(body->next(first));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_LT(first[0].size(), big->size());  // one slice at a time
  EXPECT_EQ(std::string(first[0]) + drain(*body), *big + *small);
  EXPECT_EQ(big.use_count(), 1);  // let go once sent
}

// The whole text of one target's rendered families.
std::string joined(const FamilyTexts& families) {
  std::string out;
  for (const SharedText& part : targetText(families)) out += *part;
  return out;
}

TEST(RenderedTargets, OnePollIsRenderedOnceAndServedFromTheSameBuffer) {
  RenderedTargets rendered;
  auto policy = std::make_shared<const ExportPolicy>();
  Sample s;
  s.target = "leaf-1";
  s.port = "Ethernet1";
  s.module.set(ModuleMetric::kTemperatureCelsius, 41);
  LatestSamples::TargetSamples poll{"leaf-1", std::make_shared<const std::vector<Sample>>(std::vector<Sample>{s})};

  const auto first = rendered.families(poll, policy);
  const std::string first_text = joined(*first);
  EXPECT_THAT(first_text,
              ::testing::HasSubstr("opticsd_module_temperature_celsius{target=\"leaf-1\",port=\"Ethernet1\"} 41"));
  std::string whole;
  appendSampleExposition({poll}, whole, SeriesSelection{policy.get(), true, false});
  EXPECT_EQ(first_text, whole);                       // the same bytes as rendering the target whole
  EXPECT_EQ(rendered.families(poll, policy), first);  // same buffers, not re-rendered
  const SharedText packed = rendered.gzip(poll, policy);
  EXPECT_EQ(rendered.gzip(poll, policy), packed);
  EXPECT_EQ(gunzipOne(*packed), first_text);
  // What is kept until the next poll holds no slack: a gzip buffer sized for
  // the worst case held about the plain text's memory.
  EXPECT_LE(packed->capacity(), packed->size() + 16);
  for (const SharedText& family : *first) {
    if (family) {
      EXPECT_LE(family->capacity(), family->size() + 16);
    }
  }

  s.module.set(ModuleMetric::kTemperatureCelsius, 42);
  LatestSamples::TargetSamples next{"leaf-1", std::make_shared<const std::vector<Sample>>(std::vector<Sample>{s})};
  const auto second = rendered.families(next, policy);
  EXPECT_NE(second, first);
  EXPECT_THAT(joined(*second), ::testing::HasSubstr("} 42"));
  EXPECT_THAT(joined(*first), ::testing::HasSubstr("} 41"));  // a reader of the old poll still has it whole
  EXPECT_NE(rendered.families(next, std::make_shared<const ExportPolicy>(ExportDetail::kFull)), second);

  rendered.dropStale();
  EXPECT_EQ(rendered.size(), 1u);  // `next` is still the latest poll
  next.samples.reset();            // ... until a newer poll replaces it
  rendered.dropStale();
  EXPECT_EQ(rendered.size(), 0u);

  rendered.families(poll, policy);
  rendered.retain({"leaf-2"});
  EXPECT_EQ(rendered.size(), 0u);
}

TEST(RenderedTargets, WholeInstanceSlicesAreSharedWhileHeldAndKeptByNone) {
  RenderedTargets rendered;
  auto policy = std::make_shared<const ExportPolicy>(ExportDetail::kFull);
  Sample s;
  s.target = "leaf-1";
  s.port = "Ethernet1";
  s.module.set(ModuleMetric::kTemperatureCelsius, 41);
  Lane lane;
  lane.values.set(LaneMetric::kRxPowerDbm, -2.5);
  lane.flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)] = AlarmFlags{};
  lane.status.rx_los = false;
  s.lanes.push_back(lane);
  LatestSamples::TargetSamples poll{"leaf-1", std::make_shared<const std::vector<Sample>>(std::vector<Sample>{s})};

  // The slices, put together family by family, are the target's whole render.
  constexpr std::size_t kStep = 8;
  FamilyTexts together(sampleFamilyCount());
  std::size_t non_empty_slices = 0;
  for (std::size_t first = 0; first < sampleFamilyCount(); first += kStep) {
    const FamilyRange range{first, first + kStep};
    const auto slice = rendered.slice(poll, policy, range);
    ASSERT_EQ(slice->size(), sampleFamilyCount());
    bool any = false;
    for (std::size_t f = 0; f < slice->size(); ++f) {
      const bool inside = f >= range.first && f < range.end;
      if (!inside) {
        EXPECT_EQ((*slice)[f], nullptr) << "family " << f << " of slice " << first;
      } else if ((*slice)[f]) {
        together[f] = (*slice)[f];
        any = true;
      }
    }
    non_empty_slices += any ? 1 : 0;
  }
  EXPECT_GT(non_empty_slices, 1u);  // the series really are spread over slices
  std::string whole;
  appendSampleExposition({poll}, whole, SeriesSelection{policy.get(), true, false});
  EXPECT_EQ(joined(together), whole);

  // Shared while a scrape holds it; gone once none does (not kept until the next poll).
  auto held = rendered.slice(poll, policy, {0, kStep});
  EXPECT_EQ(rendered.slice(poll, policy, {0, kStep}), held);
  EXPECT_NE(rendered.slice(poll, policy, {0, kStep + 1}), held);  // another range is another slice
  const std::weak_ptr<const FamilyTexts> watch = held;
  together.clear();
  held.reset();
  EXPECT_TRUE(watch.expired());

  // A plain per-target scrape keeps the whole render: slices come from it.
  const auto families = rendered.families(poll, policy);
  EXPECT_EQ(rendered.slice(poll, policy, {kStep, 2 * kStep}), families);
}

}  // namespace
}  // namespace opticsd
