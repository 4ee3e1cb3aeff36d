// Draws the maps of [data-map] elements with the vendored Leaflet (static/vendor/leaflet),
// loaded only when a map first comes near the screen (its hashed paths are this script's
// data-leaflet-* attributes, views' mapScript): a place page's pin (data-lat, data-lng, data-label), or a plan day's route (data-stops: the
// confirmed places, numbered in time order and joined by a line; data-pending: candidates of
// undecided blocks, lighter). The page works without it: coordinates, links to maps sites and
// the list of legs are plain text beside the map. When tiles cannot load (offline, blocked, no
// tile server configured) the points stay and a note says the background is missing.
(function () {
  "use strict";

  var files = document.currentScript ? document.currentScript.dataset : {};

  function points(el, name) {
    try {
      var list = JSON.parse(el.getAttribute(name) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }

  // text makes a popup or label element holding text, never HTML.
  function text(tag, s, className) {
    var node = document.createElement(tag);
    node.textContent = s;
    if (className) node.className = className;
    return node;
  }

  function background(L, el, map) {
    var offline = el.querySelector("[data-map-offline]");
    function noBackground() {
      if (offline) offline.hidden = false;
    }
    var tiles = el.getAttribute("data-tiles");
    if (!tiles || tiles === "none") {
      noBackground();
      return;
    }
    var failed = 0;
    var loaded = 0;
    var layer = L.tileLayer(tiles, {
      maxZoom: 19,
      attribution: el.getAttribute("data-attribution") || "",
    });
    layer.on("tileload", function () {
      loaded++;
    });
    layer.on("tileerror", function () {
      failed++;
      if (failed >= 3 && loaded === 0) noBackground();
    });
    layer.addTo(map);
  }

  function pin(L, el, map) {
    var lat = parseFloat(el.getAttribute("data-lat"));
    var lng = parseFloat(el.getAttribute("data-lng"));
    map.setView([lat, lng], parseInt(el.getAttribute("data-zoom"), 10) || 16);
    var label = el.getAttribute("data-label") || "";
    var marker = L.marker([lat, lng], { title: label }).addTo(map);
    if (label) marker.bindPopup(text("strong", label));
  }

  function popup(p) {
    var box = document.createElement("div");
    box.appendChild(text("strong", (p.n ? p.n + ". " : "") + p.name));
    box.appendChild(document.createElement("br"));
    box.appendChild(text("span", p.time));
    return box;
  }

  function day(L, el, map) {
    var stops = points(el, "data-stops");
    var pending = points(el, "data-pending");
    var bounds = [];
    pending.forEach(function (p) {
      bounds.push([p.lat, p.lon]);
      L.circleMarker([p.lat, p.lon], {
        radius: 7,
        color: "#64748b",
        weight: 2,
        dashArray: "3 3",
        fillColor: "#f1f5f9",
        fillOpacity: 0.7,
      })
        .bindPopup(popup(p))
        .addTo(map);
    });
    if (stops.length > 1) {
      L.polyline(
        stops.map(function (p) {
          return [p.lat, p.lon];
        }),
        { color: "#0f766e", weight: 3, opacity: 0.8 },
      ).addTo(map);
    }
    stops.forEach(function (p) {
      bounds.push([p.lat, p.lon]);
      var icon = L.divIcon({
        className: "map-stop",
        html: text("span", String(p.n)),
        iconSize: [26, 26],
        iconAnchor: [13, 13],
      });
      L.marker([p.lat, p.lon], { icon: icon, title: p.n + ". " + p.name, keyboard: true })
        .bindPopup(popup(p))
        .addTo(map);
    });
    if (bounds.length === 1) map.setView(bounds[0], 15);
    else if (bounds.length > 1) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
  }

  // speak gives Leaflet's own words the page's language (app.js's window.tripplanT, js.map.*
  // ids): the zoom buttons, and the title of its link in the attribution, kept as Leaflet
  // writes it otherwise.
  function speak(L, map) {
    L.control.zoom({ zoomInTitle: window.tripplanT("js.map.zoom_in"), zoomOutTitle: window.tripplanT("js.map.zoom_out") }).addTo(map);
    var prefix = document.createElement("span");
    prefix.innerHTML = map.attributionControl.options.prefix; // Leaflet's constant, no user data
    var link = prefix.querySelector("a");
    if (link) {
      link.title = window.tripplanT("js.map.leaflet");
      map.attributionControl.setPrefix(prefix.innerHTML);
    }
  }

  function draw(el) {
    var L = window.L;
    var canvas = el.querySelector("[data-map-canvas]");
    if (!L || !canvas || canvas.hasAttribute("data-drawn")) return;
    var isDay = el.hasAttribute("data-stops");
    if (!isDay && !isFinite(parseFloat(el.getAttribute("data-lat")))) return;
    canvas.setAttribute("data-drawn", "");
    // The default pin's images by their full (hashed) paths, not Leaflet's guess from its CSS.
    L.Icon.Default.imagePath = "";
    L.Icon.Default.mergeOptions({
      iconUrl: files.leafletIcon,
      iconRetinaUrl: files.leafletIcon2x,
      shadowUrl: files.leafletShadow,
    });
    var map = L.map(canvas, { scrollWheelZoom: false, zoomControl: false });
    speak(L, map);
    background(L, el, map);
    if (isDay) day(L, el, map);
    else pin(L, el, map);
  }

  // leaflet loads Leaflet's style sheet and script once, then calls done; the style sheet
  // first, so the map measures itself with Leaflet's rules in force.
  var loading = null;
  function leaflet(done) {
    if (!loading) {
      loading = [];
      var css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = files.leafletCss;
      var js = document.createElement("script");
      js.src = files.leafletJs;
      var pending = 2;
      var ready = function () {
        if (--pending > 0) return;
        var waiting = loading;
        loading = null; // window.L is there from now on
        waiting.forEach(function (f) {
          f();
        });
      };
      css.onload = css.onerror = ready;
      js.onload = ready; // on error no map is drawn: the page's text stands alone
      document.head.appendChild(css);
      document.head.appendChild(js);
    }
    loading.push(done);
  }

  function show(el) {
    if (window.L) draw(el);
    else
      leaflet(function () {
        draw(el);
      });
  }

  // A map is drawn when it comes within 200 px of the viewport (or at once without
  // IntersectionObserver); a map in a closed or hidden part waits until that part is shown.
  var watcher =
    "IntersectionObserver" in window
      ? new IntersectionObserver(
          function (entries) {
            entries.forEach(function (e) {
              if (!e.isIntersecting) return;
              watcher.unobserve(e.target);
              show(e.target);
            });
          },
          { rootMargin: "200px 0px" },
        )
      : null;

  function watchAll(root) {
    var maps = Array.prototype.slice.call(root.querySelectorAll("[data-map]"));
    if (root.matches && root.matches("[data-map]")) maps.push(root);
    maps.forEach(function (el) {
      if (watcher) watcher.observe(el);
      else show(el);
    });
  }
  watchAll(document);
  document.addEventListener("htmx:afterSettle", function (evt) {
    watchAll(evt.target);
  });
  // A map swapped out is no longer watched.
  document.addEventListener("htmx:beforeCleanupElement", function (evt) {
    if (watcher && evt.target.matches && evt.target.matches("[data-map]")) watcher.unobserve(evt.target);
  });
})();
