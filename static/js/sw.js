// Tripplan's service worker, served at /sw.js (Service-Worker-Allowed: /, not cached long;
// web/offline.go) so that it controls every page. The server puts one line before this
// file: self.TRIPPLAN = {version, assets, offline} — the release's hashed static files and the
// offline page's address. It does two things: Web Push (the push and notificationclick
// listeners at the end) and keeping the plans a person opened readable with no network.
//
// Offline reading (docs/ARCHITECTURE.md, "Installing and reading offline"):
//   - Static files under their hashed names never change: the release's are stored when the
//     worker installs, and answered from the store first (cache-first), with the offline page.
//   - Pages and the parts htmx loads into them (a day's grid, the header), the print page and
//     the calendar file of a plan, and place pages are asked of the network first, so whoever
//     is online always sees the current plan; a successful answer is kept, and kept answers
//     are what is shown when the network fails. A navigation with nothing kept gets the
//     offline page, which lists the plans kept.
//   - Only GETs of this origin, answered 200 as HTML or iCalendar, not redirected, not marked
//     no-store, never the event streams, presence, invitations or calendar-feed addresses
//     (secrets), never sign-in's. Writes always go to the network (the pages refuse them
//     while offline).
//   - Kept pages belong to one person. Every answer to a browser signed in carries
//     Tripplan-Viewer, a tag of its user; the pages are kept in the store "tripplan-pages-<tag>",
//     and an answer for someone else — or for nobody, as the page after signing out is —
//     deletes every store of pages first. Signing out (POST /auth/logout) deletes them too. So
//     the next person on this browser never sees the last one's plans.
"use strict";

var config = self.TRIPPLAN || { version: "dev", assets: [], offline: "/offline" };
var STATIC = "tripplan-static-" + config.version;
var PAGES = "tripplan-pages-"; // + the viewer's tag; app.js lists the plans kept from it

// hashed is a static file's content-hashed name (static.Asset.Hashed): "/static/js/app.3f2a9c1e5b.js".
var hashed = /^\/static\/.+\.[0-9a-f]{10}\.[A-Za-z0-9]+$/;

// keptPath is a page worth keeping for reading offline: the home page and plans list, a
// plan's page and what it loads (less the live and secret parts), and place pages.
function keptPath(path) {
  if (path === "/home" || path === "/plans") return true;
  if (/^\/collections\/[^/]+\/places\/[^/]+$/.test(path)) return true;
  var m = /^\/plans\/([^/]+)(\/.*)?$/.exec(path);
  if (!m || m[1] === "new") return false;
  return !/^\/(events|presence|invitations|removed-members|calendar-feed)(\/|$)/.test(m[2] || "");
}

// One change to the stores at a time, in order (a page kept, the stores of another viewer
// deleted), so an answer for one person is never put where another's are being deleted.
var queue = Promise.resolve();
function serially(fn) {
  queue = queue.then(fn, fn);
  return queue;
}

// adopt makes tag ("" for nobody) the one viewer whose pages are kept: every other store of
// pages is deleted. It answers the store's name, or "" for nobody.
function adopt(tag) {
  var mine = tag ? PAGES + tag : "";
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf(PAGES) === 0 && n !== mine; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return mine; });
}

