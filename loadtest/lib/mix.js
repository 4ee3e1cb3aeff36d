// The mix of requests people make, weighted as they use the app: mostly reading collections,
// places, plans and days (and a plan page polling its day), now and then a pick or pass, a
// change of the confirmed candidate, or a block added, moved and removed again.
//
// Each virtual user is the owner of plan (VU − 1) mod 200 (its "own" plan; with at most 200
// virtual users no two share one) and reads that user's plans and collections. It adds and
// moves its blocks only on its own plan's day 1 before 08:00, which the seeder leaves empty,
// and deletes each block it added, so its writes cannot conflict with another virtual user's:
// a 409 is counted (block_conflicts) but should not happen.
import http from 'k6/http';
import { sleep } from 'k6';
import { Counter } from 'k6/metrics';
import { users, plans, collections, headers, get, send, pick } from './data.js';

// The endpoints' names, as requests are tagged (summaries report each).
export const endpoints = [
  'list collections', 'collection places', 'collection place', 'pick/pass', 'list plans',
  'day blocks', 'day blocks (poll)', 'change selection', 'add block', 'move block', 'delete block',
];

export const conditionalRequests = new Counter('conditional_requests'); // polls sent with If-None-Match
export const conditionalHits = new Counter('conditional_hits'); // polls answered 304 Not Modified
export const etagMissing = new Counter('etag_missing'); // day listings answered without an ETag
export const blockConflicts = new Counter('block_conflicts'); // 409s adding or moving a block

const addOrConflict = http.expectedStatuses(200, 409);

// me is this virtual user's view of the dataset, loaded at its first iteration.
let me = null;
// lastDay is the day listing this user looked at last, and its ETag, for polling.
let lastDay = null;
let cleaned = false;
let warnings = 0;

function load() {
  const own = plans[(__VU - 1) % plans.length];
  const user = users[own.members[0]];
  const myPlans = user.plans.map((i) => plans[i]);
  const multi = [];
  for (const p of myPlans) {
    for (const b of p.blocks) {
      if (b.candidates.length >= 2) multi.push({ plan: p.id, block: b.id, candidates: b.candidates });
    }
  }
  const ownPlaces = [];
  for (const c of own.collections) ownPlaces.push(...collections[c].places);
  me = {
    user,
    own: { id: own.id, places: ownPlaces },
    plans: myPlans.map((p) => ({ id: p.id, days: p.days })),
    collections: user.collections.map((i) => collections[i]),
    multi,
  };
}

function expect(res, status) {
  if (res.status !== status && warnings++ < 5) {
    console.warn(`VU ${__VU}: ${res.request.method} ${res.url} → ${res.status} ${String(res.body).slice(0, 200)}`);
  }
}

function etagOf(res) {
  for (const k in res.headers) {
    if (k.toLowerCase() === 'etag') return res.headers[k];
  }
  return '';
}

function listCollections() {
  expect(get(me.user, '/collections?size=20', 'list collections'), 200);
}

function collectionPlaces() {
  const c = pick(me.collections);
  expect(get(me.user, `/collections/${c.id}/places?size=20`, 'collection places'), 200);
}

function collectionPlace() {
  const c = pick(me.collections);
  expect(get(me.user, `/collections/${c.id}/places/${pick(c.places)}`, 'collection place'), 200);
}

function pickPass() {
  const c = pick(me.collections);
  const type = Math.random() < 0.75 ? 'PICK' : 'PASS';
  expect(send('POST', me.user, `/collections/${c.id}/places/${pick(c.places)}/preference?type=${type}`, null, 'pick/pass'), 200);
}

function listPlans() {
  expect(get(me.user, '/plans?size=20', 'list plans'), 200);
}

function dayBlocks() {
  const p = pick(me.plans);
  const path = `/plans/${p.id}/blocks?day=${1 + Math.floor(Math.random() * p.days)}`;
  const res = get(me.user, path, 'day blocks');
  expect(res, 200);
  const etag = etagOf(res);
  if (res.status === 200 && !etag) etagMissing.add(1);
  lastDay = { path, etag };
}

