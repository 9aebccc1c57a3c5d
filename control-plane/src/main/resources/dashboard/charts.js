// The dashboard's charts, drawn by uPlot (served from the jar's WebJar as /dashboard/uplot.js, no
// CDN). Every series has its own colour from the Okabe–Ito palette (told apart with colour-blind
// vision too), a legend entry that shows its newest value, or the value under the cursor on hover,
// and, where colours could still be confused, a dash pattern. What each chart was given is kept in
// Charts.shown, so the browser tests can hold it against the API.
'use strict';

// Okabe–Ito, in the order that reads best on white; the yellow (#F0E442) is left out: too faint.
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
const DASHES = [[], [6, 3], [2, 2], [8, 3, 2, 3]];
const FLEET_COLOUR = '#000000';
const OTHER_COLOUR = '#8c8c8c';
const NACK_COLOUR = 'rgba(213, 94, 0, 0.12)';
const CHART_HEIGHT = 215;

// Rings of growing size, so shares reached at the same moment stay visible one inside the other.
const SHARES = [
  { key: 'p50', label: '50 %', colour: '#009E73', size: 6 },
  { key: 'p90', label: '90 %', colour: '#0072B2', size: 10 },
  { key: 'p99', label: '99 %', colour: '#CC79A7', size: 14 },
  { key: 'p100', label: '100 %', colour: '#D55E00', size: 18 },
];
const LAG_GROUPS = 4;
/** How many places the share plot draws on their own; the rest are one series, "other". */
const SHARE_SERIES = 7;

const Charts = { plots: {}, shown: {} };

/** A short axis label: 0.05 -> "50 ms", 100 -> "100 s", 1800 -> "30 min". */
function tickSeconds(v) {
  if (v === 0) return '0';
  if (v < 1) return (Math.round(v * 1000 * 10) / 10) + ' ms';
  if (v < 120) return (Math.round(v * 10) / 10) + ' s';
  return (Math.round(v / 6) / 10) + ' min';
}

/** 1, 2 or 5 times a power of ten, at least {@code value} (and at least 1: counts are whole). */
function niceCeiling(value) {
  if (value <= 1) return 1;
  const power = Math.pow(10, Math.floor(Math.log10(value)));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

// Whole-number steps only: an axis of client counts never shows "0.5".
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];

/** The time axis spans the samples it has (at least 10 s), not a fixed window. */
function timeRange(u, min, max) {
  if (min === null || max === null) return [Date.now() / 1000 - 10, Date.now() / 1000];
  return [Math.min(min, max - 10), max];
}

/** Whole decades around the data, so both ends of a log axis carry a label. */
function decades(u, min, max) {
  if (min === null || max === null) return [0.01, 10];
  const lo = Math.pow(10, Math.floor(Math.log10(min)));
  const hi = Math.pow(10, Math.ceil(Math.log10(max * 1.0001)));
  return [lo, Math.max(hi, lo * 10)];
}

/** Ticks on a log axis: each decade, and 2 and 5 times it while the axis spans few decades. */
function logSplits(u, axisIdx, min, max) {
  const splits = [];
  const few = Math.log10(max / min) <= 2;
  for (let d = min; d <= max * 1.0001; d *= 10) {
    splits.push(d);
    if (few && d * 2 < max) splits.push(d * 2);
    if (few && d * 5 < max) splits.push(d * 5);
  }
  return splits;
}

/** A tick on every epoch while their numbers fit side by side, else on every second (or more). */
function epochSplits(u) {
  const n = u.data[0].length;
  const step = Math.max(1, Math.ceil((n * 34) / Math.max(1, u.bbox.width / devicePixelRatio)));
  const splits = [];
  for (let i = (n - 1) % step; i < n; i += step) splits.push(i);
  return splits;
}

/** Half a slot either side of the first and last epoch, so no point sits on the plot's edge. */
function slots(u, min, max) {
  return [min - 0.5, max + 0.5];
}

function clockLabels(u, splits) {
  const span = u.scales.x.max - u.scales.x.min;
  return splits.map((s) => new Date(s * 1000).toLocaleTimeString('en-GB',
      span > 1800 ? { hour: '2-digit', minute: '2-digit' } : { hour: '2-digit', minute: '2-digit', second: '2-digit' }));
}

const AXIS_FONT = '12px system-ui, sans-serif';

function axis(extra) {
  return Object.assign({ font: AXIS_FONT, labelFont: AXIS_FONT, stroke: '#57606a',
    grid: { stroke: '#e1e4e8', width: 1 }, ticks: { stroke: '#d0d7de', width: 1, size: 4 } }, extra);
}

/**
 * Shows `spec` in the element `id`: the plot is built once per set of series and then only given
 * new data, so the cursor and the legend's hover state survive the 2 s poll.
 *
 * spec: { title, x: [keys], xs: [numbers on the x scale], series: [{ name, colour, dash, width, values }],
 *         kind: 'time' | 'epochs', y: { log, range, steps, format }, draw }
 */
