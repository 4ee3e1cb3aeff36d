// Draws the maps of [data-map] elements with the vendored Leaflet (static/vendor/leaflet).
// Loaded only on pages with a map. The page works without it: coordinates and links to maps
// sites are plain text and links beside the map. When tiles cannot load (offline, blocked,
// no tile server configured) the pin stays and a note says the background is missing.
(function () {
  "use strict";

  function draw(el) {
    var L = window.L;
    var canvas = el.querySelector("[data-map-canvas]");
    var offline = el.querySelector("[data-map-offline]");
    var lat = parseFloat(el.getAttribute("data-lat"));
    var lng = parseFloat(el.getAttribute("data-lng"));
    if (!L || !canvas || !isFinite(lat) || !isFinite(lng) || canvas.hasAttribute("data-drawn")) return;
    canvas.setAttribute("data-drawn", "");

    L.Icon.Default.imagePath = "/static/vendor/leaflet/images/";
    var map = L.map(canvas, { scrollWheelZoom: false }).setView([lat, lng], 16);
    var tiles = el.getAttribute("data-tiles");
    function noBackground() {
      if (offline) offline.hidden = false;
    }
    if (tiles && tiles !== "none") {
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
    } else {
      noBackground();
    }
    var marker = L.marker([lat, lng], { title: el.getAttribute("data-label") || "" }).addTo(map);
    var label = el.getAttribute("data-label");
    if (label) {
      var popup = document.createElement("strong");
      popup.textContent = label; // text, never HTML
      marker.bindPopup(popup);
    }
  }

  function drawAll(root) {
    root.querySelectorAll("[data-map]").forEach(draw);
  }
  // Deferred scripts run in document order, so Leaflet is there by now.
  drawAll(document);
  document.addEventListener("htmx:afterSettle", function (evt) {
    drawAll(evt.target);
  });
})();
