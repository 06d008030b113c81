/* The score page: pointing at (or tapping) an item lifts its cards. */
"use strict";
document.querySelectorAll(".result .item[data-cards]").forEach((item) => {
  const cards = new Set(item.dataset.cards.split(" "));
  const lift = (on) => document.querySelectorAll(".result .card").forEach((card) => card.classList.toggle("hl", on && cards.has(card.dataset.card)));
  item.addEventListener("mouseenter", () => lift(true));
  item.addEventListener("mouseleave", () => lift(false));
  item.addEventListener("focus", () => lift(true));
  item.addEventListener("blur", () => lift(false));
});
