// The dataset the seeder wrote (loadtest/seed), shared read-only by every virtual user, and
// the request helpers the scenarios use. Needs the environment variables BASE_URL (the
// server) and DATA (absolute path of the seeder's JSON file).
import http from 'k6/http';
import { SharedArray } from 'k6/data';

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

// get sends GET path as the user, tagged with the endpoint's name.
export function get(user, path, name, params) {
  return http.get(base + path, Object.assign({ headers: headers(user), tags: { name } }, params || {}));
}

// send sends a JSON body (or none) as the user, tagged with the endpoint's name.
export function send(method, user, path, body, name, params) {
  const h = body === null ? headers(user) : headers(user, { 'Content-Type': 'application/json' });
  return http.request(method, base + path, body === null ? null : JSON.stringify(body),
    Object.assign({ headers: h, tags: { name } }, params || {}));
}

// pick is a random element of a non-empty array.
export function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}
