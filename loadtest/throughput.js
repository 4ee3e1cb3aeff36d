// Scenario C, throughput: 30 virtual users sending GET /healthz back to back for 20 s, then 30
// sending GET /plans/{p}/blocks?day=N back to back for 20 s (each its own plan's owner, a day
// at random), in the same run. A day listing, answered from the bytes kept in the day cache,
// must keep at least half of /healthz's throughput (the ratio is computed here and written to
// throughput.json as ratio_ok, which loadtest/run.sh checks) with a p95 under 3 ms (a k6
// threshold).
import http from 'k6/http';
import { randomSeed } from 'k6';
import { users, plans, base, headers } from './lib/data.js';
import { trendStats, report, outputs } from './lib/summary.js';

randomSeed(3000 + __VU);

const phase = 20; // seconds
const minRatio = 0.5;

export const options = {
  scenarios: {
    healthz: { executor: 'constant-vus', exec: 'healthz', vus: 30, duration: `${phase}s`, gracefulStop: '1s' },
    blocks: { executor: 'constant-vus', exec: 'dayBlocks', vus: 30, duration: `${phase}s`, startTime: `${phase + 1}s`, gracefulStop: '1s' },
  },
  thresholds: {
    http_req_failed: ['rate==0'],
    // The day listing's p95 goal.
    'http_req_duration{scenario:blocks}': ['p(95)<3'],
    // Sub-metrics per phase, for the summary (these always hold).
    'http_reqs{scenario:healthz}': ['count>=0'],
    'http_reqs{scenario:blocks}': ['count>=0'],
    'http_req_duration{scenario:healthz}': ['max>=0'],
  },
  summaryTrendStats: trendStats,
};

export function healthz() {
  http.get(`${base}/healthz`, { tags: { name: 'healthz' } });
}

let mine = null;

export function dayBlocks() {
  if (mine === null) {
    const p = plans[(__VU - 1) % plans.length];
    mine = { user: users[p.members[0]], id: p.id, days: p.days };
  }
  // Sent as /healthz is, without reading the answer's Server-Timing (lib/data.js's get does):
  // k6 is the bottleneck here, and work on one phase's answers only would skew the ratio.
  http.get(`${base}/plans/${mine.id}/blocks?day=${1 + Math.floor(Math.random() * mine.days)}`,
    { headers: headers(mine.user), tags: { name: 'day blocks' } });
}

function phaseFigures(data, scenario) {
  const reqs = data.metrics[`http_reqs{scenario:${scenario}}`];
  const d = data.metrics[`http_req_duration{scenario:${scenario}}`];
  const count = reqs ? reqs.values.count : 0;
  const round = (v) => Math.round(v * 100) / 100;
  return {
    requests: count,
    requests_per_s: round(count / phase),
    p50_ms: d ? round(d.values.med) : null,
    p95_ms: d ? round(d.values['p(95)']) : null,
    p99_ms: d ? round(d.values['p(99)']) : null,
  };
}

export function handleSummary(data) {
  const h = phaseFigures(data, 'healthz');
  const b = phaseFigures(data, 'blocks');
  const ratio = h.requests_per_s > 0 ? b.requests_per_s / h.requests_per_s : 0;
  const r = report('throughput', data, [], [], {
    healthz: h,
    day_blocks: b,
    ratio: Number(ratio.toFixed(4)),
    min_ratio: minRatio,
    ratio_ok: ratio >= minRatio,
  });
  return outputs(r, data);
}
