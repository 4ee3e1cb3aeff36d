// Scenario B, stress: the mix of lib/mix.js ramped from 0 to 70 virtual users over 30 s, held
// for 30 s, ramped down over 10 s — to see how latency (p95, p99) and throughput hold up past
// the steady load. It reports latency; its only threshold is on failures (under 1%).
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
    http_req_failed: ['rate<0.01'],
  }, perEndpoint(endpoints)),
  summaryTrendStats: trendStats,
};

export default session;

export function handleSummary(data) {
  return outputs(report('stress', data, endpoints, ['conditional_requests', 'conditional_hits', 'etag_missing', 'block_conflicts']), data);
}
