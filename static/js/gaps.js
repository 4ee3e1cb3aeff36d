// Filling the gaps (issue 25): a gap's "Fill" loads its suggestions into #gaps-dialog (hx-get
// on the button) and opens it at once with a line saying they are coming; a place's button
// posts the new block and the answer, the day, replaces #day (app.js then closes the dialog).
// The first place (or Close, when there is none) takes the focus. Closing it puts the focus
// back on the "Fill" that opened it while that is still on the page, else on the day's
// timeline (the day was swapped: the new block is in it).
window.tripplanLoadingDialog({
  dialog: "gaps-dialog",
  body: "gaps-body",
  trigger: "[data-fill-gap]",
  loading: "data-gaps-loading",
  focus: ["[data-gap-suggestion]", "#gaps-body [data-close-dialog]"],
  back: function (opener) {
    return opener && opener.isConnected ? opener : document.getElementById("day-timeline");
  },
});
