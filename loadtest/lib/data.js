// The dataset the seeder wrote (loadtest/seed), shared read-only by every virtual user, and
// the request helpers the scenarios use. Needs the environment variables BASE_URL (the
// server) and DATA (absolute path of the seeder's JSON file).
import http from 'k6/http';
import { SharedArray } from 'k6/data';
import { Trend } from 'k6/metrics';

export const base = __ENV.BASE_URL;
if (!base || !__ENV.DATA) {
  throw new Error('set BASE_URL and DATA (loadtest/run.sh does)');
}

// One SharedArray per kind, so a virtual user decodes only the elements it reads.
export const users = new SharedArray('users', () => JSON.parse(open(__ENV.DATA)).users);
export const plans = new SharedArray('plans', () => JSON.parse(open(__ENV.DATA)).plans);
export const collections = new SharedArray('collections', () => JSON.parse(open(__ENV.DATA)).collections);

// headers are a user's request headers: a bearer token, as the mobile apps send.
export function headers(user, extra) {
  return Object.assign({ Authorization: `Bearer ${user.token}`, Accept: 'application/json' }, extra || {});
}

// The server's own account of each answer, from its Server-Timing header (web/timing.go):
// the time until the status line was written (app), the time waiting for PostgreSQL (db) and
// the statements sent. Beside k6's http_req_duration they tell the server's part of a
// request's latency from the rest (the connection, k6, the machine's scheduling).
export const serverApp = new Trend('server_app', true);
export const serverDB = new Trend('server_db', true);
export const serverStatements = new Trend('server_statements');

// timed records res's Server-Timing under the endpoint's name and returns res.
function timed(res, name) {
  const h = res.headers['Server-Timing'];
  if (h) {
    const tags = { name };
    const app = /(?:^|, )app;dur=([\d.]+)/.exec(h);
    const db = /(?:^|, )db;dur=([\d.]+);desc="(\d+) statements"/.exec(h);
    if (app) serverApp.add(Number(app[1]), tags);
    if (db) {
      serverDB.add(Number(db[1]), tags);
      serverStatements.add(Number(db[2]), tags);
    }
  }
  return res;
}

// get sends GET path as the user, tagged with the endpoint's name.
export function get(user, path, name, params) {
  return timed(http.get(base + path, Object.assign({ headers: headers(user), tags: { name } }, params || {})), name);
}

// send sends a JSON body (or none) as the user, tagged with the endpoint's name.
export function send(method, user, path, body, name, params) {
  const h = body === null ? headers(user) : headers(user, { 'Content-Type': 'application/json' });
  return timed(http.request(method, base + path, body === null ? null : JSON.stringify(body),
    Object.assign({ headers: h, tags: { name } }, params || {})), name);
}

// pick is a random element of a non-empty array.
export function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}
