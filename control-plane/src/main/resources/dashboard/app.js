// Signalbox dashboard: polls the admin API every 2 s (DESIGN §6: no stream held open, no external
// network) and draws what it gets. Helpers live in common.js, the charts (uPlot) in charts.js.
'use strict';

const POLL_MS = 2000;
const CLIENT_ROWS = 200;

let timer = null;
let canOperate = false;

function renderGlance(status, summary, now) {
  $('epoch').textContent = status.epoch;
  $('last-safe').textContent = status.lastSafeEpoch;
  // From the same hold Needs attention lists, so the tile and the item cannot disagree.
  const freeze = (status.holds || []).find((h) => h.kind === 'freeze');
  $('frozen').textContent = freeze ? 'yes' + (freeze.since ? ', ' + ago(freeze.since, now) : '') : 'no';
  $('frozen').className = freeze ? 'warn' : '';
  $('frozen').title = freeze ? freeze.message + '; released by ' + freeze.release : '';
  $('store').textContent = status.storeAvailable ? (status.pendingPublish ? 'available, publish pending' : 'available') : 'unavailable';
  $('store').className = status.storeAvailable ? 'ok' : 'bad';
  const share = summary.clients === 0 ? '–' : Math.round((100 * summary.onCurrentEpoch) / summary.clients) + '%';
  $('converged').textContent = summary.onCurrentEpoch + ' / ' + summary.clients + ' (' + share + ')';
  $('converged').className = summary.onCurrentEpoch === summary.clients ? 'ok' : 'warn';
  $('nacking').textContent = summary.nacking;
  $('nacking').className = summary.nacking > 0 ? 'bad' : 'ok';
  const health = Object.values(status.sources || {});
  const failing = health.filter((h) => h !== 'FRESH');
  $('sources-state').textContent = health.length === 0 ? '–' : failing.length === 0 ? 'all ' + health.length + ' fresh'
      : [...new Set(failing)].map((h) => failing.filter((f) => f === h).length + ' ' + h.toLowerCase()).join(', ');
  $('sources-state').className = failing.length === 0 ? 'ok' : 'bad';
}

/**
 * A "needs attention" table or list: its block is shown only when it has something, so with
 * nothing to do the section is the one line that says so.
 */
function fillAttention(id, items, render) {
  $('att-' + id).hidden = items.length === 0;
  if ($(id).tagName === 'TABLE') {
    fill(id, items, render);
  } else {
    $(id).replaceChildren(...items.map((text) => {
      const li = document.createElement('li');
      li.className = 'msg bad';
      li.textContent = text;
      return li;
    }));
  }
}

function showAttentionLine() {
  const any = Array.from(document.querySelectorAll('#attention > section.attention')).some((s) => !s.hidden);
  $('attention-none').hidden = any;
}

/** Why each source that is not FRESH is so: file, field and rule, as GET /api/v1/status says. */
function sourceReasons(status, id) {
  const problems = (status.sourceProblems || {})[id] || [];
  return problems.length ? problems : [status.sources[id] === 'FRESH' ? '' : 'no reason reported'];
}

function renderSourceProblems(status) {
  const lines = Object.entries(status.sources || {}).filter(([, health]) => health !== 'FRESH')
      .flatMap(([id, health]) => sourceReasons(status, id)
          .map((why) => health + ': ' + (why.startsWith(id) ? why : id + ': ' + why)));
  fillAttention('source-problems', lines);
}

function renderWhoami(me) {
  canOperate = me.canOperate;
  $('whoami').textContent = me.role ? 'signed in as ' + me.name + ' (' + me.role + ')' : 'open admin API (no tokens configured)';
}

