// `opticsd explain` follows a link's far end: into another instance over a
// real HTTP listener on 127.0.0.1 (as the optic's page does), into this
// instance's own history, and past an instance that cannot be reached or
// answers something else (said in one line, the rest still told).
#include <gtest/gtest.h>

#include "daemon/cli/explain_command.hpp"
#include "daemon/web/story_text.hpp"
#include "tests/unit/web/fake_page_data.hpp"
#include "tests/unit/web/other_instance.hpp"

namespace opticsd::cli {
namespace {

using web::test::FakePageData;
using web::test::gpuNodeJson;
using web::test::OtherInstance;

// This instance's history: leaf-1 Ethernet7 with Rx falling to -4.0 dBm and Tx 1.0 dBm.
FakePageData leafHistory() {
  FakePageData data;
  data.histories[{"leaf-1", "Ethernet7"}] = web::test::opticHistory("leaf-1", "Ethernet7", 4, data.now, 10);
  return data;
}

Config configWith(const std::string& instances_yaml) {
  auto config = loadConfigText(
      "listen: {address: \"127.0.0.1:9464\", external_url: \"https://optics-a.example.net\"}\n"
      "targets: [{name: leaf-1, driver: sim}, {name: leaf-2, driver: sim}]\n"
      "topology:\n"
      "  links:\n"
      "    - {switch: leaf-1, port: Ethernet7, host: gpu-node-7, nic: eth0, peer_switch: gpu-node-7, peer_port: eth0}\n"
      "    - {switch: leaf-1, port: Ethernet8, peer_switch: leaf-2, peer_port: Ethernet1}\n" +
          instances_yaml,
      "explain-test.yaml");
  if (!config) throw std::runtime_error(config.error().format());
  return std::move(*config);
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> out;
  std::string::size_type at = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

TEST(Explain, FollowsTheFarEndIntoAnotherInstance) {
  OtherInstance other(gpuNodeJson(-6.0));
  const Config config = configWith("instances: [{url: \"" + other.base + "\", targets: [\"gpu-node-*\"]}]\n");
  const FakePageData history = leafHistory();
  auto story = explainStory(history, &config, {"leaf-1", "Ethernet7", "1h"});
  ASSERT_TRUE(story);
  ASSERT_TRUE(story->far_end);
  EXPECT_TRUE(story->far_end->reachable) << story->far_end->error;
  EXPECT_EQ(other.asked, "target=gpu-node-7&port=eth0&format=json");

  const std::string text = web::storyText(*story);
  // Its page in the other instance, and per lane both directions: its Tx
  // (1.0) against our Rx (-4.0), our Tx (1.0) against its Rx (-6.0).
  EXPECT_NE(text.find("Far end: gpu-node-7 eth0 (instance " + other.base + ") " + other.base +
                      "/optic?target=gpu-node-7&port=eth0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  lane 1: their Tx 1.00 dBm, our Rx -4.00 dBm, loss 5.00 dB; "
                      "our Tx 1.00 dBm, their Rx -6.00 dBm, loss 7.00 dB\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  lane 4: their Tx"), std::string::npos) << text;
}

// Unreachable, or answering something that is not an optic: one line says
// so, and the rest of the story (identity, lanes, history) is still told.
TEST(Explain, SaysInOneLineWhenTheOtherInstanceFails) {
  OtherInstance garbage("<html>not opticsd</html>");
  for (const std::string& base : {std::string("http://127.0.0.1:1"), garbage.base}) {
    const Config config = configWith("instances: [{url: \"" + base + "\", targets: [\"gpu-node-*\"]}]\n");
    const FakePageData history = leafHistory();
    auto story = explainStory(history, &config, {"leaf-1", "Ethernet7", "1h"});
    ASSERT_TRUE(story && story->far_end);
    EXPECT_FALSE(story->far_end->reachable);
    const auto lines = linesOf(web::storyText(*story));
    std::size_t far_at = lines.size();
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].starts_with("Far end: gpu-node-7 eth0")) far_at = i;
    }
    ASSERT_LT(far_at + 1, lines.size()) << base;
    const std::string& why = lines[far_at + 1];
    EXPECT_TRUE(why.find("could not be fetched: " + base) != std::string::npos ||
                why.find("is not an opticsd optic document") != std::string::npos)
        << why;
    EXPECT_EQ(far_at + 2, lines.size()) << "nothing but the one line after the far end";
    const std::string text = web::storyText(*story);
    EXPECT_NE(text.find("Part number: OSFP-2FR4"), std::string::npos) << text;
    EXPECT_NE(text.find("History (last 1h)"), std::string::npos) << text;
  }
}

// A far end this instance polls is read from the same history, linked at
// listen.external_url; with no config the story has no far end at all.
TEST(Explain, AFarEndPolledHereComesFromTheSameHistory) {
  const Config config = configWith("");
  FakePageData history = leafHistory();
  history.histories[{"leaf-2", "Ethernet1"}] = web::test::opticHistory("leaf-2", "Ethernet1", 4, history.now, 20);
  history.histories[{"leaf-1", "Ethernet8"}] = web::test::opticHistory("leaf-1", "Ethernet8", 4, history.now, 10);
  auto story = explainStory(history, &config, {"leaf-1", "Ethernet8", "1h"});
  ASSERT_TRUE(story && story->far_end);
  const auto& far = *story->far_end;
  EXPECT_TRUE(far.reachable) << far.error;
  EXPECT_EQ(far.where, "this instance");
  EXPECT_EQ(far.page_url, "https://optics-a.example.net/optic?target=leaf-2&port=Ethernet1");
  ASSERT_EQ(far.lanes.size(), 4u);
  EXPECT_DOUBLE_EQ(*far.lanes[0].their_rx_dbm, -3.0 - 0.1 * 20);
  EXPECT_DOUBLE_EQ(*far.lanes[0].our_rx_dbm, -3.0 - 0.1 * 10);

  // gpu-node-7 is in no instances: entry (there is none): said, not fetched.
  auto unknown = explainStory(history, &config, {"leaf-1", "Ethernet7", "1h"});
  ASSERT_TRUE(unknown && unknown->far_end);
  EXPECT_NE(unknown->far_end->error.find("no instance is configured"), std::string::npos) << unknown->far_end->error;

  auto bare = explainStory(history, nullptr, {"leaf-1", "Ethernet8", "1h"});
  ASSERT_TRUE(bare);
  EXPECT_FALSE(bare->far_end);
}

}  // namespace
}  // namespace opticsd::cli
