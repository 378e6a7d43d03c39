#pragma once
// The text of a Collectable for a whole-instance scrape, family by family.
// A TargetCollectable that names its targets is written target by target
// (collectTarget), so only one target's ClientMetrics exist at a time: the
// rules engine's series of 10,048 modules were about 11 MB of ClientMetrics
// and labels, against about 3 MB of text.

#include <prometheus/collectable.h>

#include <string>
#include <vector>

namespace opticsd {

// prometheus-cpp TextSerializer's text of collectable.Collect(), one string
// per family (HELP/TYPE lines and series). Written target by target when the
// collectable is a TargetCollectable with collectedTargets(): the same bytes
// as long as its targets' families come in one order and Collect() lists each
// family's series target after target in that order (both of opticsd's do).
// Otherwise, and when it has no targets, the text of Collect() itself.
std::vector<std::string> collectableFamilyTexts(const prometheus::Collectable& collectable);

}  // namespace opticsd
