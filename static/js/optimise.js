// Optimising a day (issue 25): the day menu's "Optimise the day…" loads the day's
// optimisation into #optimise-dialog (hx-get on the item) and opens it; Apply posts the new
// times and the answer, the day grid with an Undo toast, replaces #day (app.js then closes the
// dialog). Apply (or Close, when nothing improves) takes the focus; a refusal of the preview
// (TOO_MANY_STOPS) is said in the dialog (Apply is inside it: app.js shows its errors there).
// Closing it puts the focus back on the day's menu.
window.tripplanLoadingDialog({
  dialog: "optimise-dialog",
  body: "optimise-body",
  trigger: "[data-optimise]",
  loading: "data-optimise-loading",
  focus: ["[data-optimise-apply]", "[data-close-dialog]"],
  back: function () {
    return document.querySelector("[data-day-menu] summary");
  },
});
