// Filling the gaps (issue 25): a gap's "Fill" loads its suggestions into #gaps-dialog (hx-get
// on the button) and opens it at once with a line saying they are coming; a place's button
// posts the new block and the answer, the day, replaces #day (app.js then closes the dialog).
// Closing it puts the focus back on the "Fill" that opened it while that is still on the page,
// else on the day's timeline (the day was swapped: the new block is in it).
(function () {
  "use strict";
  var doc = document;
  var opener = null;

  function dialog() {
    return doc.getElementById("gaps-dialog");
  }

  doc.addEventListener("click", function (evt) {
    var button = evt.target instanceof Element && evt.target.closest("[data-fill-gap]");
    var d = dialog();
    if (!button || !d) return;
    opener = button;
    var loading = doc.createElement("p");
    loading.className = "mt-4 text-sm text-slate-600";
    loading.setAttribute("data-gaps-loading", "");
    loading.textContent = d.getAttribute("data-loading") || "";
    d.querySelector("#gaps-body").replaceChildren(loading);
    d.querySelector("[data-dialog-errors]").replaceChildren();
    if (!d.open) d.showModal();
  });

  // The suggestions came: the first place (or Close, when there is none) takes the focus.
  doc.addEventListener("htmx:afterSwap", function (evt) {
    var d = dialog();
    if (!d || evt.target.id !== "gaps-body") return;
    var first = d.querySelector("[data-gap-suggestion]") || d.querySelector("#gaps-body [data-close-dialog]");
    if (first) first.focus();
  });

  // A refusal of the suggestions is said in the open dialog, which covers #flash.
  doc.addEventListener("htmx:beforeSwap", function (evt) {
    var elt = evt.detail.requestConfig ? evt.detail.requestConfig.elt : null;
    var d = dialog();
    if (!d || !evt.detail.isError || !(elt instanceof Element) || !elt.matches("[data-fill-gap]")) return;
    d.querySelector("#gaps-body").replaceChildren();
    evt.detail.target = d.querySelector("[data-dialog-errors]");
    evt.detail.swapOverride = "innerHTML";
  });

  doc.addEventListener("close", function (evt) {
    if (evt.target !== dialog()) return;
    var back = opener && opener.isConnected ? opener : doc.getElementById("day-timeline");
    opener = null;
    if (back) back.focus();
  }, true);
})();
