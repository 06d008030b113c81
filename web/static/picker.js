/* The score page's card picker: tap cards to fill the hand, then the starter. */
"use strict";
(() => {
  const picker = document.getElementById("picker");
  const cardsInput = document.getElementById("cards");
  const starterInput = document.getElementById("starter");
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const suits = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const tokens = (input) => input.value.split(/[\s,]+/).filter(Boolean).map((t) => t.toUpperCase());
  for (const [letter, symbol] of Object.entries(suits)) {
    const row = document.createElement("div");
    for (const rank of ranks) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = `chip ${letter === "D" || letter === "H" ? "red" : "black"}`;
      button.textContent = rank + symbol;
      button.dataset.card = rank + letter;
      button.addEventListener("click", () => {
        const card = button.dataset.card;
        const hand = tokens(cardsInput);
        if (hand.includes(card)) cardsInput.value = hand.filter((t) => t !== card).join(" ");
        else if (tokens(starterInput)[0] === card) starterInput.value = "";
        else if (hand.length < 4) cardsInput.value = [...hand, card].join(" ");
        else starterInput.value = card;
        mark();
      });
      row.append(button);
    }
    picker.append(row);
  }
  function mark() {
    const chosen = new Set([...tokens(cardsInput), ...tokens(starterInput)]);
    picker.querySelectorAll("button").forEach((b) => b.classList.toggle("on", chosen.has(b.dataset.card)));
  }
  cardsInput.addEventListener("input", mark);
  starterInput.addEventListener("input", mark);
  picker.hidden = false;
  mark();
})();
