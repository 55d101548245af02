/**
 * @internal The report's only script: trace-event filters and linked
 * highlighting of a step across graph, Gantt and tables. Everything is
 * already drawn by the server-side SVG, so the page reads fine without it.
 */
export const REPORT_SCRIPT = `
(function () {
  "use strict";
  var chips = document.querySelectorAll("[data-hook-filter]");
  chips.forEach(function (chip) {
    chip.addEventListener("click", function () {
      var on = chip.getAttribute("aria-pressed") !== "true";
      chip.setAttribute("aria-pressed", on ? "true" : "false");
      var hook = chip.getAttribute("data-hook-filter");
      // Hook names are data: escaped so a quote or bracket in one cannot break the selector.
      document.querySelectorAll('tr[data-hook="' + CSS.escape(hook) + '"]').forEach(function (row) { row.hidden = !on; });
    });
  });
  function mark(step, on) {
    document.querySelectorAll('[data-step="' + step + '"]').forEach(function (el) {
      el.classList.toggle(el.tagName.toLowerCase() === "tr" ? "highlight" : "active", on);
    });
  }
  document.querySelectorAll("[data-step]").forEach(function (el) {
    var step = el.getAttribute("data-step");
    el.addEventListener("mouseenter", function () { mark(step, true); });
    el.addEventListener("mouseleave", function () { mark(step, false); });
    el.addEventListener("focus", function () { mark(step, true); });
    el.addEventListener("blur", function () { mark(step, false); });
  });
  document.documentElement.setAttribute("data-report-ready", "true");
})();
`;