function plot(id, spec) {
  const root = $(id);
  Charts.shown[id] = { x: spec.x, series: spec.series.map((s) => ({ name: s.name, values: s.values })) };
  root.setAttribute('aria-label', spec.title);
  const data = [spec.xs, ...spec.series.map((s) => s.values.map((v) => (v === null ? null : spec.y.log ? Math.max(0.001, v) : v)))];
  const signature = spec.kind + '|' + spec.series.map((s) => s.name + s.colour).join('|');
  const existing = Charts.plots[id];
  if (existing && existing.signature === signature) {
    existing.spec = spec;
    existing.u.setData(data);
    return existing.u;
  }
  if (existing) existing.u.destroy();
  const entry = { signature, spec };
  const newest = (u, i) => {
    const values = u.data[i];
    for (let k = values.length - 1; k >= 0; k--) if (values[k] !== null) return k;
    return null;
  };
  // Off the plot the legend shows the newest values, on it those under the cursor.
  const series = [{
    label: spec.kind === 'time' ? 'Time' : 'Epoch',
    value: (u, v, i, idx) => {
      const keys = entry.spec.x;
      const key = idx === null || idx === undefined ? keys[keys.length - 1] : keys[idx];
      return key === undefined ? '–' : spec.kind === 'time' ? new Date(key).toLocaleTimeString('en-GB') : String(key);
    },
  }];
  spec.series.forEach((s, i) => series.push({
    label: s.name,
    stroke: s.colour,
    width: spec.kind === 'epochs' ? 0 : s.width || 2,
    dash: s.dash || [],
    spanGaps: false,
    points: spec.kind === 'epochs' ? { show: true, size: s.size, width: 2, fill: i === 0 ? s.colour : 'rgba(0,0,0,0)' }
      : { show: false },
    paths: spec.kind === 'epochs' ? () => null : undefined,
    value: (u, v, si, idx) => {
      const k = idx === null || idx === undefined ? newest(u, si) : idx;
      const raw = k === null ? null : entry.spec.series[i].values[k];
      return raw === null || raw === undefined ? '–' : spec.y.format(raw);
    },
  }));
  const width = Math.max(300, root.clientWidth);
  root.replaceChildren();
  const u = new uPlot({
    width,
    height: CHART_HEIGHT,
    // Room on the right for half of the newest time label, which sits on the plot's edge.
    padding: [10, 34, 0, 4],
    legend: { show: true, live: true },
    cursor: { drag: { x: false, y: false }, points: { size: 7 } },
    scales: {
      x: spec.kind === 'time' ? { time: true, range: timeRange } : { time: false, distr: 2, range: slots },
      y: spec.y.log ? { distr: 3, log: 10, range: decades } : { range: spec.y.range },
    },
    axes: [
      spec.kind === 'time' ? axis({ values: clockLabels, space: 70 })
          : axis({ splits: epochSplits, values: (u, splits) => splits.map((v) => (v === undefined ? '' : String(v))) }),
      axis({ size: 62, space: 24, incrs: spec.y.steps,
        splits: spec.y.log ? logSplits : undefined, values: (u, splits) => splits.map((v) => spec.y.format(v)) }),
    ],
    series,
    hooks: spec.draw ? { drawClear: [(p) => entry.spec.draw(p)] } : {},
  }, data, root);
  entry.u = u;
  Charts.plots[id] = entry;
  // Each legend row names its series in the DOM, so the tests can find it by name.
  u.root.querySelectorAll('.u-legend tr.u-series').forEach((tr, i) => {
    tr.dataset.series = i === 0 ? '' : spec.series[i - 1].name;
  });
  return u;
}

window.addEventListener('resize', () => {
  for (const [id, entry] of Object.entries(Charts.plots)) {
    entry.u.setSize({ width: Math.max(300, $(id).clientWidth), height: CHART_HEIGHT });
  }
});

/**
 * Convergence of the recent epochs: for each epoch (oldest left), the time from its creation until
 * 50 / 90 / 99 / 100 % of the clients held it, on a log scale; NACKed epochs are shaded.
 */
function drawConvergence(id, epochsNewestFirst) {
  const epochs = epochsNewestFirst.slice().reverse();
  plot(id, {
    title: 'Convergence of the last ' + plural(epochs.length, 'epoch'),
    kind: 'epochs',
    x: epochs.map((e) => e.epoch),
    xs: epochs.map((e) => e.epoch),
    series: SHARES.map((s) => ({ name: s.label, colour: s.colour, size: s.size, values: epochs.map((e) => e.seconds[s.key]) })),
    y: { log: true, format: tickSeconds },
    draw: (u) => {
      const ctx = u.ctx;
      const band = u.bbox.width / Math.max(1, epochs.length);
      epochs.forEach((e, i) => {
        if (!e.nacked) return;
        const x = u.valToPos(i, 'x', true);
        ctx.fillStyle = NACK_COLOUR;
        ctx.fillRect(x - band / 2, u.bbox.top, band, u.bbox.height);
      });
    },
  });
  const nacked = epochs.filter((e) => e.nacked > 0);
  $(id + '-nacked').textContent = nacked.length === 0 ? '' : 'Shaded: NACKed epochs ('
      + nacked.map((e) => e.epoch + ' by ' + plural(e.nacked, 'client')).join(', ') + ').';
}

