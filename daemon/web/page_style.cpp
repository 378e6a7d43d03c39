#include "daemon/web/page_layout.hpp"

namespace opticsd::web {

// Readable on a laptop and a phone: one column under 700 px, tables scroll
// sideways instead of squeezing, plots scale to the width. Colours keep the
// usual meaning (red alarm, amber warning) and every state is also written.
std::string_view pageStyle() {
  return R"css(
:root{--fg:#1d2125;--muted:#5b6470;--bg:#fbfbfc;--line:#d5d9de;--ok:#1e7b34;--warn:#a35f00;--crit:#b3261e;--rx:#1f5fbf;--tx:#7a3db8;--bias:#00796b;--ber:#8a4b08;--temp:#b3261e;--tail:#6d4c41;--margin:#1e7b34}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{background:#16324f;color:#fff;padding:.6rem 1rem;display:flex;gap:1rem;align-items:baseline;flex-wrap:wrap}
header a{color:#fff;font-weight:600;text-decoration:none}
header nav a{font-weight:400;margin-right:.8rem}
main{max-width:1100px;margin:0 auto;padding:1rem}
h1{font-size:1.35rem;margin:.2rem 0 .6rem;word-break:break-all}
h2{font-size:1.1rem;margin:1.4rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}
table{border-collapse:collapse;width:100%;font-size:.92rem}
.scroll{overflow-x:auto}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{background:#eef1f4;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.muted{color:var(--muted)}
.note{background:#fff6e0;border:1px solid #e8c87a;padding:.5rem .8rem;border-radius:4px;margin:.6rem 0}
.error{background:#fdecea;border-color:#e6a19b}
.state-ok,.sev-info{color:var(--ok)}
.state-warning,.sev-warning{color:var(--warn);font-weight:600}
.state-alarm,.sev-critical{color:var(--crit);font-weight:700}
.badge{display:inline-block;padding:0 .4rem;border-radius:3px;font-size:.85em;border:1px solid currentColor}
.score{font-variant-numeric:tabular-nums;font-weight:600}
.action{border-left:4px solid var(--warn);padding:.4rem .8rem;background:#fff;margin:.5rem 0}
.action strong{display:block}
dl.identity{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0}
dl.identity dt{color:var(--muted)}
dl.identity dd{margin:0;word-break:break-all}
.ranges a{margin-right:.6rem}
.ranges a.current{font-weight:700;text-decoration:none;color:var(--fg)}
.plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,480px),1fr));gap:1rem}
figure.plot{margin:0;background:#fff;border:1px solid var(--line);border-radius:4px;padding:.3rem}
figure.plot svg{width:100%;height:auto;display:block}
figcaption{font-size:.8rem;color:var(--muted)}
svg .frame{fill:none;stroke:var(--line)}
svg text{font-size:10px;fill:var(--muted)}
svg .panel-title{font-size:11px;fill:var(--fg);font-weight:600}
svg .tick{text-anchor:end}
svg .series path{fill:none;stroke-width:1.6}
svg .rx path{stroke:var(--rx)}
svg .tx path{stroke:var(--tx)}
svg .bias path{stroke:var(--bias)}
svg .ber path{stroke:var(--ber)}
svg .temp path{stroke:var(--temp)}
svg .tail path{stroke:var(--tail)}
svg .margin path{stroke:var(--margin);stroke-dasharray:4 2}
svg line.threshold{stroke-width:1;stroke-dasharray:5 3}
svg line.warning{stroke:var(--warn)}
svg line.alarm{stroke:var(--crit)}
svg line.baseline{stroke:#6b7785;stroke-dasharray:1 3;stroke-width:1.4}
svg rect.finding{fill:rgba(179,38,30,.09);stroke:none}
svg rect.finding.warning{fill:rgba(163,95,0,.10)}
form.triage input{font:inherit;padding:.3rem;min-width:14rem;max-width:100%}
form.triage button{font:inherit;padding:.3rem .8rem}
@media (max-width:700px){main{padding:.6rem}table{font-size:.85rem}th,td{padding:.25rem .3rem}}
)css";
}

}  // namespace opticsd::web
