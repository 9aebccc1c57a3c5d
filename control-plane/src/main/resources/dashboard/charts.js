// The dashboard's charts, drawn as SVG by the page itself (no library, nothing fetched). Every
// series is told apart by shape, dash pattern and a text label, never by colour alone, and every
// data point carries its numbers (data-* attributes and a <title>), so what is drawn can be
// checked against the API.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

// Each share has its shape and a small horizontal offset, so equal times stay four visible marks.
const SHARES = [
  { key: 'p50', label: '50 %', shape: 'circle', dx: -4.5 },
  { key: 'p90', label: '90 %', shape: 'square', dx: -1.5 },
  { key: 'p99', label: '99 %', shape: 'triangle', dx: 1.5 },
  { key: 'p100', label: '100 %', shape: 'diamond', dx: 4.5 },
];

/** Dash patterns for lag series: the fleet first (solid), then the largest groups. */
const DASHES = ['', '7 4', '2 3', '9 3 2 3', '1 6'];
const LAG_GROUPS = 4;

function el(tag, attrs, parent, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    node.setAttribute(name, String(value));
  }
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/** Empties the chart and sets its size; returns it. */
function canvas(id, width, height, label) {
  const root = $(id);
  root.replaceChildren();
  root.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  root.setAttribute('role', 'img');
  root.setAttribute('aria-label', label);
  return root;
}

