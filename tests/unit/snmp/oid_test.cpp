#include "drivers/snmp/oid.hpp"

#include <gtest/gtest.h>

#include "drivers/snmp/varbind_store.hpp"
#include "tests/support/snmp/snmprec.hpp"

namespace opticsd::snmp {
namespace {

TEST(Oid, ParsesAndPrints) {
  auto oid = Oid::parse(".1.3.6.1.2.1.99.1.1.1.4.100301211");
  ASSERT_TRUE(oid);
  EXPECT_EQ(oid->size(), 12u);
  EXPECT_EQ(oid->toString(), "1.3.6.1.2.1.99.1.1.1.4.100301211");
  EXPECT_TRUE(oid->startsWith(Oid{1, 3, 6, 1, 2, 1, 99}));
  EXPECT_FALSE(oid->startsWith(Oid{1, 3, 6, 1, 2, 1, 9}));
}

TEST(Oid, RejectsMalformed) {
  for (const char* bad : {"", ".", "1..3", "1.3.", "1.x.3", "1.3.99999999999", "-1.3"}) {
    EXPECT_FALSE(Oid::parse(bad)) << bad;
  }
}

TEST(Oid, OrdersLexicographicallyByArc) {
  EXPECT_LT(Oid({1, 3, 6}), Oid({1, 3, 6, 1}));
  EXPECT_LT(Oid({1, 3, 6, 2}), Oid({1, 3, 6, 10}));  // numeric, not textual
}

TEST(VarbindStore, ColumnLookupByIndex) {
  auto rows =
      parseSnmprec("1.3.6.1.2.1.99.1.1.1.4.7|2|-5\n1.3.6.1.2.1.99.1.1.1.4.10|2|3\n1.3.6.1.2.1.99.1.1.1.5.7|2|1\n");
  ASSERT_TRUE(rows);
  VarbindStore store(*rows);
  auto col = store.column(Oid{1, 3, 6, 1, 2, 1, 99, 1, 1, 1}, 4);
  EXPECT_EQ(col.rows().size(), 2u);
  ASSERT_NE(col.find(7), nullptr);
  EXPECT_EQ(col.find(7)->integer, -5);
  EXPECT_EQ(col.find(10)->integer, 3);
  EXPECT_EQ(col.find(8), nullptr);
}

TEST(Snmprec, ReadsTypesAndRejectsGarbage) {
  auto rows = parseSnmprec(
      "1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.30065\n1.3.6.1.2.1.1.5.0|4x|4142\n1.3.6.1.4.1.1.1|70|18446744073709551615\n");
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_EQ((*rows)[0].oid_value.toString(), "1.3.6.1.4.1.30065");
  EXPECT_EQ((*rows)[1].text, "AB");
  EXPECT_EQ((*rows)[2].asCounter(), 18446744073709551615ull);
  EXPECT_FALSE(parseSnmprec("1.3.6|2|twelve\n"));
  EXPECT_FALSE(parseSnmprec("not a record\n"));
}

}  // namespace
}  // namespace opticsd::snmp
