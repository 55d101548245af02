import { escapeHtml } from "../viz/html/escape.js";
import { REPORT_CSS } from "../viz/html/styles.js";

/** @internal The inspector's stylesheet: the HTML report's, plus the live views. */
export const INSPECTOR_CSS = `${REPORT_CSS}
header { display: flex; align-items: center; gap: 16px; flex-wrap: wrap; padding: 16px 24px 8px; }
main { padding: 8px 24px 24px; }
nav { display: flex; gap: 6px; }
nav button, .chip { font: inherit; padding: 4px 12px; border-radius: 999px; border: 1px solid var(--line); background: var(--card); color: var(--text); cursor: pointer; }
nav button[aria-selected="true"], .chip[aria-pressed="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
#conn { font-size: 12px; padding: 2px 10px; border-radius: 999px; background: var(--line); }
#conn[data-state="connected"] { background: var(--ok-bg); color: var(--ok); }
#conn[data-state="reconnecting"], #conn[data-state="closed"] { background: var(--bad-bg); color: var(--bad); }
.badge.warn { background: var(--warn-bg); }
.picker { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 10px; }
.cols { display: grid; grid-template-columns: minmax(260px, 1fr) minmax(260px, 1fr); gap: 16px; }
h3 { margin: 14px 0 6px; font-size: 14px; }
svg.plan-graph { display: block; max-width: none; }
.plan-wrap { overflow-x: auto; }
svg.plan-graph .edge { fill: none; stroke: var(--muted); stroke-width: 1.5; }
svg.plan-graph .node rect { fill: var(--node); stroke: var(--line); stroke-width: 1.5; }
svg.plan-graph .node.succeeded rect { fill: var(--ok-bg); stroke: var(--ok); }
svg.plan-graph .node.failed rect { fill: var(--bad-bg); stroke: var(--bad); }
svg.plan-graph .node.running rect, svg.plan-graph .node.current rect { fill: var(--warn-bg); stroke: var(--accent); stroke-width: 3; }
svg.plan-graph .pill rect { fill: var(--line); }
svg.plan-graph text { fill: var(--text); font-size: 12px; }
svg.plan-graph .node-detail { fill: var(--muted); font-size: 11px; }
tr.step.current td, tr.step.running td { background: var(--warn-bg); }
tr.step.succeeded td:nth-child(3) { color: var(--ok); } tr.step.failed td:nth-child(3) { color: var(--bad); }
li.holds { color: var(--ok); } li.fails { color: var(--bad); }
tr.changed td { background: var(--ok-bg); }
tr.on-path td { background: var(--ok-bg); font-weight: 600; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 12px; margin-bottom: 12px; }
.chart { min-height: 220px; }
#crowd-table-wrap { height: 520px; overflow-y: auto; contain: strict; }
#crowd-table { table-layout: fixed; }
#crowd-table th:nth-child(1) { width: 13%; } #crowd-table th:nth-child(2) { width: 8%; } #crowd-table th:nth-child(3) { width: 8%; }
#crowd-table th:nth-child(4) { width: 12%; } #crowd-table th:nth-child(5) { width: 33%; } #crowd-table th:nth-child(6), #crowd-table th:nth-child(7) { width: 7%; }
#crowd-table thead th { position: sticky; top: 0; background: var(--card); }
#crowd-rows tr { cursor: pointer; height: 26px; }
#crowd-rows td { padding: 3px 8px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; height: 26px; }
td.pad { padding: 0; border: 0; }
#crowd-rows tr.selected td { background: var(--warn-bg); }
#crowd-rows tr.status-blocked td:nth-child(2) { color: var(--bad); }
#crowd-rows tr.status-achieved td:nth-child(2) { color: var(--ok); }
`;

/**
 * @internal The page: a static shell (its only data is the escaped title);
 * everything live arrives over `./events` and is drawn by `inspector.js`.
 * URLs are relative so the page works wherever it is mounted.
 */
export function inspectorPage(title: string): string {
  const t = escapeHtml(title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title id="page-title">${t}</title>
<link rel="stylesheet" href="./uPlot.min.css">
<link rel="stylesheet" href="./inspector.css">
</head>
<body>
<header>
<h1 id="title">${t}</h1>
<span id="conn" data-state="connecting">connecting</span>
<nav role="tablist">
<button type="button" data-tab="runs" role="tab">Runs</button>
<button type="button" data-tab="crowd" role="tab">Crowd</button>
<button type="button" data-tab="search" role="tab">Search</button>
<button type="button" data-tab="history" role="tab">History</button>
</nav>
</header>
<main>
<section data-panel="runs" id="runs-panel"><h2>Live runs</h2><div class="picker" id="run-picker"></div><div id="run-view"><p class="muted">Waiting for a run.</p></div></section>
<section data-panel="crowd" id="crowd-panel" hidden><h2>Crowd</h2><p id="crowd-summary" class="muted">Waiting for a crowd sample.</p>
<div class="charts"><div class="chart" id="chart-crowd"></div><div class="chart" id="chart-goals"></div><div class="chart" id="chart-considerations"></div></div>
<div id="crowd-table-wrap"><table id="crowd-table"><thead><tr><th>agent</th><th>status</th><th>goal</th><th>action</th><th>plan</th><th>goal switches</th><th>plan failures</th><th>last failure</th></tr></thead><tbody id="crowd-pad-top-body"><tr><td colspan="8" id="crowd-pad-top" class="pad"></td></tr></tbody><tbody id="crowd-rows"></tbody><tbody><tr><td colspan="8" id="crowd-pad-bottom" class="pad"></td></tr></tbody></table></div></section>
<section data-panel="search" id="search-panel" hidden><h2>Search inspection</h2><div class="picker" id="search-picker"></div><div id="search-view"><p class="muted">No search yet.</p></div></section>
<section data-panel="history" id="history-panel" hidden><h2>Finished runs</h2><div id="history-view"><p class="muted">No execution history store attached.</p></div></section>
</main>
<script src="./uPlot.iife.min.js"></script>
<script src="./inspector.js"></script>
</body>
</html>
`;
}
