// Optimising a day (issue 25): the day menu's "Optimise the day…" loads the day's
// optimisation into #optimise-dialog (hx-get on the item) and opens it; Apply posts the new
// times and the answer, the day grid with an Undo toast, replaces #day (app.js then closes the
// dialog). Closing it puts the focus back on the day's menu.
(function () {
  "use strict";
  var doc = document;

  function dialog() {
    return doc.getElementById("optimise-dialog");
  }

  doc.addEventListener("click", function (evt) {
    var item = evt.target instanceof Element && evt.target.closest("[data-optimise]");
    var d = dialog();
    if (!item || !d) return;
    var body = d.querySelector("#optimise-body");
    var loading = doc.createElement("p");
    loading.className = "mt-4 text-sm text-slate-600";
    loading.setAttribute("data-optimise-loading", "");
    loading.textContent = d.getAttribute("data-loading") || "";
    body.replaceChildren(loading);
    d.querySelector("[data-dialog-errors]").replaceChildren();
    if (!d.open) d.showModal();
  });

  // The preview came: Apply (or Close, when nothing improves) takes the focus.
  doc.addEventListener("htmx:afterSwap", function (evt) {
    var d = dialog();
    if (!d || evt.target.id !== "optimise-body") return;
    var first = d.querySelector("[data-optimise-apply]") || d.querySelector("[data-close-dialog]");
    if (first) first.focus();
  });

  // A refusal of the preview (TOO_MANY_STOPS) is said in the open dialog, which covers #flash.
  // (Apply is inside the dialog: app.js shows its errors there and closes the dialog once the
  // day is swapped in.)
  doc.addEventListener("htmx:beforeSwap", function (evt) {
    var elt = evt.detail.requestConfig ? evt.detail.requestConfig.elt : null;
    var d = dialog();
    if (!d || !evt.detail.isError || !(elt instanceof Element) || !elt.matches("[data-optimise]")) return;
    d.querySelector("#optimise-body").replaceChildren();
    evt.detail.target = d.querySelector("[data-dialog-errors]");
    evt.detail.swapOverride = "innerHTML";
  });

  doc.addEventListener("close", function (evt) {
    if (evt.target !== dialog()) return;
    var menu = doc.querySelector("[data-day-menu] summary");
    if (menu) menu.focus();
  }, true);
})();
