// One epoch: its record, what caused it, what changed (from its parent, or from any epoch the
// operator names) and how far each node group has got with it. Polls the progress every 2 s.
'use strict';

const MAX_ROWS = 500;
const epoch = Number(new URLSearchParams(location.search).get('epoch'));
let compareWith = null;
let timer = null;

const SYMBOLS = { added: '+ added', removed: '− removed', changed: '~ changed' };

function renderRecord(e) {
  document.title = 'Signalbox epoch ' + e.epoch;
  $('title').textContent = 'Epoch ' + e.epoch;
  const rows = [
    ['Status', e.status + (e.reason ? ' — ' + e.reason : '')],
    ['Created', e.createdAt],
    ['Parent', e.parentEpoch > 0 ? e.parentEpoch : 'none'],
    ['Content hash', e.contentHash],
  ];
  fill('record', rows, (tr, [name, value]) => {
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = name;
    tr.appendChild(th);
    if (name === 'Parent' && e.parentEpoch > 0) {
      const td = cell(tr, '');
      const link = document.createElement('a');
      link.href = '/dashboard/epoch.html?epoch=' + e.parentEpoch;
      link.textContent = e.parentEpoch;
      td.appendChild(link);
    } else {
      cell(tr, value, name === 'Content hash' ? 'msg' : '');
    }
  });
  $('cause').textContent = 'Caused by: ' + (e.cause || 'unknown');
  fill('provenance', Object.entries(e.sourceGenerations || {}), (tr, [source, generation]) => {
    cell(tr, source);
    cell(tr, generation, 'num');
  });
}

function renderProgress(e) {
  fillOrEmpty('progress', 'progress-empty', Object.entries(e.clients || {}), (tr, [group, p]) => {
    const total = p.acked + p.nacked + p.pending;
    tr.dataset.group = group;
    cell(tr, group);
    const td = cell(tr, '');
    const bar = document.createElement('progress');
    bar.max = Math.max(1, total);
    bar.value = p.acked;
    bar.setAttribute('aria-label', p.acked + ' of ' + plural(total, 'client') + ' hold it');
    td.append(bar, ' ' + p.acked + ' / ' + total);
    cell(tr, p.acked, 'num ok');
    cell(tr, p.nacked, 'num' + (p.nacked ? ' bad' : ''));
    cell(tr, p.pending, 'num' + (p.pending ? ' warn' : ''));
  });
}

function renderDiff(diff) {
  const rows = [];
  for (const kind of ['added', 'removed', 'changed']) {
    for (const name of diff[kind] || []) {
      const slash = name.indexOf('/');
      rows.push([kind, name.substring(0, slash), name.substring(slash + 1)]);
    }
  }
  fillOrEmpty('diff', 'diff-empty', rows.slice(0, MAX_ROWS), (tr, [kind, type, name]) => {
    tr.dataset.change = kind;
    cell(tr, SYMBOLS[kind], kind === 'removed' ? 'warn' : '');
    cell(tr, type);
    cell(tr, name, 'msg');
  });
  const transitions = diff.endpoints || [];
  fillOrEmpty('transitions', 'transitions-empty', transitions.slice(0, MAX_ROWS), (tr, t) => {
    cell(tr, t.cluster);
    cell(tr, t.endpoint);
    cell(tr, t.from === null ? 'new' : t.from);
    cell(tr, t.to === null ? 'removed' : t.to);
  });
  const cut = Math.max(0, rows.length - MAX_ROWS) + Math.max(0, transitions.length - MAX_ROWS);
  $('compare-note').textContent = cut ? cut + ' more rows not shown; the CLI (signalbox diff) lists them all' : '';
}

async function load() {
  clearTimeout(timer);
  if (!Number.isInteger(epoch) || epoch < 1) {
    $('updated').textContent = 'No epoch given: open this page from the dashboard\'s epochs table.';
    return;
  }
  try {
    const detail = (await api('/api/v1/epochs/' + epoch)).body;
    renderRecord(detail);
    renderProgress(detail);
    if (compareWith === null) {
      $('h-diff').textContent = 'Changes since the parent epoch' + (detail.parentEpoch > 0 ? ' (' + detail.parentEpoch + ')' : '');
      renderDiff(detail.diff || {});
    } else {
      $('h-diff').textContent = 'Changes from epoch ' + compareWith + ' to ' + epoch;
      renderDiff((await api('/api/v1/epochs/' + compareWith + '/diff/' + epoch)).body);
    }
    $('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
    $('updated').className = '';
  } catch (e) {
    $('updated').textContent = e instanceof Unauthorized
        ? 'A token is needed: enter it on the dashboard first (' + e.message + ').'
        : e.message;
    $('updated').className = 'error';
    if (e instanceof Unauthorized) return;
  }
  timer = setTimeout(load, 2000);
}

$('compare').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = $('other').value.trim();
  compareWith = value === '' ? null : Number(value);
  load();
});

load();