// A held config reload has no cluster (h.cluster null, h.config its file): it has its own route.
async function confirmHeld(cluster, button) {
  button.disabled = true;
  const result = $('confirm-result');
  const path = cluster === null ? '/api/v1/config/confirm'
      : '/api/v1/clusters/' + encodeURIComponent(cluster) + '/confirm';
  const what = cluster === null ? 'config reload' : 'update of ' + cluster;
  try {
    await api(path, { method: 'POST', body: { reason: 'confirmed on the dashboard' } });
    result.textContent = 'Confirmed the held ' + what + '.';
    result.className = 'ok';
  } catch (e) {
    result.textContent = 'Could not confirm the held ' + what + ': ' + e.message;
    result.className = 'error';
    button.disabled = false;
  }
  poll();
}

/**
 * Everything held back from the served epoch with what releases it (status.holds), as `signalbox
 * status` prints it: "kind subject", the server's message and rule, and its release text. A held
 * update or config reload keeps its Confirm button.
 */
function renderHeld(status, now) {
  fillAttention('held', status.holds || [], (tr, h) => {
    const confirmable = h.kind === 'update' || h.kind === 'config';
    const target = h.kind === 'update' ? h.subject : null;
    tr.dataset.kind = h.kind;
    if (confirmable) tr.dataset.cluster = target === null ? '' : target;
    cell(tr, h.kind + ' ' + h.subject);
    cell(tr, h.rule);
    cell(tr, h.message, 'msg');
    cell(tr, ago(h.since, now)).title = h.since || '';
    cell(tr, h.release, 'msg');
    const td = cell(tr, '');
    // Only operators may confirm; a viewer gets no button at all, not a disabled one.
    if (canOperate && confirmable) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'confirm';
      button.textContent = 'Confirm';
      button.setAttribute('aria-label', target === null ? 'Confirm the held config reload'
          : 'Confirm the held update of ' + target);
      button.addEventListener('click', () => confirmHeld(target, button));
      td.appendChild(button);
    }
  });
}

/** Where the served configuration is not what the inputs say (status.servedDiffers), and the way forward. */
function renderServedDiffers(status, now) {
  fillAttention('served-differs', status.servedDiffers || [], (tr, d) => {
    tr.dataset.kind = d.kind;
    cell(tr, d.says, 'msg warn');
    cell(tr, ago(d.since, now)).title = d.since || '';
    cell(tr, 'forward: ' + d.forward, 'msg');
  });
}

/** The operator's drops (shed) and the freeze of ejections (issue 31); what that freeze holds is under Held. */
function renderAdmission(status, now) {
  const rows = (status.drops || []).map((d) => ({
    what: 'shedding ' + d.percent + '% as ' + d.category, where: d.cluster,
    by: d.actor + (d.reason ? ': ' + d.reason : ''), since: d.since }));
  // Automatic drops (issue 31): the cause names eligible capacity, demand and the drop.
  (status.automaticDrops || []).forEach((d) => rows.push({
    what: 'shedding ' + d.percent + '% as ' + d.category + ' (automatic)', where: d.cluster, by: d.cause,
    since: status.epochCreatedAt }));
  // The ejections it holds are listed under Held (status.holds), with what releases them.
  const f = status.ejectionFreeze;
  if (f) {
    rows.push({ what: 'ejections frozen', where: 'all clusters', by: f.actor + (f.reason ? ': ' + f.reason : ''),
      since: f.at });
  }
  fillAttention('admission', rows, (tr, r) => {
    cell(tr, r.what, 'warn');
    cell(tr, r.where);
    cell(tr, r.by, 'msg');
    cell(tr, ago(r.since, now)).title = r.since;
  });
}

