/**
 * @internal The inspector page's script, served as \`inspector.js\` (the page
 * allows scripts from its own origin only, never inline). It draws with
 * DOM calls and \`textContent\`: no data ever passes through \`innerHTML\`.
 * Strings arrive in display form from the server (see \`display.ts\`).
 */
export const INSPECTOR_SCRIPT = String.raw`(function () {
  "use strict";
  // Every string from the server is already in display form (bounded, control and bidi characters
  // visible); it only ever reaches the page through textContent and attribute setters.
  var SVG = "http://www.w3.org/2000/svg";
  var MAX_POINTS = 600;
  var state = { runs: {}, searches: {}, crowd: null, history: null, meta: null };
  var selected = { run: null, search: null, agent: null };
  var dirty = {};
  var want = {};
  var scheduled = false;
  var probe = { received: 0, rendered: 0, superseded: 0, renderMs: [], lagMs: [], renders: {} };
  window.__inspector = probe;
  probe.points = function () { return series.time.length; };

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    for (var k in attrs) node.setAttribute(k, String(attrs[k]));
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function show(value) {
    if (value === null || value === undefined) return "(unset)";
    // Strings are in display form already: quoted, not JSON-escaped a second time.
    if (typeof value === "string") return "\"" + value + "\"";
    return JSON.stringify(value);
  }
  function fmt(n) {
    if (typeof n !== "number") return n === null || n === undefined ? "–" : String(n);
    return Math.abs(n) >= 1000 || Number.isInteger(n) ? n.toLocaleString("en-US") : String(Math.round(n * 1000) / 1000);
  }
  function row(cells, cls) {
    var tr = el("tr", cls);
    cells.forEach(function (c) {
      var td = el("td");
      if (c instanceof Node) td.appendChild(c); else td.textContent = c === null || c === undefined ? "" : String(c);
      tr.appendChild(td);
    });
    return tr;
  }
  function table(head, rows) {
    var t = el("table");
    var thead = el("thead");
    thead.appendChild(row(head));
    thead.querySelectorAll("td").forEach(function (td) { var th = el("th", null, td.textContent); td.replaceWith(th); });
    t.appendChild(thead);
    var body = el("tbody");
    rows.forEach(function (r) { body.appendChild(r); });
    t.appendChild(body);
    return t;
  }
  function list(items, dropped, render) {
    var ul = el("ul", "plain");
    if (dropped) ul.appendChild(el("li", "muted", dropped + " older entries not kept"));
    items.forEach(function (item) { ul.appendChild(render(item)); });
    if (!items.length) ul.appendChild(el("li", "muted", "none"));
    return ul;
  }
  function badgeClass(status) {
    if (status === "goal_achieved" || status === "found" || status === "success") return "badge ok";
    if (/fail|error|no_plan|terminated|exhausted|aborted/.test(String(status))) return "badge bad";
    if (status === "awaiting_human") return "badge warn";
    return "badge";
  }

  // ---- tabs
  document.querySelectorAll("[data-tab]").forEach(function (button) {
    button.addEventListener("click", function () { openTab(button.getAttribute("data-tab")); });
  });
  function openTab(name) {
    document.querySelectorAll("[data-tab]").forEach(function (b) { b.setAttribute("aria-selected", b.getAttribute("data-tab") === name ? "true" : "false"); });
    document.querySelectorAll("[data-panel]").forEach(function (p) { p.hidden = p.getAttribute("data-panel") !== name; });
    if (name === "crowd") { resizeCharts(); want.crowd = true; schedule(); }
  }

  // ---- stream
  var source = null;
  function connect() {
    source = new EventSource("./events");
    source.onopen = function () { setConn("connected"); if (state.crowd) loadHistory(); };
    source.onerror = function () { setConn(source.readyState === 2 ? "closed" : "reconnecting"); if (source.readyState === 2) setTimeout(connect, 1000); };
    source.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      probe.received++;
      receive(message);
    };
  }
  function setConn(s) {
    var c = $("conn");
    c.setAttribute("data-state", s);
    c.textContent = s;
    if (s === "connected") probe.connects = (probe.connects || 0) + 1;
  }
  function receive(message) {
    var key = String(message.key);
    var data = message.data;
    if (dirty[key]) probe.superseded++;
    if (key.indexOf("run:") === 0) { state.runs[key.slice(4)] = data; if (selected.run === null) selected.run = key.slice(4); want.runs = true; }
    else if (key.indexOf("search:") === 0) { state.searches[key.slice(7)] = data; if (selected.search === null) selected.search = key.slice(7); want.searches = true; }
    else if (key === "crowd") {
      // A gap in the samples means the server coalesced frames for this page while its socket was full: the charts refill from its kept series.
      if (!state.crowd || data.sample > state.crowd.sample + 1) loadHistory();
      state.crowd = data; appendCrowd(data); want.crowd = true;
    }
    else if (key === "history") { state.history = data; want.history = true; }
    else if (key === "meta") { state.meta = data; $("title").textContent = data.title; document.title = data.title; }
    dirty[key] = { seq: message.seq, at: Date.now(), sentAt: data && data.sentAt };
    schedule();
  }
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(render);
  }
  function render() {
    scheduled = false;
    var t0 = performance.now();
    if (want.runs) renderRuns();
    if (want.searches) renderSearches();
    if (want.crowd && !$("crowd-panel").hidden) renderCrowd();
    if (want.history) renderHistory();
    var now = Date.now();
    var crowdHidden = $("crowd-panel").hidden;
    for (var key in dirty) {
      if (key === "crowd" && crowdHidden) continue;
      var d = dirty[key];
      probe.renders[key] = { seq: d.seq, at: now };
      if (d.sentAt) { probe.lagMs.push(now - d.sentAt); if (probe.lagMs.length > 2000) probe.lagMs.shift(); }
      probe.rendered++;
      delete dirty[key];
    }
    want.runs = want.searches = want.history = false;
    if (!crowdHidden) want.crowd = false;
    probe.renderMs.push(performance.now() - t0);
    if (probe.renderMs.length > 2000) probe.renderMs.shift();
  }

  // ---- runs
  function renderRuns() {
    var picker = $("run-picker");
    clear(picker);
    Object.keys(state.runs).forEach(function (id) {
      var run = state.runs[id];
      var b = el("button", "chip", run.title + " · " + run.status);
      b.setAttribute("aria-pressed", id === selected.run ? "true" : "false");
      b.addEventListener("click", function () { selected.run = id; want.runs = true; schedule(); });
      picker.appendChild(b);
    });
    var run = selected.run !== null ? state.runs[selected.run] : null;
    var view = $("run-view");
    clear(view);
    if (!run) { view.appendChild(el("p", "muted", "No live run yet: pass inspector.run(id) as a graph's tracer.")); return; }
    var head = el("div", "summary");
    var status = el("span", badgeClass(run.status), run.status);
    status.id = "run-status";
    head.appendChild(status);
    head.appendChild(el("span", "goal", "goal: " + (run.goal.length ? run.goal.join(" and ") : "–")));
    if (run.reason) head.appendChild(el("span", "muted", "reason: " + run.reason));
    view.appendChild(head);
    var figures = el("div", "summary figures");
    Object.keys(run.figures || {}).forEach(function (k) {
      var s = el("div", "stat");
      s.appendChild(el("b", null, fmt(run.figures[k])));
      s.appendChild(el("span", null, k));
      s.setAttribute("data-figure", k);
      figures.appendChild(s);
    });
    view.appendChild(figures);
    view.appendChild(el("h3", null, "Plan"));
    var planWrap = el("div", "plan-wrap");
    planWrap.appendChild(planGraph(run));
    view.appendChild(planWrap);
    if (run.plan) {
      view.appendChild(table(["#", "step", "status", "preconditions (value now)", "effects (value now)"], run.plan.steps.map(function (s) {
        var pre = el("ul", "plain");
        s.pre.forEach(function (p) { pre.appendChild(el("li", p.holds ? "holds" : "fails", p.text + "   now " + (p.set ? show(p.now) : "(unset)") + (p.holds ? " ✓" : " ✗"))); });
        if (!s.pre.length) pre.appendChild(el("li", "muted", "none"));
        var eff = el("ul", "plain");
        s.eff.forEach(function (e) { eff.appendChild(el("li", null, e.text + "   now " + (e.set ? show(e.now) : "(unset)"))); });
        var tr = row([String(s.index), s.name, s.status, pre, eff], "step " + s.status + (run.currentStep === s.index ? " current" : ""));
        tr.setAttribute("data-step", String(s.index));
        return tr;
      })));
    }
    var cols = el("div", "cols");
    var left = el("div");
    left.appendChild(el("h3", null, "World state"));
    var last = run.diffs.items.length ? run.diffs.items[run.diffs.items.length - 1] : null;
    var changed = {};
    if (last) last.changes.forEach(function (c) { changed[c.key] = true; });
    var stateRows = Object.keys(run.state).map(function (k) { var tr = row([k, show(run.state[k])], changed[k] ? "changed" : ""); tr.setAttribute("data-key", k); return tr; });
    var st = table(["fact", "value"], stateRows);
    st.id = "run-state";
    left.appendChild(st);
    cols.appendChild(left);
    var right = el("div");
    right.appendChild(el("h3", null, "Per-step changes"));
    var diffs = list(run.diffs.items, run.diffs.dropped, function (d) {
      var li = el("li", d.success ? "" : "failed");
      li.appendChild(el("b", null, (d.step >= 0 ? "[" + d.step + "] " : "") + d.action + (d.success ? "" : " failed: " + (d.error || ""))));
      li.appendChild(el("span", "mono", " " + (d.changes.length ? d.changes.map(function (c) { return c.key + ": " + show(c.before) + " → " + show(c.after); }).join(", ") : "no change")));
      return li;
    });
    diffs.id = "run-diffs";
    right.appendChild(diffs);
    right.appendChild(el("h3", null, "Replans"));
    var replans = list(run.replans.items, run.replans.dropped, function (r) { return el("li", null, "round " + r.round + ": " + r.reason + (r.actions.length ? " → [" + r.actions.join(", ") + "]" : "")); });
    replans.id = "run-replans";
    right.appendChild(replans);
    right.appendChild(el("h3", null, "Approvals"));
    var approvals = list(run.approvals.items, run.approvals.dropped, function (a) {
      return el("li", a.status, a.action + ": " + (a.status === "waiting" ? "waiting for a human" : "answered " + show(a.answer) + (a.by ? " by " + a.by : "")));
    });
    approvals.id = "run-approvals";
    right.appendChild(approvals);
    if (run.explanation) { right.appendChild(el("h3", null, "Why no plan")); right.appendChild(explanation(run.explanation)); }
    cols.appendChild(right);
    view.appendChild(cols);
  }
  function explanation(e) {
    var box = el("div", "note bad explanation");
    [["unreachable goal conditions", e.unreachableConditions], ["preconditions nothing establishes", e.missingPreconditions], ["actions that can never run", e.unusableActions]].forEach(function (pair) {
      if (pair[1] && pair[1].length) box.appendChild(el("div", null, pair[0] + ": " + pair[1].join(", ")));
    });
    if (e.suggestion) box.appendChild(el("div", null, e.suggestion));
    return box;
  }
  function clip(text, n) { text = String(text); return text.length <= n ? text : text.slice(0, n - 1) + "…"; }
  // Steps in columns by causal depth (a step sits right of the steps whose effects it needs), as in the
  // HTML report; a plan without links is drawn as a chain. Long plans scroll sideways.
  function planGraph(run) {
    var steps = run.plan ? run.plan.steps : [];
    var w = 170, h = 46, gx = 40, gy = 16, m = 12, pill = 60;
    var linked = steps.some(function (s) { return s.after && s.after.length > 0; });
    var col = [];
    steps.forEach(function (s, i) {
      col[i] = linked ? 1 + Math.max.apply(null, [0].concat(s.after.map(function (j) { return col[j] || 0; }))) : i + 1;
    });
    var members = {};
    steps.forEach(function (_, i) { (members[col[i]] = members[col[i]] || []).push(i); });
    var last = steps.length ? Math.max.apply(null, col) : 0;
    var tallest = 1;
    for (var c in members) tallest = Math.max(tallest, members[c].length);
    var height = m * 2 + tallest * h + (tallest - 1) * gy;
    var xOf = function (c) { return m + pill + gx + (c - 1) * (w + gx); };
    var pos = [];
    Object.keys(members).forEach(function (c) {
      var list = members[c];
      var top = (height - (list.length * h + (list.length - 1) * gy)) / 2;
      list.forEach(function (i, row) { pos[i] = { x: xOf(Number(c)), y: top + row * (h + gy) }; });
    });
    var goalX = xOf(last + 1);
    var width = goalX + pill + m;
    var mid = height / 2;
    var root = svg("svg", { class: "plan-graph", width: width, height: height, viewBox: "0 0 " + width + " " + height, role: "img" });
    root.setAttribute("aria-label", "plan graph with " + steps.length + " steps");
    function edge(x1, y1, x2, y2) {
      var dx = Math.max(16, (x2 - x1) / 2);
      root.appendChild(svg("path", { class: "edge", d: "M" + x1 + " " + y1 + " C" + (x1 + dx) + " " + y1 + ", " + (x2 - dx) + " " + y2 + ", " + (x2 - 3) + " " + y2 }));
    }
    function pillAt(x, label) {
      var g = svg("g", { class: "pill" });
      g.appendChild(svg("rect", { x: x, y: mid - 16, width: pill, height: 32, rx: 16 }));
      var t = svg("text", { x: x + pill / 2, y: mid + 5, "text-anchor": "middle" });
      t.textContent = label;
      g.appendChild(t);
      root.appendChild(g);
    }
    var hasSuccessor = {};
    steps.forEach(function (s, i) {
      var into = linked ? s.after : i > 0 ? [i - 1] : [];
      into.forEach(function (j) { hasSuccessor[j] = true; edge(pos[j].x + w, pos[j].y + h / 2, pos[i].x, pos[i].y + h / 2); });
      if (!into.length) edge(m + pill, mid, pos[i].x, pos[i].y + h / 2);
    });
    steps.forEach(function (_, i) { if (!hasSuccessor[i]) edge(pos[i].x + w, pos[i].y + h / 2, goalX, mid); });
    if (!steps.length) edge(m + pill, mid, goalX, mid);
    pillAt(m, "start");
    pillAt(goalX, "goal");
    steps.forEach(function (s, i) {
      var p = pos[i];
      var g = svg("g", { class: "node " + s.status + (run.currentStep === i ? " current" : "") });
      g.setAttribute("data-step", String(i));
      var title = svg("title", {});
      title.textContent = "[" + i + "] " + s.name + "\npreconditions: " + (s.pre.map(function (x) { return x.text; }).join(", ") || "none") + "\neffects: " + (s.eff.map(function (x) { return x.text; }).join(", ") || "none");
      g.appendChild(title);
      g.appendChild(svg("rect", { x: p.x, y: p.y, width: w, height: h, rx: 8 }));
      var t = svg("text", { x: p.x + 10, y: p.y + 19, class: "node-name" });
      t.textContent = clip("[" + i + "] " + s.name, 24);
      g.appendChild(t);
      var d = svg("text", { x: p.x + 10, y: p.y + 36, class: "node-detail" });
      d.textContent = s.status + (run.currentStep === i ? " (in progress)" : "");
      g.appendChild(d);
      root.appendChild(g);
    });
    return root;
  }

  // ---- search
  function renderSearches() {
    var picker = $("search-picker");
    clear(picker);
    Object.keys(state.searches).forEach(function (id) {
      var s = state.searches[id];
      var b = el("button", "chip", s.title + " · " + s.status);
      b.setAttribute("aria-pressed", id === selected.search ? "true" : "false");
      b.addEventListener("click", function () { selected.search = id; want.searches = true; schedule(); });
      picker.appendChild(b);
    });
    var view = $("search-view");
    clear(view);
    var s = selected.search !== null ? state.searches[selected.search] : null;
    if (!s) { view.appendChild(el("p", "muted", "No search yet: call inspector.search(id, start, goal, actions).")); return; }
    var head = el("div", "summary");
    var badge = el("span", badgeClass(s.status), s.status);
    badge.id = "search-status";
    head.appendChild(badge);
    head.appendChild(el("span", null, "expanded " + fmt(s.stats.nodesExpanded) + " · generated " + fmt(s.stats.nodesGenerated) + " · " + fmt(s.stats.planningTimeMs) + " ms · heuristic " + (s.heuristic || "default")));
    if (s.plan) head.appendChild(el("span", "mono", "plan: [" + s.plan.actions.join(", ") + "] cost " + fmt(s.plan.cost)));
    view.appendChild(head);
    if (s.explanation) view.appendChild(explanation(s.explanation));
    var depth = {};
    var rows = s.nodes.map(function (n) {
      depth[n.id] = n.parent === null || depth[n.parent] === undefined ? 0 : depth[n.parent] + 1;
      var name = el("span", null, n.action === null ? "start" : n.action);
      name.style.paddingLeft = Math.min(depth[n.id], 40) * 14 + "px";
      var tr = row([String(n.id), name, fmt(n.g), fmt(n.h), fmt(n.f), Object.keys(n.state).map(function (k) { return k + "=" + show(n.state[k]); }).join(", ")], n.path ? "on-path" : "");
      tr.setAttribute("data-node", String(n.id));
      return tr;
    });
    var t = table(["#", "action (tree depth)", "g", "h", "f", "state"], rows);
    t.id = "search-tree";
    view.appendChild(t);
    if (s.omitted) view.appendChild(el("p", "muted", s.omitted + " later expansions not drawn"));
  }

  // ---- history
  function renderHistory() {
    var view = $("history-view");
    clear(view);
    var h = state.history;
    if (!h) { view.appendChild(el("p", "muted", "No execution history store attached.")); return; }
    if (h.error) view.appendChild(el("p", "note bad", h.error));
    var t = table(["time", "status", "goal", "plan", "cost (expected → actual)", "replans", "failed actions", "thread"], (h.records || []).map(function (r) {
      return row([r.timestamp, r.status, JSON.stringify(r.goalConditions), (r.planActions || []).join(" → "), fmt(r.expectedCost) + " → " + fmt(r.actualCost), fmt(r.replanCount), (r.failedActions || []).join(", "), r.threadId || ""], "outcome-" + r.outcome);
    }));
    t.id = "history-table";
    view.appendChild(t);
  }

  // ---- crowd
  var series = { time: [], switches: [], failures: [], agent: [], sample: [] };
  var charts = {};
  function push(arr, v) { arr.push(v); if (arr.length > MAX_POINTS) arr.shift(); }
  function appendCrowd(frame) {
    push(series.time, frame.time);
    push(series.switches, frame.switches);
    push(series.failures, frame.failures);
    push(series.sample, frame.sample);
    var i = agentIndex(frame);
    push(series.agent, i >= 0 ? frame.scores[i] : []);
  }
  function agentIndex(frame) {
    if (selected.agent === null) return -1;
    for (var i = 0; i < frame.rows.length; i++) if (frame.rows[i][0] === selected.agent) return i;
    return -1;
  }
  // The charts start from the server's kept series (the page may open, or reconnect, long after the crowd started).
  var historyLoading = false, historyAgain = false;
  function loadHistory() {
    if (historyLoading) { historyAgain = true; return; }
    historyLoading = true;
    var agent = selected.agent;
    var done = function () { historyLoading = false; if (historyAgain) { historyAgain = false; loadHistory(); } };
    fetch("./api/crowd" + (agent === null ? "" : "?agent=" + encodeURIComponent(agent))).then(function (r) { return r.json(); }).then(function (h) {
      done();
      if (selected.agent !== agent) { loadHistory(); return; }
      // Frames that reached the page after the server answered are kept after the history.
      var later = [];
      for (var i = 0; i < series.sample.length; i++) if (series.sample[i] > h.sample) later.push(i);
      var pick = function (arr) { return later.map(function (j) { return arr[j]; }); };
      var scores = h.agent ? h.agent.scores.slice(-h.time.length) : [];
      var agentHistory = new Array(Math.max(0, h.time.length - scores.length)).fill([]).concat(scores);
      var first = h.sample - h.time.length + 1;
      series = {
        time: h.time.concat(pick(series.time)),
        switches: h.switches.concat(pick(series.switches)),
        failures: h.failures.concat(pick(series.failures)),
        agent: agentHistory.concat(pick(series.agent)),
        sample: h.time.map(function (_, k) { return first + k; }).concat(pick(series.sample)),
      };
      want.crowd = true;
      schedule();
    }, done);
  }
  function selectAgent(name) {
    selected.agent = name;
    series.agent = series.time.map(function () { return []; });
    loadHistory();
    rebuildAgentCharts();
    want.crowd = true;
    schedule();
  }
  function chartSize(node) { return { width: Math.max(320, node.clientWidth || 600), height: 200 }; }
  var PALETTE = ["#4a90d9", "#e67e22", "#2d8a4e", "#c0392b", "#8e44ad", "#16a085", "#d35400", "#7f8c8d"];
  function lineSeries(labels) {
    return [{ label: "time (s)" }].concat(labels.map(function (l, i) { return { label: l, stroke: PALETTE[i % PALETTE.length], width: 1.5, spanGaps: true }; }));
  }
  function makeChart(id, title, labels) {
    var node = $(id);
    if (charts[id]) { charts[id].destroy(); delete charts[id]; }
    clear(node);
    if (typeof uPlot !== "function") { node.appendChild(el("p", "muted", "charts unavailable: uPlot did not load")); return; }
    var size = chartSize(node);
    charts[id] = new uPlot({ title: title, width: size.width, height: size.height, scales: { x: { time: false } }, series: lineSeries(labels) }, [[]].concat(labels.map(function () { return []; })), node);
  }
  function columnsOf(frame, kind) {
    var out = [];
    (frame ? frame.columns : []).forEach(function (c, i) { if ((c.indexOf(" / ") >= 0) === (kind === "consideration")) out.push(i); });
    return out;
  }
  var builtColumns = "";
  function rebuildAgentCharts() {
    var frame = state.crowd;
    var goals = columnsOf(frame, "goal"), cons = columnsOf(frame, "consideration");
    var who = selected.agent === null ? "(click an agent)" : selected.agent;
    makeChart("chart-goals", "utility per goal: " + who, goals.map(function (i) { return frame.columns[i]; }));
    makeChart("chart-considerations", "considerations (curve values): " + who, cons.map(function (i) { return frame.columns[i]; }));
    builtColumns = frame ? frame.columns.join("\u0000") + "|" + who : "";
  }
  function resizeCharts() {
    for (var id in charts) { var node = $(id); charts[id].setSize(chartSize(node)); }
  }
  function renderCrowd() {
    var frame = state.crowd;
    if (!frame) return;
    if (!charts["chart-crowd"]) makeChart("chart-crowd", "crowd: goal switches and plan failures per sample", ["goal switches", "plan failures"]);
    var key = frame.columns.join("\u0000") + "|" + (selected.agent === null ? "(click an agent)" : selected.agent);
    if (key !== builtColumns) rebuildAgentCharts();
    if (charts["chart-crowd"]) charts["chart-crowd"].setData([series.time, series.switches, series.failures]);
    var goals = columnsOf(frame, "goal"), cons = columnsOf(frame, "consideration");
    var pick = function (cols) { return [series.time].concat(cols.map(function (c) { return series.agent.map(function (v) { return v && v[c] !== undefined ? v[c] : null; }); })); };
    if (charts["chart-goals"]) charts["chart-goals"].setData(pick(goals));
    if (charts["chart-considerations"]) charts["chart-considerations"].setData(pick(cons));
    $("crowd-summary").textContent = frame.rows.length + " agents · sample " + frame.sample + " · t=" + fmt(frame.time) + " s · goal switches " + fmt(frame.totalSwitches) + " · plan failures " + fmt(frame.totalFailures) + " · " + Object.keys(frame.byGoal).map(function (g) { return g + ": " + frame.byGoal[g]; }).join(", ");
    renderCrowdRows();
  }
  // The table draws only the rows in view (plus a margin): a frame of 1,000 or 10,000 agents costs
  // the same few dozen rows, and rows are reused, their cells written only when their text changed.
  var ROW_H = 26, OVERSCAN = 8, pool = [];
  function renderCrowdRows() {
    var frame = state.crowd;
    var wrap = $("crowd-table-wrap");
    var body = $("crowd-rows");
    var total = frame.rows.length;
    var first = Math.max(0, Math.floor(wrap.scrollTop / ROW_H) - OVERSCAN);
    var count = Math.min(total - first, Math.ceil((wrap.clientHeight || 520) / ROW_H) + 2 * OVERSCAN);
    $("crowd-pad-top").style.height = first * ROW_H + "px";
    $("crowd-pad-bottom").style.height = Math.max(0, total - first - count) * ROW_H + "px";
    while (pool.length < count) {
      var tr = el("tr");
      for (var c = 0; c < 8; c++) tr.appendChild(el("td"));
      tr.addEventListener("click", function (event) { selectAgent(event.currentTarget.getAttribute("data-agent")); });
      body.appendChild(tr);
      pool.push(tr);
    }
    for (var k = 0; k < pool.length; k++) {
      var row = pool[k];
      if (k >= count) { row.hidden = true; continue; }
      row.hidden = false;
      var r = frame.rows[first + k];
      var name = r[0];
      if (row.getAttribute("data-agent") !== name) row.setAttribute("data-agent", name);
      var cells = [name, r[1], r[2] === null ? "–" : r[2], r[3] === null ? "–" : r[3], r[4] === null ? "–" : (r[5] !== null ? "step " + r[5] + ": " : "") + r[4], String(r[6]), String(r[7]), r[8] === null ? "" : r[8]];
      for (var i = 0; i < 8; i++) { var td = row.children[i]; if (td.textContent !== cells[i]) td.textContent = cells[i]; }
      var cls = (name === selected.agent ? "selected " : "") + "status-" + r[1];
      if (row.className !== cls) row.className = cls;
    }
  }
  $("crowd-table-wrap").addEventListener("scroll", function () { if (state.crowd) { renderCrowdRows(); } }, { passive: true });
  window.addEventListener("resize", resizeCharts);
  openTab(location.hash === "#crowd" ? "crowd" : location.hash === "#search" ? "search" : location.hash === "#history" ? "history" : "runs");
  connect();
  document.documentElement.setAttribute("data-inspector-ready", "true");
})();
`;
