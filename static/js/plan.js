// The plan page: drag a place from the side panel onto a time of the day grid (or use its
// "Add" button, or "Free time") to open the add-block dialog with the day, the drop time and a
// default hour; drop a place onto an existing block to add it as a candidate; edit a block in
// a dialog. Every request goes through htmx and swaps the #day partial.
(function () {
  "use strict";

  var doc = document;
  var DEFAULT_MINUTES = 60;
  var FIRST_VISIBLE_HOUR = 7;

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }
  function clock(min) {
    min = Math.max(0, Math.min(min, 24 * 60 - 1));
    return pad(Math.floor(min / 60)) + ":" + pad(min % 60);
  }
  function toMinutes(hhmm) {
    var p = (hhmm || "").split(":");
    return parseInt(p[0], 10) * 60 + parseInt(p[1], 10);
  }
  function day() {
    var el = doc.getElementById("day");
    return el ? el.getAttribute("data-day") : "1";
  }
  function field(form, name) {
    return form.querySelector('[name="' + name + '"]');
  }

  // Opens the add dialog for a place (collectionPlaceId) or free time (no id) at a time.
  function openAdd(collectionPlaceId, placeName, startMin) {
    var dialog = doc.getElementById("block-dialog");
    if (!dialog) return;
    var form = dialog.querySelector("form");
    form.reset();
    var type = field(form, "type");
    var cp = field(form, "collection_place_id");
    type.value = collectionPlaceId ? "PLACE" : "FREE";
    cp.value = collectionPlaceId || "";
    cp.disabled = !collectionPlaceId; // a FREE block sends no collection_place_id at all
    dialog.querySelector("[data-dialog-title]").textContent = collectionPlaceId ? "Add to the plan" : "Add free time";
    dialog.querySelector("[data-place-label]").textContent = placeName || "";
    field(form, "day").value = day();
    field(form, "start_time").value = clock(startMin);
    field(form, "end_time").value = clock(Math.min(startMin + DEFAULT_MINUTES, 24 * 60 - 1));
    clearErrors(dialog);
    dialog.showModal();
    field(form, "start_time").focus();
  }

  function openEdit(button) {
    var dialog = doc.getElementById("edit-dialog");
    if (!dialog) return;
    var form = dialog.querySelector("form");
    form.setAttribute("data-id", button.getAttribute("data-edit-block"));
    dialog.querySelector("[data-place-label]").textContent = button.getAttribute("data-title") || "";
    field(form, "day").value = button.getAttribute("data-day");
    field(form, "start_time").value = button.getAttribute("data-start");
    field(form, "end_time").value = button.getAttribute("data-end");
    field(form, "memo").value = button.getAttribute("data-memo") || "";
    clearErrors(dialog);
    dialog.showModal();
  }

  function clearErrors(dialog) {
    var box = dialog.querySelector("[data-dialog-errors]");
    if (box) box.replaceChildren();
  }

  // The next free quarter hour from 09:00 for buttons that have no drop point.
  function defaultStart() {
    return 9 * 60;
  }

  doc.addEventListener("click", function (evt) {
    var t = evt.target instanceof Element ? evt.target : null;
    if (!t) return;
    var add = t.closest("[data-add-place]");
    if (add) {
      var item = add.closest("[data-collection-place-id]");
      openAdd(item.getAttribute("data-collection-place-id"), item.getAttribute("data-place-name"), defaultStart());
      return;
    }
    if (t.closest("[data-add-free]")) {
      openAdd("", "", defaultStart());
      return;
    }
    var edit = t.closest("[data-edit-block]");
    if (edit) openEdit(edit);
  });

  // Dialog forms are sent by htmx to the URL the form names (the edit form's URL holds the
  // candidate id the dialog was opened for).
  doc.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-block-form")) return;
    evt.preventDefault();
    var url = form.getAttribute("data-url");
    if (form.hasAttribute("data-id")) url += "/" + encodeURIComponent(form.getAttribute("data-id"));
    window.htmx.ajax(form.getAttribute("data-method"), url, { source: form, target: "#day", swap: "outerHTML" });
  });

  // Drag and drop.
  var dragged = null;
  doc.addEventListener("dragstart", function (evt) {
    var item = evt.target instanceof Element && evt.target.closest("[data-collection-place-id]");
    if (!item) return;
    dragged = { id: item.getAttribute("data-collection-place-id"), name: item.getAttribute("data-place-name") };
    evt.dataTransfer.effectAllowed = "copy";
    evt.dataTransfer.setData("text/plain", dragged.name);
  });
  doc.addEventListener("dragend", function () {
    dragged = null;
    highlight(null);
  });
  var lit = null;
  function highlight(el) {
    if (lit) lit.classList.remove("bg-brand-100", "ring-2", "ring-brand-400");
    lit = el;
    if (lit) lit.classList.add("bg-brand-100", "ring-2", "ring-brand-400");
  }
  function dropTarget(evt) {
    var t = evt.target instanceof Element ? evt.target : null;
    return t && (t.closest("[data-time-block-id]") || t.closest("[data-slot]"));
  }
  doc.addEventListener("dragover", function (evt) {
    if (!dragged) return;
    var target = dropTarget(evt);
    if (!target) return;
    evt.preventDefault();
    evt.dataTransfer.dropEffect = "copy";
    highlight(target);
  });
  doc.addEventListener("drop", function (evt) {
    if (!dragged) return;
    var target = dropTarget(evt);
    if (!target) return;
    evt.preventDefault();
    highlight(null);
    var place = dragged;
    dragged = null;
    if (target.hasAttribute("data-time-block-id")) {
      // Onto a block: the place becomes one more candidate of it.
      var plan = doc.getElementById("day").getAttribute("data-plan");
      window.htmx.ajax(
        "POST",
        "/plans/" + encodeURIComponent(plan) + "/blocks/" + encodeURIComponent(target.getAttribute("data-time-block-id")) + "/candidates?day=" + day(),
        { target: "#day", swap: "outerHTML", values: { collection_place_ids: place.id } }
      );
      return;
    }
    openAdd(place.id, place.name, parseInt(target.getAttribute("data-slot"), 10));
  });

  // Keep the end after the start when the start moves in the add dialog.
  doc.addEventListener("change", function (evt) {
    var input = evt.target;
    if (!(input instanceof HTMLInputElement) || input.name !== "start_time") return;
    var form = input.form;
    var end = form && field(form, "end_time");
    if (end && toMinutes(end.value) <= toMinutes(input.value)) end.value = clock(toMinutes(input.value) + DEFAULT_MINUTES);
  });

  // Show the working hours first when a day is shown; a refresh of the same day (another
  // member's change arriving live) keeps the scroll where it was.
  var shownDay = null;
  var kept = 0;
  doc.addEventListener("htmx:beforeSwap", function (evt) {
    var scroller = doc.querySelector("[data-day-scroll]");
    if (scroller) kept = scroller.scrollTop;
  });
  function scrollDay() {
    var scroller = doc.querySelector("[data-day-scroll]");
    if (!scroller) return;
    if (day() === shownDay) {
      scroller.scrollTop = kept;
      return;
    }
    shownDay = day();
    var first = scroller.querySelector('[data-slot="' + FIRST_VISIBLE_HOUR * 60 + '"]');
    if (first) scroller.scrollTop = first.offsetTop;
  }
  scrollDay();
  doc.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.target && evt.target.id === "day") scrollDay();
  });
})();
