// Moving and resizing time blocks by hand on the plan page (issue 24). A block is dragged to
// another time of the day's grid, or onto another day's tab (same times on that day); its
// bottom edge is dragged to change its end. Mouse: pointer events, the drag starting once the
// pointer moves; touch: press and hold (as for places, plan.js), so a swipe still scrolls.
// Keys on a focused block: Alt+Up/Down moves it 15 minutes, Shift+Alt+Up/Down changes its
// length; "Move to…" asks for a day and a start. Every change is the block's versioned PATCH
// (If-Match), answered with the day, announced, with an Undo toast; a time another block holds
// is shown next to the block with the day's next free start; a block someone else changed
// meanwhile (412) reloads the day and says so. Read-only viewers' blocks carry no
// data-arrange, so nothing here applies to them.
(function () {
  "use strict";

  var doc = document;
  var fromPlan = window.tripplanPlan; // plan.js runs first (both deferred, in order)
  var STEP = 15;
  var LAST_MINUTE = fromPlan.LAST_MINUTE; // times of day end before 24:00
  var LONG_PRESS_MS = fromPlan.LONG_PRESS_MS; // as plan.js's places
  var MOVE_TOLERANCE = fromPlan.MOVE_TOLERANCE; // px a finger may wander before a press counts as a scroll
  var MOUSE_SLOP = 4; // px a mouse moves before a press becomes a drag (else it is a click)
  var EDGE = 48; // px from a scroller's edge where a drag scrolls it

  function msg(id, vars) {
    return window.tripplanT(id, vars);
  }
  var clock = fromPlan.clock;
  var toMinutes = fromPlan.toMinutes;
  var dayEl = fromPlan.dayEl;
  var shownDay = fromPlan.day;
  function span(start, end) {
    return clock(start) + "–" + clock(end);
  }
  function timeline() {
    return doc.getElementById("day-timeline");
  }
  // The grid (lg and up) is where blocks are dragged; phones' list moves them by dialog and key.
  function isGrid() {
    var ol = timeline();
    return !!ol && getComputedStyle(ol).display === "grid";
  }
  function blockOf(el) {
    return el instanceof Element ? el.closest("#day-timeline li[data-arrange]") : null;
  }
  function blockById(id) {
    return doc.querySelector('#day-timeline li[data-arrange="' + CSS.escape(id) + '"]');
  }
  function info(li) {
    return {
      id: li.getAttribute("data-arrange"),
      version: li.getAttribute("data-version"),
      title: li.getAttribute("data-title") || "",
      start: toMinutes(li.getAttribute("data-start")),
      end: toMinutes(li.getAttribute("data-end")),
    };
  }
  function row(min) {
    return Math.floor(min / STEP) + 1;
  }
  function rowAfter(min) {
    return Math.ceil(min / STEP) + 1;
  }

  // --- sending a change ---

  var sending = null; // { id, by: "key" | "pointer" | "dialog" } while a change is on its way

  // send PATCHes the block b to day and [start, end), from the element that made it (the block,
  // or the Move to… form), against the version the page shows.
  function send(b, day, start, end, source, by) {
    clearConflicts();
    sending = { id: b.id, by: by };
    source.setAttribute("data-arranging", "");
    var plan = dayEl().getAttribute("data-plan");
    var url = "/plans/" + encodeURIComponent(plan) + "/blocks/" + encodeURIComponent(b.id) + "?day=" + encodeURIComponent(shownDay());
    var headers = b.version ? { "If-Match": '"' + b.version + '"' } : {};
    return window.htmx
      .ajax("PATCH", url, {
        source: source,
        target: "#day",
        swap: "outerHTML",
        headers: headers,
        values: { day: String(day), start_time: clock(start), end_time: clock(end) },
      })
      .catch(function () {}) // unanswered: app.js says so
      .then(function () {
        source.removeAttribute("data-arranging");
        var was = sending;
        sending = null;
        endPreview();
        if (was) settled(was);
      });
  }

  // After the answer: the focus stays with a block moved by keys or Move to… (the timeline's
  // when it went to another day), and keys pressed meanwhile are sent against the block's new
  // version.
  function settled(was) {
    var li = blockById(was.id);
    if (was.by === "key" && li) li.focus();
    if (was.by === "dialog" && !doc.getElementById("move-dialog").open) {
      var ol = timeline();
      if (li) li.focus();
      else if (ol) ol.focus();
    }
    var want = keyed && keyed.id === was.id ? keyed : null;
    if (!want) return;
    if (!li) {
      keyed = null;
      return;
    }
    var b = info(li);
    if (want.start === b.start && want.end === b.end) {
      keyed = null;
      return;
    }
    send(b, shownDay(), want.start, want.end, li, "key");
  }

  function clearConflicts() {
    doc.querySelectorAll("[data-conflict-host]").forEach(function (n) {
      n.remove();
    });
  }

  // A place next to the block for its conflict: under it in the grid, after it in the list.
  function conflictHost(li) {
    clearConflicts();
    var host = doc.createElement("li");
    host.setAttribute("data-conflict-host", "");
    host.className = "z-40 col-start-2 self-start lg:mx-1";
    if (isGrid()) {
      var b = info(li);
      var at = Math.min(rowAfter(b.end), 93);
      host.style.gridRow = at + " / span 4";
    }
    li.insertAdjacentElement("afterend", host);
    return host;
  }

  // Someone changed the block meanwhile: nothing moved; the day is loaded as it is now.
  function stale() {
    var region = doc.getElementById("flash");
    var tpl = doc.getElementById("flash-template");
    if (region && tpl && tpl.content) {
      var node = tpl.content.firstElementChild.cloneNode(true);
      var t = node.querySelector("[data-flash-title]");
      var d = node.querySelector("[data-flash-detail]");
      if (t) t.textContent = msg("js.arrange.stale_title");
      if (d) d.textContent = msg("js.arrange.stale");
      node.setAttribute("data-stale", "");
      region.replaceChildren(node);
    }
    var dialog = doc.getElementById("move-dialog");
    if (dialog && dialog.open) dialog.close();
    var day = dayEl();
    if (day) window.htmx.trigger(day, "sse:block");
  }

  doc.addEventListener("htmx:beforeSwap", function (evt) {
    var d = evt.detail;
    var elt = d && d.requestConfig ? d.requestConfig.elt : null;
    if (!(elt instanceof Element) || !elt.hasAttribute("data-arranging")) return;
    var status = d.xhr.status;
    if (status >= 400) keyed = null; // keys pressed meanwhile are not sent after a refusal
    if (status === 412) {
      d.shouldSwap = false;
      stale();
      return;
    }
    // A refused time goes next to the block (the Move to… dialog shows it in itself, app.js).
    if (status === 409 && elt.matches("li[data-arrange]") && elt.isConnected) {
      d.target = conflictHost(elt);
      d.swapOverride = "innerHTML";
    }
  });

  // A focused block keeps the focus when the day is swapped (its own change's answer, or the
  // live refresh that follows it): the new day's block of the same id takes it.
  doc.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    var active = doc.activeElement;
    if (!target || target.id !== "day" || !(active instanceof Element) || !active.matches("li[data-arrange]") || !evt.detail.shouldSwap) return;
    var id = active.getAttribute("data-arrange");
    setTimeout(function () {
      if (doc.activeElement && doc.activeElement !== doc.body) return; // still focused, or moved on
      var li = blockById(id);
      if (li) li.focus({ preventScroll: true });
    });
  });

  // --- the preview while dragging or keying ---

  var preview = null; // { li, box, ghost, tab }

  function showPreview(li, start, end, tab, x, y) {
    if (!preview || preview.li !== li) {
      endPreview();
      var box = doc.createElement("li");
      box.setAttribute("aria-hidden", "true");
      box.setAttribute("data-arrange-preview", "");
      box.className =
        "pointer-events-none z-30 col-start-2 flex items-start gap-2 overflow-hidden rounded-lg border-2 border-dashed border-brand-600 bg-brand-50/90 px-2 py-0.5 text-xs font-semibold text-brand-900 shadow-lg lg:mx-1";
      timeline().appendChild(box);
      li.classList.add("opacity-40");
      preview = { li: li, box: box, ghost: null, tab: null };
    }
    var b = info(li);
    var label = tab ? msg("js.arrange.at_day", { day: tab.getAttribute("data-tab-day"), time: span(start, end) }) : span(start, end);
    preview.box.hidden = !!tab || !isGrid();
    preview.box.style.gridRow = row(start) + " / " + Math.max(rowAfter(end), row(start) + 1);
    preview.box.textContent = msg("js.arrange.pending", { title: b.title, time: label });
    preview.box.setAttribute("data-start", clock(start));
    preview.box.setAttribute("data-end", clock(end));
    litTab(tab);
    if (x === undefined) return;
    if (!preview.ghost) {
      var ghost = doc.createElement("div");
      ghost.className =
        "pointer-events-none fixed left-0 top-0 z-[70] max-w-[16rem] truncate rounded-xl border border-brand-400 bg-white px-3 py-1.5 text-sm font-semibold tabular-nums text-slate-900 shadow-xl";
      ghost.setAttribute("aria-hidden", "true");
      ghost.setAttribute("data-drag-ghost", "");
      doc.body.appendChild(ghost);
      preview.ghost = ghost;
    }
    preview.ghost.textContent = label;
    preview.ghost.style.transform = "translate(" + (x + 16) + "px," + (y - 40) + "px)";
  }
  function litTab(tab) {
    if (preview && preview.tab && preview.tab !== tab) preview.tab.classList.remove("ring-2", "ring-brand-500", "bg-brand-50");
    if (tab) tab.classList.add("ring-2", "ring-brand-500", "bg-brand-50");
    if (preview) preview.tab = tab;
  }
  function endPreview() {
    if (!preview) return;
    litTab(null);
    preview.box.remove();
    if (preview.ghost) preview.ghost.remove();
    preview.li.classList.remove("opacity-40");
    preview = null;
  }

  // --- dragging with a pointer ---

  var press = null; // a pointer down on a block, not yet a drag
  var drag = null; // { li, mode: "move" | "resize", b, pos0, start, end, tab, id }
  var justDragged = false;
  var refreshHeld = false;

  function tabDay(a) {
    if (!a.hasAttribute("data-tab-day")) {
      var href = a.getAttribute("href") || "";
      var m = /[?&]day=(\d+)/.exec(href);
      a.setAttribute("data-tab-day", m ? m[1] : "");
    }
    return a.getAttribute("data-tab-day");
  }
  function tabAt(x, y) {
    var el = doc.elementFromPoint(x, y);
    var a = el && el.closest("#day nav[data-day-tabs] a");
    return a && tabDay(a) && tabDay(a) !== shownDay() ? a : null;
  }
  function posIn(y) {
    return y - timeline().getBoundingClientRect().top;
  }
  function slotHeight() {
    var slot = timeline().querySelector("[data-slot]");
    return slot ? slot.getBoundingClientRect().height : 28;
  }
  function snap(min) {
    return Math.round(min / STEP) * STEP;
  }

  function beginDrag(p) {
    press = null;
    var b = info(p.li);
    drag = { li: p.li, mode: p.mode, b: b, pos0: posIn(p.y), start: b.start, end: b.end, tab: null, id: p.id };
    doc.body.classList.add("select-none");
    if (p.li.hasPointerCapture && p.type === "mouse") {
      try {
        p.li.setPointerCapture(p.id);
      } catch (e) {} // the pointer is gone already
    }
    if (p.type !== "mouse" && navigator.vibrate) navigator.vibrate(15);
    dragTo(p.x, p.y);
  }

  function dragTo(x, y) {
    var b = drag.b;
    var moved = ((posIn(y) - drag.pos0) / slotHeight()) * STEP;
    drag.tab = drag.mode === "move" ? tabAt(x, y) : null;
    if (drag.tab) {
      drag.start = b.start;
      drag.end = b.end;
    } else if (drag.mode === "move") {
      var len = b.end - b.start;
      drag.start = Math.max(0, Math.min(snap(b.start + moved), Math.floor((LAST_MINUTE - len) / STEP) * STEP));
      drag.end = drag.start + len;
    } else {
      drag.start = b.start;
      drag.end = Math.min(Math.max(snap(b.end + moved), b.start + STEP), LAST_MINUTE);
    }
    showPreview(drag.li, drag.start, drag.end, drag.tab, x, y);
    // Near an edge the day's scroller (or the page) scrolls, so every time can be reached.
    var scroller = doc.querySelector("[data-day-scroll]");
    if (scroller && scroller.scrollHeight > scroller.clientHeight) {
      var r = scroller.getBoundingClientRect();
      if (y < r.top + EDGE && y > r.top - EDGE) scroller.scrollTop -= 12;
      else if (y > r.bottom - EDGE) scroller.scrollTop += 12;
    }
    if (y < EDGE) window.scrollBy(0, -12);
    else if (y > window.innerHeight - EDGE) window.scrollBy(0, 12);
  }

  function endPress() {
    if (press && press.timer) clearTimeout(press.timer);
    press = null;
  }

  function finishDrag(dropped) {
    var d = drag;
    drag = null;
    doc.body.classList.remove("select-none");
    if (!d) return;
    justDragged = true;
    setTimeout(function () {
      justDragged = false;
    });
    var b = d.b;
    var day = d.tab ? tabDay(d.tab) : shownDay();
    if (!dropped || (day === shownDay() && d.start === b.start && d.end === b.end)) {
      endPreview();
      replayHeldRefresh();
      return;
    }
    refreshHeld = false; // the answer brings the day as it is now
    if (preview && preview.ghost) {
      preview.ghost.remove();
      preview.ghost = null;
    }
    send(b, day, d.start, d.end, d.li, "pointer");
  }

  doc.addEventListener("pointerdown", function (evt) {
    if (evt.button !== 0 || drag || sending) return;
    var t = evt.target instanceof Element ? evt.target : null;
    var li = blockOf(t);
    if (!li || !isGrid()) return;
    var resize = !!t.closest("[data-resize-handle]");
    if (!resize && t.closest("button, a, summary, details, input, select, textarea")) return;
    endPress();
    var p = { li: li, mode: resize ? "resize" : "move", x: evt.clientX, y: evt.clientY, id: evt.pointerId, type: evt.pointerType };
    press = p;
    if (resize) {
      evt.preventDefault();
      beginDrag(p);
      return;
    }
    if (evt.pointerType === "mouse") return; // a drag once it moves
    p.timer = setTimeout(function () {
      if (press === p) beginDrag(p);
    }, LONG_PRESS_MS);
  });
  doc.addEventListener("pointermove", function (evt) {
    if (press && evt.pointerId === press.id) {
      var far = Math.hypot(evt.clientX - press.x, evt.clientY - press.y);
      if (press.type === "mouse" && far > MOUSE_SLOP) beginDrag(press);
      else if (press.type !== "mouse" && far > MOVE_TOLERANCE) endPress(); // a scroll
    }
    if (!drag || evt.pointerId !== drag.id) return;
    evt.preventDefault();
    dragTo(evt.clientX, evt.clientY);
  });
  doc.addEventListener("pointerup", function (evt) {
    if (press && evt.pointerId === press.id) endPress();
    if (drag && evt.pointerId === drag.id) {
      dragTo(evt.clientX, evt.clientY);
      finishDrag(true);
    }
  });
  doc.addEventListener("pointercancel", function (evt) {
    if (press && evt.pointerId === press.id) endPress();
    if (drag && evt.pointerId === drag.id) finishDrag(false);
  });
  // Escape drops a drag where it began.
  doc.addEventListener("keydown", function (evt) {
    if (evt.key === "Escape" && drag) {
      evt.preventDefault();
      finishDrag(false);
    }
  });
  fromPlan.holdWithFinger(
    function () {
      return !!drag;
    },
    function () {
      return !!press && press.type !== "mouse";
    }
  );
  // The click that ends a drag does nothing else (such as "Add here" on the time beneath).
  doc.addEventListener(
    "click",
    function (evt) {
      if (!justDragged) return;
      evt.preventDefault();
      evt.stopPropagation();
    },
    true
  );
  // A live refresh of the day while a block is dragged would move the day under the pointer:
  // it is held, and made once the drag ends (the change's own answer brings the day).
  doc.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (!elt || elt.id !== "day" || !drag) return;
    evt.preventDefault();
    refreshHeld = true;
  });
  function replayHeldRefresh() {
    if (!refreshHeld) return;
    refreshHeld = false;
    var d = dayEl();
    if (d) window.htmx.trigger(d, "sse:block");
  }

  // --- keys ---

  var keyed = null; // { id, start, end }: where keys pressed so far put the block

  doc.addEventListener("keydown", function (evt) {
    if (!evt.altKey || evt.ctrlKey || evt.metaKey || (evt.key !== "ArrowUp" && evt.key !== "ArrowDown")) return;
    var t = evt.target instanceof Element ? evt.target : null;
    var li = blockOf(t);
    if (!li || t.closest("input, select, textarea, details[open]")) return;
    evt.preventDefault();
    var b = info(li);
    var at = keyed && keyed.id === b.id ? keyed : { id: b.id, start: b.start, end: b.end };
    var d = evt.key === "ArrowUp" ? -STEP : STEP;
    var start = at.start;
    var end = at.end;
    if (evt.shiftKey) {
      end = Math.min(Math.max(end + d, start + STEP), LAST_MINUTE);
    } else {
      var len = end - start;
      start = Math.max(0, Math.min(start + d, LAST_MINUTE - len));
      end = start + len;
    }
    keyed = { id: b.id, start: start, end: end };
    if (sending) {
      if (preview && preview.li === li) showPreview(li, start, end, null);
      return; // sent once the change on its way is answered
    }
    if (start === b.start && end === b.end) {
      keyed = null;
      return;
    }
    showPreview(li, start, end, null);
    send(b, shownDay(), start, end, li, "key");
  });

  // Ctrl/Cmd+Z while an Undo toast shows undoes (outside fields, where it undoes typing).
  doc.addEventListener("keydown", function (evt) {
    if (evt.key !== "z" || !(evt.ctrlKey || evt.metaKey) || evt.shiftKey || evt.altKey) return;
    var t = evt.target instanceof Element ? evt.target : null;
    if (t && t.closest("input, select, textarea, [contenteditable]")) return;
    var undo = doc.querySelector("#flash [data-undo] button[hx-patch], #flash [data-undo] button[hx-post]");
    if (!undo) return;
    evt.preventDefault();
    undo.click();
  });

  // --- Move to… ---

  var moving = null; // the block the Move to… dialog was opened on

  function moveForm() {
    var dialog = doc.getElementById("move-dialog");
    return dialog ? dialog.querySelector("form[data-move-form]") : null;
  }
  function moveSpan(form) {
    var start = toMinutes(form.querySelector('[name="start_time"]').value);
    var out = form.querySelector("[data-move-span]");
    if (!moving || isNaN(start)) {
      out.textContent = "";
      return;
    }
    var len = moving.end - moving.start;
    out.textContent = msg("js.arrange.pending", { title: moving.title, time: span(start, Math.min(start + len, LAST_MINUTE)) });
  }
  doc.addEventListener("click", function (evt) {
    var button = evt.target instanceof Element ? evt.target.closest("[data-move-to]") : null;
    var li = blockOf(button);
    var form = moveForm();
    if (!li || !form) return;
    moving = info(li);
    form.reset();
    form.querySelector('[name="day"]').value = shownDay();
    form.querySelector('[name="start_time"]').value = clock(moving.start);
    form.closest("dialog").querySelector("[data-move-label]").textContent = moving.title + " · " + span(moving.start, moving.end);
    var errors = form.querySelector("[data-dialog-errors]");
    if (errors) errors.replaceChildren();
    moveSpan(form);
    form.closest("dialog").showModal();
    form.querySelector('[name="start_time"]').focus();
  });
  doc.addEventListener("input", function (evt) {
    var form = evt.target instanceof Element ? evt.target.closest("form[data-move-form]") : null;
    if (form) moveSpan(form);
  });
  doc.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-move-form") || !moving) return;
    evt.preventDefault();
    var start = toMinutes(form.querySelector('[name="start_time"]').value);
    var len = moving.end - moving.start;
    var errors = form.querySelector("[data-dialog-errors]");
    if (start + len > LAST_MINUTE) {
      var p = doc.createElement("p");
      p.className = "alert alert-error";
      p.setAttribute("role", "alert");
      p.textContent = msg("js.arrange.end_of_day");
      errors.replaceChildren(p);
      return;
    }
    send(moving, form.querySelector('[name="day"]').value, start, start + len, form, "dialog");
  });
  // The dialog closed without a move: the focus goes back to the block (after a move, once the
  // day is in: settled).
  doc.addEventListener(
    "close",
    function (evt) {
      if (!(evt.target instanceof HTMLDialogElement) || evt.target.id !== "move-dialog" || !moving) return;
      var li = blockById(moving.id);
      moving = null;
      if (li && !sending) li.focus();
    },
    true
  );
})();
