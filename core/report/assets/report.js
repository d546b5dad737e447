// irlens report: draws the program held in #irlens-data (core/report/html_report.h). Plain DOM and SVG,
// no library, nothing loaded from anywhere. A graph view lays out what is open: each open module's
// contents are ranked and ordered on their own (longest path, barycentre sweeps), open child modules
// standing in as boxes of their own drawing's size, and the parts are nested (the composed layout of
// core/layout, in miniature). Only what is open is laid out, so a 12,000-node program costs what its
// top-level modules cost until one is opened; a run of identical sibling modules is one box.
"use strict";
(function () {
const DATA = JSON.parse(document.getElementById("irlens-data").textContent);
const SVGNS = "http://www.w3.org/2000/svg";
const NODE_H = 34, MOD_H = 40, PILL_H = 26, GAP_X = 18, GAP_Y = 30, PAD = 10, TITLE_H = 20;
const CORNER_W = 30;             // room at the right of op and module boxes for the heatmap's share or a check
const CHIP_H = 12;               // parameters, buffers and constants ride on their consumer as chips, as in the GUI
const EXPAND_ALL_LIMIT = 1500;   // "Expand all" stops opening modules once this many boxes would show
const OPEN_SMALL = 200;          // programs up to this many nodes open with every module expanded
const TABLE_ROWS = 2000;         // rows a table shows (the slowest or worst first)

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "on") for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}
function sv(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}
function textWidth(s, size) { return s.length * (size || 11) * 0.6; }
function fmtNs(ns) {
  if (ns < 0) return "";
  if (ns >= 1e9) return (ns / 1e9).toFixed(2) + " s";
  if (ns >= 1e6) return (ns / 1e6).toFixed(2) + " ms";
  return (ns / 1e3).toFixed(1) + " µs";
}
function fmtNum(v, digits) { return v === null || v === undefined ? "inf" : Number(v).toPrecision(digits || 3); }
// A perceptual ramp (viridis, five stops) for the heatmap, t in [0, 1].
const VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
function ramp(t) {
  t = Math.max(0, Math.min(1, t)) * (VIRIDIS.length - 1);
  const i = Math.min(Math.floor(t), VIRIDIS.length - 2), f = t - i;
  const c = VIRIDIS[i].map((a, k) => Math.round(a + (VIRIDIS[i + 1][k] - a) * f));
  return "rgb(" + c.join(",") + ")";
}
const CHECK_FILL = { agree: "#c8e6c9", differ: "#ef9a9a", shape: "#ef9a9a", dtype: "#ffcc80", missing: "#e0e0e0", "not compared": "#e0e0e0" };
const DIFF_FILL = { same: "#eeeeee", changed: "#ffcc80", added: "#a5d6a7", removed: "#ef9a9a" };

// ---- one program: its tree, fold mapping and per-node lookups --------------------------------
class Program {
  constructor(d, title) {
    this.d = d; this.title = title;
    this.nodes = d.nodes; this.mods = d.modules;
    this.byName = new Map(this.nodes.map((n, i) => [n.n, i]));
    this.direct = this.mods.map(() => []);
    this.nodes.forEach((n, i) => this.direct[n.m].push(i));
    this.users = this.nodes.map(() => []);
    this.nodes.forEach((n, i) => n.i.forEach(s => { if (s >= 0) this.users[s].push(i); }));
    this.inputUsers = d.inputs.map(() => []);
    this.nodes.forEach((n, i) => n.i.forEach(s => { if (s < 0) this.inputUsers[-s - 1].push(i); }));
    this.depth = this.mods.map((m, k) => { let d = 0; for (let p = k; p > 0; p = this.mods[p].up) d++; return d; });
    // per module, the chain from the top down (root excluded); per node, its folded run
    this.chainCache = new Map();
    this.foldCache = new Map();
  }
  chain(m) {
    let c = this.chainCache.get(m);
    if (!c) { c = []; for (let p = m; p > 0; p = this.mods[p].up) c.unshift(p); this.chainCache.set(m, c); }
    return c;
  }
  // The module drawn for `m`: the shown instance of a folded run stands for every instance.
  shown(m) { const by = this.mods[m].by; return by === undefined ? m : by; }
  // The first folded instance on a node's chain: [shown module, instance module], or null.
  foldOf(node) {
    const m = this.nodes[node].m;
    if (!this.foldCache.has(m)) {
      let found = null;
      for (const c of this.chain(m)) if (this.mods[c].by !== undefined || this.mods[c].fold) { found = [this.shown(c), c]; break; }
      this.foldCache.set(m, found);
    }
    return this.foldCache.get(m);
  }
  isUserInput(k) { return this.d.inputs[k].kind === "user input"; }
  label(m) { return m === 0 ? "(root)" : this.mods[m].p; }
  subtreeNodes(m) {
    const out = [], stack = [m];
    while (stack.length) { const k = stack.pop(); out.push(...this.direct[k]); stack.push(...this.mods[k].ch); }
    return out;
  }
}