function renderDrains(drains, now) {
  fillAttention('drains', drains, (tr, d) => {
    tr.dataset.endpoint = d.cluster + '/' + d.endpoint;
    cell(tr, d.cluster + '/' + d.endpoint);
    cell(tr, d.actor + (d.reason ? ': ' + d.reason : ''));
    const td = cell(tr, '');
    const bar = document.createElement('progress');
    bar.max = Math.max(1, d.clientsTotal);
    bar.value = d.clientsAcked;
    bar.setAttribute('aria-label', d.clientsAcked + ' of ' + plural(d.clientsTotal, 'client') + ' acknowledged');
    td.append(bar, ' ' + (d.drainingEpoch === null ? 'waiting for its epoch'
        : d.clientsAcked + ' / ' + d.clientsTotal + ' (epoch ' + d.drainingEpoch + ')'));
    const left = Math.round((Date.parse(d.deadline) - now) / 1000);
    cell(tr, d.deadlinePassed ? 'passed' : 'in ' + seconds(Math.max(0, left))).title = d.deadline;
    cell(tr, d.safeToRemove ? 'yes' : 'not yet', d.safeToRemove ? 'ok' : 'warn');
  });
}

function renderNackGroups(summary, now) {
  fillAttention('nack-groups', summary.nacksByMessage || [], (tr, g) => {
    cell(tr, typeName(g.type));
    cell(tr, g.message, 'msg bad');
    cell(tr, g.clients, 'num');
    cell(tr, g.groups.join(', '));
    cell(tr, g.minEpoch === g.maxEpoch ? g.minEpoch : g.minEpoch + '–' + g.maxEpoch);
    cell(tr, ago(g.lastAt, now)).title = g.lastAt || '';
  });
}

/** Per setting served, which connected client kinds will NACK or ignore it: seen before the first NACK. */
function renderClientWarnings(status) {
  const kinds = Object.entries(status.clientKinds || {});
  $('client-kinds').textContent = kinds.length === 0 ? 'No connected client of a known kind.'
      : 'Connected: ' + kinds.map(([kind, n]) => n + ' ' + kind).join(', ') + '.';
  fillAttention('client-warnings', status.clientWarnings || [], (tr, w) => {
    cell(tr, w, 'msg ' + (w.includes('[client.rejected]') ? 'bad' : 'warn'));
  });
}

/** Who leads, and every replica's heartbeat; a replica behind the newest epoch is marked. */
function renderReplicas(status, replicas, now) {
  const leader = $('leader');
  if (status.role === 'standalone') {
    leader.textContent = 'One process (standalone): it builds and serves every epoch.';
    leader.className = 'muted';
  } else if (status.leaderId) {
    leader.textContent = 'Leader: ' + status.leaderId + ' (term ' + status.term + ')'
        + (status.leaderId === status.replicaId ? ', this replica' : '; this replica (' + status.replicaId + ') follows');
    leader.className = '';
  } else {
    leader.textContent = 'No replica leads: every replica serves its last committed epoch, nothing new is published.';
    leader.className = 'bad';
  }
  const newest = Math.max(status.epoch, ...replicas.map((r) => r.epoch));
  fill('replicas', replicas, (tr, r) => {
    tr.dataset.replica = r.replicaId;
    cell(tr, r.replicaId + (r.replicaId === status.replicaId ? ' (this one)' : ''));
    cell(tr, r.role, r.role === 'leader' ? 'ok' : '');
    cell(tr, r.epoch, r.epoch < newest ? 'num warn' : 'num').title = r.epoch < newest ? 'behind epoch ' + newest : '';
    cell(tr, r.clients, 'num');
    cell(tr, ago(r.lastSeen, now)).title = r.lastSeen;
  });
}

/** Clusters whose load reports show most localities erring at once (issue 30). */
function renderCorrelated(status) {
  fillAttention('correlated', status.correlatedErrors || []);
}

/** The cluster whose load is shown: the one picked, else the first that reports. */
function loadCluster(status) {
  const clusters = status.loadReporting || [];
  $('load').hidden = clusters.length === 0;
  $('load-share-chart').hidden = clusters.length === 0;
  $('load-none').hidden = clusters.length > 0;
  const select = $('load-cluster');
  const picked = clusters.includes(select.value) ? select.value : clusters[0];
  if (Array.from(select.options).map((o) => o.value).join('\n') !== clusters.join('\n')) {
    select.replaceChildren(...clusters.map((c) => new Option(c, c)));
  }
  if (picked !== undefined) select.value = picked;
  return picked;
}

