// Scenario A, steady: 30 virtual users for 60 s running the mix of lib/mix.js. The budget:
// p95 under 5 ms over all requests (issue 22), and no failed request (a 304 to a poll and a 409 to a
// block write are expected answers; 409s are counted apart and should not occur).
import { randomSeed } from 'k6';
import { session, endpoints } from './lib/mix.js';
import { trendStats, perEndpoint, report, outputs } from './lib/summary.js';

randomSeed(1000 + __VU);

export const options = {
  scenarios: {
    steady: { executor: 'constant-vus', vus: 30, duration: '60s' },
  },
  thresholds: Object.assign({
    http_req_duration: ['p(95)<5'],
    http_req_failed: ['rate==0'],
  }, perEndpoint(endpoints)),
  summaryTrendStats: trendStats,
};

export default session;

export function handleSummary(data) {
  return outputs(report('steady', data, endpoints, ['conditional_requests', 'conditional_hits', 'etag_missing', 'block_conflicts']), data);
}
