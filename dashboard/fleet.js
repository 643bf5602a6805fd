// The ucs fleet page's script: it draws the data ucs embedded in the page
// (#ucs-data) and computes nothing ucs computes; every number is ucs's.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("ucs-data").textContent);
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  }
  const fmt = (x) => (x === null || x === undefined ? "–" : String(x));
  const count = (n, one, many) => n + " " + (n === 1 ? one : many);
  const pct = (r) => (r === null || r === undefined ? "–" : Math.round(r * 100) + "%");
  const rateColour = (r) => (r === null || r === undefined ? "#b8bec8" : "hsl(" + Math.round(r * 120) + ",70%,40%)");
  function table(id, head, rows) {
    const t = el("table", { id: id }, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))));
    const body = el("tbody");
    rows.forEach((r) => body.append(r));
    t.append(body);
    return t;
  }
  // precision is an advisory precision as status gives it: the success
  // rate when the top suggestion was followed, and when not.
  function precision(p) {
    if (!p) return "–";
    const part = (x) => (x && x.reports > 0 ? pct(x.rate) + " of " + x.reports : "–");
    return "followed " + part(p.followed) + " · not " + part(p.not_followed);
  }

  const fleets = [...new Set(data.workspaces.map((w) => w.fleet || ""))].sort();
  const shared = data.workspaces.filter((w) => !w.private).length;
  document.getElementById("summary").textContent = count(data.workspaces.length, "workspace", "workspaces") + " (" + shared +
    " shared, " + (data.workspaces.length - shared) + " private) in " + count(fleets.length, "fleet", "fleets") + " · " +
    count(data.fleet_transitions_total, "transition", "transitions") + " learned by the fleets · written " + data.generated;
  const select = document.getElementById("fleet-filter");
  fleets.forEach((f) => select.append(el("option", { value: f }, f || "(none)")));

  function drawWorkspaces() {
    const only = select.value;
    const rows = data.workspaces.filter((w) => !only || (w.fleet || "") === only).map((w) => {
      if (w.error) {
        return el("tr", { "data-name": w.name, class: "unreadable" }, el("td", {}, w.name), el("td", {}, fmt(w.fleet)),
          el("td", {}, w.private ? "private" : "shared"), el("td", { colspan: "5" }, "unreadable (" + w.code + "): " + w.error));
      }
      const k = w.knowledge;
      return el("tr", { "data-name": w.name, "data-private": w.private ? "1" : "0" },
        el("td", {}, w.name, w.owner ? el("span", { class: "note" }, " (" + w.owner + ")") : ""),
        el("td", {}, fmt(w.fleet)),
        el("td", {}, el("span", { class: "chip " + (w.private ? "state-failed" : "state-active") }, w.private ? "private" : "shared")),
        el("td", {}, w.agent + " · " + w.model + " · t " + w.t),
        el("td", { class: "num" }, w.reports),
        el("td", {}, precision(w.advisory_precision)),
        el("td", {}, k.methodology + " methodology, " + count(k.dead_ends, "dead end", "dead ends") + ", " +
          count(k.judgment_nodes, "judgment node", "judgment nodes") + ", " + count(k.observations, "observation", "observations")),
        el("td", { class: "num" }, w.transitions_learned));
    });
    const body = document.getElementById("workspaces-body");
    body.replaceChildren(rows.length ? table("workspaces-table", ["workspace", "fleet", "", "agent · model", "reports",
      "advisory precision", "holds for the fleet", "transitions learned"], rows) : el("p", {}, "No workspace."));
    body.dataset.rows = String(rows.length);
  }
  select.addEventListener("change", drawWorkspaces);
  drawWorkspaces();

  // Each transition with a bar of its evidence, split by workspace.
  function bar(t) {
    const box = el("div", { class: "evidence-bar", style: "display:flex;width:200px;height:10px;background:#eef0f3" });
    t.evidence.forEach((e, i) => box.append(el("span", { title: e.workspace + ": " + e.successes + "/" + e.of,
      style: "width:" + (e.share * 100).toFixed(1) + "%;background:hsl(" + (210 + ((i * 47) % 120)) + ",55%,55%)" })));
    return box;
  }
  // The fleet filter narrows both tables: a fleet's workspaces and what
  // that fleet learned.
  function drawTransitions() {
    const only = select.value;
    const ts = data.fleet_transitions.filter((t) => !only || (t.fleet || "") === only);
    const body = document.getElementById("transitions-body");
    body.replaceChildren(
      ts.length ? table("transitions-table", ["fleet", "from → to", "success", "rate", "whose evidence"], ts.map((t) =>
        el("tr", { "data-from": t.from, "data-to": t.to },
          el("td", {}, fmt(t.fleet)), el("td", {}, t.from + " → " + t.to),
          el("td", { class: "num" }, t.successes + "/" + t.of),
          el("td", { style: "color:" + rateColour(t.rate) }, pct(t.rate)),
          el("td", {}, bar(t), t.evidence.map((e) => e.workspace + " " + e.successes + "/" + e.of + " (" + pct(e.share) + ")").join(", "))))) :
        el("p", {}, only ? "Nothing learned by this fleet yet." : "Nothing learned yet: the shared workspaces have reported no outcome."),
      data.fleet_transitions.length < data.fleet_transitions_total ?
        el("p", { class: "note" }, "the best evidenced " + data.fleet_transitions.length + " of " + data.fleet_transitions_total +
          " transitions are on this page") : "");
    body.dataset.rows = String(ts.length);
  }
  select.addEventListener("change", drawTransitions);
  drawTransitions();
  document.body.dataset.ready = "1";
})();