// pagesStore is the name of the store of pages kept now, "" when there is none.
function pagesStore() {
  return caches.keys().then(function (names) {
    return names.filter(function (n) { return n.indexOf(PAGES) === 0; })[0] || "";
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC).then(function (c) { return c.addAll(config.assets.concat([config.offline])); }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n.indexOf("tripplan-static-") === 0 && n !== STATIC; }).map(function (n) { return caches.delete(n); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// servedFromStore remembers, per page (client id), when the copy it was given from the store
// had been fetched, for its offline banner (the "status" message below).
var servedFromStore = new Map();

self.addEventListener("fetch", function (event) {
  var req = event.request;
  var url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.method === "POST" && url.pathname === "/auth/logout") {
    event.waitUntil(serially(function () { return adopt(""); }));
    return;
  }
  if (req.method !== "GET") return;
  if (hashed.test(url.pathname)) {
    event.respondWith(staticFirst(req));
    return;
  }
  var navigation = req.mode === "navigate";
  var partial = req.headers.get("HX-Request") === "true";
  if (navigation || (partial && keptPath(url.pathname)) || (keptPath(url.pathname) && /\.ics$/.test(url.pathname))) {
    event.respondWith(networkFirst(event, navigation, partial));
  }
});

// staticFirst answers a hashed static file from the store, else from the network (keeping it).
function staticFirst(req) {
  return caches.match(req, { cacheName: STATIC, ignoreVary: true }).then(function (kept) {
    if (kept) return kept;
    return fetch(req).then(function (res) {
      if (res.ok && res.type === "basic") {
        var copy = res.clone();
        caches.open(STATIC).then(function (c) { return c.put(req, copy); });
      }
      return res;
    });
  });
}

// At most MAX_PAGES answers are kept (a plan's page with its days is a few dozen): beyond,
// the ones kept longest ago go (a store lists its entries in the order they were put).
var MAX_PAGES = 300;
function trim(c) {
  return c.keys().then(function (keys) {
    return Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map(function (k) { return c.delete(k); }));
  });
}

// keepable is an answer worth keeping for reading offline.
function keepable(req, res) {
  var type = res.headers.get("Content-Type") || "";
  return res.status === 200 && res.type === "basic" && !res.redirected &&
    !/no-store/i.test(res.headers.get("Cache-Control") || "") &&
    /^(text\/html|text\/calendar)/i.test(type) &&
    !req.headers.get("HX-History-Restore-Request") && !req.headers.get("HX-Boosted");
}

function networkFirst(event, navigation, partial) {
  var req = event.request;
  var url = new URL(req.url);
  var keep = keptPath(url.pathname);
  return fetch(req).then(function (res) {
    // An answer says who it is for: another viewer's pages go, and none are kept for nobody.
    if (res.ok && res.type === "basic") {
      var tag = res.headers.get("Tripplan-Viewer") || "";
      var copy = keep && tag && keepable(req, res) ? res.clone() : null;
      if (copy || navigation || partial) event.waitUntil(serially(function () {
        return adopt(tag).then(function (name) {
          if (copy) return caches.open(name).then(function (c) { return c.put(req, copy).then(function () { return trim(c); }); });
        });
      }));
      if (navigation) event.waitUntil(offlinePageIn(res.headers.get("Content-Language")));
    }
    return res;
  }, function (err) {
    return fromStore(req, navigation).then(function (kept) {
      if (kept) {
        if (navigation && event.resultingClientId) servedFromStore.set(event.resultingClientId, kept.headers.get("Tripplan-Fetched-At"));
        return kept;
      }
      if (navigation) return offlinePage();
      throw err;
    });
  });
}

// fromStore is the kept answer to req, marked Tripplan-Fetched-At (when it was fetched: its
// Date), or null. A page asked for with another query (another day: ?day=2) falls back to
// the same page kept with any query (plan.js then loads the day asked for from its kept tab).
function fromStore(req, navigation) {
  return pagesStore().then(function (name) {
    if (!name) return null;
    return caches.open(name).then(function (c) {
      return c.match(req).then(function (kept) {
        return kept || (navigation ? c.match(req, { ignoreSearch: true }) : null);
      });
    });
  }).then(function (kept) {
    if (!kept) return null;
    var h = new Headers(kept.headers);
    h.set("Tripplan-Fetched-At", kept.headers.get("Date") || "");
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers: h });
  });
}

function offlinePage() {
  return caches.match(config.offline, { cacheName: STATIC, ignoreVary: true }).then(function (page) {
    return page || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  });
}

// offlinePageIn keeps the offline page in the language the pages are in now (a language
// switched since the worker installed), fetching it again when it is in another.
var offlineLang = null;
function offlinePageIn(lang) {
  if (!lang) return Promise.resolve();
  var known = offlineLang !== null ? Promise.resolve(offlineLang) : caches.match(config.offline, { cacheName: STATIC, ignoreVary: true }).then(function (page) {
    return page ? page.headers.get("Content-Language") : "";
  });
  return known.then(function (current) {
    offlineLang = current;
    if (current === lang) return;
    offlineLang = lang;
    return caches.open(STATIC).then(function (c) { return c.add(config.offline); }).catch(function () { offlineLang = null; });
  });
}

// A page asks whether it was given a kept copy (and fetched when), for its offline banner.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "status" || !event.ports[0]) return;
  var id = event.source && event.source.id;
  event.ports[0].postMessage({ fetchedAt: (id && servedFromStore.get(id)) || null });
  if (id) servedFromStore.delete(id);
});

// --- Web Push ---
// A push carries {title, body, url} (internal/reach.Payload): the notification's sentence in
// the user's language and the page it is about, on this site.
self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Tripplan", {
      body: data.body || "",
      icon: "/static/img/logo.svg",
      data: { url: data.url || "/notifications" },
    })
  );
});

// A click focuses a Tripplan tab already open on the page, or opens it.
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL(event.notification.data.url || "/notifications", self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/notifications", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (tabs) {
      for (var i = 0; i < tabs.length; i++) {
        if (tabs[i].url === url.href && "focus" in tabs[i]) return tabs[i].focus();
      }
      return self.clients.openWindow(url.href);
    })
  );
});