function marker(parent, shape, x, y, r) {
  switch (shape) {
    case 'circle':
      return el('circle', { cx: x, cy: y, r, class: 'mark hollow' }, parent);
    case 'square':
      return el('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: 'mark hollow' }, parent);
    case 'triangle':
      return el('polygon', { points: [x, y - r * 1.2, x + r * 1.1, y + r * 0.8, x - r * 1.1, y + r * 0.8].join(' '),
        class: 'mark hollow' }, parent);
    default:
      return el('polygon', { points: [x, y - r * 1.3, x + r * 1.1, y, x, y + r * 1.3, x - r * 1.1, y].join(' '),
        class: 'mark solid' }, parent);
  }
}

/** A short axis label: 0.05 -> "50 ms", 100 -> "100 s", 1800 -> "30 min". */
function tickSeconds(v) {
  if (v === 0) return '0';
  if (v < 1) return Math.round(v * 1000) + ' ms';
  if (v < 1000) return (Math.round(v * 10) / 10) + ' s';
  return Math.round(v / 60) + ' min';
}

function number(n) {
  return Number(n).toLocaleString('en-US');
}

function percent(part, whole) {
  if (whole === 0) return '–';
  const p = (100 * part) / whole;
  if (p > 0 && p < 0.1) return '<0.1 %';
  return (p < 10 && p !== Math.round(p) ? p.toFixed(1) : Math.round(p)) + ' %';
}

/** 1, 2 or 5 times a power of ten, at least {@code value}. */
function niceCeiling(value) {
  if (value <= 0) return 1;
  const power = Math.pow(10, Math.floor(Math.log10(value)));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

// A series' dash pattern; they repeat past the fifth series.
function dash(i) {
  return DASHES[i % DASHES.length];
}

// Direct labels at the lines' ends (x = `edge`), pushed apart so equal values stay readable. Each
// label is { g, i, name, y }: the series' group, index, name and its last point's height.
function endLabels(labels, edge) {
  labels.sort((a, b) => a.y - b.y);
  let floor = -Infinity;
  for (const l of labels) {
    const ly = Math.max(l.y, floor + 12);
    floor = ly;
    el('line', { x1: edge + 4, x2: edge + 22, y1: ly, y2: ly, class: 'line', 'stroke-dasharray': dash(l.i) }, l.g);
    el('text', { x: edge + 26, y: ly + 4, class: 'legend' }, l.g, l.name);
  }
}

// The time axis of the 15-minute charts: a tick every 5 minutes back from `end`, at height `y`.
function minutesAxis(root, x, end, y) {
  for (let m = 15; m >= 0; m -= 5) {
    const t = end - m * 60 * 1000;
    el('text', { x: x(t), y, class: 'tick', 'text-anchor': m === 0 ? 'end' : 'middle' }, root,
        m === 0 ? 'now' : '−' + m + ' min');
  }
}

/**
 * Convergence of the recent epochs: for each epoch (oldest left), the time from its creation until
 * 50 / 90 / 99 / 100 % of the clients held it, on a log scale; NACKed epochs are marked.
 */
function drawConvergence(id, epochsNewestFirst) {
  const W = 640, H = 270, left = 64, right = 12, top = 34, bottom = 40;
  const root = canvas(id, W, H, 'Convergence of the last ' + plural(epochsNewestFirst.length, 'epoch'));
  const epochs = epochsNewestFirst.slice().reverse();
  const values = [];
  epochs.forEach((e) => SHARES.forEach((s) => {
    if (e.seconds[s.key] !== null) values.push(Math.max(0.001, e.seconds[s.key]));
  }));
  const lo = values.length ? Math.pow(10, Math.floor(Math.log10(Math.min(...values)))) : 0.001;
  const hi = Math.max(lo * 10, values.length ? Math.pow(10, Math.ceil(Math.log10(Math.max(...values) * 1.0001))) : 1);
  const y = (v) => top + (H - top - bottom) * (1 - (Math.log10(Math.max(lo, v)) - Math.log10(lo))
      / (Math.log10(hi) - Math.log10(lo)));
  const band = (W - left - right) / Math.max(1, epochs.length);
  const x = (i) => left + band * (i + 0.5);

  for (let d = lo; d <= hi * 1.0001; d *= 10) {
    el('line', { x1: left, x2: W - right, y1: y(d), y2: y(d), class: 'grid' }, root);
    el('text', { x: left - 6, y: y(d) + 4, class: 'tick', 'text-anchor': 'end' }, root, tickSeconds(d));
  }
  el('text', { x: 12, y: top + (H - top - bottom) / 2, class: 'axis-label', 'text-anchor': 'middle',
    transform: 'rotate(-90 12 ' + (top + (H - top - bottom) / 2) + ')' }, root, 'time since published (log)');
  el('text', { x: left + (W - left - right) / 2, y: H - 6, class: 'axis-label', 'text-anchor': 'middle' }, root, 'epoch');

  epochs.forEach((e, i) => {
    const group = el('g', { class: 'epoch', 'data-epoch': e.epoch, 'data-nacked': e.nacked }, root);
    if (e.nacked > 0) {
      el('rect', { x: x(i) - band / 2 + 1, y: top, width: band - 2, height: H - top - bottom, class: 'nacked' }, group);
      el('text', { x: x(i), y: top - 4, class: 'nack-label', 'text-anchor': 'middle' }, group, '✕')
          .appendChild(el('title', {}, null, 'epoch ' + e.epoch + ': NACKed by ' + plural(e.nacked, 'client')));
    }
    const reached = SHARES.filter((s) => e.seconds[s.key] !== null);
    if (reached.length > 1) {
      el('line', { x1: x(i), x2: x(i), y1: y(e.seconds[reached[0].key]),
        y2: y(e.seconds[reached[reached.length - 1].key]), class: 'span' }, group);
    }
    for (const s of SHARES) {
      const v = e.seconds[s.key];
      if (v === null) continue;
      const point = el('g', { class: 'point', 'data-share': s.key, 'data-seconds': v }, group);
      el('title', {}, point, 'epoch ' + e.epoch + ': ' + s.label + ' of ' + number(e.clients) + (e.clients === 1 ? ' client' : ' clients') + ' in ' + seconds(v));
      marker(point, s.shape, x(i) + s.dx, y(v), 4);
    }
    if (epochs.length <= 10 || i % 2 === epochs.length % 2 || i === epochs.length - 1) {
      el('text', { x: x(i), y: H - bottom + 14, class: 'tick', 'text-anchor': 'middle' }, root, e.epoch);
    }
  });

  let lx = left;
  for (const s of SHARES) {
    marker(root, s.shape, lx + 5, 12, 4.5);
    el('text', { x: lx + 13, y: 16, class: 'legend' }, root, s.label);
    lx += 62;
  }
  el('text', { x: lx + 2, y: 16, class: 'legend nack-label' }, root, '✕ NACKed');
}

/**
 * One lag measure over the last minutes: the whole fleet (solid) and the largest node groups (each
 * its own dash pattern, labelled at its end).
 *
 * @param field 'behind' or 'maxLagSeconds'
 */
function drawLag(id, lag, field, title) {
  const W = 640, H = 210, left = 52, right = 96, top = 14, bottom = 30;
  const root = canvas(id, W, H, title);
  const samples = lag.samples;
  const end = samples.length ? Date.parse(samples[samples.length - 1].at) : Date.now();
  const span = 15 * 60 * 1000;
  const x = (t) => left + (W - left - right) * (1 - (end - t) / span);
  const series = [{ name: 'all clients', points: samples.map((s) => ({ at: s.at, value: s[field] })) }];
  const newest = samples.length ? samples[samples.length - 1].groups : [];
  for (const g of newest.slice(0, LAG_GROUPS)) {
    series.push({ name: g.group, points: samples.map((s) => {
      const row = s.groups.find((r) => r.group === g.group);
      return { at: s.at, value: row ? row[field] : 0 };
    }) });
  }
  const max = niceCeiling(Math.max(0, ...series.flatMap((s) => s.points.map((p) => p.value))));
  const y = (v) => top + (H - top - bottom) * (1 - v / max);

  for (const v of [0, max / 2, max]) {
    el('line', { x1: left, x2: W - right, y1: y(v), y2: y(v), class: 'grid' }, root);
    el('text', { x: left - 6, y: y(v) + 4, class: 'tick', 'text-anchor': 'end' }, root,
        field === 'maxLagSeconds' ? tickSeconds(v) : number(v));
  }
  minutesAxis(root, x, end, H - bottom + 16);
  const labels = [];
  series.forEach((s, i) => {
    const g = el('g', { class: 'series', 'data-series': s.name }, root);
    const coords = s.points.map((p) => x(Date.parse(p.at)) + ',' + y(p.value));
    el('polyline', { points: coords.join(' '), class: 'line', 'stroke-dasharray': dash(i) }, g);
    for (const p of s.points) {
      const point = el('circle', { cx: x(Date.parse(p.at)), cy: y(p.value), r: 1.6, class: 'point',
        'data-at': p.at, 'data-value': p.value }, g);
      el('title', {}, point, s.name + ' at ' + new Date(Date.parse(p.at)).toLocaleTimeString() + ': '
          + (field === 'maxLagSeconds' ? seconds(p.value) : number(p.value)));
    }
    if (s.points.length) {
      labels.push({ g, i, name: s.name, y: y(s.points[s.points.length - 1].value) });
    }
  });
  endLabels(labels, W - right);
  if (!samples.length) {
    el('text', { x: left + 8, y: top + 20, class: 'legend' }, root, 'no samples yet');
  }
}

/**
 * Clients per epoch held, newest first, as horizontal bars with their count and share: a handful
 * of stragglers among 10,000 clients still gets a visible bar and a number.
 */
function drawHistogram(id, byEpoch, current, total) {
  const ROWS = 12, W = 640, row = 20, left = 110, right = 130;
  const entries = Object.entries(byEpoch).map(([epoch, count]) => ({ epoch: Number(epoch), count }))
      .sort((a, b) => b.epoch - a.epoch);
  const shown = entries.slice(0, ROWS);
  const rest = entries.slice(ROWS);
  if (rest.length) {
    shown.push({ epoch: null, label: 'older (' + plural(rest.length, 'epoch') + ')', count: rest.reduce((n, e) => n + e.count, 0) });
  }
  const H = Math.max(1, shown.length) * row + 8;
  const root = canvas(id, W, H, 'Clients by epoch held');
  const width = W - left - right;
  shown.forEach((e, i) => {
    const label = e.epoch === null ? e.label : e.epoch + (e.epoch === current ? ' (current)' : '');
    const g = el('g', { class: 'bar', 'data-epoch': e.epoch === null ? 'older' : e.epoch, 'data-count': e.count }, root);
    el('text', { x: left - 8, y: i * row + 15, class: 'tick', 'text-anchor': 'end' }, g, label);
    const w = e.count === 0 ? 0 : Math.max(2, (width * e.count) / Math.max(1, total));
    el('rect', { x: left, y: i * row + 4, width: w, height: row - 8,
      class: e.epoch === current ? 'fill-current' : 'fill-other' }, g);
    el('text', { x: left + w + 6, y: i * row + 15, class: 'tick' }, g, number(e.count) + ' (' + percent(e.count, total) + ')');
  });
  if (!shown.length) {
    el('text', { x: left, y: 15, class: 'legend' }, root, 'no clients connected');
  }
}

/** How many places the share plot draws on their own; the rest are one line, "other". */
const SHARE_SERIES = 8;

/**
 * Each locality's (or endpoint's) share of the work issued per reporting interval over the last
 * 15 minutes, in percent: one line per place (its own dash pattern, labelled at its end), so a
 * backend that gets more than its share, or none, stands out. Points carry data-at (the
 * interval's end) and data-value (the share in percent, as computed from the API's history).
 */
function drawShare(id, history, title) {
  const W = 640, H = 210, left = 52, right = 120, top = 14, bottom = 30;
  const root = canvas(id, W, H, title);
  const end = history.length ? Date.parse(history[history.length - 1].end) : Date.now();
  const span = 15 * 60 * 1000;
  const x = (t) => left + (W - left - right) * (1 - (end - t) / span);
  const y = (v) => top + (H - top - bottom) * (1 - v / 100);
  const newest = history.length ? history[history.length - 1].issued : {};
  const names = Object.keys(newest).sort((a, b) => newest[b] - newest[a] || a.localeCompare(b));
  history.forEach((p) => Object.keys(p.issued).forEach((n) => { if (!names.includes(n)) names.push(n); }));
  const own = names.slice(0, names.length > SHARE_SERIES ? SHARE_SERIES - 1 : SHARE_SERIES);
  const series = own.map((name) => ({ name, of: (issued) => issued[name] || 0 }));
  if (names.length > own.length) {
    series.push({ name: 'other', of: (issued) => Object.entries(issued)
        .filter(([n]) => !own.includes(n)).reduce((sum, [, v]) => sum + v, 0) });
  }
  for (const v of [0, 50, 100]) {
    el('line', { x1: left, x2: W - right, y1: y(v), y2: y(v), class: 'grid' }, root);
    el('text', { x: left - 6, y: y(v) + 4, class: 'tick', 'text-anchor': 'end' }, root, v + ' %');
  }
  minutesAxis(root, x, end, H - bottom + 16);
  const labels = [];
  series.forEach((s, i) => {
    const g = el('g', { class: 'series', 'data-series': s.name }, root);
    const points = history.map((p) => {
      const total = Object.values(p.issued).reduce((sum, v) => sum + v, 0);
      return { at: p.end, value: total === 0 ? 0 : (100 * s.of(p.issued)) / total, issued: s.of(p.issued) };
    });
    el('polyline', { points: points.map((p) => x(Date.parse(p.at)) + ',' + y(p.value)).join(' '), class: 'line',
      'stroke-dasharray': dash(i) }, g);
    for (const p of points) {
      const point = el('circle', { cx: x(Date.parse(p.at)), cy: y(p.value), r: 1.6, class: 'point',
        'data-at': p.at, 'data-value': p.value, 'data-issued': p.issued }, g);
      el('title', {}, point, s.name + ' until ' + new Date(Date.parse(p.at)).toLocaleTimeString() + ': '
          + number(p.issued) + ' requests, ' + (Math.round(p.value * 10) / 10) + ' %');
    }
    if (points.length) {
      labels.push({ g, i, name: s.name, y: y(points[points.length - 1].value) });
    }
  });
  endLabels(labels, W - right);
  if (!history.length) {
    el('text', { x: left + 8, y: top + 20, class: 'legend' }, root, 'no closed reporting interval yet');
  }
}