function renderLoad(load, now) {
  const places = load.endpoints.length ? load.endpoints : load.localities;
  const what = load.endpoints.length ? 'endpoint' : 'locality';
  drawShare('load-share-chart', load.history, 'Share of the requests issued per ' + what + ' of cluster '
      + load.cluster + ', per reporting interval');
  const reporting = load.clients.length - load.stopped.length;
  $('load-summary').textContent = (load.skew === null ? 'skew –' : 'skew ' + load.skew.toFixed(2) + ' (max/mean of '
      + load.skewOf + ')') + ' · ' + plural(reporting, 'client') + ' reporting every ' + load.intervalSeconds + ' s'
      + (load.to ? ' · figures of the interval ending ' + ago(load.to, now) : '');
  const correlated = load.correlatedErrors;
  $('load-correlated').textContent = (correlated.raised ? 'Correlated errors: ' : 'No correlated errors: ')
      + correlated.message;
  $('load-correlated').className = correlated.raised ? 'bad' : 'muted';
  $('load-stopped').textContent = load.stopped.length === 0 ? 'Every client that reported is still reporting.'
      : 'Stopped reporting: ' + load.clients.filter((c) => c.stopped)
          .map((c) => c.nodeId + ' (last ' + ago(c.lastReport, now) + ')').join(', ') + '.';
  $('load-stopped').className = load.stopped.length === 0 ? 'muted' : 'warn';
  $('load-places').tHead.rows[0].cells[0].textContent = what === 'endpoint' ? 'Endpoint' : 'Locality';
  fill('load-places', places, (tr, p) => {
    tr.dataset.place = p.name;
    cell(tr, p.name);
    cell(tr, number(p.issued), 'num');
    cell(tr, percent(p.issued, places.reduce((sum, q) => sum + q.issued, 0)), 'num');
    cell(tr, number(p.succeeded), 'num');
    cell(tr, number(p.errored), 'num' + (p.errored > 0 ? ' warn' : ''));
    cell(tr, p.errorRate === null ? '–' : (100 * p.errorRate).toFixed(1) + ' %',
        'num' + (p.errorRate !== null && p.errorRate > 0.05 ? ' bad' : ''));
    cell(tr, number(p.inFlight), 'num');
  });
}