/**
 * One lag measure over the samples kept: the whole fleet (black) and the largest node groups (each
 * its own colour and dash).
 *
 * @param field 'behind' or 'maxLagSeconds'
 */
function drawLag(id, lag, field, title) {
  const samples = lag.samples;
  const newest = samples.length ? samples[samples.length - 1].groups : [];
  // The fleet is drawn wide under the groups' dashes: where one group is the whole lag, both show.
  const series = [{ name: 'all clients', colour: FLEET_COLOUR, width: 4, values: samples.map((s) => s[field]) }];
  newest.slice(0, LAG_GROUPS).forEach((g, i) => series.push({
    name: g.group, colour: PALETTE[i % PALETTE.length], dash: DASHES[(i + 1) % DASHES.length],
    // A group missing from a sample (not connected yet) is drawn at 0.
    values: samples.map((s) => {
      const row = s.groups.find((r) => r.group === g.group);
      return row ? row[field] : 0;
    }),
  }));
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  plot(id, {
    title,
    kind: 'time',
    x: samples.map((s) => s.at),
    xs: samples.map((s) => Date.parse(s.at) / 1000),
    series,
    y: field === 'behind'
      ? { range: () => [0, niceCeiling(max)], steps: COUNT_STEPS, format: (v) => number(Math.round(v)) }
      : { range: () => [0, Math.max(1, niceCeiling(max))], format: tickSeconds },
  });
}

/**
 * Each locality's (or endpoint's) share of the work issued per reporting interval, in percent: one
 * line per place, so a backend that gets more than its share, or none, stands out.
 */
function drawShare(id, history, title) {
  const newest = history.length ? history[history.length - 1].issued : {};
  const names = Object.keys(newest).sort((a, b) => newest[b] - newest[a] || a.localeCompare(b));
  history.forEach((p) => Object.keys(p.issued).forEach((n) => { if (!names.includes(n)) names.push(n); }));
  const own = names.slice(0, names.length > SHARE_SERIES ? SHARE_SERIES - 1 : SHARE_SERIES);
  const parts = own.map((name) => ({ name, of: (issued) => issued[name] || 0 }));
  if (names.length > own.length) {
    parts.push({ name: 'other', of: (issued) => Object.entries(issued)
        .filter(([n]) => !own.includes(n)).reduce((sum, [, v]) => sum + v, 0) });
  }
  const totals = history.map((p) => Object.values(p.issued).reduce((sum, v) => sum + v, 0));
  plot(id, {
    title,
    kind: 'time',
    x: history.map((p) => p.end),
    xs: history.map((p) => Date.parse(p.end) / 1000),
    series: parts.map((part, i) => ({
      name: part.name,
      colour: part.name === 'other' ? OTHER_COLOUR : PALETTE[i % PALETTE.length],
      dash: DASHES[Math.floor(i / PALETTE.length) % DASHES.length],
      values: history.map((p, k) => (totals[k] === 0 ? 0 : (100 * part.of(p.issued)) / totals[k])),
    })),
    y: { range: () => [0, 100], format: (v) => (Math.round(v * 10) / 10) + ' %' },
  });
}

/**
 * Clients per epoch held, newest first, as bars with their count and share: a handful of
 * stragglers among 10,000 clients still gets a visible bar and a number.
 */
function drawHistogram(id, byEpoch, current, total) {
  const ROWS = 12;
  const entries = Object.entries(byEpoch).map(([epoch, count]) => ({ epoch: Number(epoch), count }))
      .sort((a, b) => b.epoch - a.epoch);
  const shown = entries.slice(0, ROWS);
  const rest = entries.slice(ROWS);
  if (rest.length) {
    shown.push({ epoch: null, label: 'older (' + plural(rest.length, 'epoch') + ')', count: rest.reduce((n, e) => n + e.count, 0) });
  }
  fill(id, shown, (tr, e) => {
    tr.dataset.epoch = e.epoch === null ? 'older' : e.epoch;
    tr.dataset.count = e.count;
    cell(tr, e.epoch === null ? e.label : e.epoch + (e.epoch === current ? ' (current)' : ''), 'num');
    const td = cell(tr, '');
    const bar = document.createElement('span');
    bar.className = 'bar' + (e.epoch === current ? ' current' : '');
    bar.style.width = (e.count === 0 ? 0 : Math.max(0.5, (70 * e.count) / Math.max(1, total))) + '%';
    td.append(bar, ' ' + number(e.count) + ' (' + percent(e.count, total) + ')');
  });
}
