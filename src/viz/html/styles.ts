/** @internal The report's stylesheet: system fonts only, light and dark schemes. */
export const REPORT_CSS = `
:root { color-scheme: light dark; --bg: #f6f7f9; --card: #ffffff; --text: #1a1a2e; --muted: #5d6b7a; --line: #d9dee4;
  --accent: #4a90d9; --ok: #2d8a4e; --ok-bg: #d4edda; --bad: #c0392b; --bad-bg: #fdecea; --warn-bg: #fff8dc; --node: #f8f9fa; }
@media (prefers-color-scheme: dark) { :root { --bg: #16181d; --card: #1f232a; --text: #e6e9ee; --muted: #9aa5b1; --line: #343a44;
  --accent: #6aa9ef; --ok: #5cc586; --ok-bg: #1f3a2a; --bad: #ef6f61; --bad-bg: #40221f; --warn-bg: #3a3420; --node: #262b33; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header { padding: 24px 32px 8px; }
h1 { margin: 0 0 8px; font-size: 22px; }
h2 { margin: 0 0 12px; font-size: 16px; }
main { padding: 8px 32px 32px; display: grid; gap: 16px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 16px 20px; overflow-x: auto; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 999px; font-weight: 600; font-size: 13px; background: var(--line); }
.badge.ok { background: var(--ok-bg); color: var(--ok); } .badge.bad { background: var(--bad-bg); color: var(--bad); }
.summary { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 12px; }
.stat { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; min-width: 110px; }
.stat b { display: block; font-size: 18px; } .stat span { color: var(--muted); font-size: 12px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.muted { color: var(--muted); }
.elided, tr.elided td { color: var(--muted); font-style: italic; text-align: center; }
.note { background: var(--warn-bg); border-radius: 8px; padding: 10px 14px; }
.note.bad { background: var(--bad-bg); }
ul.plain { margin: 0; padding-left: 18px; }
tr.highlight td { background: var(--ok-bg); }
.outcome-succeeded { color: var(--ok); font-weight: 600; } .outcome-failed { color: var(--bad); font-weight: 600; } .outcome-planned { color: var(--muted); }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 10px; }
.chips button { border: 1px solid var(--line); background: var(--card); color: var(--text); border-radius: 999px; padding: 2px 10px; cursor: pointer; font: inherit; font-size: 12px; }
.chips button[aria-pressed="false"] { opacity: .45; text-decoration: line-through; }
svg text { fill: var(--text); font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.plan-graph .node rect { fill: var(--node); stroke: var(--accent); stroke-width: 2; }
.plan-graph .node.succeeded rect { fill: var(--ok-bg); stroke: var(--ok); }
.plan-graph .node.failed rect { fill: var(--bad-bg); stroke: var(--bad); }
.plan-graph .node.active rect { stroke-width: 4; }
.plan-graph .node-name { font-size: 13px; font-weight: 600; } .plan-graph .node-detail { font-size: 11px; fill: var(--muted); }
.plan-graph .pill { fill: var(--line); } .plan-graph .pill-text { font-size: 12px; font-weight: 600; }
.plan-graph .edge { fill: none; stroke: var(--muted); stroke-width: 1.6; }
.plan-graph .edge.terminal { stroke-dasharray: 3 4; opacity: .7; } .plan-graph .edge.order { stroke-dasharray: 6 4; }
.plan-graph .arrow-head { fill: var(--muted); }
.gantt .tick { stroke: var(--line); } .gantt .tick-label { font-size: 11px; fill: var(--muted); }
.gantt .bar-label { font-size: 12px; }
.gantt .bar rect, .gantt .bar path { fill: var(--accent); } .gantt .bar.succeeded rect, .gantt .bar.succeeded path { fill: var(--ok); }
.gantt .bar.failed rect, .gantt .bar.failed path { fill: var(--bad); }
.gantt .bar.active rect, .gantt .bar.active path { stroke: var(--text); stroke-width: 2; }
footer { padding: 0 32px 24px; color: var(--muted); font-size: 12px; }
`;
