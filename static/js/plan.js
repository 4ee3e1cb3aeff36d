// The plan page. Every way to add has a tap and a key as well as a drag: "Add" on a gap of
// the day, "+" (the first free hour), a tap on an empty time of the grid, "+" on a place of
// the side panel, and dropping a place on a time (mouse: HTML5 drag; touch: press and hold,
// then drag, with pointer events) all open "Add here" at that time. Its search offers the
// places of the plan's collections and of place search. Dropping a place on a block, or
// "Add a candidate" in its picker, adds a candidate. Every request goes through htmx and
// swaps the #day partial; the server's answer says what was added in the live region and
// marks the block to bring into view. The Activity panel lists the plan's history.
(function () {
  "use strict";

  var doc = document;
  var DEFAULT_MINUTES = 60;
  var LAST_MINUTE = 24 * 60 - 1;
  var FIRST_VISIBLE_HOUR = 7;
  var LONG_PRESS_MS = 400;
  var MOVE_TOLERANCE = 8; // px a finger may wander before a press counts as a scroll

  // msg is a message of the page's language (app.js's window.tripplanT, js.plan.* ids).
  function msg(id, vars) {
    return window.tripplanT(id, vars);
  }
  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }
  function clock(min) {
    min = Math.max(0, Math.min(min, LAST_MINUTE));
    return pad(Math.floor(min / 60)) + ":" + pad(min % 60);
  }
  function toMinutes(hhmm) {
    var p = (hhmm || "").split(":");
    return parseInt(p[0], 10) * 60 + parseInt(p[1], 10);
  }
  function dayEl() {
    return doc.getElementById("day");
  }
  function day() {
    var el = dayEl();
    return el ? el.getAttribute("data-day") : "1";
  }
  // holdWithFinger keeps a finger dragging what held() says it holds, instead of scrolling the
  // page, and keeps the press that picks something up (pressing()) from opening the context menu.
  function holdWithFinger(held, pressing) {
    doc.addEventListener(
      "touchmove",
      function (evt) {
        if (held()) evt.preventDefault();
      },
      { passive: false }
    );
    doc.addEventListener("contextmenu", function (evt) {
      if (pressing() || held()) evt.preventDefault();
    });
  }
  // A day's address (?day=N) read offline may come back as the plan page the service worker
  // kept for another day (it keeps pages by address and falls back to the plan's own): the
  // day asked for is then loaded into it as its tab loads it, which the worker kept too if the
  // tab was opened. Online the server renders the day asked for, so this never runs.
  function showAskedDay() {
    var asked = new URLSearchParams(location.search).get("day");
    if (!asked || !/^[0-9]{1,2}$/.test(asked) || !dayEl() || asked === day()) return;
    var tab = doc.querySelector('#day nav a[hx-get][href$="?day=' + asked + '"]');
    if (tab) window.htmx.ajax("GET", tab.getAttribute("hx-get"), { source: tab, target: "#day", swap: "outerHTML" }).catch(function () {});
  }
  doc.addEventListener("DOMContentLoaded", showAskedDay);
  // What arrange.js, loaded after this file on the same page, takes from it: times of day as
  // "HH:MM" and minutes, the day shown, and how a finger's press and hold is told and kept.
  window.tripplanPlan = {
    clock: clock,
    toMinutes: toMinutes,
    dayEl: dayEl,
    day: day,
    LAST_MINUTE: LAST_MINUTE,
    LONG_PRESS_MS: LONG_PRESS_MS,
    MOVE_TOLERANCE: MOVE_TOLERANCE,
    holdWithFinger: holdWithFinger,
  };
  function firstFree() {
    var el = dayEl();
    return el ? parseInt(el.getAttribute("data-first-free"), 10) : 9 * 60;
  }
  function field(form, name) {
    return form.querySelector('[name="' + name + '"]');
  }
  function canAdd() {
    return !!doc.getElementById("block-dialog") && !!doc.querySelector("#day [data-add-here]");
  }

  // --- "Add here" ---

  // The place the dialog will add: from a linked collection (cp), or from search (placeId).
  function choosePlace(form, place) {
    var cp = field(form, "collection_place_id");
    var pid = field(form, "place_id");
    var collect = field(form, "collect");
    cp.value = (place && place.cp) || "";
    pid.value = place && !place.cp ? place.placeId || "" : "";
    cp.disabled = !cp.value;
    pid.disabled = collect.disabled = !pid.value;
    form.closest("dialog").querySelector("[data-place-label]").textContent = (place && place.name) || "";
  }

  // Opens "Add here" at a time: for a given place, for free time, or to choose a place.
  function openAdd(opts) {
    var dialog = doc.getElementById("block-dialog");
    if (!dialog) return;
    var form = dialog.querySelector("form");
    form.reset();
    var free = !!opts.free;
    field(form, "type").value = free ? "FREE" : "PLACE";
    choosePlace(form, opts.place || null);
    dialog.querySelector("[data-dialog-title]").textContent = msg(free ? "js.plan.add_free_time" : "js.plan.add_here");
    var search = dialog.querySelector("[data-place-search]");
    search.hidden = free;
    var choices = search.querySelector("[data-choices]");
    if (choices) choices.replaceChildren();
    var start = Math.max(0, Math.min(opts.start, LAST_MINUTE - 15));
    var end = Math.min(start + DEFAULT_MINUTES, opts.until || LAST_MINUTE, LAST_MINUTE);
    field(form, "day").value = day();
    field(form, "start_time").value = clock(start);
    field(form, "end_time").value = clock(end);
    clearErrors(dialog);
    dialog.showModal();
    if (!free && !opts.place) {
      var box = search.querySelector("[data-place-search-box]");
      window.htmx.trigger(box, "choices-open");
      box.focus();
    } else {
      field(form, "start_time").focus();
    }
  }

  function openEdit(button) {
    var dialog = doc.getElementById("edit-dialog");
    if (!dialog) return;
    var form = dialog.querySelector("form");
    form.setAttribute("data-id", button.getAttribute("data-edit-block"));
    form.setAttribute("data-version", button.getAttribute("data-version") || "");
    dialog.querySelector("[data-place-label]").textContent = button.getAttribute("data-title") || "";
    field(form, "day").value = button.getAttribute("data-day");
    field(form, "start_time").value = button.getAttribute("data-start");
    field(form, "end_time").value = button.getAttribute("data-end");
    field(form, "memo").value = button.getAttribute("data-memo") || "";
    var fixed = form.querySelector('input[type="checkbox"][name="fixed_time"]');
    if (fixed) fixed.checked = button.getAttribute("data-fixed-time") === "true";
    clearErrors(dialog);
    dialog.showModal();
  }

  function clearErrors(dialog) {
    var box = dialog.querySelector("[data-dialog-errors]");
    if (box) box.replaceChildren();
  }

  function showError(dialog, text) {
    var box = dialog.querySelector("[data-dialog-errors]");
    if (!box) return;
    var p = doc.createElement("p");
    p.className = "alert alert-error";
    p.setAttribute("role", "alert");
    p.textContent = text;
    box.replaceChildren(p);
  }

  function placeOf(el) {
    return {
      cp: el.getAttribute("data-collection-place-id") || "",
      placeId: el.getAttribute("data-place-id") || "",
      name: el.getAttribute("data-place-name") || "",
    };
  }

  // A place of a time block's picker, or of "Add here", was chosen.
  function choose(button) {
    var place = placeOf(button);
    var picker = button.closest("[data-candidate-url]");
    if (picker) {
      var values = place.cp ? { collection_place_ids: place.cp } : { place_ids: place.placeId, collect: "true" };
      window.htmx.ajax("POST", picker.getAttribute("data-candidate-url"), { source: button, target: "#day", swap: "outerHTML", values: values });
      return;
    }
    var form = button.closest("form");
    if (!form) return;
    form.querySelectorAll("[data-choice]").forEach(function (b) {
      b.setAttribute("aria-selected", b === button ? "true" : "false");
    });
    choosePlace(form, place);
    clearErrors(form.closest("dialog"));
    // The time is set already: Enter now adds.
    var submit = form.querySelector('button[type="submit"]');
    if (submit) submit.focus();
  }

  // --- typing an hour on the timeline ---
  // With the focus on the day's timeline, typing an hour (14, 09, or 9) goes to the block at
  // that time, or opens "Add here" there when it is free. A first digit that could begin a
  // two-digit hour (0, 1, 2) waits for the second, or for Enter; any other key forgets it.

  var typedHour = "";

  function goToHour(hour) {
    var min = hour * 60;
    var until = 0;
    var blocks = doc.querySelectorAll("#day li[data-time-block-id]");
    for (var i = 0; i < blocks.length; i++) {
      var start = toMinutes(blocks[i].getAttribute("data-start"));
      var end = toMinutes(blocks[i].getAttribute("data-end"));
      if (end === 0) end = 24 * 60; // a block ending at midnight
      if (start <= min && min < end) {
        // Its candidates, else its edit button, else its "⋯" menu: the first one shown.
        var block = blocks[i];
        var target = ['button[hx-get$="/candidates"]', "[data-edit-block]", "summary"]
          .map(function (sel) {
            return block.querySelector(sel);
          })
          .filter(function (el) {
            return el && el.getClientRects().length > 0;
          })[0];
        block.scrollIntoView({ block: "nearest" });
        if (target) target.focus();
        return;
      }
      if (start > min && (!until || start < until)) until = start;
    }
    if (canAdd()) openAdd({ start: min, until: until });
  }

  // The hour goes once its key is released, so that the key's character is not typed into
  // the search box "Add here" focuses.
  var hourToGo = -1;
  function typeHour(digit) {
    typedHour += digit;
    if (typedHour.length === 1 && digit <= "2") return;
    var h = parseInt(typedHour, 10);
    typedHour = "";
    hourToGo = h <= 23 ? h : parseInt(digit, 10);
  }
  doc.addEventListener("keyup", function () {
    if (hourToGo < 0) return;
    var h = hourToGo;
    hourToGo = -1;
    goToHour(h);
  });

  // --- the places panel: a sheet on phones ---

  function panel() {
    return doc.getElementById("places-panel");
  }
  function setPanel(open) {
    var p = panel();
    if (!p) return;
    p.classList.toggle("max-lg:hidden", !open);
    doc.querySelectorAll("[data-open-panel]").forEach(function (b) {
      b.setAttribute("aria-expanded", open ? "true" : "false");
    });
    if (open) {
      var first = p.querySelector("button, select, a[href]");
      if (first) first.focus();
    }
  }
  // isSheet: the panel is the phone's bottom sheet (below lg), not the desktop's side column.
  function isSheet() {
    var p = panel();
    return !!p && getComputedStyle(p).position === "fixed";
  }
  function panelOpen() {
    var p = panel();
    return !!p && !p.classList.contains("max-lg:hidden");
  }

  doc.addEventListener("click", function (evt) {
    var t = evt.target instanceof Element ? evt.target : null;
    if (!t) return;
    var el;
    // On phones a tap outside the places sheet closes it, and still does what it tapped.
    if (panelOpen() && isSheet() && !t.closest("#places-panel, [data-open-panel], dialog")) setPanel(false);
    if ((el = t.closest("[data-choice]"))) {
      choose(el);
      return;
    }
    if ((el = t.closest("[data-add-place]"))) {
      var item = el.closest("[data-collection-place-id]");
      openAdd({ start: firstFree(), place: placeOf(item) });
      return;
    }
    if (t.closest("[data-add-free]")) {
      openAdd({ start: firstFree(), free: true });
      return;
    }
    if ((el = t.closest("[data-add-here]"))) {
      var until = el.getAttribute("data-add-until");
      openAdd({ start: parseInt(el.getAttribute("data-add-here"), 10), until: until ? parseInt(until, 10) : 0 });
      return;
    }
    if ((el = t.closest("[data-slot]")) && canAdd()) {
      openAdd({ start: parseInt(el.getAttribute("data-slot"), 10) });
      return;
    }
    if ((el = t.closest("[data-add-candidate]"))) {
      var box = doc.getElementById(el.getAttribute("aria-controls"));
      var open = box.hidden;
      box.hidden = !open;
      el.setAttribute("aria-expanded", open ? "true" : "false");
      if (open) {
        var input = box.querySelector("[data-place-search-box]");
        window.htmx.trigger(input, "choices-open");
        input.focus();
      }
      return;
    }
    if (t.closest("[data-open-panel]")) {
      setPanel(!panelOpen());
      return;
    }
    if (t.closest("[data-close-panel]")) {
      setPanel(false);
      var opener = doc.querySelector("[data-open-panel]");
      if (opener) opener.focus();
      return;
    }
    // A "⋯" menu closes once an item is chosen, and when a tap lands elsewhere.
    var menu = t.closest("[data-block-menu]");
    if (menu && t.closest("button") && !t.closest("summary")) menu.open = false;
    doc.querySelectorAll("[data-block-menu][open]").forEach(function (m) {
      if (m !== menu) m.open = false;
    });
    if ((el = t.closest("[data-edit-block]"))) openEdit(el);
    if ((el = t.closest("[data-keep-mine], [data-take-theirs]"))) resolveStale(el);
  });

  // Someone changed the block while the edit dialog was open (412): "Keep mine" sends the
  // dialog's values again against the block's version now; "Use theirs" puts the block's
  // values now into the dialog (and that version), to save from or to close.
  function resolveStale(button) {
    var dialog = button.closest("dialog");
    var form = dialog && dialog.querySelector("form[data-block-form]");
    if (!form) return;
    form.setAttribute("data-version", button.getAttribute("data-version"));
    clearErrors(dialog);
    if (button.hasAttribute("data-keep-mine")) {
      form.requestSubmit();
      return;
    }
    var first = null;
    Array.prototype.forEach.call(button.attributes, function (a) {
      if (a.name.indexOf("data-theirs-") !== 0) return;
      var f = field(form, a.name.slice("data-theirs-".length).replace(/-/g, "_"));
      if (!f) return;
      f.value = a.value;
      first = first || f;
    });
    if (first) first.focus();
  }

  // Keys: an hour typed on the timeline goes there; Enter in a search box searches; arrows move
  // between the search box and its places; Esc closes a "⋯" menu or the places sheet.
  doc.addEventListener("keydown", function (evt) {
    var t = evt.target instanceof Element ? evt.target : null;
    if (!t) return;
    var onTimeline = t.closest("#day-timeline") && !t.closest("input, select, textarea, details[open]");
    if (onTimeline && /^[0-9]$/.test(evt.key) && !evt.altKey && !evt.ctrlKey && !evt.metaKey) {
      evt.preventDefault();
      typeHour(evt.key);
      return;
    }
    if (typedHour) {
      var hour = parseInt(typedHour, 10);
      typedHour = "";
      if (onTimeline && evt.key === "Enter") {
        evt.preventDefault();
        hourToGo = hour;
        return;
      }
    }
    if (evt.key === "Enter" && t.hasAttribute("data-place-search-box")) {
      // Enter searches at once; it does not send "Add here" before a place is chosen.
      evt.preventDefault();
      window.htmx.trigger(t, "search");
      return;
    }
    if (evt.key === "ArrowDown" || evt.key === "ArrowUp") {
      var scope = t.closest("[data-place-search]") || t.closest("[data-candidate-url]");
      if (!scope) return;
      var items = Array.prototype.slice.call(scope.querySelectorAll("[data-choice]"));
      if (!items.length) return;
      var box = scope.querySelector("[data-place-search-box]");
      var i = items.indexOf(t.closest("[data-choice]"));
      var next;
      if (t === box) next = evt.key === "ArrowDown" ? items[0] : null;
      else if (i >= 0) next = evt.key === "ArrowDown" ? items[Math.min(i + 1, items.length - 1)] : i === 0 ? box : items[i - 1];
      if (next) {
        evt.preventDefault();
        next.focus();
      }
      return;
    }
    if (evt.key === "Escape") {
      var menu = t.closest("[data-block-menu][open]");
      if (menu) {
        evt.preventDefault();
        menu.open = false;
        menu.querySelector("summary").focus();
        return;
      }
      if (panelOpen() && !t.closest("dialog")) {
        setPanel(false);
        var opener = doc.querySelector("[data-open-panel]");
        if (opener) opener.focus();
      }
    }
  });

  // Dialog forms are sent by htmx to the URL the form names (the edit form's URL holds the
  // candidate id the dialog was opened for; a place from search goes to by-place and joins
  // the plan's own collection).
  doc.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-block-form")) return;
    evt.preventDefault();
    var url = form.getAttribute("data-url");
    if (form.hasAttribute("data-id")) url += "/" + encodeURIComponent(form.getAttribute("data-id"));
    var type = field(form, "type");
    if (type && type.value === "PLACE") {
      var pid = field(form, "place_id");
      if (!pid.disabled && pid.value) {
        url += "/by-place";
      } else if (!field(form, "collection_place_id").value) {
        showError(form.closest("dialog"), msg("js.plan.choose_place_first"));
        var box = form.querySelector("[data-place-search-box]");
        if (box) box.focus();
        return;
      }
    }
    // An edit is made to the version the dialog was opened on: a block someone changed
    // meanwhile is refused (412) and the dialog says so, rather than overwriting their change.
    // A request that gets no answer rejects the promise; app.js tells the person in the dialog.
    var version = form.getAttribute("data-method") === "PATCH" ? form.getAttribute("data-version") : "";
    var headers = version ? { "If-Match": '"' + version + '"' } : {};
    window.htmx.ajax(form.getAttribute("data-method"), url, { source: form, target: "#day", swap: "outerHTML", headers: headers }).catch(function () {});
  });

  // --- dropping a place on a time or a block ---

  function dropTargetAt(el) {
    return el && (el.closest("[data-time-block-id]") || el.closest("[data-slot]") || el.closest("[data-gap]"));
  }
  var lit = null;
  function highlight(el) {
    if (lit) lit.classList.remove("bg-brand-100", "ring-2", "ring-brand-400");
    lit = el;
    if (lit) lit.classList.add("bg-brand-100", "ring-2", "ring-brand-400");
  }
  function dropOn(target, place) {
    highlight(null);
    if (!target) return;
    if (target.hasAttribute("data-time-block-id")) {
      // Onto a block: the place becomes one more candidate of it, and the answer brings the
      // day as it is now (so a refresh held during the drag is not needed).
      refreshHeld = false;
      var plan = dayEl().getAttribute("data-plan");
      window.htmx.ajax(
        "POST",
        "/plans/" + encodeURIComponent(plan) + "/blocks/" + encodeURIComponent(target.getAttribute("data-time-block-id")) + "/candidates?day=" + day(),
        { target: "#day", swap: "outerHTML", values: { collection_place_ids: place.cp } }
      );
      return;
    }
    var at = target.getAttribute("data-slot") || target.getAttribute("data-gap");
    openAdd({ start: parseInt(at, 10), place: place });
  }

  // Mouse: HTML5 drag and drop.
  var dragged = null;
  doc.addEventListener("dragstart", function (evt) {
    var item = evt.target instanceof Element && evt.target.closest("[data-collection-place-id]");
    if (!item || touch) {
      if (touch) evt.preventDefault();
      return;
    }
    dragged = placeOf(item);
    item.setAttribute("data-dragging", ""); // the places panel's live reload waits for the drop (app.js)
    evt.dataTransfer.effectAllowed = "copy";
    evt.dataTransfer.setData("text/plain", dragged.name);
  });
  doc.addEventListener("dragend", function () {
    dragged = null;
    highlight(null);
    notDragging();
    replayHeldRefresh();
  });
  function notDragging() {
    doc.querySelectorAll("[data-dragging]").forEach(function (el) {
      el.removeAttribute("data-dragging");
    });
  }

  // A live refresh of #day while a place is being dragged would move the day under the
  // pointer: it is held, and made once the drag ends.
  var refreshHeld = false;
  doc.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (!elt || elt.id !== "day" || !(dragged || touch)) return;
    evt.preventDefault();
    refreshHeld = true;
  });
  function replayHeldRefresh() {
    if (!refreshHeld) return;
    refreshHeld = false;
    var d = dayEl();
    if (d) window.htmx.trigger(d, "sse:block");
  }
  doc.addEventListener("dragover", function (evt) {
    if (!dragged) return;
    var target = dropTargetAt(evt.target instanceof Element ? evt.target : null);
    if (!target) return;
    evt.preventDefault();
    evt.dataTransfer.dropEffect = "copy";
    highlight(target);
  });
  doc.addEventListener("drop", function (evt) {
    if (!dragged) return;
    var target = dropTargetAt(evt.target instanceof Element ? evt.target : null);
    if (!target) return;
    evt.preventDefault();
    var place = dragged;
    dragged = null;
    dropOn(target, place);
  });

  // Touch: press and hold a place, then drag it (pointer events; phones fire no HTML5 drag).
  var press = null; // a finger down on a place, not yet held long enough
  var touch = null; // a place being dragged by touch: { place, ghost }
  function endPress() {
    if (press) clearTimeout(press.timer);
    press = null;
  }
  function endTouch() {
    if (touch) touch.ghost.remove();
    touch = null;
    highlight(null);
    notDragging();
  }
  function moveGhost(x, y) {
    touch.ghost.style.transform = "translate(" + (x - 24) + "px," + (y - 48) + "px)";
  }
  function targetAt(x, y) {
    return dropTargetAt(doc.elementFromPoint(x, y));
  }
  doc.addEventListener("pointerdown", function (evt) {
    if (evt.pointerType === "mouse" || !(evt.target instanceof Element)) return;
    var item = evt.target.closest("[data-collection-place-id]");
    if (!item || evt.target.closest("button")) return;
    endPress();
    var p = { item: item, x: evt.clientX, y: evt.clientY, id: evt.pointerId };
    p.timer = setTimeout(function () {
      if (press !== p) return;
      press = null;
      var ghost = doc.createElement("div");
      ghost.className = "pointer-events-none fixed left-0 top-0 z-[70] max-w-[14rem] truncate rounded-xl border border-brand-400 bg-white px-3 py-2 text-sm font-semibold text-slate-900 shadow-xl";
      ghost.setAttribute("aria-hidden", "true");
      ghost.setAttribute("data-drag-ghost", "");
      ghost.textContent = item.getAttribute("data-place-name");
      doc.body.appendChild(ghost);
      touch = { place: placeOf(item), ghost: ghost, id: p.id };
      item.setAttribute("data-dragging", "");
      moveGhost(p.x, p.y);
      if (navigator.vibrate) navigator.vibrate(15);
    }, LONG_PRESS_MS);
    press = p;
  });
  doc.addEventListener("pointermove", function (evt) {
    if (press && evt.pointerId === press.id && Math.hypot(evt.clientX - press.x, evt.clientY - press.y) > MOVE_TOLERANCE) endPress();
    if (!touch || evt.pointerId !== touch.id) return;
    moveGhost(evt.clientX, evt.clientY);
    highlight(targetAt(evt.clientX, evt.clientY));
    // Near an edge, the page scrolls so every time of the day can be reached.
    if (evt.clientY < 72) window.scrollBy(0, -12);
    else if (evt.clientY > window.innerHeight - 72) window.scrollBy(0, 12);
  });
  doc.addEventListener("pointerup", function (evt) {
    endPress();
    if (!touch || evt.pointerId !== touch.id) return;
    var place = touch.place;
    var target = targetAt(evt.clientX, evt.clientY);
    endTouch();
    if (target) {
      if (!target.hasAttribute("data-time-block-id")) setPanel(false);
      dropOn(target, place);
    }
    replayHeldRefresh();
  });
  doc.addEventListener("pointercancel", function () {
    endPress();
    endTouch();
    replayHeldRefresh();
  });
  holdWithFinger(
    function () {
      return !!touch;
    },
    function () {
      return !!press;
    }
  );

  // Keep the end after the start when the start moves in the add dialog.
  doc.addEventListener("change", function (evt) {
    var input = evt.target;
    if (!(input instanceof HTMLInputElement) || input.name !== "start_time") return;
    var form = input.form;
    var end = form && field(form, "end_time");
    if (end && toMinutes(end.value) <= toMinutes(input.value)) end.value = clock(toMinutes(input.value) + DEFAULT_MINUTES);
  });

  // --- the candidate picker: side by side, and live ---

  function pickerDialog() {
    return doc.getElementById("picker-dialog");
  }
  function pickerRoot() {
    return doc.querySelector("#picker-body [data-picker]");
  }
  function pickerOpen() {
    var d = pickerDialog();
    return !!d && d.open && !!pickerRoot();
  }
  function pickerTrack(root) {
    return root ? root.querySelector("[data-carousel]") : null;
  }
  function pickerCards(track) {
    return Array.prototype.slice.call(track.querySelectorAll(":scope > [data-candidate-card]"));
  }

  // On phones the candidates are a carousel: the card shown is the one nearest the middle.
  function shownCard(track) {
    var cards = pickerCards(track);
    var r = track.getBoundingClientRect();
    var mid = r.left + r.width / 2;
    var best = 0;
    var dist = Infinity;
    cards.forEach(function (c, i) {
      var cr = c.getBoundingClientRect();
      var d = Math.abs(cr.left + cr.width / 2 - mid);
      if (d < dist) {
        dist = d;
        best = i;
      }
    });
    return best;
  }
  // "2 of 3", and the previous and next buttons say when there is nothing that way.
  function carouselStatus(root) {
    var track = pickerTrack(root);
    if (!track) return;
    var n = pickerCards(track).length;
    var i = shownCard(track);
    var status = root.querySelector("[data-carousel-status]");
    var text = msg("js.plan.carousel_status", { n: i + 1, total: n });
    if (status && status.textContent !== text) status.textContent = text;
    var prev = root.querySelector("[data-carousel-prev]");
    var next = root.querySelector("[data-carousel-next]");
    if (prev) prev.setAttribute("aria-disabled", i === 0 ? "true" : "false");
    if (next) next.setAttribute("aria-disabled", i >= n - 1 ? "true" : "false");
  }
  // showCard brings card i of the track to its middle, gliding there (smooth) unless the
  // person asked their system for less motion.
  function showCard(track, i, smooth) {
    var cards = pickerCards(track);
    var card = cards[Math.max(0, Math.min(i, cards.length - 1))];
    if (!card) return;
    var glide = smooth && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    track.scrollTo({ left: card.offsetLeft - (track.clientWidth - card.offsetWidth) / 2, behavior: glide ? "smooth" : "instant" });
  }
  doc.addEventListener("click", function (evt) {
    var t = evt.target instanceof Element ? evt.target : null;
    var button = t && t.closest("[data-carousel-prev], [data-carousel-next]");
    var root = button && button.closest("[data-picker]");
    var track = pickerTrack(root);
    if (!track) return;
    showCard(track, shownCard(track) + (button.hasAttribute("data-carousel-next") ? 1 : -1), true);
  });
  var statusFrame = 0;
  doc.addEventListener(
    "scroll",
    function (evt) {
      if (!(evt.target instanceof Element) || !evt.target.hasAttribute("data-carousel") || statusFrame) return;
      statusFrame = requestAnimationFrame(function () {
        statusFrame = 0;
        var root = pickerRoot();
        if (root) carouselStatus(root);
      });
    },
    true
  );

  // Opinion times in the viewer's own time zone (the server writes UTC).
  function localTimes(root) {
    root.querySelectorAll("time[data-local-time]").forEach(function (el) {
      var at = new Date(el.getAttribute("datetime"));
      if (!isNaN(at)) el.title = at.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    });
  }

  // The viewer's own changes answer the whole picker: the card shown, the dialog's scroll and
  // the focus are kept across that swap.
  var keptPicker = null;
  doc.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!target || target.id !== "picker-body") return;
    keptPicker = null;
    var root = pickerRoot();
    var track = pickerTrack(root);
    if (!pickerOpen() || !track) return;
    var cards = pickerCards(track);
    var active = doc.activeElement;
    keptPicker = {
      url: root.getAttribute("data-picker-url"),
      card: cards.length ? cards[shownCard(track)].id : "",
      top: pickerDialog().scrollTop,
      focus: active && root.contains(active) && active.id ? active.id : "",
      focusCard: active && active.closest("[data-candidate-card]") ? active.closest("[data-candidate-card]").id : "",
    };
  });
  doc.addEventListener("htmx:afterSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!target || target.id !== "picker-body") return;
    var root = pickerRoot();
    if (!root) return;
    var kept = keptPicker;
    if (kept && kept.url === root.getAttribute("data-picker-url")) {
      var track = pickerTrack(root);
      var card = kept.card && doc.getElementById(kept.card);
      if (track && card) showCard(track, pickerCards(track).indexOf(card), false);
      pickerDialog().scrollTop = kept.top;
    } else {
      keptPicker = null;
    }
    carouselStatus(root);
    localTimes(root);
  });
  // Once settled (htmx has focused the new content's autofocus by then), the focus goes back
  // to the element that had it, else — it is gone or folded away — its card's opinion editor.
  doc.addEventListener("htmx:afterSettle", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!target || target.id !== "picker-body" || !keptPicker) return;
    var kept = keptPicker;
    keptPicker = null;
    // The card again, now that the new content is settled (its layout can still change while
    // htmx settles it, and a scroll made before then may not hold).
    var root = pickerRoot();
    var track = pickerTrack(root);
    var card = kept.card && doc.getElementById(kept.card);
    if (track && card) {
      showCard(track, pickerCards(track).indexOf(card), false);
      carouselStatus(root);
    }
    [kept.focus && doc.getElementById(kept.focus), kept.focusCard && doc.querySelector("#" + CSS.escape(kept.focusCard) + " summary")].some(function (el) {
      if (el) el.focus({ preventScroll: true }); // a folded-away element does not take it
      return !!el && doc.activeElement === el;
    });
    pickerDialog().scrollTop = kept.top;
  });

  // Others' changes reach an open picker live: on an opinion, candidate or block event of the
  // plan's stream it asks for itself again and puts in the parts marked data-live (headings,
  // cards' places and statuses, tallies and opinions), adding and removing cards. The
  // viewer's opinion forms are never replaced, so what they are typing, the focus and an
  // input method's composition stay as they are. While one of the viewer's own changes made in
  // a card is on its way, nothing is put in (its answer brings the whole picker); the picker
  // looks again once that answer is in, and drops a live answer older than it.
  var liveSource = null;
  var pickerBusy = false;
  var pickerAgain = false;
  var pickerWaiting = false;
  var pickerSwaps = 0;
  doc.addEventListener("htmx:sseOpen", function (evt) {
    var source = evt.detail && evt.detail.source;
    if (!source || source === liveSource) return;
    liveSource = source;
    ["opinion", "candidate", "block"].forEach(function (kind) {
      source.addEventListener(kind, refreshPicker);
    });
  });
  function ownChangeOnItsWay(root) {
    return !!root.querySelector("[data-candidate-card].htmx-request, [data-candidate-card] .htmx-request");
  }
  doc.addEventListener("htmx:afterSwap", function (evt) {
    if (!evt.detail || !evt.detail.target || evt.detail.target.id !== "picker-body") return;
    pickerSwaps++;
    if (pickerWaiting) {
      pickerWaiting = false;
      refreshPicker();
    }
  });
  function refreshPicker() {
    if (!pickerOpen()) return;
    if (pickerBusy) {
      pickerAgain = true;
      return;
    }
    if (ownChangeOnItsWay(pickerRoot())) {
      pickerWaiting = true;
      return;
    }
    pickerBusy = true;
    var url = pickerRoot().getAttribute("data-picker-url");
    var swaps = pickerSwaps;
    fetch(url, { headers: { Accept: "text/html", "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (res) {
        return res.text().then(function (html) {
          var root = pickerRoot();
          if (!root || !pickerOpen() || root.getAttribute("data-picker-url") !== url) return;
          if (ownChangeOnItsWay(root)) pickerWaiting = true;
          else if (swaps !== pickerSwaps) pickerAgain = true;
          else if (res.ok) mergePicker(root, html);
          else if (res.status === 404) pickerGone(root);
        });
      })
      .catch(function () {}) // unreachable: the picker stays as it is; the next event tries again
      .then(function () {
        pickerBusy = false;
        if (pickerAgain) {
          pickerAgain = false;
          refreshPicker();
        }
      });
  }
  function pickerGone(root) {
    var box = root.querySelector("[data-dialog-errors]");
    var p = doc.createElement("p");
    p.className = "alert alert-info";
    p.setAttribute("role", "status");
    p.textContent = msg("js.plan.block_deleted");
    if (box) box.replaceChildren(p);
    root.querySelectorAll("[data-candidate-card] button, [data-candidate-card] input, [data-candidate-card] textarea, [data-add-candidate]").forEach(function (el) {
      el.disabled = true;
    });
  }
  function mergePicker(root, html) {
    var tpl = doc.createElement("template");
    tpl.innerHTML = html;
    var fresh = tpl.content.querySelector("[data-picker]");
    var track = pickerTrack(root);
    var freshTrack = pickerTrack(fresh);
    if (!fresh || !track || !freshTrack) return;
    var active = doc.activeElement;
    function put(part) {
      var old = doc.getElementById(part.id);
      if (!old || !root.contains(old)) return;
      var focusID = active && old.contains(active) ? active.id : "";
      old.replaceWith(part);
      window.htmx.process(part);
      var again = focusID && doc.getElementById(focusID);
      if (again) again.focus({ preventScroll: true });
    }
    fresh.querySelectorAll("[data-live][id]").forEach(function (part) {
      if (!part.closest("[data-candidate-card]")) put(part);
    });
    var shown = pickerCards(track)[shownCard(track)];
    ["class", "data-cols", "tabindex"].forEach(function (a) {
      if (freshTrack.hasAttribute(a)) track.setAttribute(a, freshTrack.getAttribute(a));
      else track.removeAttribute(a);
    });
    var old = {};
    pickerCards(track).forEach(function (c) {
      old[c.id] = c;
    });
    var after = null;
    pickerCards(freshTrack).forEach(function (card) {
      var mine = old[card.id];
      if (mine) {
        delete old[card.id];
        mine.className = card.className;
        card.querySelectorAll("[data-live][id]").forEach(put);
        after = mine;
      } else {
        track.insertBefore(card, after ? after.nextSibling : track.firstChild);
        window.htmx.process(card);
        after = card;
      }
    });
    Object.keys(old).forEach(function (id) {
      old[id].remove();
    });
    if (shown && shown.isConnected) showCard(track, pickerCards(track).indexOf(shown), false);
    carouselStatus(root);
    localTimes(root);
  }

  // Show the working hours first when a day is shown; a refresh of the same day (another
  // member's change arriving live) keeps the scroll where it was. A block the viewer just
  // added to is brought into view.
  var shownDay = null;
  var kept = 0;
  doc.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!target || target.id !== "day") return; // only #day's own swaps replace the scroller
    var scroller = doc.querySelector("[data-day-scroll]");
    // A grid swapped in but not yet settled has not had its scroll put back (scrollDay): a
    // live refresh arriving then keeps the scroll kept before.
    if (scroller && !doc.querySelector("#day.htmx-settling, #day.htmx-added")) kept = scroller.scrollTop;
  });
  function scrollDay() {
    var scroller = doc.querySelector("[data-day-scroll]");
    if (!scroller) return;
    if (day() === shownDay) {
      scroller.scrollTop = kept;
    } else {
      shownDay = day();
      var first = scroller.querySelector('[data-slot="' + FIRST_VISIBLE_HOUR * 60 + '"]');
      if (first) scroller.scrollTop = first.offsetTop;
    }
    var added = scroller.querySelector("[data-just-added]");
    if (added) {
      added.removeAttribute("data-just-added");
      if (scroller.scrollHeight > scroller.clientHeight) {
        scroller.scrollTop = added.offsetTop - (scroller.clientHeight - added.offsetHeight) / 2; // the grid scrolls, not the page
      } else {
        added.scrollIntoView({ block: "center" });
      }
    }
  }
  scrollDay();
  doc.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.target && evt.target.id === "day") scrollDay();
  });

  // --- Activity ---

  // The activity panel's list reloads on live updates while it is open; once the dialog closes
  // its content goes, so a closed panel asks nothing (the Activity button loads it afresh).
  var activity = doc.getElementById("activity-dialog");
  if (activity) {
    activity.addEventListener("close", function () {
      var body = doc.getElementById("activity-body");
      if (body) body.replaceChildren();
    });
  }
})();
