// Signalbox dashboard: polls the admin API every 2 s (DESIGN §6: no stream held open, no external
// network). Every value from the API is written with textContent, never parsed as HTML: NACK
// messages come from clients.
'use strict';

const POLL_MS = 2000;
const CLIENT_ROWS = 200;
const TYPE_NAMES = {
  'envoy.config.cluster.v3.Cluster': 'CDS',
  'envoy.config.endpoint.v3.ClusterLoadAssignment': 'EDS',
  'envoy.config.listener.v3.Listener': 'LDS',
  'envoy.config.route.v3.RouteConfiguration': 'RDS',
};

let token = sessionStorage.getItem('signalbox.token');
let timer = null;

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

class Unauthorized extends Error {}

async function api(path) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const response = await fetch(path, { headers, cache: 'no-store' });
  if (response.status === 401 || response.status === 403) {
    const body = await response.json().catch(() => ({}));
    throw new Unauthorized(body.message || response.statusText);
  }
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(path + ': ' + (body.message || response.status));
  }
  return { body: await response.json(), total: response.headers.get('X-Total-Count') };
}

function renderGlance(status, summary) {
  $('epoch').textContent = status.epoch;
  $('last-safe').textContent = status.lastSafeEpoch;
  $('frozen').textContent = status.frozen ? 'yes' : 'no';
  $('frozen').className = status.frozen ? 'warn' : '';
  $('store').textContent = status.storeAvailable ? (status.pendingPublish ? 'available, publish pending' : 'available') : 'unavailable';
  $('store').className = status.storeAvailable ? 'ok' : 'bad';
  const share = summary.clients === 0 ? '–' : Math.round((100 * summary.onCurrentEpoch) / summary.clients) + '%';
  $('converged').textContent = summary.onCurrentEpoch + ' / ' + summary.clients + ' (' + share + ')';
  $('converged').className = summary.onCurrentEpoch === summary.clients ? 'ok' : 'warn';
  $('nacking').textContent = summary.nacking;
  $('nacking').className = summary.nacking > 0 ? 'bad' : 'ok';
}

function renderNacks(summary, now) {
  $('nacks').hidden = summary.nacks.length === 0;
  $('nacks-empty').hidden = summary.nacks.length > 0;
  fill('nacks', summary.nacks, (tr, n) => {
    tr.dataset.node = n.nodeId;
    cell(tr, n.nodeId);
    cell(tr, n.group);
    cell(tr, typeName(n.type));
    cell(tr, n.epoch, 'num bad');
    cell(tr, n.ackedEpoch, 'num');
    cell(tr, n.message, 'msg');
    cell(tr, ago(n.at, now));
  });
}

function renderGroups(summary) {
  fill('groups', summary.groups, (tr, g) => {
    cell(tr, g.group);
    cell(tr, g.clients, 'num');
    cell(tr, g.onCurrentEpoch, 'num' + (g.onCurrentEpoch === g.clients ? ' ok' : ' warn'));
    cell(tr, g.maxLagEpochs, 'num');
    cell(tr, g.meanLagEpochs.toFixed(2), 'num');
    cell(tr, g.maxLagSeconds.toFixed(1), 'num');
    cell(tr, g.nacking, 'num' + (g.nacking > 0 ? ' bad' : ''));
  });
  const entries = Object.entries(summary.byEpoch);
  fill('by-epoch', entries, (tr, [epoch, count]) => {
    cell(tr, epoch + (Number(epoch) === summary.epoch ? ' (current)' : ''));
    cell(tr, count, 'num');
    const td = cell(tr, '');
    const bar = document.createElement('span');
    bar.className = 'bar';
    bar.style.width = Math.max(1, Math.round((200 * count) / Math.max(1, summary.clients))) + 'px';
    td.appendChild(bar);
    td.append(' ' + Math.round((100 * count) / Math.max(1, summary.clients)) + '%');
  });
}

