#pragma once
// The fast path for /metrics: writes the Prometheus text exposition (format
// 0.0.4) of a snapshot straight into a string, without building
// prometheus-cpp ClientMetric objects. Its output is that of
// SampleCollector::render() followed by prometheus::TextSerializer, byte for
// byte except that non-integer values have 15 significant digits, not 16 (a
// unit test holds it to that), at a fraction of the cost; see
// tests/bench/exporter for the figures. Pure; thread-safe.

#include <cstdint>
#include <string>
#include <vector>

#include "daemon/exporter/export_detail.hpp"
#include "daemon/exporter/latest_samples.hpp"

namespace opticsd {

void appendSampleExposition(const LatestSamples::Snapshot& snapshot, std::string& out,
                            const SeriesSelection& selection = {});

// The same text as a list of parts to be written back to back (two per
// family: its HELP/TYPE lines, then its series), for serving without a copy.
// [first_family, end_family) renders only those families (numbered in
// exposition order), so a large scrape can be produced a slice at a time:
// the slices, in order, make the same text.
void appendSampleExpositionParts(const LatestSamples::Snapshot& snapshot, std::vector<std::string>& parts,
                                 std::size_t first_family = 0, std::size_t end_family = SIZE_MAX,
                                 const SeriesSelection& selection = {});

// How many Sample families there are (the bound for the slices above).
std::size_t sampleFamilyCount();

// The HELP and TYPE lines of family `family` (< sampleFamilyCount()).
std::string sampleFamilyHeader(std::size_t family);

// The series lines of each family (sampleFamilyCount() strings, in exposition
// order; empty where a family has none), without HELP/TYPE lines. The text of
// a snapshot is, family by family, the header and the bodies of its targets
// rendered one at a time and put back to back (targets in snapshot order):
// that is how a whole-instance scrape is composed of per-target renders.
// Only families first_family..end_family-1 get series (a slice of them).
std::vector<std::string> sampleFamilyBodies(const LatestSamples::Snapshot& snapshot,
                                            const SeriesSelection& selection = {}, std::size_t first_family = 0,
                                            std::size_t end_family = SIZE_MAX);

// How many series each family has (sampleFamilyCount() counts, in exposition
// order): a pass over the Samples that writes no text, so a sliced scrape can
// skip the families without series and size its slices.
std::vector<std::size_t> sampleFamilySeriesCounts(const LatestSamples::Snapshot& snapshot,
                                                  const SeriesSelection& selection = {});

// Appends the parts to `out` in order, with one allocation.
void appendJoined(const std::vector<std::string>& parts, std::string& out);

}  // namespace opticsd
