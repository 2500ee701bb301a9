// The judge station's page: each page's part started once the document is read.
import { $, initSettings } from "./common.js";
import { initRulePage } from "./rule-page.js";
import { initEventPage, initSlipPage } from "./event-page.js";

document.addEventListener("DOMContentLoaded", () => {
  initSettings();
  if (document.body.classList.contains("page-rule")) initRulePage();
  if (document.body.classList.contains("page-event")) initEventPage();
  if (document.body.classList.contains("page-slip")) initSlipPage();
  if ($("#print")) $("#print").addEventListener("click", () => window.print());
  // a printed slip keeps the notes and assumptions the card folds under "why"
  window.addEventListener("beforeprint", () => {
    for (const why of document.querySelectorAll("details.why")) why.open = true;
  });
});
