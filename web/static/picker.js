/* A card picker: tap cards to fill a hand, then its starter; tap again to take a card back. */
import { SUITS, colour } from "./cards.js";
import { h } from "./dom.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** The card tokens typed in an input, upper-cased ("5h, js" → ["5H", "JS"]). */
export function typedTokens(input) {
  return input.value.split(/[\s,]+/).filter(Boolean).map((token) => token.toUpperCase());
}

/**
 * Fill `picker` with the 52 cards, one row per suit, wired to the hand and starter inputs.
 *
 * @param {HTMLElement} picker where the buttons go (shown once filled)
 * @param {{hand: HTMLInputElement, starter: HTMLInputElement, handSize: () => number}} fields
 *   the inputs to fill, and how many cards the hand takes before the starter
 */
export function mountPicker(picker, { hand, starter, handSize }) {
  const buttons = [];
  const mark = () => {
    const chosen = new Set([...typedTokens(hand), ...typedTokens(starter)]);
    for (const button of buttons) button.classList.toggle("on", chosen.has(button.dataset.card));
  };
  const pick = (card) => {
    const cards = typedTokens(hand);
    if (cards.includes(card)) hand.value = cards.filter((t) => t !== card).join(" ");
    else if (typedTokens(starter)[0] === card) starter.value = "";
    else if (cards.length < handSize()) hand.value = [...cards, card].join(" ");
    else starter.value = card;
    mark();
  };
  for (const letter of "SHDC") {
    const row = h("div", { className: "picker-row" });
    for (const rank of RANKS) {
      const card = rank + letter;
      const button = h("button", {
        type: "button", className: `chip ${colour(card)}`, dataset: { card }, text: rank + SUITS[letter],
      });
      button.addEventListener("click", () => pick(card));
      buttons.push(button);
      row.append(button);
    }
    picker.append(row);
  }
  hand.addEventListener("input", mark);
  starter.addEventListener("input", mark);
  picker.hidden = false;
  mark();
}
