// A live match's page follows its event stream (web/app.py, /m/<token>/events): at each "moved" or
// "over" it fetches itself again and puts the new <main> in place of the old. The stream says only
// that the match moved, never what happened: what a spectator may see is the page's to decide.
(function () {
  "use strict";
  var main = document.querySelector("main[data-live]");
  if (!main || !window.EventSource || !window.fetch) return;
  var source = new EventSource(main.getAttribute("data-live"));
  var busy = false;
  var again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(window.location.pathname + window.location.search, { cache: "no-store", headers: { "Accept": "text/html" } })
      .then(function (answer) { return answer.ok ? answer.text() : null; })
      .then(function (text) {
        if (text === null) return;
        var fresh = new DOMParser().parseFromString(text, "text/html").querySelector("main");
        if (!fresh) return;
        main.innerHTML = fresh.innerHTML;
        if (!fresh.hasAttribute("data-live")) { source.close(); main.removeAttribute("data-live"); }
      })
      .catch(function () { /* the next event tries again */ })
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }
  source.addEventListener("moved", refresh);
  source.addEventListener("over", function () { refresh(); source.close(); });
})();
