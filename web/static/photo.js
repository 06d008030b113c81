/* The photo page: send the photo, draw what was read on it, let the player correct and score. */
import { cardText, miniCards } from "./cards.js";

{
  const $ = (id) => document.getElementById(id);
  let cards = [];

  function fail(message) {
    $("photo-error").textContent = message;
    $("photo-error").hidden = !message;
  }

  $("photo-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    fail("");
    const file = $("image").files[0];
    if (!file) return;
    $("shot").src = URL.createObjectURL(file);
    $("photo").hidden = false;
    const response = await fetch("/api/read", { method: "POST", body: new FormData($("photo-form")) });
    const data = await response.json();
    if (!response.ok) return fail(data.error);
    cards = data.cards;
    drawBoxes(data.image_size);
    drawChips();
    showScore(data.score);
  });

  function drawBoxes(size) {
    const boxes = $("boxes");
    boxes.replaceChildren();
    cards.forEach((c) => {
      const box = document.createElement("span");
      box.className = `box${c.uncertain ? " unsure" : ""}${c.starter ? " start" : ""}`;
      const [x1, y1, x2, y2] = c.box;
      Object.assign(box.style, {
        left: `${(100 * x1) / size[0]}%`, top: `${(100 * y1) / size[1]}%`,
        width: `${(100 * (x2 - x1)) / size[0]}%`, height: `${(100 * (y2 - y1)) / size[1]}%`,
      });
      const tag = document.createElement("span");
      tag.textContent = cardText(c.card);
      box.title = `${tag.textContent} ${Math.round(100 * c.confidence)}%`;
      box.append(tag);
      boxes.append(box);
    });
  }

  function drawChips() {
    const chips = $("chips");
    chips.replaceChildren();
    cards.forEach((c, i) => {
      const chip = document.createElement("span");
      chip.className = "chip-edit";
      chip.innerHTML = `<input value="${c.card}" size="3" aria-label="card ${i + 1}"${c.uncertain ? ' class="unsure"' : ""}>
        <small>${Math.round(100 * c.confidence)}% sure</small>
        <label class="check"><input type="radio" name="starter" ${c.starter ? "checked" : ""}> starter</label>`;
      chip.querySelector("input").addEventListener("change", (e) => { c.card = e.target.value.trim().toUpperCase(); });
      chip.querySelector("input[type=radio]").addEventListener("change", () => cards.forEach((d, j) => { d.starter = i === j; }));
      chips.append(chip);
    });
    $("read").hidden = false;
  }

  function showScore(score) {
    $("photo-total").textContent = score ? `${score.total} — “${score.say}”` : "Pick the starter and check the cards, then score.";
    $("photo-items").innerHTML = score ? score.items.map((i) => `<li class="item"><span class="what">${i.kind}</span>${miniCards(i.cards).outerHTML}<span class="pts">${i.points}</span></li>`).join("") : "";
  }

  $("rescore").addEventListener("click", async () => {
    fail("");
    const starter = cards.find((c) => c.starter);
    const body = { hand: cards.filter((c) => !c.starter).map((c) => c.card), starter: starter ? starter.card : null, crib: $("crib").checked };
    const response = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await response.json();
    if (!response.ok) return fail(data.error);
    showScore(data);
  });
}