function renderNacks(summary, now) {
  fillOrEmpty('nacks', 'nacks-empty', summary.nacks, (tr, n) => {
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

function renderConvergence(epochs) {
  drawConvergence('convergence-chart', epochs);
  const newest = epochs[0];
  if (!newest) {
    $('convergence-summary').textContent = 'No epoch observed yet.';
    return;
  }
  if (newest.clients === 0) {
    // No share of nobody is "not yet": say what `signalbox wait` says.
    $('convergence-summary').textContent = 'Epoch ' + newest.epoch + ': no clients connected.';
    return;
  }
  const parts = SHARES.map((s) => s.label + ' ' + (newest.seconds[s.key] === null ? 'not yet' : 'in ' + seconds(newest.seconds[s.key])));
  $('convergence-summary').textContent = 'Epoch ' + newest.epoch + ' (' + newest.holding + ' of '
      + plural(newest.clients, 'client') + ' hold it): ' + parts.join(', ')
      + (newest.nacked ? '; NACKed by ' + newest.nacked : '') + '.';
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
  drawHistogram('by-epoch', summary.byEpoch, summary.epoch, summary.clients);
}

function renderEpochs(epochs, now) {
  fill('epochs', epochs, (tr, e) => {
    const td = cell(tr, '', 'num');
    const link = document.createElement('a');
    link.href = '/dashboard/epoch.html?epoch=' + e.epoch;
    link.textContent = e.epoch;
    td.appendChild(link);
    cell(tr, e.status, e.status === 'REJECTED' ? 'bad' : e.status === 'SAFE' ? 'ok' : '');
    cell(tr, e.cause);
    cell(tr, e.reason || '');
    cell(tr, ago(e.createdAt, now)).title = e.createdAt;
  });
}

function renderHealth(status, now) {
  fill('sources', Object.entries(status.sources || {}), (tr, [id, health]) => {
    tr.dataset.source = id;
    cell(tr, id);
    cell(tr, health, health === 'FRESH' ? 'ok' : health === 'STALE' ? 'warn' : 'bad');
    cell(tr, sourceReasons(status, id).join('\n'), 'msg');
  });
  const box = $('rejection');
  const r = status.lastRejection;
  if (!r) {
    // A source refusing its input never builds a candidate, so there is no rejection to show; the
    // page must not call the input valid next to a FAILED source.
    const refused = Object.values(status.sources || {}).some((h) => h !== 'FRESH');
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = refused ? 'No candidate was rejected; a source\'s input is refused before one is built (see Sources).'
        : 'None: every input so far was valid.';
    box.replaceChildren(p);
    return;
  }
  const head = document.createElement('p');
  // Which input it was about, and whether a later valid input has superseded it (issue 29).
  const about = r.inputs && r.inputs.length ? ' about ' + r.inputs.join(', ') : '';
  const state = r.supersededAt ? ', superseded ' + ago(r.supersededAt, now) + ': the input is valid again' : '';
  head.textContent = ago(r.at, now) + ' — ' + r.cause + about + ' (' + plural(r.violations.length, 'violation')
      + ', nothing published' + state + ')';
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
    cell(tr, c.heldEpoch, 'num');
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
    const [me, status, summary, epochs, clients, drains, convergence, lag, replicas] = await Promise.all([
      api('/api/v1/whoami'),
      api('/api/v1/status'),
      api('/api/v1/clients/summary'),
      api('/api/v1/epochs?limit=15'),
      api('/api/v1/clients?limit=' + CLIENT_ROWS + (q ? '&q=' + q : '')),
      api('/api/v1/drains'),
      api('/api/v1/convergence'),
      api('/api/v1/lag?groups=' + LAG_GROUPS),
      api('/api/v1/replicas'),
    ]);
    const cluster = loadCluster(status.body);
    const load = cluster === undefined ? null
        : await api('/api/v1/clusters/' + encodeURIComponent(cluster) + '/load');
    $('login').hidden = true;
    $('main').hidden = false;
    renderWhoami(me.body);
    renderGlance(status.body, summary.body, now);
    renderSourceProblems(status.body);
    renderServedDiffers(status.body, now);
    renderHeld(status.body, now);
    renderAdmission(status.body, now);
    renderDrains(drains.body, now);
    renderNackGroups(summary.body, now);
    renderClientWarnings(status.body);
    renderCorrelated(status.body);
    if (load) renderLoad(load.body, now);
    renderReplicas(status.body, replicas.body, now);
    renderConvergence(convergence.body);
    drawLag('lag-behind-chart', lag.body, 'behind', 'Clients not holding the current epoch, by node group');
    drawLag('lag-seconds-chart', lag.body, 'maxLagSeconds', 'Longest time a client has lacked an epoch, by node group');
    renderGroups(summary.body);
    renderNacks(summary.body, now);
    renderEpochs(epochs.body, now);
    renderHealth(status.body, now);
    renderClients(clients.body, Number(clients.total));
    showAttentionLine();
    $('updated').textContent = 'updated ' + new Date(now).toLocaleTimeString();
    $('updated').className = '';
  } catch (e) {
    if (e instanceof Unauthorized) {
      $('login').hidden = false;
      $('main').hidden = true;
      $('login-error').textContent = Signalbox.token ? e.message : '';
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
  useToken($('token').value.trim());
  poll();
});

$('load-cluster').addEventListener('change', () => poll());

let filterDelay = null;
$('filter').addEventListener('input', () => {
  clearTimeout(filterDelay);
  filterDelay = setTimeout(poll, 250);
});

poll();
