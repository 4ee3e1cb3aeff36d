// Draws the maps of [data-map] elements with the vendored Leaflet (static/vendor/leaflet),
// loaded only when a map first comes near the screen (its hashed paths are this script's
// data-leaflet-* attributes, views' mapScript): a place page's pin (data-lat, data-lng, data-label), or a plan day's route (data-stops: the
// confirmed places, numbered in time order and joined by a line; data-pending: candidates of
// undecided blocks, lighter), or a collection's places (data-pins-from: the element whose
// data-pins the server swaps in with each new list, clustered by leaflet.markercluster, loaded
// with it). The page works without it: coordinates, links to maps sites and
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

  // clusterIcon is a cluster's bubble, named for screen readers and keyboard users (Leaflet
  // makes every marker a focusable button that Enter clicks: a cluster zooms in).
  function clusterIcon(L) {
    var Named = L.DivIcon.extend({
      createIcon: function (old) {
        var div = L.DivIcon.prototype.createIcon.call(this, old);
        div.setAttribute("aria-label", this.options.label);
        return div;
      },
    });
    return function (cluster) {
      var n = cluster.getChildCount();
      var size = n < 10 ? "small" : n < 100 ? "medium" : "large";
      return new Named({
        html: "<div><span>" + n + "</span></div>", // a number, no user data
        className: "marker-cluster marker-cluster-" + size,
        iconSize: L.point(40, 40),
        label: window.tripplanT("js.collmap.cluster", { count: n }),
      });
    };
  }

  function pinPopup(p) {
    var box = document.createElement("div");
    box.appendChild(text("strong", p.name));
    if (p.category) box.appendChild(text("div", p.category, "text-xs uppercase tracking-wide text-brand-700"));
    if (p.by) box.appendChild(text("div", window.tripplanT("js.collmap.added_by", { name: p.by })));
    var link = text("a", window.tripplanT("js.collmap.open"), "link");
    link.href = p.href;
    box.appendChild(link);
    return box;
  }

  // collection pins the places of data-pins-from's element, and pins them again whenever the
  // server swaps in new ones (a filter, a live update); the view is fitted to them at first and
  // when the filters change, not when someone adds a place meanwhile.
  function collection(L, el, map) {
    var group = L.markerClusterGroup({ iconCreateFunction: clusterIcon(L), showCoverageOnHover: false });
    // The group clusters by the map's zoom, so it needs one, and the highest (the tiles'), known
    // even when no tiles load.
    map.setMaxZoom(19);
    map.setView([20, 0], 1);
    map.addLayer(group);
    var shown = null;
    var filter = null;
    function refresh() {
      var source = document.getElementById(el.getAttribute("data-pins-from"));
      if (!source) return;
      var data = source.getAttribute("data-pins") || "[]";
      if (data === shown) return;
      shown = data;
      var pins = points(source, "data-pins");
      group.clearLayers();
      group.addLayers(
        pins.map(function (p) {
          return L.marker([p.lat, p.lng], { title: p.name, alt: p.name, keyboard: true }).bindPopup(pinPopup(p));
        }),
      );
      var now = source.getAttribute("data-filter") || "";
      if (filter !== null && now === filter) return;
      filter = now;
      if (pins.length === 1) map.setView([pins[0].lat, pins[0].lng], 15);
      else if (pins.length > 1)
        map.fitBounds(
          pins.map(function (p) {
            return [p.lat, p.lng];
          }),
          { padding: [24, 24], maxZoom: 16 },
        );
      else map.setView([20, 0], 1);
    }
    refresh();
    document.addEventListener("htmx:afterSettle", refresh);
  }

  function draw(el) {
    var L = window.L;
    var canvas = el.querySelector("[data-map-canvas]");
    if (!L || !canvas || canvas.hasAttribute("data-drawn")) return;
    var isDay = el.hasAttribute("data-stops");
    var isCollection = el.hasAttribute("data-pins-from");
    if (!isDay && !isCollection && !isFinite(parseFloat(el.getAttribute("data-lat")))) return;
    canvas.setAttribute("data-drawn", "");
    // The default pin's images by their full (hashed) paths, not Leaflet's guess from its CSS.
    L.Icon.Default.imagePath = "";
    L.Icon.Default.mergeOptions({
      iconUrl: files.leafletIcon,
      iconRetinaUrl: files.leafletIcon2x,
      shadowUrl: files.leafletShadow,
    });
    var map = L.map(canvas, { scrollWheelZoom: false, zoomControl: false });
    el.leafletMap = map;
    speak(L, map);
    background(L, el, map);
    if (isDay) day(L, el, map);
    else if (isCollection) collection(L, el, map);
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

  // clusters loads leaflet.markercluster's style sheets and script once, after Leaflet, then
  // calls done, as leaflet does.
  var clustering = null;
  function clusters(done) {
    if (window.L.MarkerClusterGroup) return done();
    if (!clustering) {
      clustering = [];
      var pending = 3;
      var ready = function () {
        if (--pending > 0) return;
        var waiting = clustering;
        clustering = null;
        waiting.forEach(function (f) {
          f();
        });
      };
      [files.clusterCss, files.clusterCssDefault].forEach(function (href) {
        var css = document.createElement("link");
        css.rel = "stylesheet";
        css.href = href;
        css.onload = css.onerror = ready;
        document.head.appendChild(css);
      });
      var js = document.createElement("script");
      js.src = files.clusterJs;
      js.onload = ready;
      document.head.appendChild(js);
    }
    clustering.push(done);
  }

  function show(el) {
    var then = function () {
      draw(el);
    };
    if (el.hasAttribute("data-pins-from")) {
      var drawn = then;
      then = function () {
        clusters(drawn);
      };
    }
    if (window.L) then();
    else leaflet(then);
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
  // The collection page's "List | Map" toggle on a phone (at lg both are shown side by side): a
  // map shown for the first time is drawn by the watcher; one drawn before measures itself
  // again, as it had no size while hidden.
  document.querySelectorAll("[data-map-view]").forEach(function (view) {
    var toggle = view.querySelector("[data-map-toggle]");
    if (!toggle) return;
    toggle.hidden = false;
    toggle.addEventListener("click", function (evt) {
      var button = evt.target.closest("[data-show]");
      if (!button) return;
      toggle.querySelectorAll("[data-show]").forEach(function (b) {
        var on = b === button;
        b.setAttribute("aria-pressed", on ? "true" : "false");
        var panel = document.getElementById(b.getAttribute("aria-controls"));
        if (panel) panel.classList.toggle("max-lg:hidden", !on);
      });
      var map = view.querySelector("[data-map]");
      if (map && map.leafletMap) map.leafletMap.invalidateSize();
    });
  });

  // A map swapped out is no longer watched.
  document.addEventListener("htmx:beforeCleanupElement", function (evt) {
    if (watcher && evt.target.matches && evt.target.matches("[data-map]")) watcher.unobserve(evt.target);
  });
})();
