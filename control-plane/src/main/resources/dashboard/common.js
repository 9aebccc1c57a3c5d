// Shared by the dashboard and the epoch page: the API client (with the token the operator
// entered), table helpers and time formatting. Every value from the API is written with
// textContent, never parsed as HTML: NACK messages and reasons come from clients and people.
'use strict';

const TYPE_NAMES = {
  'envoy.config.cluster.v3.Cluster': 'CDS',
  'envoy.config.endpoint.v3.ClusterLoadAssignment': 'EDS',
  'envoy.config.listener.v3.Listener': 'LDS',
  'envoy.config.route.v3.RouteConfiguration': 'RDS',
};

const Signalbox = {
  token: sessionStorage.getItem('signalbox.token'),
};

const $ = (id) => document.getElementById(id);

function typeName(url) {
  const full = url.substring(url.lastIndexOf('/') + 1);
  return TYPE_NAMES[full] || full;
}

function ago(iso, now) {
  if (!iso) return '–';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 120) return s + ' s ago';
  if (s < 7200) return Math.round(s / 60) + ' min ago';
  return Math.round(s / 3600) + ' h ago';
}

/** 0.042 -> "42 ms", 3.5 -> "3.5 s", 95 -> "1 min 35 s". */
function seconds(value) {
  if (value === null || value === undefined) return '–';
  if (value < 1) return Math.round(value * 1000) + ' ms';
  if (value < 60) return (Math.round(value * 10) / 10) + ' s';
  const m = Math.floor(value / 60);
  const s = Math.round(value - 60 * m);
  return m + ' min' + (s ? ' ' + s + ' s' : '');
}

/** 1 -> "1 client", 2 -> "2 clients": every count the dashboard prints goes through here. */
function plural(n, word) {
  return n + ' ' + word + (n === 1 ? '' : 's');
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

function cell(row, text, cls) {
  const td = document.createElement('td');
  td.textContent = text === null || text === undefined ? '–' : String(text);
  if (cls) td.className = cls;
  row.appendChild(td);
  return td;
}

function fill(tableId, items, render) {
  const body = $(tableId).tBodies[0];
  const rows = items.map((item) => {
    const tr = document.createElement('tr');
    render(tr, item);
    return tr;
  });
  body.replaceChildren(...rows);
}

/** Shows the table, or the "nothing here" paragraph next to it. */
function fillOrEmpty(tableId, emptyId, items, render) {
  $(tableId).hidden = items.length === 0;
  $(emptyId).hidden = items.length > 0;
  fill(tableId, items, render);
}

class Unauthorized extends Error {}

async function api(path, options) {
  const headers = { Accept: 'application/json' };
  if (Signalbox.token) headers.Authorization = 'Bearer ' + Signalbox.token;
  const init = { headers, cache: 'no-store' };
  if (options && options.method) {
    init.method = options.method;
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body || {});
  }
  const response = await fetch(path, init);
  if (response.status === 401 || (response.status === 403 && !init.method)) {
    const body = await response.json().catch(() => ({}));
    throw new Unauthorized(body.message || response.statusText);
  }
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.message || path + ': HTTP ' + response.status);
  }
  return { body: await response.json(), total: response.headers.get('X-Total-Count') };
}

function useToken(value) {
  Signalbox.token = value;
  sessionStorage.setItem('signalbox.token', value);
}
