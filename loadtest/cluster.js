// The cluster's load (scripts/cluster-load.sh): the mix of lib/mix.js through nginx by VUS (50)
// virtual users, and beside it a steady stream of acknowledged writes — new collections, five
// a second, each sent with an Idempotency-Key and sent again with the same key when the answer
// is lost (no answer, or nginx's 502/503/504), as the API's clients do. Every collection the
// server acknowledged is logged ("ACK <id>") so that the script can check afterwards that none
// was lost, whatever happened to the instances meanwhile. The run lasts DURATION (60s).
//
// No thresholds: the script reports what the run cost (failed requests, by method and status)
// beside the instances' fate.
import http from 'k6/http';
import { sleep, randomSeed } from 'k6';
import { Counter } from 'k6/metrics';
import { session, endpoints } from './lib/mix.js';
import { users, send } from './lib/data.js';
import { trendStats, perEndpoint, report, outputs } from './lib/summary.js';

randomSeed(2000 + __VU);

const duration = __ENV.DURATION || '60s';

export const options = {
  scenarios: {
    mix: { executor: 'constant-vus', vus: Number(__ENV.VUS || 50), duration, exec: 'mix' },
    writes: { executor: 'constant-arrival-rate', rate: 5, timeUnit: '1s', duration, preAllocatedVUs: 10, exec: 'write' },
  },
  thresholds: Object.assign({ 'http_req_failed{method:GET}': ['rate>=0'], 'http_req_failed{method:POST}': ['rate>=0'],
    'http_req_failed{method:PATCH}': ['rate>=0'], 'http_req_failed{method:DELETE}': ['rate>=0'] }, perEndpoint(endpoints)),
  summaryTrendStats: trendStats,
};

const acknowledged = new Counter('writes_acknowledged');
const resent = new Counter('writes_resent'); // the same write sent again after a lost answer
const givenUp = new Counter('writes_given_up'); // no answer after five tries

const lost = (res) => res.status === 0 || res.status === 502 || res.status === 503 || res.status === 504;
const created = http.expectedStatuses(201);

export function mix() {
  session();
}

// write creates a collection as one of the users, once, whatever the tries.
export function write() {
  const user = users[(__VU + __ITER) % users.length];
  const key = `cluster-${__ENV.RUN || 'run'}-${__VU}-${__ITER}`;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt > 0) {
      resent.add(1);
      sleep(0.2);
    }
    const res = send('POST', user, '/collections', { title: `Cluster ${__VU}-${__ITER}` }, 'create collection',
      { headers: { Authorization: `Bearer ${user.token}`, Accept: 'application/json', 'Content-Type': 'application/json', 'Idempotency-Key': key },
        responseCallback: created });
    if (res.status === 201) {
      acknowledged.add(1);
      console.log(`ACK ${res.json('collection_id')}`);
      return;
    }
    if (!lost(res)) {
      console.warn(`write ${key}: ${res.status} ${String(res.body).slice(0, 200)}`);
      return;
    }
  }
  givenUp.add(1);
}

export function handleSummary(data) {
  const m = data.metrics;
  const failedBy = {};
  for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
    const f = m[`http_req_failed{method:${method}}`];
    failedBy[method] = f ? f.values.passes : 0;
  }
  return outputs(report(__ENV.SCENARIO || 'cluster', data, endpoints.concat(['create collection']),
    ['writes_acknowledged', 'writes_resent', 'writes_given_up'], { failed_by_method: failedBy }), data);
}
