// The replay scrubber (web/templates/match.html): moving the slider shows that step's board at
// once (the form's own Show button does the same without JavaScript).
(function () {
  "use strict";
  var form = document.querySelector("nav.scrubber form");
  if (!form) return;
  var slider = form.querySelector("input[type=range]");
  slider.addEventListener("change", function () { form.submit(); });
})();
