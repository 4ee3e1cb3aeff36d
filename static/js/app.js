// Tripplan progressive enhancement. Loaded with `defer` on every page, after htmx.
// The CSP is default-src 'self' without 'unsafe-inline': no inline scripts, no inline
// styles, no eval. Everything works without this file; it only makes things nicer.
(function () {
  "use strict";

  var doc = document;

  // t is a message of the page's language (the layout's #messages, from the catalogues'
  // js.* ids) with its {name} placeholders filled from vars.
  var messages = null;
  function t(id, vars) {
    if (!messages) {
      var el = doc.getElementById("messages");
      try {
        messages = el ? JSON.parse(el.textContent) : {};
      } catch (e) {
        messages = {};
      }
    }
    var s = messages[id] || id;
    return s.replace(/\{(\w+)\}/g, function (m, name) {
      return vars && name in vars ? String(vars[name]) : m;
    });
  }
  window.tripplanT = t;

  function flashRegion() {
    return doc.getElementById("flash");
  }

  // Show a client-side message in #flash, built from the <template id="flash-template">
  // that the layout renders (same markup and classes as views.ErrorPartial).
  function showFlash(title, detail) {
    var region = flashRegion();
    var tpl = doc.getElementById("flash-template");
    if (!region || !tpl || !tpl.content) return;
    var node = tpl.content.firstElementChild.cloneNode(true);
    var t = node.querySelector("[data-flash-title]");
    var d = node.querySelector("[data-flash-detail]");
    if (t) t.textContent = title;
    if (d) d.textContent = detail || "";
    region.replaceChildren(node);
  }

  // Dismiss buttons inside flash messages.
  doc.addEventListener("click", function (evt) {
    var target = evt.target;
    if (!(target instanceof Element)) return;
    var btn = target.closest("[data-dismiss]");
    if (!btn) return;
    var box = btn.closest("[data-flash]");
    if (box) {
      evt.preventDefault();
      box.remove();
    }
  });

  // Escape dismisses the newest flash message.
  doc.addEventListener("keydown", function (evt) {
    if (evt.key !== "Escape") return;
    var region = flashRegion();
    var box = region && region.querySelector("[data-flash]:last-child");
    if (box) box.remove();
  });

  // Plain (non-htmx) forms: ask before destructive submits and prevent double submits.
  doc.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!(form instanceof HTMLFormElement)) return;
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      evt.preventDefault();
      return;
    }
    if (form.hasAttribute("data-submit-once")) {
      if (form.getAttribute("aria-busy") === "true") {
        evt.preventDefault();
        return;
      }
      form.setAttribute("aria-busy", "true");
    }
  });
  // Coming back through the back/forward cache: forms are usable again.
  window.addEventListener("pageshow", function () {
    doc.querySelectorAll("form[aria-busy]").forEach(function (f) {
      f.removeAttribute("aria-busy");
    });
  });

  // Avatars whose picture fails to load (or is blocked) fall back to initials: pictures
  // that failed before this script ran, and any that fail later (also in swapped content).
  function avatarFallback(img) {
    img.hidden = true;
    var fallback = img.nextElementSibling;
    if (fallback) fallback.hidden = false;
  }
  // Other images marked data-hide-on-error (thumbnails) just disappear, showing the
  // placeholder background behind them.
  function imageFailed(img) {
    if (img.hasAttribute("data-avatar")) avatarFallback(img);
    else if (img.hasAttribute("data-hide-on-error")) img.hidden = true;
  }
  function checkImages(root) {
    root.querySelectorAll("img[data-avatar], img[data-hide-on-error]").forEach(function (img) {
      if (img.complete && img.naturalWidth === 0) imageFailed(img);
    });
  }
  doc.addEventListener(
    "error",
    function (evt) {
      if (evt.target instanceof HTMLImageElement) imageFailed(evt.target);
    },
    true
  );
  checkImages(doc);

  // htmx: clear old messages when a new request starts from a form or button (not for live
  // refreshes, which would take an Undo away at once), except the message that made it.
  doc.addEventListener("htmx:beforeRequest", function (evt) {
    var region = flashRegion();
    var elt = evt.detail && evt.detail.elt;
    if (!region || !(elt instanceof Element) || !elt.matches("form, button, form *")) return;
    region.querySelectorAll("[data-flash]").forEach(function (n) {
      if (!n.contains(elt)) n.remove();
    });
  });

  // A message marked data-expires (an Undo toast) goes after that many milliseconds, but not
  // while the pointer is on it or the focus in it.
  function expireLater(box) {
    var ms = parseInt(box.getAttribute("data-expires"), 10);
    var timer = 0;
    function arm() {
      clearTimeout(timer);
      timer = setTimeout(function () {
        if (box.matches(":hover, :focus-within")) arm();
        else box.remove();
      }, ms);
    }
    box.addEventListener("mouseleave", arm);
    box.addEventListener("focusout", arm);
    arm();
  }
  window.htmx.onLoad(function (root) {
    if (!(root instanceof Element)) return;
    if (root.matches("[data-expires]")) expireLater(root);
    root.querySelectorAll("[data-expires]").forEach(expireLater);
  });

  // htmx: an error response that brought no message (empty body) still says something.
  doc.addEventListener("htmx:responseError", function (evt) {
    var region = flashRegion();
    if (region && region.querySelector("[data-flash]")) return;
    if (doc.querySelector("dialog[open] [data-dialog-errors] [data-flash], [data-form-errors] [data-flash]")) return; // shown in the dialog or form
    var target = evt.detail && evt.detail.target;
    if (target instanceof Element && target.querySelector("[data-flash]")) return; // shown where its request put it
    showFlash(t("js.errors.failed_title"), t("js.errors.failed_detail"));
  });

  // htmx: a form marked data-added-label (the search results' "Add") says so once it worked,
  // so the same place is not added twice by accident.
  doc.addEventListener("htmx:afterRequest", function (evt) {
    var form = evt.detail && evt.detail.elt;
    if (!(form instanceof HTMLFormElement) || !evt.detail.successful) return;
    var done = form.getAttribute("data-added-label");
    if (!done) return;
    var button = form.querySelector("button");
    var label = form.querySelector("[data-label]");
    if (label) label.textContent = done;
    if (button) button.disabled = true;
  });

  // Dialogs: [data-close-dialog] closes its dialog; a dialog swapped in with
  // data-open-on-load opens itself; content swapped into a dialog's body opens that dialog.
  doc.addEventListener("click", function (evt) {
    var t = evt.target instanceof Element ? evt.target.closest("[data-close-dialog]") : null;
    var dialog = t && t.closest("dialog");
    if (dialog) dialog.close();
  });
  function openDialogs(root) {
    root.querySelectorAll("dialog[data-open-on-load]:not([open])").forEach(function (d) {
      d.showModal();
    });
  }
  doc.addEventListener("htmx:afterSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!(target instanceof Element)) return;
    openDialogs(target);
    var dialog = target.closest("dialog");
    if (dialog && !dialog.open) dialog.showModal();
  });
  // An error answering a request made from an open dialog is shown inside it (a modal dialog
  // covers the #flash region); a success closes the dialog when it swapped content outside.
  doc.addEventListener("htmx:beforeSwap", function (evt) {
    // requestConfig.elt is the element that made the request (detail.elt is the target).
    var elt = evt.detail && evt.detail.requestConfig ? evt.detail.requestConfig.elt : null;
    var dialog = elt instanceof Element ? elt.closest("dialog[open]") : null;
    if (!dialog) return;
    if (evt.detail.isError) {
      var box = dialog.querySelector("[data-dialog-errors]");
      if (box) {
        evt.detail.target = box;
        evt.detail.swapOverride = "innerHTML";
      }
    } else if (!dialog.contains(evt.detail.target)) {
      dialog.close();
    }
  });

  // Field errors next to their fields: an error swapped into a dialog that names fields
  // ([data-error-field]) puts each sentence under the field of that name, marks the field
  // invalid and described by it, and moves the focus to the first; the next request from the
  // dialog clears them. A form outside dialogs with a [data-form-errors] box (the budget page's
  // expense forms) gets the same: the error answering it goes to its box, not to #flash. A
  // sentence about a group of fields goes at the end of the element whose data-error-for names
  // it (the items, the split), and a field in a closed <details> (More options) is shown.
  function formErrorBox(elt) {
    var form = elt instanceof Element && !elt.closest("dialog") ? elt.closest("form") : null;
    return form ? form.querySelector("[data-form-errors]") : null;
  }
  doc.addEventListener("htmx:beforeSwap", function (evt) {
    var elt = evt.detail && evt.detail.requestConfig ? evt.detail.requestConfig.elt : null;
    var box = evt.detail.isError ? formErrorBox(elt) : null;
    if (box) {
      evt.detail.target = box;
      evt.detail.swapOverride = "innerHTML";
    }
  });
  function errorScope(box) {
    if (!(box instanceof Element)) return null;
    if (box.matches("[data-dialog-errors]")) return box.closest("dialog");
    if (box.matches("[data-form-errors]")) return box.closest("form");
    return null;
  }
  function clearFieldErrors(root) {
    root.querySelectorAll("[data-field-message]").forEach(function (n) {
      n.remove();
    });
    root.querySelectorAll('[aria-invalid="true"]').forEach(function (f) {
      f.removeAttribute("aria-invalid");
      var ids = (f.getAttribute("aria-describedby") || "").split(" ").filter(function (id) {
        return id && id.indexOf("field-error-") !== 0;
      });
      if (ids.length) f.setAttribute("aria-describedby", ids.join(" "));
      else f.removeAttribute("aria-describedby");
    });
  }
  var fieldErrors = 0; // numbers the sentences' ids, unique on the page
  doc.addEventListener("htmx:afterSwap", function (evt) {
    var box = evt.detail && evt.detail.target;
    var scope = errorScope(box);
    if (!scope) return;
    clearFieldErrors(scope);
    var first = null;
    box.querySelectorAll("[data-error-field]").forEach(function (item) {
      var name = item.getAttribute("data-error-field");
      var group = Array.prototype.find.call(scope.querySelectorAll("[data-error-for]"), function (g) {
        return g.getAttribute("data-error-for").split(" ").indexOf(name) >= 0;
      });
      var f = group ? null : scope.querySelector('[name="' + CSS.escape(name) + '"]:not([type="hidden"])');
      if (!group && !f) return;
      var p = doc.createElement("p");
      p.id = "field-error-" + ++fieldErrors;
      p.className = "mt-1.5 text-sm font-medium text-rose-700";
      p.setAttribute("data-field-message", "");
      p.textContent = item.textContent;
      if (group) {
        group.appendChild(p);
        f = group.querySelector("input[type=radio]:checked") || group.querySelector("input:not([type=hidden]), select, textarea");
      } else {
        f.insertAdjacentElement("afterend", p);
        f.setAttribute("aria-invalid", "true");
      }
      if (f) f.setAttribute("aria-describedby", ((f.getAttribute("aria-describedby") || "") + " " + p.id).trim());
      for (var d = p.closest("details"); d && scope.contains(d); d = d.parentElement.closest("details")) d.open = true;
      item.hidden = true;
      first = first || f;
    });
    if (first) first.focus();
  });
  doc.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    var box = formErrorBox(elt);
    if (box) box.replaceChildren();
    var scope = elt instanceof Element ? elt.closest("dialog") || (box && elt.closest("form")) : null;
    if (scope) clearFieldErrors(scope);
  });

  // An expense form's equal split with every member ticked is a split among everyone, as with
  // none ticked: it sends no names, so members who join later share it too.
  doc.addEventListener("htmx:configRequest", function (evt) {
    var form = evt.detail && evt.detail.elt instanceof Element ? evt.detail.elt.closest("form[data-expense-form]") : null;
    if (!form) return;
    var boxes = form.querySelectorAll('input[type="checkbox"][name="split_among"]');
    var all = Array.prototype.every.call(boxes, function (b) { return b.checked; });
    if (boxes.length && all) delete evt.detail.parameters.split_among;
  });

  // A click on a modal dialog's backdrop (outside its box) closes it, as Escape does.
  doc.addEventListener("click", function (evt) {
    var dialog = evt.target;
    if (!(dialog instanceof HTMLDialogElement) || !dialog.open) return;
    var r = dialog.getBoundingClientRect();
    var inside = evt.clientX >= r.left && evt.clientX <= r.right && evt.clientY >= r.top && evt.clientY <= r.bottom;
    if (!inside) dialog.close();
  });

  // Menus, two kinds with one behaviour: a [data-menu] holding a [data-menu-button] (with
  // aria-expanded and aria-controls) and its [data-menu-panel] (shown by removing hidden), or a
  // <details data-menu> dropdown whose <summary> opens it. One menu is open at a time; an open
  // menu closes on Escape (focus goes back to its button), on a click or tap outside it, and on
  // a selection inside it (a link, a submitted form, or an element marked data-menu-close).
  // On phones a dropdown's panel is a sheet at the bottom (input.css); from sm up a panel that
  // would stick out of the viewport is shifted back inside it.
  var sheetQuery = window.matchMedia("(max-width: 639.98px)");
  function isDetails(m) {
    return m instanceof HTMLDetailsElement;
  }
  function menuButton(m) {
    return isDetails(m) ? m.querySelector(":scope > summary") : m.querySelector("[data-menu-button]");
  }
  function menuPanel(m) {
    return isDetails(m) ? m.querySelector(":scope > :not(summary)") : m.querySelector("[data-menu-panel]");
  }
  function menuIsOpen(m) {
    return isDetails(m) ? m.open : menuButton(m).getAttribute("aria-expanded") === "true";
  }
  function fitMenu(m) {
    var panel = menuPanel(m);
    if (!panel) return;
    panel.style.transform = "";
    if (isDetails(m) && sheetQuery.matches) return;
    var margin = 8;
    var width = doc.documentElement.clientWidth;
    var r = panel.getBoundingClientRect();
    var dx = 0;
    if (r.right > width) dx = width - margin - r.right;
    if (r.left + dx < 0) dx = margin - r.left;
    if (dx) panel.style.transform = "translateX(" + Math.round(dx) + "px)";
  }
  function setMenu(m, open) {
    if (isDetails(m)) {
      m.open = open; // the toggle listener below does the rest
      return;
    }
    var button = menuButton(m);
    var panel = menuPanel(m);
    if (!button || !panel) return;
    button.setAttribute("aria-expanded", open ? "true" : "false");
    panel.hidden = !open;
    if (open) {
      closeMenus(m);
      fitMenu(m);
    }
  }
  function openMenus() {
    return Array.prototype.filter.call(doc.querySelectorAll("[data-menu]"), menuIsOpen);
  }
  function closeMenus(except) {
    openMenus().forEach(function (m) {
      if (m !== except) setMenu(m, false);
    });
  }
  doc.addEventListener(
    "toggle",
    function (evt) {
      var m = evt.target;
      if (!(m instanceof HTMLDetailsElement) || !m.hasAttribute("data-menu")) return;
      if (m.open) {
        closeMenus(m);
        fitMenu(m);
      } else {
        var panel = menuPanel(m);
        if (panel) panel.style.transform = "";
      }
    },
    true
  );
  doc.addEventListener("click", function (evt) {
    var target = evt.target instanceof Element ? evt.target : null;
    if (!target) return;
    var button = target.closest("[data-menu-button]");
    if (button) {
      var own = button.closest("[data-menu]");
      if (own) setMenu(own, !menuIsOpen(own));
    }
    openMenus().forEach(function (m) {
      if (!m.contains(target)) {
        setMenu(m, false);
        return;
      }
      var panel = menuPanel(m);
      if (panel && panel.contains(target) && target.closest("a[href], [data-menu-close]")) setMenu(m, false);
    });
  });
  // A plain form's submit is a selection; an htmx form's is one once it succeeded, so an
  // error answered next to a field (say, a rename's title) stays in view.
  function isHtmxForm(form) {
    return ["hx-post", "hx-put", "hx-patch", "hx-delete", "hx-get"].some(function (a) { return form.hasAttribute(a); });
  }
  doc.addEventListener("submit", function (evt) {
    var m = evt.target instanceof Element ? evt.target.closest("[data-menu]") : null;
    if (m && menuIsOpen(m) && !isHtmxForm(evt.target)) setMenu(m, false);
  });
  doc.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    var m = elt instanceof Element ? elt.closest("[data-menu]") : null;
    if (m && evt.detail.successful && elt.tagName === "FORM" && menuIsOpen(m)) setMenu(m, false);
  });
  doc.addEventListener("keydown", function (evt) {
    if (evt.key !== "Escape") return;
    var open = openMenus();
    if (!open.length) return;
    open.forEach(function (m) {
      var hadFocus = m.contains(doc.activeElement);
      setMenu(m, false);
      var button = menuButton(m);
      if (hadFocus && button) button.focus();
    });
    evt.preventDefault();
  });
  window.addEventListener("resize", function () {
    openMenus().forEach(fitMenu);
  });

  // The layout's "Skip to content" link goes to the page's #content (its main region: on the
  // plan page, the day); a page without one gets <main> instead.
  var skip = doc.querySelector("[data-skip-link]");
  if (skip && !doc.getElementById("content")) skip.setAttribute("href", "#main");

  // Profile photo: preview the chosen file, ask for a signed upload URL, upload, reload.
  doc.addEventListener("change", function (evt) {
    var input = evt.target;
    if (!(input instanceof HTMLInputElement) || !input.hasAttribute("data-picture-input")) return;
    var file = input.files && input.files[0];
    var status = doc.querySelector("[data-picture-status]");
    var preview = doc.querySelector("[data-picture-preview]");
    function say(text) {
      if (status) status.textContent = text;
    }
    if (!file) return;
    if (["image/jpeg", "image/png", "image/webp"].indexOf(file.type) < 0) return say(t("js.profile.choose_image"));
    if (file.size > 5 * 1024 * 1024) return say(t("js.profile.too_large"));
    if (preview) {
      preview.src = URL.createObjectURL(file);
      preview.hidden = false;
    }
    say(t("js.profile.uploading"));
    fetch("/users/me/picture?content_type=" + encodeURIComponent(file.type), {
      method: "PATCH",
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(function (res) {
        if (!res.ok) throw new Error("status " + res.status);
        return res.json();
      })
      .then(function (up) {
        return fetch(up.presigned_url, { method: "PUT", headers: { "Content-Type": file.type }, body: file });
      })
      .then(function (res) {
        if (!res.ok) throw new Error("status " + res.status);
        window.location.reload();
      })
      .catch(function () {
        say(t("js.profile.upload_failed"));
      });
  });

  // Copy buttons: [data-copy] names the field whose value goes to the clipboard.
  doc.addEventListener("click", function (evt) {
    var btn = evt.target instanceof Element ? evt.target.closest("[data-copy]") : null;
    var field = btn && doc.querySelector(btn.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    var done = function () {
      btn.textContent = t("js.copied");
    };
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () {});
    else if (doc.execCommand("copy")) done();
  });

  // A dialog whose body a button loads (the button's hx-get targets the body): a click on a
  // trigger opens the dialog at once with its data-loading line (marked with the loading
  // attribute); once the body is in, the first of the focus selectors found takes the focus; a
  // refusal is said in the dialog's [data-dialog-errors] (the open dialog covers #flash);
  // closing it gives the focus to back(the trigger clicked). optimise.js and gaps.js use it.
  window.tripplanLoadingDialog = function (o) {
    var opener = null;
    function dialog() {
      return doc.getElementById(o.dialog);
    }
    doc.addEventListener("click", function (evt) {
      var trigger = evt.target instanceof Element && evt.target.closest(o.trigger);
      var d = dialog();
      if (!trigger || !d) return;
      opener = trigger;
      var loading = doc.createElement("p");
      loading.className = "mt-4 text-sm text-slate-600";
      loading.setAttribute(o.loading, "");
      loading.textContent = d.getAttribute("data-loading") || "";
      d.querySelector("#" + o.body).replaceChildren(loading);
      d.querySelector("[data-dialog-errors]").replaceChildren();
      if (!d.open) d.showModal();
    });
    doc.addEventListener("htmx:afterSwap", function (evt) {
      var d = dialog();
      if (!d || evt.target.id !== o.body) return;
      for (var i = 0; i < o.focus.length; i++) {
        var first = d.querySelector(o.focus[i]);
        if (first) return first.focus();
      }
    });
    doc.addEventListener("htmx:beforeSwap", function (evt) {
      var elt = evt.detail.requestConfig ? evt.detail.requestConfig.elt : null;
      var d = dialog();
      if (!d || !evt.detail.isError || !(elt instanceof Element) || !elt.matches(o.trigger)) return;
      d.querySelector("#" + o.body).replaceChildren();
      evt.detail.target = d.querySelector("[data-dialog-errors]");
      evt.detail.swapOverride = "innerHTML";
    });
    doc.addEventListener("close", function (evt) {
      if (evt.target !== dialog()) return;
      var back = o.back(opener);
      opener = null;
      if (back) back.focus();
    }, true);
  };

  // Print buttons ([data-print]): the CSP allows no inline handlers.
  doc.addEventListener("click", function (evt) {
    if (evt.target instanceof Element && evt.target.closest("[data-print]")) window.print();
  });

  // sayUnsent says that a change from elt was not sent: in the open dialog it was made in (its
  // [data-dialog-errors], as an alert: the dialog covers #flash), else in #flash.
  function sayUnsent(elt, inDialog, title, detail) {
    var dialog = elt instanceof Element ? elt.closest("dialog[open]") : null;
    var box = dialog && dialog.querySelector("[data-dialog-errors]");
    if (!box) {
      showFlash(title, detail);
      return;
    }
    var p = doc.createElement("p");
    p.className = "alert alert-error";
    p.setAttribute("role", "alert");
    p.setAttribute("data-network-error", "");
    p.textContent = inDialog;
    box.replaceChildren(p);
  }

  // --- Offline (issue 25) ---
  // The service worker (/sw.js: static/js/sw.js) is registered here, the one place; push.js
  // subscribes through the same registration (window.tripplanWorker). When the browser is
  // offline — it says so, a GET got no answer, or the worker answered from the pages it
  // kept — every page shows the banner ([data-offline-banner]: what is shown is as last
  // opened, at the time the copy shown was fetched) and refuses changes with a message: plain
  // forms that post (the submit is stopped) and every htmx request that is not a GET
  // (htmx:confirm, so also those scripts make with htmx.ajax). html[data-offline] greys out
  // their buttons (input.css). The connection back (the browser says so, an answer comes
  // from the server, or the server answers the probe) takes the banner away and lets changes
  // through again.
  var worker = "serviceWorker" in navigator ? navigator.serviceWorker.register("/sw.js", { scope: "/" }) : Promise.reject(new Error("no service worker"));
  worker.catch(function () {});
  window.tripplanWorker = worker;

  var offline = (function () {
    var root = doc.documentElement;
    var shownAt = new Date(); // when what the page shows was fetched: now, or a kept copy's time
    var off = false;

    function clock(d) {
      try {
        return new Intl.DateTimeFormat(root.lang || undefined, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" }).format(d);
      } catch (e) {
        return d.toLocaleString();
      }
    }
    function show() {
      var banner = doc.querySelector("[data-offline-banner]");
      var onPage = doc.querySelector("[data-offline-page]"); // the offline page says it itself
      if (off) root.setAttribute("data-offline", "");
      else root.removeAttribute("data-offline");
      if (!banner) return;
      banner.hidden = !off || !!onPage;
      var text = banner.querySelector("[data-offline-text]");
      if (off && text) text.textContent = t("js.offline.banner", { time: clock(shownAt) });
    }
    // set records the connection's state; fetchedAt (a kept copy's Date) is when something
    // now shown was fetched.
    function set(isOff, fetchedAt) {
      var at = fetchedAt ? new Date(fetchedAt) : null;
      if (at && !isNaN(at) && at < shownAt) shownAt = at;
      if (off === isOff && !at) return;
      off = isOff;
      show();
      probe();
    }
    // Offline while the browser thinks it is online (a request got no answer, the worker gave
    // a kept page): the server is asked now and then (2 s, doubling up to 30 s) whether it
    // answers again; the browser going offline stops asking (its online event will tell).
    var probing = 0, wait = 2000;
    function probe() {
      if (probing || !off || !navigator.onLine) return;
      probing = setTimeout(function () {
        probing = 0;
        fetch("/healthz", { cache: "no-store", credentials: "omit" }).then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          wait = 2000;
          set(false);
        }).catch(function () {
          wait = Math.min(wait * 2, 30000);
          probe();
        });
      }, wait);
    }
    window.addEventListener("offline", function () { set(true); });
    window.addEventListener("online", function () { set(false); });
    if (!navigator.onLine) set(true);
    // Whether the worker answered this page from its store, and with a copy of when.
    if ("serviceWorker" in navigator && navigator.serviceWorker.controller && window.MessageChannel) {
      var ch = new MessageChannel();
      ch.port1.onmessage = function (evt) {
        if (evt.data && evt.data.fetchedAt) set(true, evt.data.fetchedAt);
      };
      navigator.serviceWorker.controller.postMessage({ type: "status" }, [ch.port2]);
    }
    // Answers say whether the server was reached: the worker marks kept copies.
    doc.addEventListener("htmx:afterRequest", function (evt) {
      var xhr = evt.detail && evt.detail.xhr;
      if (!xhr || !xhr.status) return;
      var kept = xhr.getResponseHeader("Tripplan-Fetched-At");
      if (kept !== null) set(true, kept);
      else if (navigator.onLine) set(false);
    });

    function refuse(elt) {
      sayUnsent(elt, t("js.offline.refused"), t("js.offline.refused"), "");
    }
    // Plain forms that post (htmx's are refused at htmx:confirm, below).
    doc.addEventListener(
      "submit",
      function (evt) {
        var form = evt.target;
        if (!off || !(form instanceof HTMLFormElement)) return;
        var verb = (evt.submitter && evt.submitter.getAttribute("formmethod")) || form.getAttribute("method") || "get";
        if (!/^post$/i.test(verb) || form.matches("[hx-post], [hx-put], [hx-patch], [hx-delete], [data-hx-post], [data-hx-put], [data-hx-patch], [data-hx-delete]")) return;
        evt.preventDefault();
        evt.stopImmediatePropagation();
        refuse(form);
      },
      true
    );
    doc.addEventListener("htmx:confirm", function (evt) {
      if (!off || /^get$/i.test(evt.detail.verb)) return;
      evt.preventDefault();
      refuse(evt.detail.elt);
    });

    // Signing out forgets the pages htmx keeps for the back button (localStorage), as the
    // worker forgets the pages it kept: the next person on this browser sees none of them.
    // It also ends this browser's Web Push subscription (the server forgets it too), so the
    // next person is not shown the last one's news; the sign-out waits for that at most 2 s.
    doc.addEventListener("submit", function (evt) {
      var form = evt.target;
      if (!(form instanceof HTMLFormElement) || evt.defaultPrevented || form.getAttribute("action") !== "/auth/logout") return;
      try {
        localStorage.removeItem("htmx-history-cache");
      } catch (e) {}
      if (form.hasAttribute("data-push-ended") || !("PushManager" in window)) return;
      evt.preventDefault();
      form.setAttribute("data-push-ended", "");
      var ended = worker.then(function (reg) {
        return reg.pushManager.getSubscription();
      }).then(function (sub) {
        if (!sub) return;
        var forget = fetch("/users/me/push-subscriptions?endpoint=" + encodeURIComponent(sub.endpoint), {
          method: "DELETE", credentials: "same-origin", headers: { Accept: "application/json" },
        });
        return Promise.all([forget, sub.unsubscribe()]);
      });
      var late = new Promise(function (resolve) { setTimeout(resolve, 2000); });
      Promise.race([ended, late]).catch(function () {}).then(function () {
        if (form.requestSubmit) form.requestSubmit();
        else form.submit();
      });
    });

    return {
      // failed: a request got no answer.
      failed: function () { set(true); },
    };
  })();

  // The offline page lists the plans kept for reading offline: the plan pages in the worker's
  // store of pages (sw.js: "tripplan-pages-<viewer>"), by their titles.
  (function () {
    var list = doc.querySelector("[data-offline-plans]");
    var none = doc.querySelector("[data-offline-none]");
    if (!list || !none) return;
    function plans() {
      if (!window.caches) return Promise.resolve([]);
      return caches.keys().then(function (names) {
        var name = names.filter(function (n) { return n.indexOf("tripplan-pages-") === 0; })[0];
        if (!name) return [];
        return caches.open(name).then(function (c) {
          return c.keys().then(function (requests) {
            var seen = {};
            var pages = requests.filter(function (r) {
              var path = new URL(r.url).pathname;
              if (r.headers.get("HX-Request") || !/^\/plans\/[^/]+$/.test(path) || seen[path]) return false;
              seen[path] = true;
              return true;
            });
            return Promise.all(pages.map(function (r) {
              return c.match(r).then(function (res) { return res ? res.text() : ""; }).then(function (html) {
                var page = new DOMParser().parseFromString(html, "text/html");
                var h1 = page.querySelector("main h1");
                return { href: new URL(r.url).pathname, title: (h1 ? h1.textContent : page.title).trim() };
              });
            }));
          });
        });
      });
    }
    plans().catch(function () { return []; }).then(function (found) {
      list.replaceChildren.apply(list, found.map(function (p) {
        var li = doc.createElement("li");
        var a = doc.createElement("a");
        a.href = p.href;
        a.className = "nav-link flex min-h-[44px] items-center rounded-lg border border-slate-200 bg-white px-3 font-medium text-slate-900";
        a.textContent = p.title || p.href;
        li.appendChild(a);
        return li;
      }));
      none.hidden = found.length > 0;
    });
  })();

  // --- Sending once (issue 17) ---
  // Every POST htmx sends from a form or a button carries an Idempotency-Key: one per
  // submission, kept until the server has answered it, so the same submission sent again (a
  // second click, a retry after a network error) is done once and answered as the first
  // time; a changed form or a later submission gets a new key. While a request runs, its
  // form's submit buttons (or the button) are marked disabled and busy (aria-disabled, which
  // keeps the focus where it is), and a second submission of it is dropped. A request that got no answer says so where it was made: in its dialog, whose
  // content stays as it was, or in #flash.
  (function () {
    var keys = new WeakMap(); // form or button → { key, sig } of its unanswered submission
    var busy = new WeakMap(); // form or button → the buttons marked busy while its request runs

    function newKey() {
      if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
      // crypto.randomUUID needs a secure context (https, localhost); the dev server on a LAN
      // address is plain http, where getRandomValues still works.
      var b = new Uint8Array(16);
      crypto.getRandomValues(b);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      var hex = Array.prototype.map.call(b, function (x) { return (x < 16 ? "0" : "") + x.toString(16); }).join("");
      return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
    }
    // What a request is made from: a button of its own, else its form, else the element (none
    // for requests a script makes without one, such as a dropped place's).
    function holder(elt) {
      if (!(elt instanceof Element) || elt === doc.body) return null;
      if (elt instanceof HTMLButtonElement) return elt;
      return elt.closest("form") || elt;
    }
    function buttonsOf(h) {
      if (h instanceof HTMLFormElement) {
        return Array.prototype.filter.call(h.elements, function (el) { return el.type === "submit"; });
      }
      return h instanceof HTMLButtonElement ? [h] : [];
    }
    function isPost(verb) {
      return String(verb || "").toLowerCase() === "post";
    }

    doc.addEventListener("htmx:confirm", function (evt) {
      var h = holder(evt.detail.elt);
      if (h && !/^get$/i.test(evt.detail.verb) && busy.has(h)) evt.preventDefault(); // sent already
    });
    doc.addEventListener("htmx:configRequest", function (evt) {
      var d = evt.detail, h = holder(d.elt);
      if (!h || !isPost(d.verb)) return;
      var sig = d.path + "?" + new URLSearchParams(d.formData).toString();
      var entry = keys.get(h);
      if (!entry || entry.sig !== sig) keys.set(h, (entry = { key: newKey(), sig: sig }));
      d.headers["Idempotency-Key"] = entry.key;
    });
    doc.addEventListener("htmx:beforeRequest", function (evt) {
      var d = evt.detail, h = holder(d.elt);
      if (!h || /^get$/i.test(d.requestConfig.verb)) return;
      var dialog = h.closest("dialog");
      if (dialog) dialog.querySelectorAll("[data-network-error]").forEach(function (n) { n.remove(); });
      // aria-disabled, not disabled: a disabled button loses the focus (the person's place on
      // the page); a second submission is dropped above all the same.
      var disabled = buttonsOf(h).filter(function (b) { return !b.disabled && b.getAttribute("aria-disabled") !== "true"; });
      disabled.forEach(function (b) {
        b.setAttribute("aria-disabled", "true");
        b.setAttribute("aria-busy", "true");
      });
      busy.set(h, disabled);
    });
    // Capturing, so the buttons are given back before other handlers of the answer run (the
    // search results' "Add" disables itself for good once it worked).
    doc.addEventListener(
      "htmx:afterRequest",
      function (evt) {
        var d = evt.detail, h = holder(d.elt);
        if (!h || !busy.has(h)) return;
        busy.get(h).forEach(function (b) {
          b.removeAttribute("aria-disabled");
          b.removeAttribute("aria-busy");
        });
        busy.delete(h);
        var status = d.xhr ? d.xhr.status : 0;
        if (status && status < 500) keys.delete(h); // answered: the next submission is new
      },
      true
    );

    // A request that got no answer: a GET means the browser is offline (the banner says so);
    // a change says, where it was made, that it may not have gone through — and may be sent
    // again at once, so it does not turn changes off.
    function unanswered(evt) {
      var verb = evt.detail && evt.detail.requestConfig ? evt.detail.requestConfig.verb : "";
      if (/^get$/i.test(verb)) {
        offline.failed();
        return;
      }
      sayUnsent(evt.detail && evt.detail.elt, t("js.errors.offline_unsent"), t("js.errors.offline_title"), t("js.errors.offline_detail"));
    }
    doc.addEventListener("htmx:sendError", unanswered);
    doc.addEventListener("htmx:timeout", unanswered);
  })();

  // --- Live regions (issue 17) ---
  // An element marked data-live-reload reloads part of the page when a live update arrives (its
  // hx-trigger names sse: events): itself, or — with hx-target and hx-select-oob — several
  // regions of the page from one answer. A reload never takes away what the viewer is in the
  // middle of. A region in use is left as it is: one holding the focused field, a form with
  // something typed or chosen in it (a field whose value is not the one the page gave it), an
  // opened <details> or <dialog> (an editor, a menu), or something being dragged
  // ([data-dragging]). The reload is made again once the viewer is done with it: the focus
  // leaves, the form is sent or reset, the editor closes, the drag ends. A live region inside a
  // closed dialog does not reload at all (opening the dialog loads it afresh). Other regions of
  // the same answer are swapped as usual, and the focus on a button or link that a swap
  // replaced goes to its counterpart in the new content. A reload that fails shows the server's
  // message in #flash.
  (function () {
    var held = new Map(); // element that reloads → { type: its live event, regions: the regions left as they were }
    var swapping = null; // the live reload whose answer is being swapped, for its out-of-band regions

    function isField(el) {
      if (!(el instanceof HTMLElement)) return false;
      if (el.isContentEditable || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
      return el instanceof HTMLInputElement && !/^(button|submit|reset|hidden|image)$/.test(el.type);
    }
    function changed(field) {
      if (field instanceof HTMLSelectElement) {
        var options = Array.prototype.slice.call(field.options);
        if (field.multiple) return options.some(function (o) { return o.selected !== o.defaultSelected; });
        var given = options.findIndex(function (o) { return o.defaultSelected; });
        return options.length > 0 && field.selectedIndex !== Math.max(given, 0);
      }
      if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) return field.checked !== field.defaultChecked;
      return (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) && field.value !== field.defaultValue;
    }
    function inUse(region) {
      var active = doc.activeElement;
      if (isField(active) && region.contains(active)) return true;
      if (region.querySelector("details[open], dialog[open], [data-dragging]")) return true;
      return Array.prototype.some.call(region.querySelectorAll("form"), function (f) {
        return Array.prototype.some.call(f.elements, changed);
      });
    }

    // The focus on something a swap replaces goes, once swapped, to the element of the region's
    // new content that reads and acts the same (htmx itself keeps the focus of elements with ids).
    function focusKey(el) {
      return [el.tagName, el.getAttribute("aria-label"), el.textContent.trim(), el.getAttribute("href"),
        el.getAttribute("hx-get"), el.getAttribute("hx-post"), el.getAttribute("hx-patch"), el.getAttribute("hx-delete")].join("|");
    }
    function keepFocus(region) {
      var active = doc.activeElement;
      if (!(active instanceof HTMLElement) || active === doc.body || !region.id || !region.contains(active)) return;
      var id = region.id, key = focusKey(active);
      setTimeout(function () {
        if (doc.activeElement && doc.activeElement !== doc.body) return; // still focused, or moved on
        var fresh = doc.getElementById(id);
        var match = fresh && Array.prototype.find.call(fresh.querySelectorAll("a[href], button, summary, [tabindex]"), function (el) {
          return focusKey(el) === key;
        });
        if (match) match.focus({ preventScroll: true });
      }, 0);
    }

    function hold(elt, type, region) {
      var h = held.get(elt) || { type: type, regions: [] };
      if (h.regions.indexOf(region) < 0) h.regions.push(region);
      held.set(elt, h);
    }
    function release() {
      held.forEach(function (h, elt) {
        if (!elt.isConnected) {
          held.delete(elt);
          return;
        }
        if (h.regions.some(function (r) { return r.isConnected && inUse(r); })) return;
        held.delete(elt);
        window.htmx.trigger(elt, h.type);
      });
    }
    var releasing = 0;
    function releaseSoon() {
      if (held.size && !releasing) {
        releasing = setTimeout(function () {
          releasing = 0;
          release();
        }, 0);
      }
    }
    ["focusout", "change", "reset", "toggle", "close", "dragend", "pointerup", "pointercancel", "htmx:afterSettle"].forEach(function (type) {
      doc.addEventListener(type, releaseSoon, true);
    });

    function liveElt(d) {
      var elt = d && d.requestConfig ? d.requestConfig.elt : d && d.elt;
      return elt instanceof Element && elt.hasAttribute("data-live-reload") ? elt : null;
    }
    doc.addEventListener("htmx:confirm", function (evt) {
      var elt = liveElt(evt.detail);
      if (elt && elt.closest("dialog:not([open])")) evt.preventDefault();
    });
    doc.addEventListener("htmx:beforeSwap", function (evt) {
      var d = evt.detail, elt = liveElt(d);
      swapping = null;
      if (!elt) return;
      if (d.isError) {
        d.selectOverride = "unset"; // the whole message, not the region's part of it
        return;
      }
      var ev = d.requestConfig.triggeringEvent;
      var type = ev ? ev.type : "";
      if (type && inUse(d.target)) {
        d.shouldSwap = false;
        hold(elt, type, d.target);
        return;
      }
      swapping = { elt: elt, type: type };
      keepFocus(d.target);
    });
    doc.addEventListener("htmx:oobBeforeSwap", function (evt) {
      var target = evt.detail.target;
      if (!swapping || !(target instanceof Element)) return;
      if (swapping.type && inUse(target)) {
        evt.detail.shouldSwap = false;
        hold(swapping.elt, swapping.type, target);
        return;
      }
      keepFocus(target);
    });
    doc.addEventListener("htmx:afterSwap", function () {
      swapping = null;
    });
  })();
})();