function renderEpochs(epochs, now) {
  fill('epochs', epochs, (tr, e) => {
    cell(tr, e.epoch, 'num');
    cell(tr, e.status, e.status === 'REJECTED' ? 'bad' : e.status === 'SAFE' ? 'ok' : '');
    cell(tr, e.cause);
    cell(tr, e.reason || '');
    cell(tr, ago(e.createdAt, now)).title = e.createdAt;
  });
}

function renderHealth(status, now) {
  fill('sources', Object.entries(status.sources || {}), (tr, [id, health]) => {
    cell(tr, id);
    cell(tr, health, health === 'FRESH' ? 'ok' : health === 'STALE' ? 'warn' : 'bad');
  });
  const box = $('rejection');
  const r = status.lastRejection;
  if (!r) return;
  const head = document.createElement('p');
  head.textContent = ago(r.at, now) + ' — ' + r.cause + ' (' + r.violations.length + ' violations, nothing published)';
  const list = document.createElement('ul');
  list.className = 'violations';
  for (const v of r.violations) {
    const li = document.createElement('li');
    li.className = 'msg';
    li.textContent = v;
    list.appendChild(li);
  }
  box.replaceChildren(head, list);
}

function renderClients(clients, total) {
  $('clients-count').textContent = clients.length < total
      ? 'showing ' + clients.length + ' of ' + total + ', most behind first'
      : total + (total === 1 ? ' client' : ' clients');
  fill('clients', clients, (tr, c) => {
    tr.dataset.node = c.nodeId;
    cell(tr, c.nodeId);
    cell(tr, c.group);
    cell(tr, c.zone || '');
    cell(tr, c.heldEpoch, "num");
    cell(tr, c.lagEpochs, 'num' + (c.lagEpochs > 0 ? ' warn' : ' ok'));
    cell(tr, c.lagSeconds.toFixed(1), 'num');
    const types = Object.entries(c.types)
        .map(([url, t]) => typeName(url) + ' ' + t.ackedEpoch + '/' + t.sentEpoch)
        .sort().join('  ');
    cell(tr, types, 'msg');
    const nacks = Object.entries(c.types).filter(([, t]) => t.nack && t.nack.epoch > t.ackedEpoch);
    cell(tr, nacks.map(([url, t]) => typeName(url) + ' @' + t.nack.epoch + ': ' + t.nack.message).join('\n'),
        nacks.length ? 'msg bad' : 'msg');
  });
}

async function poll() {
  clearTimeout(timer);
  const now = Date.now();
  const q = encodeURIComponent($('filter').value.trim());
  try {
    const [status, summary, epochs, clients] = await Promise.all([
      api('/api/v1/status'),
      api('/api/v1/clients/summary'),
      api('/api/v1/epochs?limit=15'),
      api('/api/v1/clients?limit=' + CLIENT_ROWS + (q ? '&q=' + q : '')),
    ]);
    $('login').hidden = true;
    $('main').hidden = false;
    renderGlance(status.body, summary.body);
    renderNacks(summary.body, now);
    renderGroups(summary.body);
    renderEpochs(epochs.body, now);
    renderHealth(status.body, now);
    renderClients(clients.body, Number(clients.total));
    $('updated').textContent = 'updated ' + new Date(now).toLocaleTimeString();
    $('updated').className = '';
  } catch (e) {
    if (e instanceof Unauthorized) {
      $('login').hidden = false;
      $('main').hidden = true;
      $('login-error').textContent = token ? e.message : '';
      $('updated').textContent = 'token needed';
      return; // resume once a token is entered
    }
    $('updated').textContent = 'API unreachable: ' + e.message + ' (retrying)';
    $('updated').className = 'error';
  }
  timer = setTimeout(poll, POLL_MS);
}

$('login').addEventListener('submit', (event) => {
  event.preventDefault();
  token = $('token').value.trim();
  sessionStorage.setItem('signalbox.token', token);
  poll();
});

let filterDelay = null;
$('filter').addEventListener('input', () => {
  clearTimeout(filterDelay);
  filterDelay = setTimeout(poll, 250);
});

poll();
