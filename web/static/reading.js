/* A card the reader is unsure of: the reader's choices for it offered, the player's word taken
   (the photo page and the board's photo of the table). */
import { cardText } from "./cards.js";
import { h } from "./dom.js";

/**
 * The reader's choices for a card, as buttons ("it is K♦"), its likeliest guess first.
 *
 * @param {string[]} choices card tokens, best first
 * @param {(code: string) => void} pick called with the card chosen
 * @returns {HTMLElement} a span.choices
 */
export function choiceButtons(choices, pick) {
  return h("span", { className: "choices" }, ...choices.map((code) => {
    const button = h("button", { type: "button", className: "choice", text: cardText(code), "aria-label": `it is ${cardText(code)}` });
    button.addEventListener("click", () => pick(code));
    return button;
  }));
}

/** Take `code` as what the read `card` is (typed, or picked among its choices): the player's
 *  word, not the reader's certainty. */
export function takeAs(card, code) {
  Object.assign(card, { card: code, uncertain: false, confidence: 1, choices: [code], typed: true });
}