// ---- a graph view ------------------------------------------------------------------------------
class GraphView {
  constructor(report, prog, container, side) {
    this.r = report; this.p = prog; this.side = side;
    this.box = container;
    this.open = new Set([0]);
    if (prog.nodes.length <= OPEN_SMALL) prog.mods.forEach((m, k) => this.open.add(k));
    this.zoom = 1;
    this.selected = -1;   // the node shown in the details
    this.drawnSel = -1;   // the box marked for it: the node itself, or its twin in the shown instance of a folded run
    this.hits = new Set();
    container.addEventListener("wheel", e => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      this.setZoom(this.zoom * (e.deltaY < 0 ? 1.15 : 1 / 1.15));
    }, { passive: false });
  }
  setZoom(z) {
    this.zoom = Math.max(0.1, Math.min(4, z));
    if (this.svg) { this.svg.setAttribute("width", this.w * this.zoom); this.svg.setAttribute("height", this.h * this.zoom); }
  }
  // The item standing for node `n` inside open module `m` (whose subtree holds it): a node id or a module id.
  itemIn(m, n) {
    const node = this.p.nodes[n];
    if (node.m === m) return "n" + n;
    const chain = this.p.chain(node.m);
    const at = chain.indexOf(m);
    const child = chain[at + 1];
    return "m" + this.p.shown(child);
  }
  // Lays out open module m: its own nodes and its shown child modules (open ones nested).
  layoutModule(m) {
    const p = this.p, items = new Map();
    const add = (id, kind, ref, order) => { if (!items.has(id)) items.set(id, { id, kind, ref, order, ins: new Set() }); return items.get(id); };
    for (const c of p.mods[m].ch) if (p.mods[c].by === undefined) add("m" + c, "module", c, Infinity);
    for (const n of p.direct[m]) add("n" + n, "node", n, n);
    if (m === 0) {
      p.d.inputs.forEach((inp, k) => { if (p.isUserInput(k)) add("i" + k, "input", k, -1 - (p.d.inputs.length - k)); });
      add("out", "output", -1, p.nodes.length);
    }
    // the order of a module item: its first node
    for (const n of p.subtreeNodes(m)) {
      const id = this.itemIn(m, n), it = items.get(id);
      if (it && it.kind === "module" && n < it.order) it.order = n;
    }
    const inSubtree = n => { for (const c of p.chain(p.nodes[n].m)) if (c === m) return true; return m === 0; };
    const fold = n => { const f = p.foldOf(n); return f ? f[1] : -1; };
    for (const n of p.subtreeNodes(m)) {
      const v = this.itemIn(m, n);
      if (!items.has(v)) continue;
      for (const s of p.nodes[n].i) {
        let u;
        if (s < 0) { if (m !== 0 || !p.isUserInput(-s - 1)) continue; u = "i" + (-s - 1); }
        else {
          if (!inSubtree(s)) continue;
          const fs = fold(s), fn = fold(n);
          if (fs !== fn && fs >= 0 && fn >= 0 && p.shown(fs) === p.shown(fn)) continue; // between instances of one run
          u = this.itemIn(m, s);
        }
        if (u !== v && items.has(u)) items.get(v).ins.add(u);
      }
    }
    if (m === 0) for (const s of p.d.outputs) { const u = s >= 0 ? this.itemIn(0, s) : "i" + (-s - 1); if (items.has(u)) items.get("out").ins.add(u); }
    // sizes
    for (const it of items.values()) this.sizeItem(it);
    // ranks: longest path, edges taken in graph order only
    const list = [...items.values()].sort((a, b) => a.order - b.order);
    for (const it of list) {
      it.rank = 0;
      for (const u of it.ins) { const src = items.get(u); if (src.order < it.order) it.rank = Math.max(it.rank, src.rank + 1); }
    }
    const ranks = [];
    for (const it of list) (ranks[it.rank] = ranks[it.rank] || []).push(it);
    // order within ranks: barycentre of the producers, two sweeps
    ranks.forEach(r => r.forEach((it, k) => { it.pos = k; }));
    for (let sweep = 0; sweep < 2; sweep++) {
      for (let k = 1; k < ranks.length; k++) {
        const r = ranks[k];
        for (const it of r) {
          const ps = [...it.ins].map(u => items.get(u)).filter(s => s.rank < it.rank);
          it.bary = ps.length ? ps.reduce((a, s) => a + s.pos, 0) / ps.length : it.pos;
        }
        r.sort((a, b) => a.bary - b.bary || a.order - b.order);
        r.forEach((it, j) => { it.pos = j; });
      }
    }
    // coordinates: each item under the mean of its producers, pushed right of its left neighbour
    let y = 0, minX = Infinity, maxX = -Infinity;
    for (const r of ranks) {
      if (!r) continue;
      const h = Math.max(...r.map(it => it.h));
      let right = -Infinity;
      for (const it of r) {
        const ps = [...it.ins].map(u => items.get(u)).filter(s => s.rank < it.rank && s.x !== undefined);
        const want = ps.length ? ps.reduce((a, s) => a + s.x + s.w / 2, 0) / ps.length - it.w / 2 : 0;
        it.x = Math.max(want, right + GAP_X);
        right = it.x + it.w;
      }
      // centre the rank under its producers' span when it was pushed right
      const first = r[0].x, last = right;
      const ps = r.flatMap(it => [...it.ins].map(u => items.get(u)).filter(s => s.rank < it.rank));
      if (ps.length) {
        const mid = ps.reduce((a, s) => a + s.x + s.w / 2, 0) / ps.length;
        const shift = Math.min(0, mid - (first + last) / 2);
        if (shift < 0) for (const it of r) it.x += shift;
      }
      for (const it of r) { it.y = y + (h - it.h) / 2; minX = Math.min(minX, it.x); maxX = Math.max(maxX, it.x + it.w); }
      y += h + GAP_Y;
    }
    for (const it of items.values()) it.x -= minX;
    return { items: [...items.values()], w: Math.max(maxX - minX, 60), h: Math.max(y - GAP_Y, 20) };
  }
  sizeItem(it) {
    const p = this.p;
    if (it.kind === "node") {
      const n = p.nodes[it.ref];
      it.title = n.k; it.sub = (n.v || "").split("\n")[0].replace(/^[^:]*: /, "");
      it.chips = n.i.filter(s => s < 0 && !p.isUserInput(-s - 1)).map(s => {
        const inp = p.d.inputs[-s - 1];
        return { label: (inp.target || inp.n).split(".").pop(), tip: `${inp.kind} ${inp.target || inp.n}` + (inp.v ? " " + inp.v : "") };
      });
      const chipsW = it.chips.reduce((a, c) => a + textWidth(c.label, 9) + 10, 0);
      it.w = Math.max(textWidth(it.title) + 24, textWidth(it.sub, 10) + 16, chipsW + 12, 70) + CORNER_W;
      it.h = NODE_H + (it.chips.length ? CHIP_H + 2 : 0);
    } else if (it.kind === "input") {
      const inp = p.d.inputs[it.ref];
      it.title = inp.n; it.sub = inp.v || "";
      it.w = Math.max(textWidth(it.title), textWidth(it.sub, 10)) + 28; it.h = PILL_H + 8;
    } else if (it.kind === "output") {
      it.title = "output"; it.sub = ""; it.w = 80; it.h = PILL_H;
    } else {
      const m = p.mods[it.ref];
      const run = m.fold ? " ×" + m.fold.length : "";
      it.title = (m.fold ? m.fold[0] + " … " + m.fold[m.fold.length - 1] : m.p) + run;
      it.sub = m.t + " · " + m.tn + " nodes" + (m.fold ? " each" : "");
      if (this.open.has(it.ref)) {
        it.inner = this.layoutModule(it.ref);
        it.w = Math.max(it.inner.w + 2 * PAD, textWidth(it.title + " · " + m.t) + 30);
        it.h = it.inner.h + 2 * PAD + TITLE_H;
      } else {
        it.w = Math.max(textWidth(it.title) + 30, textWidth(it.sub, 10) + 20) + CORNER_W; it.h = MOD_H;
      }
    }
  }
  // Draws everything; item positions are kept in this.where (id -> absolute box) for edges and scrolling.
  render() {
    const t0 = performance.now();
    const root = this.layoutModule(0);
    this.w = root.w + 40; this.h = root.h + 40;
    const svg = sv("svg", { viewBox: "0 0 " + this.w + " " + this.h, width: this.w * this.zoom, height: this.h * this.zoom });
    const defs = sv("defs");
    const marker = sv("marker", { id: "arrow-" + this.side, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto" });
    marker.append(sv("path", { d: "M0,0 L10,5 L0,10 z", fill: "#8a8f98" }));
    defs.append(marker); svg.append(defs);
    const frames = sv("g"), edges = sv("g"), boxes = sv("g");
    svg.append(frames, edges, boxes);
    this.where = new Map(); this.boxEls = new Map();
    this.place(root, 20, 20, frames, boxes);
    this.drawEdges(edges);
    this.box.querySelector("svg")?.remove();
    this.box.append(svg);
    this.svg = svg;
    this.applyColours();
    this.applyMarks();
    this.lastRenderMs = performance.now() - t0;
  }
  place(layout, ox, oy, frames, boxes) {
    const p = this.p;
    for (const it of layout.items) {
      const x = ox + it.x, y = oy + it.y;
      if (it.kind === "module" && it.inner) {
        const g = sv("g", { class: "frame", "data-module": it.ref });
        g.append(sv("rect", { x, y, width: it.w, height: it.h, rx: 6 }));
        const title = sv("g", { class: "title" });
        title.append(sv("rect", { x, y, width: it.w, height: TITLE_H, rx: 6 }));
        const tx = sv("text", { x: x + 8, y: y + 14 }); tx.textContent = "▾ " + it.title + " · " + p.mods[it.ref].t;
        title.append(tx);
        title.addEventListener("click", () => this.toggle(it.ref));
        g.append(title);
        frames.append(g);
        this.where.set(it.id, { x, y, w: it.w, h: it.h, frame: true });
        this.place(it.inner, x + PAD, y + PAD + TITLE_H, frames, boxes);
        continue;
      }
      const g = sv("g", { class: "box", "data-id": it.id });
      if (it.kind === "node") g.setAttribute("data-node", p.nodes[it.ref].n);
      if (it.kind === "module") g.setAttribute("data-module", it.ref);
      let shape;
      if (it.kind === "input" || it.kind === "output") {
        shape = sv("rect", { x, y, width: it.w, height: it.h, rx: it.h / 2 });
      } else if (it.kind === "module") {
        shape = sv("rect", { x, y, width: it.w, height: it.h, rx: 3 });
        if (p.mods[it.ref].fold) g.append(sv("rect", { x: x + 4, y: y + 4, width: it.w, height: it.h, rx: 3, fill: "#e8e8e8" }));
      } else {
        shape = sv("rect", { x, y, width: it.w, height: it.h, rx: 8 });
        if (p.nodes[it.ref].h) g.append(sv("rect", { x: x - 3, y: y - 3, width: it.w + 6, height: it.h + 6, rx: 10, fill: "none", stroke: "#5f6368" }));
      }
      g.append(shape);
      const textX = x + (it.kind === "node" || it.kind === "module" ? (it.w - CORNER_W) / 2 + 4 : it.w / 2);
      const t1 = sv("text", { x: textX, y: y + (it.sub ? 14 : it.h / 2 + 4), "text-anchor": "middle" });
      t1.textContent = (it.kind === "module" ? "▸ " : "") + it.title;
      g.append(t1);
      if (it.sub) {
        const t2 = sv("text", { x: textX, y: y + 27, "text-anchor": "middle", class: "sub" });
        t2.textContent = it.sub; g.append(t2);
      }
      let cx = x + 6;
      for (const c of it.chips || []) {
        const w = textWidth(c.label, 9) + 8;
        const chip = sv("g", { class: "chip" });
        chip.append(sv("rect", { x: cx, y: y + NODE_H - 3, width: w, height: CHIP_H, rx: 3 }));
        const t = sv("text", { x: cx + 4, y: y + NODE_H + 6 }); t.textContent = c.label; chip.append(t);
        const tip = sv("title"); tip.textContent = c.tip; chip.append(tip);
        g.append(chip);
        cx += w + 2;
      }
      const corner = sv("text", { x: x + it.w - 3, y: y + it.h - 3, "text-anchor": "end", class: "corner" });
      g.append(corner);
      const tip = sv("title"); g.append(tip);
      g.addEventListener("click", () => this.clickItem(it));
      boxes.append(g);
      this.where.set(it.id, { x, y, w: it.w, h: it.h });
      this.boxEls.set(it.id, { g, shape, corner, tip, it });
    }
  }
  // The drawn item of node n: its own box, or the closed module (or folded run) holding it.
  visibleOf(n) {
    const p = this.p;
    for (const m of p.chain(p.nodes[n].m)) { const s = p.shown(m); if (!this.open.has(s)) return "m" + s; if (s !== m) return "m" + s; }
    return "n" + n;
  }
  drawEdges(layer) {
    const p = this.p, seen = new Set();
    const line = (u, v) => {
      const key = u + ">" + v;
      if (u === v || seen.has(key)) return;
      seen.add(key);
      const a = this.where.get(u), b = this.where.get(v);
      if (!a || !b) return;
      const sx = a.x + a.w / 2, sy = a.y + a.h, tx = b.x + b.w / 2, ty = b.y;
      const dy = Math.max(20, Math.abs(ty - sy) / 2);
      layer.append(sv("path", { class: "edge", d: `M${sx},${sy} C${sx},${sy + dy} ${tx},${ty - dy} ${tx},${ty}`, "marker-end": `url(#arrow-${this.side})` }));
    };
    p.nodes.forEach((n, i) => {
      const v = this.visibleOf(i), fv = p.foldOf(i);
      for (const s of n.i) {
        if (s < 0) { if (p.isUserInput(-s - 1)) line("i" + (-s - 1), v); continue; }
        const fs = p.foldOf(s);
        if (fs && fv && fs[0] === fv[0] && fs[1] !== fv[1]) continue; // between instances of one folded run
        line(this.visibleOf(s), v);
      }
    });
    for (const s of p.d.outputs) line(s >= 0 ? this.visibleOf(s) : "i" + (-s - 1), "out");
  }
  clickItem(it) {
    if (it.kind === "module") { this.toggle(it.ref); this.r.showModule(this, it.ref); return; }
    if (it.kind === "node") this.r.select(this, it.ref);
    else if (it.kind === "input") this.r.showInput(this, it.ref);
  }
  toggle(m) {
    if (m === 0) return;
    if (this.open.has(m)) this.open.delete(m); else this.open.add(m);
    this.render();
  }
  expandAll() {
    // open modules breadth first while the drawing stays small
    const p = this.p;
    let boxes = 0;
    const queue = [0];
    while (queue.length) {
      const m = queue.shift();
      const add = p.direct[m].length + p.mods[m].ch.length;
      if (m !== 0 && boxes + add > EXPAND_ALL_LIMIT) continue;
      boxes += add;
      this.open.add(m);
      for (const c of p.mods[m].ch) if (p.mods[c].by === undefined) queue.push(c);
    }
    this.render();
  }
  collapseAll() { this.open = new Set([0]); this.render(); }
  // Opens what hides node n, draws, scrolls it into view and marks it selected.
  reveal(n) {
    const p = this.p;
    const f = p.foldOf(n);
    let target = n;
    if (f && f[0] !== f[1]) target = this.r.representativeNode(p, n, f);
    let changed = false;
    for (const m of p.chain(p.nodes[target].m)) if (!this.open.has(m)) { this.open.add(m); changed = true; }
    if (changed) this.render();
    this.selected = n;
    this.drawnSel = target;
    this.applyMarks();
    const w = this.where.get("n" + target);
    if (w) {
      this.box.scrollTo({ left: Math.max(0, (w.x + w.w / 2) * this.zoom - this.box.clientWidth / 2),
                          top: Math.max(0, (w.y + w.h / 2) * this.zoom - this.box.clientHeight / 2) });
    }
    return target;
  }
  revealModule(m) {
    for (const c of this.p.chain(m)) this.open.add(this.p.shown(c));
    this.render();
    const w = this.where.get("m" + this.p.shown(m));
    if (w) this.box.scrollTo({ left: Math.max(0, w.x * this.zoom - 20), top: Math.max(0, w.y * this.zoom - 20) });
  }
  // Fill of each drawn box by the page's colour mode.
  applyColours() {
    const p = this.p, mode = this.r.colourMode, run = p === this.r.a ? DATA.run : null;
    const timeOf = id => {
      if (!run) return -1;
      const nodesOf = id[0] === "n" ? [+id.slice(1)] : this.moduleNodes(+id.slice(1));
      let t = 0; for (const n of nodesOf) if (run.ns[n] > 0) t += run.ns[n];
      return t;
    };
    let maxT = 0;
    const times = new Map();
    if (mode === "heat" && run) {
      for (const [id, b] of this.boxEls) if (b.it.kind === "node" || b.it.kind === "module") { const t = timeOf(id); times.set(id, t); maxT = Math.max(maxT, t); }
    }
    const total = run ? run.ns.reduce((a, t) => a + Math.max(0, t), 0) : 0;
    for (const [id, b] of this.boxEls) {
      const it = b.it;
      let fill = "#f7f7f7", corner = "", tip = it.title + (it.sub ? "\n" + it.sub : "");
      if (it.kind === "input") fill = "#e0f3db";
      else if (it.kind === "output") fill = "#fde0dd";
      else if (it.kind === "node") fill = p.d.families[p.nodes[it.ref].f].c;
      if (mode === "heat" && times.has(id)) {
        const t = times.get(id);
        fill = ramp(maxT > 0 ? Math.sqrt(t / maxT) : 0);
        corner = total > 0 ? (100 * t / total).toFixed(1) + "%" : "";
        tip += "\n" + fmtNs(t);
        b.g.classList.toggle("dark", maxT > 0 && Math.sqrt(t / maxT) < 0.55);
      } else b.g.classList.remove("dark");
      if (mode === "numerics" && DATA.numerics && p === this.r.a) {
        const worst = this.worstCheck(id);
        if (worst) { fill = CHECK_FILL[worst] || fill; corner = worst; }
      }
      if (mode === "diff" && DATA.compare) {
        const kind = this.r.diffKind(p, id, this);
        if (kind) { fill = DIFF_FILL[kind]; corner = kind === "same" ? "" : kind; }
      }
      b.shape.setAttribute("fill", fill);
      b.corner.textContent = corner;
      b.tip.textContent = tip;
      const dark = b.g.classList.contains("dark");
      for (const t of b.g.querySelectorAll(":scope > text")) t.style.fill = dark ? "#fff" : "";
    }
  }
  moduleNodes(m) {
    const p = this.p, mod = p.mods[m];
    if (!mod.fold) return p.subtreeNodes(m);
    return mod.fold.map(label => p.mods.findIndex(x => x.p === label)).flatMap(k => k >= 0 ? p.subtreeNodes(k) : []);
  }
  worstCheck(id) {
    const order = ["differ", "shape", "dtype", "agree", "missing", "not compared"];
    const nodes = id[0] === "n" ? [+id.slice(1)] : id[0] === "m" ? this.moduleNodes(+id.slice(1)) : [];
    let best = null;
    for (const n of nodes) for (const c of this.r.checksOf(n)) if (best === null || order.indexOf(c) < order.indexOf(best)) best = c;
    return best;
  }
  applyMarks() {
    const p = this.p, hitIds = new Set([...this.hits].map(n => this.visibleOf(n)));
    const near = new Set();
    if (this.selected >= 0) {
      for (const s of p.nodes[this.selected].i) if (s >= 0) near.add(this.visibleOf(s));
      for (const u of p.users[this.selected]) near.add(this.visibleOf(u));
    }
    const sel = this.drawnSel >= 0 ? "n" + this.drawnSel : null;
    for (const [id, b] of this.boxEls) {
      b.g.classList.toggle("sel", id === sel);
      b.g.classList.toggle("hit", hitIds.has(id) && id !== sel);
      b.g.classList.toggle("near", near.has(id) && id !== sel);
    }
  }
}

// ---- the page ------------------------------------------------------------------------------------
class Report {
  constructor() {
    this.a = new Program(DATA, DATA.title);
    this.b = DATA.compare ? new Program(DATA.compare.program, DATA.compare.program.title) : null;
    this.colourMode = DATA.compare ? "diff" : DATA.run ? "heat" : "op";
    this.checks = new Map();
    if (DATA.numerics) for (const v of DATA.numerics.values) {
      if (!this.checks.has(v.node)) this.checks.set(v.node, []);
      this.checks.get(v.node).push(v.check);
    }
    this.errors = [];
    this.build();
  }
  checksOf(n) { return this.checks.get(n) || []; }
  representativeNode(p, n, fold) {
    // the node at the same place in the shown instance: same position in the instance's subtree
    const inst = p.subtreeNodes(fold[1]).sort((x, y) => x - y), shown = p.subtreeNodes(fold[0]).sort((x, y) => x - y);
    const k = inst.indexOf(n);
    return k >= 0 && k < shown.length ? shown[k] : n;
  }
  diffKind(p, id, view) {
    const c = DATA.compare, side = p === this.a ? c.left : c.right;
    const nodes = id[0] === "n" ? [+id.slice(1)] : id[0] === "m" ? view.moduleNodes(+id.slice(1)) : [];
    let kind = null;
    for (const n of nodes) {
      const d = side[n];
      const k = d === null || d === undefined ? null : c.pairs[d].k;
      if (k && k !== "same") return k;
      if (k) kind = "same";
    }
    return kind;
  }
  build() {
    const info = DATA.info;
    const search = el("input", { type: "search", placeholder: "search name, op, module", id: "search" });
    this.hitCount = el("span", { class: "hits", id: "hitcount" });
    const modes = el("select", { id: "colour", title: "box colours" }, el("option", { value: "op", text: "op colours" }));
    if (DATA.run) modes.append(el("option", { value: "heat", text: "heatmap (time)" }));
    if (DATA.numerics) modes.append(el("option", { value: "numerics", text: "numerics overlay" }));
    if (DATA.compare) modes.append(el("option", { value: "diff", text: "differences" }));
    modes.value = this.colourMode;
    modes.addEventListener("change", () => { this.colourMode = modes.value; this.views.forEach(v => v.applyColours()); });
    const legend = el("span", { class: "legend" });
    DATA.families.forEach(f => legend.append(el("span", {}, el("i", { style: "background:" + f.c }), f.n)));
    const header = el("header", {},
      el("h1", { text: DATA.title || "irlens report" }),
      el("span", { class: "info", text: `${info.nodes} nodes · schema ${info.schema} · torch ${info.torch}` + (info.dialect ? " · " + info.dialect : "") +
        ` · ${DATA.diagnostics.length} findings` + (DATA.run ? ` · run ${fmtNs(DATA.run.wall)} median of ${DATA.run.runs}` : "") }),
      el("span", { class: "spacer" }),
      search, this.hitCount, modes,
      el("button", { text: "Expand all", id: "expand-all", on: { click: () => this.views.forEach(v => v.expandAll()) } }),
      el("button", { text: "Collapse all", id: "collapse-all", on: { click: () => this.views.forEach(v => v.collapseAll()) } }),
      el("button", { text: "−", title: "zoom out", on: { click: () => this.views.forEach(v => v.setZoom(v.zoom / 1.25)) } }),
      el("button", { text: "+", title: "zoom in", on: { click: () => this.views.forEach(v => v.setZoom(v.zoom * 1.25)) } }),
      legend);
    const graphs = el("div", { id: "graphs" });
    this.details = el("aside", { id: "details" }, el("p", { class: "muted", text: "Click a box to see its node. Click a module to open or close it." }));
    this.tabs = el("div", { id: "tabs" });
    this.pane = el("div", { id: "pane" });
    const bottom = el("section", { id: "bottom" }, this.tabs, this.pane);
    document.body.append(el("div", { id: "app" }, header, graphs, this.details, bottom));

    this.views = [];
    const mk = (prog, side, caption) => {
      const box = el("div", { class: "graph", id: "graph-" + side }, caption ? el("div", { class: "caption", text: caption }) : null);
      graphs.append(box);
      const v = new GraphView(this, prog, box, side);
      this.views.push(v);
      return v;
    };
    mk(this.a, "a", this.b ? "A: " + this.a.title : null);
    if (this.b) mk(this.b, "b", "B: " + this.b.title);
    this.views.forEach(v => v.render());

    search.addEventListener("input", () => this.search(search.value));
    search.addEventListener("keydown", e => { if (e.key === "Enter") this.nextHit(e.shiftKey ? -1 : 1); });
    document.addEventListener("keydown", e => { if ((e.ctrlKey || e.metaKey) && e.key === "f") { e.preventDefault(); search.focus(); } });

    const tabs = [["Signature", () => this.signaturePane()], [`Findings (${DATA.diagnostics.length})`, () => this.findingsPane()]];
    if (DATA.run) tabs.push(["Profile", () => this.profilePane()], ["Flame graph", () => this.flamePane()]);
    if (DATA.numerics) tabs.push(["Numerics", () => this.numericsPane()]);
    if (DATA.compare) tabs.push(["Differences", () => this.comparePane()]);
    tabs.forEach(([name, fn], k) => {
      const b = el("button", { text: name, "data-tab": name.split(" ")[0].toLowerCase() });
      b.addEventListener("click", () => { this.tabs.querySelectorAll("button").forEach(x => x.classList.remove("on")); b.classList.add("on"); this.pane.replaceChildren(fn()); });
      this.tabs.append(b);
      if (k === (DATA.run ? 2 : DATA.compare ? tabs.length - 1 : DATA.diagnostics.length ? 1 : 0)) b.click();
    });
  }
  nodeLink(view, n, text) {
    return el("a", { class: "node", text: text || view.p.nodes[n].n, on: { click: () => this.select(view, n, view.reveal(n)) } });
  }
  // ---- details
  // Shows node n; `drawn` is the box standing for it (its twin when n lies in a folded instance).
  select(view, n, drawn = n) {
    const p = view.p, node = p.nodes[n];
    view.selected = n; view.drawnSel = drawn; view.applyMarks();
    const d = [];
    d.push(el("h2", { text: node.n }));
    if (drawn !== n) d.push(el("div", { class: "muted", text: `in a folded run of identical modules: drawn as ${p.nodes[drawn].n} of ${p.label(p.foldOf(n)[0])}` }));
    d.push(el("div", { text: node.t, id: "node-target" }));
    d.push(el("div", { class: "muted", text: p.d.families[node.f].n + (node.h ? " · higher-order op" : "") }));
    if (node.c) d.push(el("h3", { text: "call (args, kwargs)" }), el("pre", { text: node.c }));
    const ins = el("div");
    node.i.forEach(s => ins.append(s >= 0 ? this.nodeLink(view, s) : el("span", { text: p.d.inputs[-s - 1].n + " (" + p.d.inputs[-s - 1].kind + ")" }), " "));
    d.push(el("h3", { text: "inputs" }), ins);
    if (node.v) d.push(el("h3", { text: "meta['val']" }), el("pre", { text: node.v }));
    const users = el("div");
    p.users[n].slice(0, 50).forEach(u => users.append(this.nodeLink(view, u), " "));
    if (p.users[n].length > 50) users.append(`… ${p.users[n].length} in all`);
    d.push(el("h3", { text: "users" }), users);
    if (view === this.views[0] && DATA.run && DATA.run.ns[n] >= 0) {
      const total = DATA.run.ns.reduce((a, t) => a + Math.max(0, t), 0);
      d.push(el("h3", { text: "time" }), el("div", { text: fmtNs(DATA.run.ns[n]) + ` (${(100 * DATA.run.ns[n] / total).toFixed(1)} % of the nodes' time)` }));
    }
    if (view === this.views[0] && DATA.numerics) {
      const vals = DATA.numerics.values.filter(v => v.node === n);
      if (vals.length) d.push(el("h3", { text: "against the reference" }),
        el("pre", { text: vals.map(v => `${v.n}: ${v.check}  max abs ${fmtNum(v.abs)}  rel ${fmtNum(v.rel)}  cosine ${fmtNum(v.cos, 6)}  SQNR ${fmtNum(v.sqnr)} dB`).join("\n") }));
    }
    if (DATA.compare) {
      const side = view === this.views[0] ? DATA.compare.left : DATA.compare.right;
      const pair = side[n] === null || side[n] === undefined ? null : DATA.compare.pairs[side[n]];
      if (pair) {
        const other = view === this.views[0] ? this.views[1] : this.views[0];
        const partners = el("div", { text: pair.k + (pair.d ? ": " + pair.d : "") + " " });
        const ids = view === this.views[0] ? pair.r : (pair.l >= 0 ? [pair.l] : []);
        ids.forEach(k => partners.append(this.nodeLink(other, k)));
        d.push(el("h3", { text: "in the other program" }), partners);
      }
    }
    const stack = el("div");
    for (const m of p.chain(node.m)) stack.append(el("div", { text: p.mods[m].p + ": " + p.mods[m].ty }));
    d.push(el("h3", { text: "nn_module_stack" }), node.m ? stack : el("div", { class: "muted", text: "(none)" }));
    if (node.s !== undefined) d.push(el("h3", { text: "stack trace" }), el("pre", { text: p.d.traces[node.s] }));
    const diags = DATA.diagnostics.filter(x => view === this.views[0] && x.n === node.n && !x.g);
    if (diags.length) d.push(el("h3", { text: "findings" }), ...diags.map(x => el("div", { class: x.s === "error" ? "bad" : "", text: `${x.r} ${x.msg}` })));
    this.details.replaceChildren(...d);
  }
  showModule(view, m) {
    const p = view.p, mod = p.mods[m];
    const d = [el("h2", { text: mod.p }), el("div", { text: mod.ty }), el("div", { class: "muted", text: `${mod.tn} nodes` })];
    if (mod.fold) d.push(el("h3", { text: `drawn once for ${mod.fold.length} identical modules` }), el("div", { text: mod.fold.join(", ") }));
    if (view === this.views[0] && DATA.run) {
      let t = 0; for (const n of view.moduleNodes(m)) if (DATA.run.ns[n] > 0) t += DATA.run.ns[n];
      d.push(el("h3", { text: "time" }), el("div", { text: fmtNs(t) }));
    }
    this.details.replaceChildren(...d);
  }
  showInput(view, k) {
    const inp = view.p.d.inputs[k];
    const users = el("div");
    view.p.inputUsers[k].forEach(u => users.append(this.nodeLink(view, u), " "));
    this.details.replaceChildren(el("h2", { text: inp.n }), el("div", { text: inp.kind }), el("pre", { text: inp.v || "" }), el("h3", { text: "users" }), users);
  }
  // ---- search
  search(q) {
    q = q.trim().toLowerCase();
    this.hits = [];
    for (const v of this.views) {
      const p = v.p;
      v.hits = new Set();
      if (q) p.nodes.forEach((n, i) => {
        if (n.n.toLowerCase().includes(q) || n.t.toLowerCase().includes(q) || (n.m && p.mods[n.m].p.toLowerCase().includes(q))) { v.hits.add(i); this.hits.push([v, i]); }
      });
      v.applyMarks();
    }
    this.hitAt = -1;
    this.hitCount.textContent = q ? `${this.hits.length} hits` : "";
    this.showHitList();
  }
  showHitList() {
    document.getElementById("hitlist")?.remove();
    if (!this.hits.length) return;
    const list = el("div", { id: "hitlist" });
    this.hits.slice(0, 200).forEach(([v, n], k) => list.append(el("div", {
      text: (this.views.length > 1 ? v.side.toUpperCase() + ": " : "") + v.p.nodes[n].n + "  " + v.p.nodes[n].k + (v.p.nodes[n].m ? "  " + v.p.mods[v.p.nodes[n].m].p : ""),
      on: { click: () => { this.hitAt = k - 1; this.nextHit(1); list.remove(); } } })));
    const s = document.getElementById("search").getBoundingClientRect();
    list.style.left = s.left + "px"; list.style.top = s.bottom + 2 + "px";
    document.body.append(list);
    setTimeout(() => document.addEventListener("click", e => { if (e.target.id !== "search") list.remove(); }, { once: true }), 0);
  }
  nextHit(step) {
    if (!this.hits.length) return;
    document.getElementById("hitlist")?.remove();
    this.hitAt = (this.hitAt + step + this.hits.length) % this.hits.length;
    const [v, n] = this.hits[this.hitAt];
    this.select(v, n, v.reveal(n));
    this.hitCount.textContent = `${this.hitAt + 1} of ${this.hits.length} hits`;
  }
  // ---- panes
  sortable(headers, rows, numeric) {
    // rows: arrays of [display node, sort key]
    const table = el("table"), body = el("tbody");
    const head = el("tr");
    let sortCol = -1, asc = true;
    const draw = () => body.replaceChildren(...rows.slice(0, TABLE_ROWS).map(r => el("tr", {}, ...r.map((c, k) => el("td", { class: numeric[k] ? "num" : "" }, c[0])))));
    headers.forEach((h, k) => head.append(el("th", { class: numeric[k] ? "num" : "", text: h, on: { click: () => {
      asc = sortCol === k ? !asc : !numeric[k]; sortCol = k;
      rows.sort((a, b) => (a[k][1] < b[k][1] ? -1 : a[k][1] > b[k][1] ? 1 : 0) * (asc ? 1 : -1));
      draw();
    } } })));
    table.append(el("thead", {}, head), body);
    draw();
    const note = rows.length > TABLE_ROWS ? el("p", { class: "muted", text: `showing ${TABLE_ROWS} of ${rows.length} rows` }) : null;
    return el("div", {}, table, note);
  }
  signaturePane() { return el("pre", { text: DATA.signature }); }
  findingsPane() {
    if (!DATA.diagnostics.length) return el("p", { text: "The verifier found nothing: the program follows every Export IR rule it checks." });
    const v = this.views[0];
    const rows = DATA.diagnostics.map(x => {
      const n = this.a.byName.get(x.n);
      return [[x.s, x.s], [x.r, x.r], [n !== undefined && !x.g ? this.nodeLink(v, n) : (x.g ? x.g + ": " : "") + x.n, x.n], [x.msg, x.msg], [x.fix, x.fix]];
    });
    return this.sortable(["severity", "rule", "node", "what", "fix"], rows, [0, 0, 0, 0, 0]);
  }
  profilePane() {
    const run = DATA.run, v = this.views[0], p = this.a;
    const total = run.ns.reduce((a, t) => a + Math.max(0, t), 0);
    const rows = [];
    run.ns.forEach((t, n) => {
      if (t < 0) return;
      const node = p.nodes[n], mod = node.m ? p.mods[node.m].p : "";
      rows.push([[this.nodeLink(v, n), node.n], [node.k, node.k], [mod, mod], [fmtNs(t), t], [(100 * t / total).toFixed(1) + " %", t]]);
    });
    rows.sort((a, b) => b[3][1] - a[3][1]);
    const head = el("p", { text: `median run ${fmtNs(run.wall)} over ${run.runs} runs on ${run.threads} threads; inputs: ${run.from}` + (run.verdict ? "; " + run.verdict : "") });
    return el("div", {}, head, this.sortable(["node", "op", "module", "median", "share"], rows, [0, 0, 0, 1, 1]));
  }
  flamePane() {
    // modules as an icicle: width by total time, children below their parent, the root on top
    const run = DATA.run, p = this.a, v = this.views[0];
    const time = p.mods.map(() => 0);
    run.ns.forEach((t, n) => { if (t > 0) for (let m = p.nodes[n].m; m >= 0; m = m === 0 ? -1 : p.mods[m].up) time[m] += t; });
    const width = Math.max(600, this.pane.clientWidth - 30), box = el("div", { class: "flame" });
    let depthMax = 0;
    const draw = (m, x, w, depth) => {
      if (w < 2) return;
      depthMax = Math.max(depthMax, depth);
      const pct = time[0] ? (100 * time[m] / time[0]).toFixed(1) : "0";
      const name = m === 0 ? "all nodes" : p.mods[m].p.split(".").pop();
      const fill = ramp(time[0] ? Math.sqrt(time[m] / time[0]) : 0);
      const light = time[0] && Math.sqrt(time[m] / time[0]) < 0.55;
      box.append(el("div", { style: `left:${x}px;top:${depth * 19}px;width:${w}px;background:${fill};color:${light ? "#fff" : "#111"}`,
        title: `${m === 0 ? "(root)" : p.mods[m].p} · ${p.mods[m].t}\n${fmtNs(time[m])} (${pct} %)`, text: `${name} ${pct} %`,
        on: { click: () => { if (m) v.revealModule(m); } } }));
      let cx = x;
      for (const c of p.mods[m].ch) { const cw = time[m] ? w * time[c] / time[m] : 0; draw(c, cx, cw, depth + 1); cx += cw; }
    };
    draw(0, 0, width, 0);
    box.style.height = (depthMax + 1) * 19 + "px"; box.style.width = width + "px";
    return el("div", {}, el("p", { class: "muted", text: "Time per module (self and below), as a share of all nodes' time; click a module to show it." }), box);
  }
  numericsPane() {
    const num = DATA.numerics, v = this.views[0];
    const rows = num.values.map(x => [[this.nodeLink(v, x.node, x.n), x.n], [x.shape, x.shape], [el("span", { class: x.bad ? "bad" : "", text: x.check }), x.check],
      [fmtNum(x.abs), x.abs ?? Infinity], [fmtNum(x.rel), x.rel ?? Infinity], [fmtNum(x.cos, 6), x.cos ?? 1], [fmtNum(x.sqnr), x.sqnr ?? Infinity]]);
    return el("div", {}, el("p", { text: num.verdict + " (reference: " + num.reference + ")" }),
      this.sortable(["value", "shape", "check", "max abs", "normwise rel", "cosine", "SQNR dB"], rows, [0, 0, 0, 1, 1, 1, 1]));
  }
  comparePane() {
    const c = DATA.compare, [va, vb] = this.views;
    const rows = c.pairs.filter(x => x.k !== "same").map(x => {
      const left = x.l >= 0 ? this.nodeLink(va, x.l) : "", right = el("span");
      x.r.forEach(k => right.append(this.nodeLink(vb, k), " "));
      return [[x.k, x.k], [left, x.l], [right, x.r.join(",")], [x.d, x.d]];
    });
    return el("div", {}, el("p", { text: `${c.summary} (matched ${c.method})` }), this.sortable(["kind", "A", "B", "what changed"], rows, [0, 0, 0, 0]));
  }
}

window.irlensReport = new Report();
})();
