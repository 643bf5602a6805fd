// The ucs dashboard's script: it draws the data ucs embedded in the page
// (#ucs-data) and computes nothing ucs computes; every score is ucs's.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("ucs-data").textContent);
  const SVG = "http://www.w3.org/2000/svg";

  // el builds an element: attributes, then children (strings or nodes).
  function el(tag, attrs, ...kids) {
    const ns = ["svg", "g", "path", "circle", "line", "rect", "text", "polyline", "title"].includes(tag) && attrs && attrs.svg;
    const e = ns ? document.createElementNS(SVG, tag) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "svg" || v === null || v === undefined) continue;
      e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  }
  const s = (tag, attrs, ...kids) => el(tag, Object.assign({ svg: true }, attrs), ...kids);
  const fmt = (x) => (x === null || x === undefined ? "–" : String(x));
  // when is a journal time for people: to the minute, "2026-11-27 13:05".
  const when = (x) => (x === null || x === undefined ? "–" : String(x).replace("T", " ").slice(0, 16));
  const pct = (r) => (r === null || r === undefined ? "–" : Math.round(r * 100) + "%");
  const rateColour = (r) => (r === null || r === undefined ? "#b8bec8" : "hsl(" + Math.round(r * 120) + ",70%,40%)");
  const slug = (x) => String(x).replace(/[^A-Za-z0-9_-]/g, "_");
  function table(head, rows) {
    const t = el("table", {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))));
    const body = el("tbody");
    rows.forEach((r) => body.append(r));
    t.append(body);
    return t;
  }
  const more = (shown, total, what) => (total > shown ? el("p", { class: "note" }, "showing " + shown + " of " + total + " " + what) : "");

  // Header.
  const ws = data.workspace;
  document.getElementById("summary").textContent = "agent " + ws.agent_id + " · model " + ws.model + " · t " + ws.t +
    " · cursor " + ws.cursor + " · PP health " + ws.pp_health + " · " + ws.reports_total + " reports · " +
    ws.methodology_total + " methodology entries · written " + data.generated + (data.since ? " · history since " + data.since : "");

  // The capability graph.
  const graph = data.graph;
  const pos = {};
  const R = 360, C = 450;
  graph.nodes.forEach((n, i) => {
    const a = (2 * Math.PI * i) / graph.nodes.length - Math.PI / 2;
    pos[n.id] = { x: C + R * Math.cos(a), y: C + R * Math.sin(a), a: a };
  });
  const ctxSelect = document.getElementById("f-context");
  const allContexts = [...new Set(graph.edges.flatMap((e) => e.contexts || []))].sort();
  allContexts.forEach((c) => ctxSelect.append(el("option", { value: c }, c)));

  function visibleEdges() {
    const ctx = ctxSelect.value;
    const learnedOnly = document.getElementById("f-learned").checked;
    const artOnly = document.getElementById("f-artifacts").checked;
    return graph.edges.filter((e) => (!ctx || (e.contexts || []).includes(ctx)) && (!learnedOnly || e.of > 0) && (!artOnly || e.artifacts.length > 0));
  }
  function edgePath(e) {
    const a = pos[e.from], b = pos[e.to];
    if (e.from === e.to) {
      const ox = a.x + 22 * Math.cos(a.a), oy = a.y + 22 * Math.sin(a.a);
      return "M" + a.x + "," + a.y + " C" + (ox - 18) + "," + (oy - 18) + " " + (ox + 18) + "," + (oy + 18) + " " + a.x + "," + a.y;
    }
    const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
    const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
    const bend = 0.12 * len; // to the right of the direction: a → b and b → a part
    return "M" + a.x + "," + a.y + " Q" + (mx - (dy / len) * bend) + "," + (my + (dx / len) * bend) + " " + b.x + "," + b.y;
  }
  function drawGraph() {
    const svg = document.getElementById("graph-svg");
    svg.replaceChildren();
    const edges = visibleEdges();
    const ge = s("g", { class: "edges" });
    // Unlearned edges first, the learned on top.
    edges.slice().sort((x, y) => (x.of || 0) - (y.of || 0)).forEach((e) => {
      const w = e.of > 0 ? 1.5 + 2 * Math.log2(1 + e.of) : 0.6;
      const cls = "edge" + e.artifacts.map((k) => " " + k).join("");
      const p = s("path", { class: cls, d: edgePath(e), stroke: rateColour(e.rate), "stroke-width": w.toFixed(2),
        "stroke-opacity": e.of > 0 ? 0.9 : 0.35, "data-from": e.from, "data-to": e.to },
        s("title", {}, e.from + " → " + e.to + (e.of > 0 ? ": " + e.successes + " of " + e.of + " (" + pct(e.rate) + ")" : ": nothing learned") +
          (e.artifacts.length ? " · " + e.artifacts.join(", ") : "")));
      ge.append(p);
      if (e.artifacts.includes("resonance")) {
        const a = pos[e.from], b = pos[e.to];
        ge.append(s("circle", { class: "resonance-mark", cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2, r: 4, fill: "#7b3fc4" }));
      }
    });
    svg.append(ge);
    const used = new Set(edges.flatMap((e) => [e.from, e.to]));
    const gn = s("g", { class: "nodes" });
    graph.nodes.forEach((n) => {
      const p = pos[n.id];
      const cls = "node" + n.artifacts.map((k) => " " + k).join("") + (n.id === ws.cursor ? " cursor" : "");
      const anchor = Math.cos(p.a) < -0.1 ? "end" : Math.cos(p.a) > 0.1 ? "start" : "middle";
      gn.append(s("g", { class: cls, "data-node": n.id, opacity: used.has(n.id) || !ctxSelect.value ? 1 : 0.35 },
        s("circle", { cx: p.x, cy: p.y, r: n.id === ws.cursor ? 9 : 6 }),
        s("text", { x: p.x + 12 * Math.cos(p.a), y: p.y + 12 * Math.sin(p.a) + 4, "text-anchor": anchor }, n.id)));
    });
    svg.append(gn);
    svg.dataset.nodes = graph.nodes.length;
    svg.dataset.edges = edges.length;
    document.getElementById("graph-counts").textContent = edges.length + " of " + graph.edges.length + " edges, " + graph.nodes.length + " capabilities";
    const rows = edges.filter((e) => e.of > 0).sort((x, y) => y.of - x.of).map((e) =>
      el("tr", { id: "edge-" + slug(e.from) + "-" + slug(e.to) }, el("td", {}, e.from + " → " + e.to + (e.discovered ? " (discovered)" : "")),
        el("td", { class: "num" }, e.successes + " of " + e.of), el("td", { class: "num" }, pct(e.rate)),
        el("td", {}, (e.contexts || []).join("; ")), el("td", {}, when(e.last_seen))));
    document.getElementById("edges-table").tBodies[0].replaceChildren(...rows);
  }
  ["f-context", "f-learned", "f-artifacts"].forEach((id) => document.getElementById(id).addEventListener("change", drawGraph));
  drawGraph();

  // Each task's learned chain (ucs's taskChain): the steps, then the
  // alternatives at each.
  (function tasks() {
    const body = document.getElementById("tasks-body");
    const ts = data.tasks || [];
    if (!ts.length) { body.append(el("p", {}, "Nothing learned per task yet: report actions with a context.")); return; }
    const evidence = (ev) => {
      if (!ev) return "–";
      if (ev.outcomes) {
        const parts = [];
        if (ev.next_step) parts.push("came next " + ev.next_step.times + " of " + ev.next_step.of + " times" +
          (ev.next_step.term ? " in tasks saying \u201c" + ev.next_step.term + "\u201d" : ""));
        const n = ev.outcomes.successes + ev.outcomes.failures;
        if (n) parts.push("succeeded " + ev.outcomes.successes + " of " + n);
        return parts.join("; ") || "–";
      }
      if (ev.all_contexts) return "weighted successes " + ev.all_contexts.successes + " of " + ev.all_contexts.of;
      return "–";
    };
    ts.forEach((t, i) => {
      const chain = t.chain || [];
      const names = ["start"].concat(chain.map((st) => st.to));
      const fig = el("div", { class: "task", "data-task": i, "data-chain": chain.map((st) => st.to).join(" ") },
        el("h3", {}, t.context),
        el("p", { class: "chain" }, chain.length ? names.join(" → ") : "nothing learned from its start yet"));
      if (chain.length) {
        fig.append(table(["from", "next step", "evidence", "p(success)", "alternatives there"], chain.map((st) =>
          el("tr", {}, el("td", {}, st.at === null ? "start" : st.at), el("td", {}, el("b", {}, st.to)),
            el("td", { class: "evidence" }, evidence(st.evidence)), el("td", { class: "num" }, pct(st.p_success)),
            el("td", {}, (st.alternatives || []).map((a) => a.to + " " + pct(a.p_success)).join(", ") || "–")))));
      }
      body.append(fig);
    });
  })();

  // Advice per consulted context.
  const adviceSelect = document.getElementById("advice-context");
  data.contexts.forEach((c, i) => adviceSelect.append(el("option", { value: i }, c.context)));
  function drawAdvice() {
    const body = document.getElementById("advice-body");
    const c = data.contexts[adviceSelect.value];
    if (!c) { body.replaceChildren(el("p", {}, "No consult yet.")); return; }
    const paths = c.suggested_paths || [];
    const keys = [...new Set(paths.flatMap((p) => Object.keys(p.components || {})))];
    const rows = paths.map((p, i) => el("tr", { "data-to": p.to }, el("td", { class: "num" }, i + 1), el("td", {}, p.to),
      el("td", { class: "num" }, fmt(p.score)), el("td", { class: "num" }, fmt(p.p_success)),
      ...keys.map((k) => el("td", { class: "num" }, fmt((p.components || {})[k]))), el("td", {}, p.why || fmt(p.annotation))));
    body.replaceChildren(
      el("p", { class: "note" }, "consulted at " + c.now + " (event " + c.seq + ") · cursor " + c.cursor + " · resolved: " + (c.resolved || []).join(", ")),
      table(["#", "next", "score", "p(success)", ...keys, "why"], rows),
      (c.dead_ends || []).length ? el("p", {}, "dead ends in view: " + c.dead_ends.map((d) => d.topic).join("; ")) : "");
    document.getElementById("advice").dataset.top = paths.length ? paths[0].to : "";
  }
  adviceSelect.addEventListener("change", drawAdvice);
  drawAdvice();

  // Curves.
  function axes(svg, label) {
    svg.append(s("line", { x1: 40, y1: 140, x2: 410, y2: 140, stroke: "#8a93a3" }), s("line", { x1: 40, y1: 10, x2: 40, y2: 140, stroke: "#8a93a3" }));
    if (label) svg.append(s("text", { x: 4, y: 14, "font-size": 10 }, label));
  }
  (function precision() {
    const svg = document.getElementById("precision-svg");
    const p = data.advisory_precision;
    if (!p) { svg.append(s("text", { x: 20, y: 80 }, "the reference's model keeps no advisory record")); return; }
    axes(svg, "success %");
    svg.append(s("text", { x: 30, y: 24, "font-size": 9, "text-anchor": "end" }, "100"), s("text", { x: 30, y: 140, "font-size": 9, "text-anchor": "end" }, "0"));
    [["followed", p.followed], ["not followed", p.not_followed]].forEach(([name, x], i) => {
      const h = x.rate === null ? 0 : 116 * x.rate;
      svg.append(s("rect", { x: 70 + i * 170, y: 140 - h, width: 90, height: h, fill: i ? "#c98a2b" : "#2f8f4e" }),
        s("text", { x: 70 + i * 170 + 45, y: 134 - h, "font-size": 11, "text-anchor": "middle" }, pct(x.rate)),
        s("text", { x: 70 + i * 170, y: 155, "font-size": 11 }, name + ": " + x.successes + " of " + x.reports + " reports"));
    });
  })();
  (function ppHealth() {
    const svg = document.getElementById("pp-svg");
    const pts = data.pp;
    // A line needs points to be one: with fewer than 3 snapshots the
    // numbers are shown instead.
    if (pts.length < 3) {
      svg.append(s("text", { x: 20, y: 60, "font-size": 13 }, pts.length ? "PP health " + pts[pts.length - 1].health + " at t " + pts[pts.length - 1].t : "no PP snapshot yet"),
        s("text", { x: 20, y: 84, "font-size": 11 }, pts.length + " snapshot" + (pts.length === 1 ? "" : "s") + ": too few for a curve"));
      return;
    }
    axes(svg, "health");
    svg.append(s("text", { x: 30, y: 24, "font-size": 9, "text-anchor": "end" }, "1"), s("text", { x: 30, y: 140, "font-size": 9, "text-anchor": "end" }, "0"));
    const n = Math.max(pts.length - 1, 1);
    svg.append(s("polyline", { fill: "none", stroke: "#3a6fd8", "stroke-width": 2,
      points: pts.map((p, i) => (40 + (370 * i) / n).toFixed(1) + "," + (140 - 130 * Math.max(0, Math.min(1, p.health))).toFixed(1)).join(" ") }));
    svg.append(s("text", { x: 44, y: 155, "font-size": 10 }, "engine step t " + pts[0].t + " → " + pts[pts.length - 1].t + ", " + pts.length + " snapshots"));
  })();
  (function days() {
    const svg = document.getElementById("days-svg");
    const ds = data.days;
    const top = Math.max(1, ...ds.map((d) => d.reports));
    axes(svg, top + " reports");
    const w = Math.max(2, Math.min(40, 360 / Math.max(ds.length, 1) - 2));
    ds.forEach((d, i) => {
      let y = 140;
      const x = 44 + i * (w + 2);
      [[d.successes, "#2f8f4e"], [d.partials, "#d9a520"], [d.failures, "#c0392b"], [d.reports - d.successes - d.partials - d.failures, "#b8bec8"]].forEach(([k, colour]) => {
        const h = (130 * k) / top;
        y -= h;
        if (h > 0) svg.append(s("rect", { x: x, y: y, width: w, height: h, fill: colour }, s("title", {}, d.day + ": " + k)));
      });
    });
    if (ds.length) svg.append(s("text", { x: 44, y: 155, "font-size": 10 }, ds[0].day + " → " + ds[ds.length - 1].day));
  })();

  // The torus's fields as heat maps: θ down, φ across.
  (function fields() {
    const f = data.fields, body = document.getElementById("fields-body");
    ["energy", "memory", "salience"].forEach((name) => {
      const cells = f[name];
      const max = Math.max(1e-9, ...cells.map(Math.abs));
      if (!cells.some((x) => x !== 0)) {
        body.append(el("figure", { "data-field": name }, el("figcaption", {}, name), el("p", { class: "note" }, name + " is zero everywhere on the torus: nothing to draw yet.")));
        return;
      }
      const cw = 380 / f.phi_bins, ch = 130 / f.theta_bins;
      const svg = s("svg", { viewBox: "0 0 420 160", class: "heat", "data-field": name },
        s("text", { x: 230, y: 156, "font-size": 10, "text-anchor": "middle" }, "φ bin 0 → " + (f.phi_bins - 1)),
        s("text", { x: 10, y: 80, "font-size": 10, transform: "rotate(-90 10 80)", "text-anchor": "middle" }, "θ bin 0 → " + (f.theta_bins - 1)));
      cells.forEach((x, i) => {
        const th = Math.floor(i / f.phi_bins), ph = i % f.phi_bins;
        svg.append(s("rect", { x: 30 + ph * cw, y: 10 + th * ch, width: cw + 0.2, height: ch + 0.2,
          fill: "rgba(214,69,30," + (Math.abs(x) / max).toFixed(3) + ")" }, s("title", {}, "θ " + th + ", φ " + ph + ": " + x)));
      });
      body.append(el("figure", {}, el("figcaption", {}, name + " (colour: value ÷ max; max " + max.toFixed(4) + ")"), svg));
    });
  })();

  // Goals, observations, dead ends, annotations.
  document.getElementById("goals-body").append(
    data.goals.length ? table(["id", "state", "goal", "progress", "outcomes", "created", "closed"], data.goals.map((g) =>
      el("tr", { id: "goal-" + slug(g.id) }, el("td", {}, g.id), el("td", {}, el("span", { class: "chip state-" + g.state }, g.state)), el("td", {}, g.content),
        el("td", {}, g.progress.met !== undefined ? (g.progress.met ? "met" : "not met") + " at " + g.progress.of : g.progress.successes + " of " + g.progress.of),
        el("td", {}, g.outcomes.successes + " succeeded, " + g.outcomes.failures + " failed, " + g.outcomes.partials + " partial, " + g.outcomes.timeouts + " timed out"),
        el("td", {}, fmt(g.created)), el("td", {}, fmt(g.closed))))) : el("p", {}, "No goals."),
    more(data.goals.length, data.goals_total, "goals"));
  document.getElementById("observations-body").append(
    data.observations.length ? table(["id", "status", "claim", "confidence", "freshness", "evidence", "due"], data.observations.map((o) =>
      el("tr", { id: "obs-" + slug(o.id) }, el("td", {}, o.id), el("td", {}, el("span", { class: "chip status-" + o.status }, o.status)), el("td", {}, o.claim),
        el("td", { class: "num" }, fmt(o.confidence)), el("td", { class: "num" }, fmt(o.freshness)),
        el("td", {}, o.evidence.support + " for, " + o.evidence.contradict + " against"), el("td", {}, fmt(o.due))))) : el("p", {}, "No observations."),
    more(data.observations.length, data.observations_total, "observations"));
  document.getElementById("dead-ends-body").append(
    data.dead_ends.length ? table(["topic", "why closed", "reopen when", "date"], data.dead_ends.map((d) =>
      el("tr", {}, el("td", {}, fmt(d.topic)), el("td", {}, fmt(d.why_closed)), el("td", {}, fmt(d.reopen_conditions)), el("td", {}, fmt(d.date))))) : el("p", {}, "No dead ends."),
    more(data.dead_ends.length, data.dead_ends_total, "dead ends"));
  const annotated = {};
  data.annotations.forEach((a) => { if (!(a.artifact_id in annotated)) annotated[a.artifact_id] = a.text; });
  document.getElementById("annotations-body").append(
    graph.artifacts.length ? table(["artifact", "kind", "where", "score", "annotation"], graph.artifacts.map((a) =>
      el("tr", { id: "art-" + slug(a.id) }, el("td", {}, a.id), el("td", {}, a.kind), el("td", {}, a.node || a.from + " → " + a.to),
        el("td", { class: "num" }, a.score), el("td", {}, fmt(a.annotation || annotated[a.id]))))) : el("p", {}, "No artifacts yet: a φ-cycle harvests them every fifth report."),
    more(data.annotations.length, data.annotations_total, "annotations"));

  // The journal, newest first, each event linked to what it changed.
  function links(ev) {
    const l = ev.links, out = [];
    const a = (href, text) => out.push(el("a", { href: href }, text), " ");
    if (l.capability) a("#graph", l.capability);
    if (l.goal) a("#goal-" + slug(l.goal), l.goal);
    if (l.observation) a("#obs-" + slug(l.observation), l.observation);
    if (l.artifact) a("#art-" + slug(l.artifact), l.artifact);
    if (l.context !== undefined) a("#advice", "advice");
    if (l.reflect === "dead_end") a("#dead-ends", "dead ends");
    return out;
  }
  document.getElementById("journal-body").append(
    table(["seq", "time", "op", "what", "changed", "see"], data.events.map((ev) =>
      el("tr", { id: "ev-" + ev.seq }, el("td", { class: "num" }, ev.seq), el("td", {}, ev.now), el("td", {}, ev.op), el("td", {}, ev.what),
        el("td", {}, ev.changed), el("td", {}, ...links(ev))))),
    more(data.events.length, data.events_total, "events"));
  document.body.dataset.ready = "1";
})();
