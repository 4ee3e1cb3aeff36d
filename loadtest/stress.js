// Scenario B, stress: the mix of lib/mix.js ramped from 0 to 70 virtual users over 30 s, held
// for 30 s, ramped down over 10 s — to see how latency (p95, p99) and throughput hold up past
// the steady load. Its thresholds (issue 22): p95 under 10 ms and no failed request.
import { randomSeed } from 'k6';
import { session, endpoints } from './lib/mix.js';
import { trendStats, perEndpoint, report, outputs } from './lib/summary.js';

randomSeed(2000 + __VU);

export const options = {
  scenarios: {
    stress: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '30s', target: 70 },
        { duration: '30s', target: 70 },
        { duration: '10s', target: 0 },
      ],
    },
  },
  thresholds: Object.assign({
    http_req_duration: ['p(95)<10'],
    http_req_failed: ['rate==0'],
  }, perEndpoint(endpoints)),
  summaryTrendStats: trendStats,
};

export default session;

export function handleSummary(data) {
  return outputs(report('stress', data, endpoints, ['conditional_requests', 'conditional_hits', 'etag_missing', 'block_conflicts']), data);
}
