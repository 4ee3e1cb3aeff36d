// Web Push on the notifications page (views.PushDevice): through the service worker app.js
// registers (window.tripplanWorker, /sw.js), shows whether this
// browser is subscribed, and on the button's click (only then) asks for permission and
// subscribes with the server's VAPID key, or unsubscribes. The server keeps the subscription
// (POST and DELETE /users/me/push-subscriptions); which kinds are pushed is the profile's.
(function () {
  "use strict";
  var box = document.querySelector("[data-push]");
  if (!box) return;
  var t = window.tripplanT || function (id) { return id; };
  var status = box.querySelector("[data-push-status]");
  var button = box.querySelector("[data-push-toggle]");
  function say(id) { status.textContent = t(id); }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("js.news.unsupported");
    return;
  }

  // The VAPID key is base64url; subscribe wants its bytes.
  function keyBytes(s) {
    var raw = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function send(method, path, body) {
    return fetch(path, {
      method: method, credentials: "same-origin",
      headers: body ? { "Content-Type": "application/json", Accept: "application/json" } : { Accept: "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); });
  }

  var registration = null, subscription = null;
  function show() {
    button.hidden = false;
    button.removeAttribute("aria-busy");
    button.disabled = false;
    button.textContent = subscription ? box.dataset.offLabel : box.dataset.onLabel;
    if (Notification.permission === "denied") say("js.news.denied");
    else say(subscription ? "js.news.on" : "js.news.off");
  }

  (window.tripplanWorker || Promise.reject(new Error("no service worker"))).then(function (reg) {
    registration = reg;
    return reg.pushManager.getSubscription();
  }).then(function (sub) {
    subscription = sub;
    show();
  }).catch(function () { say("js.news.unsupported"); });

  button.addEventListener("click", function () {
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    say("js.news.working");
    var done;
    if (subscription) {
      var endpoint = subscription.endpoint;
      done = subscription.unsubscribe().then(function () {
        subscription = null;
        return send("DELETE", "/users/me/push-subscriptions?endpoint=" + encodeURIComponent(endpoint));
      });
    } else {
      done = Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") return;
        return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.vapidKey) })
          .then(function (sub) {
            subscription = sub;
            return send("POST", "/users/me/push-subscriptions", sub.toJSON());
          });
      });
    }
    done.then(show).catch(function () {
      show();
      say("js.news.failed");
    });
  });
})();
