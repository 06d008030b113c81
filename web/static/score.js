/* The score page: the card picker, and items that lift their cards when pointed at. */
import { liftOnPoint } from "./highlight.js";
import { mountPicker } from "./picker.js";

const form = document.getElementById("score-form");
const rules = form.elements.namedItem("rules");
const crib = form.elements.namedItem("crib");

/** How many cards the hand (or crib) takes before the starter under the chosen rules. */
function handSize() {
  const option = rules.selectedOptions[0];
  return Number(crib.checked ? option.dataset.cribSize : option.dataset.handSize);
}

mountPicker(document.getElementById("picker"), {
  hand: document.getElementById("cards"),
  starter: document.getElementById("starter"),
  handSize,
});

const result = document.querySelector(".result");
if (result) {
  for (const item of result.querySelectorAll(".item[data-cards]")) liftOnPoint(item, result);
}
