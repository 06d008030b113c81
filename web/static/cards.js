/* Cards in the page: faces and small inline cards, the same markup as templates/macros.html. */
import { h, joined } from "./dom.js";

/** Suit letters to their symbols. */
export const SUITS = Object.freeze({ C: "♣", D: "♦", H: "♥", S: "♠" });

const SUIT_NAMES = Object.freeze({ C: "clubs", D: "diamonds", H: "hearts", S: "spades" });
const RANK_WORDS = Object.freeze({
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king",
});

/** The rank of a card token ("10H" → "10"). */
export function rankOf(token) {
  return token.slice(0, -1);
}

/** The suit letter of a card token ("10H" → "H"). */
export function suitOf(token) {
  return token.slice(-1);
}

/** "red" for hearts and diamonds, "black" for clubs and spades. */
export function colour(token) {
  return suitOf(token) === "D" || suitOf(token) === "H" ? "red" : "black";
}

const SYMBOL_SUITS = Object.freeze({ "♣": "C", "♦": "D", "♥": "H", "♠": "S" });

/** A card typed by a player ("5h", "td", "10♦") as a card token ("5H", "10D"), or null when
 *  it is not a card ("XX"). */
export function cardToken(typed) {
  const found = /^(10|[2-9AJQKT])([CDHS♣♦♥♠])$/.exec(String(typed).trim().toUpperCase());
  if (!found) return null;
  const rank = found[1] === "T" ? "10" : found[1];
  return rank + (SYMBOL_SUITS[found[2]] || found[2]);
}

/** A card as players write it: "5H" → "5♥". */
export function cardText(token) {
  return rankOf(token) + SUITS[suitOf(token)];
}

/** What a card counts toward fifteen and thirty-one: ace 1, faces 10. */
export function cardValue(token) {
  const rank = rankOf(token);
  if (rank === "A") return 1;
  return ["10", "J", "Q", "K"].includes(rank) ? 10 : Number(rank);
}

/**
 * A card face: rank and suit in the corner, a large suit in the middle.
 *
 * @param {string} token a card like "5H"
 * @param {...string} classes extra classes ("starter", "pick"...)
 * @returns {HTMLElement}
 */
export function cardFace(token, ...classes) {
  const rank = rankOf(token), suit = suitOf(token);
  return h(
    "span",
    {
      className: ["card", colour(token), ...classes].join(" "),
      dataset: { card: token },
      "aria-label": `${RANK_WORDS[rank]} of ${SUIT_NAMES[suit]}`,
    },
    h("span", { className: "corner" }, rank, h("br"), SUITS[suit]),
    h("span", { className: "pip" }, SUITS[suit]),
  );
}

/**
 * Small inline cards in their colours, as in a scoring item: "5♥ J♠".
 *
 * @param {string[]} tokens
 * @returns {HTMLElement} a span.mini
 */
export function miniCards(tokens) {
  const cards = tokens.map((token) => h("span", { className: colour(token), text: cardText(token) }));
  return h("span", { className: "mini" }, ...joined(cards, " "));
}
