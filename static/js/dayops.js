// Day operations on the plan page (issue 24): "Move to day…", "Copy to day…" (a block's "⋯"
// menus) and "Swap with day…" (the day's menu) open #dayops-dialog, which lists the plan's
// days; its form is sent by htmx and the answer, the day grid, replaces #day as the other
// block actions do. Errors land in the dialog (app.js), each field's next to it. Closing the
// dialog puts the focus back on the menu it came from (or, once the grid was replaced, the
// same menu in the new grid). "Duplicate" is a plain hx-post in the menus.
(function () {
  "use strict";
  var doc = document;
  var opener = null; // { mode, block, day } of the open dialog, to give the focus back to

  function dialog() {
    return doc.getElementById("dayops-dialog");
  }

  // The first day after the current one (or before it) is the likeliest choice.
  function defaultDay(radios, current) {
    var later = radios.filter(function (r) { return !r.disabled && +r.value > current; });
    var any = radios.filter(function (r) { return !r.disabled; });
    return later[0] || any[any.length - 1] || null;
  }

  function open(button) {
    var d = dialog();
    if (!d) return;
    var form = d.querySelector("form");
    var mode = button.getAttribute("data-dayops");
    var current = +button.getAttribute("data-day");
    form.setAttribute("data-mode", mode);
    form.setAttribute("data-url", button.getAttribute("data-url"));
    form.setAttribute("data-version", button.getAttribute("data-version") || "");
    d.querySelector("[data-dayops-title]").textContent = form.getAttribute("data-title-" + mode);
    d.querySelector("[data-dayops-submit]").textContent = form.getAttribute("data-submit-" + mode);
    d.querySelector("[data-place-label]").textContent = button.getAttribute("data-title") || "";
    // A swap names the other day "with"; a move or copy names the block's new "day".
    var field = mode === "swap" ? "with" : "day";
    d.querySelector("fieldset").setAttribute("data-error-for", field);
    var radios = Array.prototype.slice.call(form.querySelectorAll('input[type="radio"]'));
    radios.forEach(function (r) {
      var here = +r.value === current;
      r.name = field;
      r.checked = false;
      // A block moves to, and a day swaps with, another day; a copy may stay on its day.
      r.disabled = here && mode !== "copy";
      r.closest("label").querySelector("[data-this-day]").hidden = !here;
    });
    var choice = defaultDay(radios, current);
    if (choice) choice.checked = true;
    var times = d.querySelector("[data-dayops-times]");
    times.hidden = mode !== "copy";
    times.querySelectorAll("input").forEach(function (input) {
      input.disabled = times.hidden;
    });
    form.querySelector('[name="start_time"]').value = button.getAttribute("data-start") || "";
    form.querySelector('[name="end_time"]').value = button.getAttribute("data-end") || "";
    var errors = d.querySelector("[data-dialog-errors]");
    if (errors) errors.replaceChildren();
    opener = { mode: mode, block: button.getAttribute("data-block"), day: current };
    d.showModal();
    if (choice) choice.focus();
  }

  doc.addEventListener("click", function (evt) {
    var t = evt.target instanceof Element ? evt.target : null;
    if (!t) return;
    var button = t.closest("[data-dayops]");
    if (button) open(button);
    // Someone changed the block meanwhile (412, said in the dialog): "Keep mine" moves it
    // anyway, at the version it has now; "Use theirs" leaves it where they put it.
    var d = dialog();
    var stale = d && d.contains(t) ? t.closest("[data-keep-mine], [data-take-theirs]") : null;
    if (!stale) return;
    if (stale.hasAttribute("data-take-theirs")) {
      d.close();
      return;
    }
    var form = d.querySelector("form");
    form.setAttribute("data-version", stale.getAttribute("data-version"));
    form.requestSubmit();
  });

  doc.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-dayops-form")) return;
    evt.preventDefault();
    var move = form.getAttribute("data-mode") === "move";
    // A move is made to the version the menu showed: a block changed meanwhile is refused
    // (412) and the dialog says so, as the edit dialog does.
    var version = move ? form.getAttribute("data-version") : "";
    var headers = version ? { "If-Match": '"' + version + '"' } : {};
    window.htmx
      .ajax(move ? "PATCH" : "POST", form.getAttribute("data-url"), { source: form, target: "#day", swap: "outerHTML", headers: headers })
      .catch(function () {});
  });

  // The menu the dialog came from, in the grid as it is now.
  function openerMenu() {
    if (!opener) return null;
    if (opener.mode === "swap") return doc.querySelector("[data-day-menu] > summary");
    var block = doc.querySelector('[data-time-block-id="' + CSS.escape(opener.block || "") + '"]');
    return block && block.querySelector("details > summary");
  }
  // The focus is lost when it is nowhere, or on something no longer shown (a button of the
  // closed dialog or of the closed menu).
  function focusLost() {
    var a = doc.activeElement;
    return !a || a === doc.body || !a.isConnected || a.getClientRects().length === 0;
  }
  function giveFocusBack() {
    var target = openerMenu();
    if (target && focusLost()) target.focus();
  }
  doc.addEventListener(
    "close",
    function (evt) {
      if (evt.target !== dialog()) return;
      giveFocusBack();
    },
    true
  );
  // The grid replaced as the dialog closed (and again by the live refresh the change causes)
  // takes the focus with it: give it back each time a new grid is in, until the person moves
  // the focus elsewhere.
  doc.addEventListener("htmx:afterSettle", function (evt) {
    if (opener && evt.detail && evt.detail.target && evt.detail.target.id === "day") giveFocusBack();
  });
  doc.addEventListener("focusin", function (evt) {
    var d = dialog();
    if (opener && evt.target !== openerMenu() && !(d && d.contains(evt.target))) opener = null;
  });

  // A card clips what sticks out of it, so its "⋯" panel is placed over the page beside the
  // button (from sm up; on phones input.css makes it a sheet at the bottom), and closes when
  // the page scrolls away from it.
  var sheet = window.matchMedia("(max-width: 639.98px)");
  function place(menu) {
    var panel = menu.querySelector(":scope > :not(summary)");
    if (!panel) return;
    panel.style.position = panel.style.top = panel.style.right = panel.style.left = "";
    if (!menu.open || sheet.matches) return;
    var r = menu.querySelector("summary").getBoundingClientRect();
    var h = panel.offsetHeight;
    var top = r.bottom + 4;
    if (top + h > window.innerHeight - 8) top = Math.max(8, r.top - h - 4);
    panel.style.position = "fixed";
    panel.style.top = Math.round(top) + "px";
    panel.style.left = "auto";
    panel.style.right = Math.round(Math.max(8, doc.documentElement.clientWidth - r.right)) + "px";
    panel.style.transform = "";
  }
  doc.addEventListener(
    "toggle",
    function (evt) {
      var m = evt.target;
      if (m instanceof HTMLDetailsElement && m.hasAttribute("data-dayops-menu")) place(m);
    },
    true
  );
  doc.addEventListener(
    "scroll",
    function () {
      doc.querySelectorAll("details[data-dayops-menu][open]").forEach(function (m) {
        if (!sheet.matches) m.open = false;
      });
    },
    true
  );
})();
