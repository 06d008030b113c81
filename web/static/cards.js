/* Card faces drawn in the page, the same markup as templates/macros.html. */
"use strict";
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

function cardFace(token, extra) {
  const rank = token.slice(0, -1), suit = token.slice(-1);
  const el = document.createElement("span");
  el.className = `card ${suit === "D" || suit === "H" ? "red" : "black"} ${extra || ""}`;
  el.dataset.card = token;
  el.setAttribute("aria-label", `${rank}${SUITS[suit]}`);
  el.innerHTML = `<span class="corner">${rank}<br>${SUITS[suit]}</span><span class="pip">${SUITS[suit]}</span>`;
  return el;
}

function cardText(token) {
  return token.slice(0, -1) + SUITS[token.slice(-1)];
}

function miniCards(tokens) {
  return tokens.map((t) => {
    const suit = t.slice(-1);
    return `<span class="${suit === "D" || suit === "H" ? "red" : "black"}">${t.slice(0, -1)}${SUITS[suit]}</span>`;
  }).join(" ");
}
