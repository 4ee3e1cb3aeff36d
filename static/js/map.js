// Draws the maps of [data-map] elements with the vendored Leaflet (static/vendor/leaflet),
// loaded only when a map first comes near the screen (its hashed paths are this script's
// data-leaflet-* attributes, views' mapScript): a place page's pin (data-lat, data-lng,
// data-label), or a plan day's map ([data-day-map], its points on the route around it:
// data-stops, the confirmed places, numbered in time order and joined by a line; data-pending,
// candidates of undecided blocks, lighter and labelled; data-centre, the destination of a day
// without places), or a collection's places (data-pins-from: the element whose data-pins the
// server swaps in with each new list, clustered by leaflet.markercluster, loaded with it). A
// day's pins and its blocks' cards are linked both ways, and on phones the day switches between
// its timeline and its map. The page works without it: coordinates, links to maps sites and
// the list of legs are plain text beside the map. When tiles cannot load (offline, blocked, no
// tile server configured) the points stay and a note says the background is missing.
(function () {
  "use strict";

  var files = document.currentScript ? document.currentScript.dataset : {};

  function pointsOf(el, name) {
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

  // --- A plan day's map ---
  // The day's map box (#day-map) is kept across the #day swaps (hx-preserve), so its Leaflet
  // map lives on; its points come from the route around it (data-stops, data-pending,
  // data-centre), which each swap brings afresh. The points are redrawn when they changed; the
  // view is fitted to them only when the day changed (or there was nothing to fit before), so
  // the viewer's own zoom survives edits and live updates.
  var days = []; // {el, map, layer, pins: {time block id: [marker]}, key, day, placed, fitLater}

  function routeOf(el) {
    return el.closest("[data-route]") || el;
  }

  function dayOf(el) {
    var d = el.closest("[data-day]");
    return d ? d.getAttribute("data-day") : "";
  }

  // Pending candidates are coloured by their block, in turn, so the candidates of one block
  // read as a group; each pin carries its place's name.
  var PENDING = ["map-pending-a", "map-pending-b", "map-pending-c", "map-pending-d"];

  function marker(L, d, p, icon, label) {
    var m = L.marker([p.lat, p.lon], { icon: icon, keyboard: true, riseOnHover: true }).addTo(d.layer);
    var node = m.getElement();
    node.setAttribute("aria-label", label);
    if (p.time_block_id) {
      node.setAttribute("data-pin-block", p.time_block_id);
      (d.pins[p.time_block_id] = d.pins[p.time_block_id] || []).push(m);
      var id = p.time_block_id;
      m.on("mouseover", function () {
        link("pin", id);
      });
      m.on("mouseout", function () {
        link("pin", null);
      });
      L.DomEvent.on(node, "focus", function () {
        link("pin", id);
      });
      L.DomEvent.on(node, "blur", function () {
        link("pin", null);
      });
      m.on("click", function () {
        toBlock(L, d, m, p, label);
      });
      // A pin is a button (Leaflet's role for a keyboard marker): Enter and Space press it.
      m.on("keydown", function (e) {
        var key = e.originalEvent.key;
        if (key !== "Enter" && key !== " ") return;
        e.originalEvent.preventDefault();
        toBlock(L, d, m, p, label);
      });
    }
    return m;
  }

  // data is the route's points for a day map, and their bounds.
  function data(d) {
    var route = routeOf(d.el);
    var got = {
      route: route,
      stops: pointsOf(route, "data-stops"),
      pending: pointsOf(route, "data-pending"),
      centre: pointsOf(route, "data-centre"),
    };
    got.bounds = got.pending.concat(got.stops, got.centre).map(function (p) {
      return [p.lat, p.lon];
    });
    got.placed = got.stops.length + got.pending.length > 0;
    return got;
  }

  // points draws them (the map has its view already: Leaflet draws markers on a map with one):
  // the stops in time order, then the candidates, which is also their order for Tab.
  function points(L, d, got) {
    d.layer.clearLayers();
    d.pins = {};
    var groups = {};
    if (got.stops.length > 1) {
      L.polyline(
        got.stops.map(function (p) {
          return [p.lat, p.lon];
        }),
        { color: "#0f766e", weight: 3, opacity: 0.8, interactive: false },
      ).addTo(d.layer);
    }
    got.stops.forEach(function (p) {
      var icon = L.divIcon({ className: "map-stop", html: text("span", String(p.n)), iconSize: [26, 26], iconAnchor: [13, 13] });
      var label = window.tripplanT("js.planmap.stop", { n: p.n, name: p.name, time: p.time });
      marker(L, d, p, icon, label).bindTooltip(label, { direction: "top", offset: [0, -12] });
    });
    got.pending.forEach(function (p) {
      if (!(p.time_block_id in groups)) groups[p.time_block_id] = Object.keys(groups).length % PENDING.length;
      var label = document.createElement("span");
      label.className = "map-pending-label";
      label.textContent = p.name;
      var icon = L.divIcon({ className: "map-pending " + PENDING[groups[p.time_block_id]], html: label, iconSize: [16, 16], iconAnchor: [8, 8] });
      marker(L, d, p, icon, window.tripplanT("js.planmap.candidate", { name: p.name, time: p.time }));
    });
    got.centre.forEach(function (p) {
      L.marker([p.lat, p.lon], { title: p.name }).addTo(d.layer);
    });
    var canvas = d.el.querySelector("[data-map-canvas]");
    var name = got.route.getAttribute("data-map-label");
    if (canvas && name) canvas.setAttribute("aria-label", name);
  }

  // fit shows all the points (the box has a map only while it has points: the templ draws it so).
  function fit(d, got) {
    var b = got.bounds;
    if (b.length === 1) d.map.setView(b[0], got.placed ? 15 : 12);
    else if (b.length > 1) d.map.fitBounds(b, { padding: [32, 32], maxZoom: 16 });
  }

  function day(L, el, map) {
    var d = { el: el, map: map, layer: L.layerGroup().addTo(map), pins: {} };
    days.push(d);
    refresh(L, d);
  }

  // refresh redraws a day map's points when its route changed.
  function refresh(L, d) {
    var route = routeOf(d.el);
    var key = ["data-stops", "data-pending", "data-centre"]
      .map(function (a) {
        return route.getAttribute(a) || "";
      })
      .join("|");
    var shown = dayOf(d.el);
    if (key === d.key && shown === d.day) return;
    var got = data(d);
    if (shown !== d.day || !d.placed) {
      // A map hidden behind the phone's Timeline view has no size to fit to: it fits when shown.
      // It still needs a view now: Leaflet makes no pin's element on a map without one.
      if (d.el.offsetWidth) fit(d, got);
      else {
        d.fitLater = true;
        if (got.bounds.length) d.map.setView(got.bounds[0], 12);
      }
    }
    points(L, d, got);
    d.key = key;
    d.day = shown;
    d.placed = got.placed;
    paint();
  }

  // --- A pin and its block's card, linked both ways ---
  // Hovering or focusing a block's card (li[data-time-block-id]) lights its pins; hovering or
  // focusing a pin lights the pin and the card. Clicking a pin (or Enter on it) brings the
  // card into view and focuses it; on a phone's Map view, where the timeline is hidden, it
  // opens the pin's name with a button to the timeline.
  var active = { card: null, focus: null, pin: null };
  var lit = [];

  function link(source, id) {
    active[source] = id;
    paint();
  }

  function paint() {
    lit.forEach(function (el) {
      el.classList.remove("map-pin-active");
      el.removeAttribute("data-map-active");
    });
    lit = [];
    ["card", "focus", "pin"].forEach(function (source) {
      var id = active[source];
      if (!id) return;
      days.forEach(function (d) {
        (d.pins[id] || []).forEach(function (m) {
          var node = m.getElement();
          if (node) {
            node.classList.add("map-pin-active");
            lit.push(node);
          }
        });
      });
      // The card lights for its pin, and when a pressed pin gave it the focus (browsers do not
      // draw a focus given after a click).
      var card = blockCard(id);
      if (card && (source === "pin" || (source === "focus" && card === document.activeElement))) {
        card.setAttribute("data-map-active", "");
        lit.push(card);
      }
    });
  }

  function blockCard(id) {
    return document.querySelector('#day li[data-time-block-id="' + CSS.escape(id) + '"]');
  }

  function cardId(node) {
    var card = node instanceof Element ? node.closest("#day li[data-time-block-id]") : null;
    return card ? card.getAttribute("data-time-block-id") : null;
  }

  document.addEventListener("mouseover", function (e) {
    var id = cardId(e.target);
    if (id !== active.card) link("card", id);
  });
  document.addEventListener("focusin", function (e) {
    var id = cardId(e.target);
    if (id !== active.focus) link("focus", id);
  });
  document.addEventListener("focusout", function (e) {
    if (!cardId(e.relatedTarget) && active.focus) link("focus", null);
  });

  function showCard(card) {
    card.scrollIntoView({ block: "nearest" });
    if (!card.hasAttribute("tabindex")) card.setAttribute("tabindex", "-1");
    card.focus({ preventScroll: true });
  }

  function toBlock(L, d, m, p, label) {
    var card = blockCard(p.time_block_id);
    if (!card) return;
    if (card.getClientRects().length) {
      showCard(card);
      return;
    }
    var box = document.createElement("div");
    box.appendChild(text("p", label, "font-semibold"));
    var go = text("button", window.tripplanT("js.planmap.show_in_timeline"), "btn btn-secondary btn-sm mt-2");
    go.type = "button";
    go.addEventListener("click", function () {
      d.map.closePopup();
      setView("timeline");
      var again = blockCard(p.time_block_id);
      if (again) showCard(again);
    });
    box.appendChild(go);
    m.closeTooltip(); // the popup says the same
    L.popup({ offset: [0, -8] }).setLatLng(m.getLatLng()).setContent(box).openOn(d.map);
    go.focus();
  }

  // --- The phone's Timeline | Map switch ([data-day-views]) ---
  // #day[data-view] picks what shows below lg (input.css); the choice outlives the day's swaps.
  var view = "timeline";

  function setView(v) {
    view = v;
    applyView();
    if (v !== "map") return;
    days.forEach(function (d) {
      if (!d.el.isConnected) return;
      d.map.invalidateSize();
      if (d.fitLater) fit(d, data(d));
      d.fitLater = false;
    });
  }

  function applyView() {
    var dayEl = document.getElementById("day");
    if (!dayEl) return;
    dayEl.setAttribute("data-view", view);
    dayEl.querySelectorAll("[data-day-views]").forEach(function (group) {
      group.hidden = false;
    });
    dayEl.querySelectorAll("[data-day-view]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-day-view") === view));
    });
  }

  document.addEventListener("click", function (e) {
    var b = e.target instanceof Element ? e.target.closest("[data-day-view]") : null;
    if (b) setView(b.getAttribute("data-day-view"));
  });
  applyView();
  document.addEventListener("htmx:afterSwap", applyView);

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
      var pins = pointsOf(source, "data-pins");
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
    var isDay = el.hasAttribute("data-day-map");
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
  // After a swap: new maps are watched; the kept day maps redraw their points (a map whose box
  // is gone is removed).
  document.addEventListener("htmx:afterSettle", function (evt) {
    watchAll(evt.target);
    days = days.filter(function (d) {
      if (d.el.isConnected) return true;
      d.map.remove();
      return false;
    });
    if (window.L)
      days.forEach(function (d) {
        refresh(window.L, d);
      });
  });
  // A map swapped out is no longer watched.
  document.addEventListener("htmx:beforeCleanupElement", function (evt) {
    if (watcher && evt.target.matches && evt.target.matches("[data-map]")) watcher.unobserve(evt.target);
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
