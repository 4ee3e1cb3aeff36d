// Tripplan's service worker, served at /sw.js (Service-Worker-Allowed: /, not cached long;
// see web/news.go) so that it controls every page. Today it only shows Web Push
// notifications; an offline worker is to be added to this same file later (a page has one
// worker per scope), as more listeners beside these two.
//
// A push carries {title, body, url} (internal/reach.Payload): the notification's sentence in
// the user's language and the page it is about, on this site.
"use strict";

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
