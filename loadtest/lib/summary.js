// End-of-test summaries: a short table on stdout and, in the RESULTS directory, the same table
// (<scenario>.txt), the figures docs/PERFORMANCE.md reports (<scenario>.json) and k6's whole
// summary (<scenario>-k6.json).

// Trend statistics every script asks k6 to keep.
export const trendStats = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];

// perEndpoint declares a threshold that always holds on each endpoint's duration and count,
// and on the server's own times (lib/data.js): k6 keeps a sub-metric (here, per request
// name) only when a threshold names it.
export function perEndpoint(names) {
  const t = {};
  for (const n of names) {
    for (const metric of ['http_req_duration', 'server_app', 'server_db', 'server_statements']) {
      t[`${metric}{name:${n}}`] = ['max>=0'];
    }
  }
  return t;
}

const ms = (v) => (v === undefined ? '—' : `${v.toFixed(2)} ms`);

// figures are the numbers of one trend metric.
function figures(m) {
  if (!m) return null;
  const v = m.values;
  return { count: v.count, p50: v.med, p95: v['p(95)'], p99: v['p(99)'], max: v.max };
}

// failedThresholds lists the thresholds that did not hold.
function failedThresholds(data) {
  const out = [];
  for (const [name, m] of Object.entries(data.metrics)) {
    for (const [rule, r] of Object.entries(m.thresholds || {})) {
      if (!r.ok) out.push(`${name}: ${rule}`);
    }
  }
  return out;
}

// report builds the summary of a run: overall latency, requests/s and failures, each
// endpoint's latency, the counters named, plus extra fields.
export function report(scenario, data, names, counters, extra) {
  const m = data.metrics;
  const seconds = data.state.testRunDurationMs / 1000;
  const r = {
    scenario,
    duration_s: seconds,
    requests: m.http_reqs ? m.http_reqs.values.count : 0,
    requests_per_s: m.http_reqs ? m.http_reqs.values.rate : 0,
    failed: m.http_req_failed ? m.http_req_failed.values.passes : 0,
    latency: figures(m.http_req_duration),
    endpoints: {},
    counters: {},
    failed_thresholds: failedThresholds(data),
  };
  for (const n of names) {
    const f = figures(m[`http_req_duration{name:${n}}`]);
    if (f && f.count > 0) {
      const app = figures(m[`server_app{name:${n}}`]);
      const db = figures(m[`server_db{name:${n}}`]);
      const st = m[`server_statements{name:${n}}`];
      if (app) f.server = { p50: app.p50, p95: app.p95, db_p50: db ? db.p50 : undefined, db_p95: db ? db.p95 : undefined, statements: st ? st.values.avg : undefined };
      r.endpoints[n] = f;
    }
  }
  const app = figures(m.server_app);
  if (app) r.server = { p50: app.p50, p95: app.p95, db_p50: (figures(m.server_db) || {}).p50, db_p95: (figures(m.server_db) || {}).p95 };
  for (const c of counters) {
    r.counters[c] = m[c] ? m[c].values.count : 0;
  }
  return Object.assign(r, extra || {});
}

// text renders a report as a table.
export function text(r) {
  const lines = [];
  const l = r.latency || {};
  lines.push(`== ${r.scenario}: ${r.requests} requests in ${r.duration_s.toFixed(1)} s (${r.requests_per_s.toFixed(1)}/s), ` +
    `${r.failed} failed; p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, p99 ${ms(l.p99)}, max ${ms(l.max)}`);
  if (r.server) {
    lines.push(`   server (Server-Timing): app p50 ${ms(r.server.p50)}, p95 ${ms(r.server.p95)}; of which database p50 ${ms(r.server.db_p50)}, p95 ${ms(r.server.db_p95)}`);
  }
  const rows = Object.entries(r.endpoints);
  if (rows.length > 0) {
    lines.push(`   ${'endpoint'.padEnd(20)} ${'requests'.padStart(8)} ${'p50'.padStart(10)} ${'p95'.padStart(10)} ${'p99'.padStart(10)} ${'max'.padStart(10)}` +
      ` │ ${'app p50'.padStart(10)} ${'app p95'.padStart(10)} ${'db p50'.padStart(10)} ${'db p95'.padStart(10)} ${'stmts'.padStart(6)}`);
    for (const [n, f] of rows) {
      const s = f.server || {};
      lines.push(`   ${n.padEnd(20)} ${String(f.count).padStart(8)} ${ms(f.p50).padStart(10)} ${ms(f.p95).padStart(10)} ${ms(f.p99).padStart(10)} ${ms(f.max).padStart(10)}` +
        ` │ ${ms(s.p50).padStart(10)} ${ms(s.p95).padStart(10)} ${ms(s.db_p50).padStart(10)} ${ms(s.db_p95).padStart(10)} ${(s.statements === undefined ? '—' : s.statements.toFixed(1)).padStart(6)}`);
    }
  }
  const counters = Object.entries(r.counters).map(([k, v]) => `${k} ${v}`);
  if (counters.length > 0) lines.push(`   ${counters.join(', ')}`);
  for (const [k, v] of Object.entries(r)) {
    if (!['scenario', 'duration_s', 'requests', 'requests_per_s', 'failed', 'latency', 'endpoints', 'counters', 'failed_thresholds', 'server'].includes(k)) {
      lines.push(`   ${k}: ${JSON.stringify(v)}`);
    }
  }
  lines.push(r.failed_thresholds.length === 0 ? '   thresholds: all passed' : `   thresholds FAILED: ${r.failed_thresholds.join('; ')}`);
  return lines.join('\n') + '\n';
}

// outputs is what handleSummary returns for a report.
export function outputs(r, data) {
  const dir = __ENV.RESULTS || '.';
  return {
    stdout: text(r),
    [`${dir}/${r.scenario}.txt`]: text(r),
    [`${dir}/${r.scenario}.json`]: JSON.stringify(r, null, 2),
    [`${dir}/${r.scenario}-k6.json`]: JSON.stringify(data, null, 2),
  };
}
