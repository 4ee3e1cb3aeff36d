// Tripplan forms: the live character counters of title fields ([data-count-for]) and the
// destination combobox ([data-combobox]). Loaded with `defer` by the plan and collection
// forms. Without it the forms still work: maxlength bounds the title, the server refuses a
// longer one with a message next to the field, and the destination is a text field with the
// cities as suggestions (datalist) that the server looks up by name.
(function () {
  "use strict";
  if (window.tripplanForms) return; // loaded once, whatever swaps in a form again
  window.tripplanForms = true;
  var doc = document;

  // Counters count characters (code points), as the server does: "한" and "é" are one each.
  function chars(s) {
    return Array.from(s).length;
  }
  function updateCounter(input) {
    var counter = doc.querySelector('[data-count-for="' + input.id + '"]');
    if (!counter) return;
    var max = parseInt(input.getAttribute("maxlength"), 10) || 0;
    var n = chars(input.value);
    counter.textContent = n + " / " + max;
    counter.classList.toggle("text-rose-700", max > 0 && n >= max);
    counter.classList.toggle("font-semibold", max > 0 && n >= max);
    counter.classList.toggle("text-slate-600", !(max > 0 && n >= max));
  }
  function initCounters(root) {
    root.querySelectorAll("[data-count-for]").forEach(function (c) {
      var input = doc.getElementById(c.getAttribute("data-count-for"));
      if (input) updateCounter(input);
    });
  }
  doc.addEventListener("input", function (evt) {
    var t = evt.target;
    if (t instanceof HTMLInputElement && t.id && doc.querySelector('[data-count-for="' + t.id + '"]')) updateCounter(t);
  });

  // Combobox (WAI-ARIA APG "editable combobox with list autocomplete"): typing filters the
  // listbox; ArrowDown/ArrowUp move through it (aria-activedescendant), Enter or a tap picks,
  // Escape closes (a second Escape clears), Tab leaves with the text as typed.
  function initCombobox(box) {
    if (box.hasAttribute("data-combobox-ready")) return;
    box.setAttribute("data-combobox-ready", "");
    var input = box.querySelector('[role="combobox"]');
    var list = box.querySelector('[role="listbox"]');
    if (!input || !list) return;
    input.removeAttribute("list"); // the listbox replaces the native suggestions
    var options = Array.prototype.slice.call(list.querySelectorAll('[role="option"]'));
    var active = -1;
    var picked = false; // Enter picked an option: its keypress must not submit the form

    function visible() {
      return options.filter(function (o) {
        return !o.hidden;
      });
    }
    function setActive(o) {
      options.forEach(function (x) {
        x.setAttribute("aria-selected", x === o ? "true" : "false");
      });
      if (o) {
        input.setAttribute("aria-activedescendant", o.id);
        o.scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }
    function open() {
      if (!visible().length) return close();
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }
    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      active = -1;
      setActive(null);
    }
    function filter() {
      var q = input.value.trim().toLowerCase();
      options.forEach(function (o) {
        var names = (o.getAttribute("data-names") || "").split("|");
        o.hidden = q !== "" && !names.some(function (n) {
          return n.indexOf(q) !== -1;
        });
      });
      active = -1;
      setActive(null);
    }
    function pick(o) {
      input.value = o.getAttribute("data-value");
      close();
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }

    input.addEventListener("input", function () {
      filter();
      open();
    });
    input.addEventListener("focus", function () {
      filter();
    });
    input.addEventListener("click", function () {
      if (list.hidden) {
        filter();
        open();
      }
    });
    input.addEventListener("keydown", function (evt) {
      var shown = visible();
      switch (evt.key) {
        case "ArrowDown":
        case "ArrowUp":
          evt.preventDefault();
          if (list.hidden) {
            filter();
            open();
            shown = visible();
          }
          if (!shown.length) return;
          if (evt.key === "ArrowDown") active = active + 1 >= shown.length ? 0 : active + 1;
          else active = active <= 0 ? shown.length - 1 : active - 1;
          setActive(shown[active]);
          break;
        case "Enter":
          if (!list.hidden && active >= 0 && shown[active]) {
            evt.preventDefault(); // pick, do not submit the form
            picked = true;
            pick(shown[active]);
          }
          break;
        case "Escape":
          if (!list.hidden) {
            evt.preventDefault();
            evt.stopPropagation();
            close();
          } else if (input.value) {
            evt.preventDefault();
            input.value = "";
          }
          break;
        case "Tab":
          close();
          break;
      }
    });
    // Enter's keypress (sent on its own by some keyboards and by automation) submits the form
    // unless stopped too.
    input.addEventListener("keypress", function (evt) {
      if (evt.key === "Enter" && picked) evt.preventDefault();
    });
    input.addEventListener("keyup", function (evt) {
      if (evt.key === "Enter") picked = false;
    });
    // pointerdown, not click: picking must happen before the input loses focus.
    list.addEventListener("pointerdown", function (evt) {
      var o = evt.target instanceof Element ? evt.target.closest('[role="option"]') : null;
      if (!o) return;
      evt.preventDefault();
      pick(o);
    });
    input.addEventListener("blur", function () {
      close();
    });
  }

  initCounters(doc);
  // Forms (or their fields, after an invalid submit) swapped in by htmx.
  doc.addEventListener("htmx:load", function (evt) {
    if (evt.target instanceof Element) initCounters(evt.target.parentElement || evt.target);
  });
  // A combobox starts working when its field first takes the focus (by tap, click or Tab; the
  // focus comes before any key or click it handles), so a page that shows the form spends
  // nothing on its cities at load.
  doc.addEventListener("focusin", function (evt) {
    var t = evt.target;
    if (t instanceof Element && t.getAttribute("role") === "combobox") {
      var box = t.closest("[data-combobox]");
      if (box) initCombobox(box);
    }
  });
  // Fields answered back as invalid: the first one gets the focus, so its message (tied to it
  // by aria-describedby) is read and it can be fixed at once.
  doc.addEventListener("htmx:afterSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    var xhr = evt.detail && evt.detail.xhr;
    if (!(target instanceof Element) || !xhr || xhr.status < 400) return;
    var bad = target.querySelector('[aria-invalid="true"]');
    if (bad) bad.focus();
  });
})();