// pollDay repeats the last day listing as the plan page does, with the ETag it got: 304 when
// nothing changed (if the server validates), 200 with the new listing otherwise.
function pollDay() {
  if (lastDay === null) {
    dayBlocks();
    return;
  }
  const params = { responseCallback: http.expectedStatuses(200, 304) };
  if (lastDay.etag) {
    params.headers = headers(me.user, { 'If-None-Match': lastDay.etag });
    conditionalRequests.add(1);
  }
  const res = get(me.user, lastDay.path, 'day blocks (poll)', params);
  if (res.status === 304) {
    conditionalHits.add(1);
    return;
  }
  expect(res, 200);
  const etag = etagOf(res);
  if (res.status === 200 && !etag) etagMissing.add(1);
  lastDay.etag = etag;
}

function changeSelection() {
  if (me.multi.length === 0) {
    dayBlocks();
    return;
  }
  const b = pick(me.multi);
  expect(send('PATCH', me.user, `/plans/${b.plan}/blocks/${b.block}/selection`, { block_id: pick(b.candidates) }, 'change selection'), 200);
}

const pad = (n) => String(n).padStart(2, '0');

// cleanUp deletes blocks left in the own plan's window by an earlier, interrupted run.
function cleanUp() {
  const res = get(me.user, `/plans/${me.own.id}/blocks?day=1&size=100`, 'cleanup');
  expect(res, 200);
  for (const b of res.json('contents') || []) {
    if (b.start_time < '08:00') {
      expect(send('DELETE', me.user, `/plans/${me.own.id}/blocks/${b.time_block_id}`, null, 'cleanup'), 204);
    }
  }
  cleaned = true;
}

// addMoveDelete adds a PLACE block (or a FREE one) between 00:00 and 04:00 of the own plan's
// day 1, moves it to between 04:00 and 08:00, and deletes it.
function addMoveDelete() {
  if (!cleaned) cleanUp();
  const h = Math.floor(Math.random() * 4);
  const m = pick([0, 30]);
  const body = { type: 'FREE', day: 1, start_time: `${pad(h)}:${pad(m)}`, end_time: `${pad(m === 0 ? h : h + 1)}:${pad((m + 30) % 60)}` };
  if (me.own.places.length > 0 && Math.random() < 0.7) {
    body.type = 'PLACE';
    body.collection_place_id = pick(me.own.places);
  }
  const plan = `/plans/${me.own.id}/blocks`;
  const added = send('POST', me.user, plan, body, 'add block', { responseCallback: addOrConflict });
  if (added.status === 409) {
    blockConflicts.add(1);
    cleaned = false;
    return;
  }
  expect(added, 200);
  if (added.status !== 200) return;
  const tb = added.json();
  const to = 4 + Math.floor(Math.random() * 4);
  const moved = send('PATCH', me.user, `${plan}/${tb.candidates[0].block_id}`, { start_time: `${pad(to)}:00`, end_time: `${pad(to)}:30` },
    'move block', { responseCallback: addOrConflict });
  if (moved.status === 409) blockConflicts.add(1);
  else expect(moved, 200);
  expect(send('DELETE', me.user, `${plan}/${tb.time_block_id}`, null, 'delete block'), 204);
}

// The actions and their weights (how often people do each, relative to the others).
const actions = [
  [10, listCollections],
  [14, collectionPlaces],
  [10, collectionPlace],
  [5, pickPass],
  [10, listPlans],
  [26, dayBlocks],
  [15, pollDay],
  [4, changeSelection],
  [4, addMoveDelete],
];
const totalWeight = actions.reduce((s, [w]) => s + w, 0);

// session is one iteration of a person using the app: one action, then a short pause. The
// pause (0.1–0.5 s) is far shorter than people's, so each virtual user stands for many people.
export function session() {
  if (me === null) load();
  let r = Math.random() * totalWeight;
  for (const [w, action] of actions) {
    if ((r -= w) < 0) {
      action();
      break;
    }
  }
  sleep(0.1 + Math.random() * 0.4);
}
