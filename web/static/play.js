/* A game against the computer (/play): set it up, then discard by tapping two cards, play by
   tapping a card and what it pegs, count each hand and crib with a number; the board, the log
   (muggins and refused claims marked) and, at the end, the result and the review's link. Every
   move carries the version the page saw: a game moved on in another tab is drawn as it is. */
import { ApiError, postJSON } from "./api.js";
import { cardFace, cardText, miniCards } from "./cards.js";
import { h } from "./dom.js";
import { COLOURS, drawBoard } from "./pegboard.js";

const $ = (id) => document.getElementById(id);

function show(id, message) {
  $(id).textContent = message;
  $(id).hidden = !message;
}

function problem(error) {
  if (!(error instanceof ApiError)) throw error;
  return error.message;
}

// --- setting a game up --------------------------------------------------------------------

function setUp(form) {
  const rules = () => form.querySelector("input[name=rules]:checked");
  form.addEventListener("change", (event) => {
    if (event.target.name === "rules") $("length").value = rules().dataset.game;
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await postJSON("/api/play", {
        rules: rules().value,
        game: Number($("length").value),
        level: form.querySelector("input[name=level]:checked").value,
        muggins: $("muggins").checked,
      });
      location.assign("/play");
    } catch (error) {
      show("new-error", problem(error));
      button.disabled = false;
    }
  });
}

// --- the game -------------------------------------------------------------------------------

const state = { game: null, selected: new Set(), busy: false, seen: 0 };

function statusLine(game) {
  if (game.result) return ""; // the result says it
  const deal = `Deal ${game.deal} · ${game.dealer === 0 ? "your crib" : "the computer’s crib"}`;
  const doing = {
    discard: `throw ${game.throw} to the crib`,
    play: "your turn to play",
    count: game.counting && `count your ${game.counting.what}`,
  }[game.waiting];
  return `${deal} · ${doing}`;
}

function drawScores(game) {
  $("scores").replaceChildren(...game.sides.map((side, seat) => {
    const swatch = h("span", { className: "swatch", "aria-hidden": "true" }, "●");
    swatch.style.color = COLOURS[seat];
    return h("div", { className: "side", dataset: { side: String(seat) } },
      swatch, h("span", { className: "who", text: side.name }),
      h("strong", { className: "score", text: String(side.front) }));
  }));
}

function drawTable(game) {
  const play = game.waiting === "play" || game.pile.length > 0;
  $("opponent").textContent = game.waiting === "play"
    ? `The computer holds ${game.computer_holds} card${game.computer_holds === 1 ? "" : "s"}.`
    : "";
  const starter = game.starter
    ? h("span", { className: "starter-slot" }, cardFace(game.starter, "starter"), h("span", { className: "slot-label", text: "starter" }))
    : null;
  const pile = play ? game.pile.map((token, i) => cardFace(token, "played", i === game.pile.length - 1 ? "just" : "")) : [];
  $("pile").replaceChildren(...pile, starter || "");
  $("running").hidden = game.count === null;
  $("count").textContent = game.count === null ? "" : String(game.count);
  $("table").hidden = !starter && !pile.length && !$("opponent").textContent;
}

function drawHand(game) {
  const counting = game.waiting === "count" ? game.counting : null;
  const cards = counting ? counting.cards : game.hand;
  const canTap = game.waiting === "discard" || game.waiting === "play";
  $("hand").className = `cards hand ${game.waiting}`;
  $("hand").replaceChildren(...cards.map((token) => {
    const face = cardFace(token, canTap ? "pick" : "");
    if (game.waiting === "play" && !game.playable.includes(token)) face.classList.add("unplayable");
    face.classList.toggle("selected", state.selected.has(token));
    if (canTap) {
      face.tabIndex = 0;
      face.setAttribute("role", "button");
    }
    return face;
  }));
  const prompts = {
    discard: `Tap ${game.throw} cards to throw to ${game.dealer === 0 ? "your" : "the computer’s"} crib.`,
    play: "Tap a card to play it, then say what it pegs.",
    count: counting && `Your ${counting.what} with the starter ${cardText(game.starter)}: what does it count?`,
  };
  $("prompt").textContent = prompts[game.waiting] || "";
  $("throw").hidden = game.waiting !== "discard";
  $("throw").disabled = state.selected.size !== game.throw;
  $("throw").textContent = `Throw these ${game.throw}`;
  const card = game.waiting === "play" ? [...state.selected][0] : null;
  $("claim").hidden = !card;
  if (card) $("claim-label").replaceChildren("What does ", miniCards([card]), " peg?");
  $("count-form").hidden = game.waiting !== "count";
}

function drawLog(game) {
  const line = (said, index) => h("li", {
    className: ["line", said.kind, said.seat === null ? "nobody" : `seat${said.seat}`, index >= state.seen ? "new" : ""].join(" "),
    dataset: { deal: String(said.deal) },
  }, h("span", { text: said.text }), said.points ? h("strong", { className: "pts", text: `+${said.points}` }) : null);
  const lines = game.log.map(line).reverse();
  const current = lines.filter((item) => Number(item.dataset.deal) === game.deal);
  $("log").replaceChildren(...current);
  $("log-earlier").replaceChildren(...lines.slice(current.length));
  $("earlier").hidden = current.length === lines.length;
}

function draw(game) {
  const fresh = state.game === null;
  const refused = game.log.slice(state.seen).filter((line) => line.kind === "refused").pop();
  state.game = game;
  if (fresh) state.seen = game.log.length;
  Object.assign($("versus").dataset, { version: String(game.version), waiting: game.waiting });
  $("status").textContent = statusLine(game);
  document.title = `Deal ${game.deal}, ${game.scores[0]}–${game.scores[1]} · Playing the computer`;
  $("result").hidden = !game.result;
  if (game.result) {
    $("result-text").textContent = game.result.text;
    $("review-link").href = game.result.review;
    $("result").classList.toggle("lurch", game.result.lurch);
  }
  drawBoard($("board"), game);
  drawScores(game);
  drawTable(game);
  drawHand(game);
  show("refused", refused && !fresh ? refused.text : "");
  drawLog(game);
  state.seen = game.log.length;
  if (game.waiting === "count") $("count-claim").focus();
}

async function send(move) {
  if (state.busy) return;
  state.busy = true;
  try {
    const game = await postJSON(`/api/play/${state.game.id}/moves`, { ...move, version: state.game.version });
    state.selected.clear();
    $("count-claim").value = "";
    show("error", "");
    draw(game);
  } catch (error) {
    show("error", problem(error));
    if (error.status === 409 && error.body && error.body.game) draw(error.body.game);
  } finally {
    state.busy = false;
  }
}

function tap(token) {
  const game = state.game;
  if (game.waiting === "discard") {
    if (state.selected.has(token)) state.selected.delete(token);
    else if (state.selected.size < game.throw) state.selected.add(token);
  } else if (game.waiting === "play" && game.playable.includes(token)) {
    const again = state.selected.has(token);
    state.selected.clear();
    if (!again) state.selected.add(token);
  } else if (game.waiting === "play") {
    show("error", `${cardText(token)} would take the count past 31: play another card.`);
    return;
  }
  show("error", "");
  drawHand(game);
}

function start(root) {
  draw(JSON.parse(root.dataset.state));
  $("hand").addEventListener("click", (event) => {
    const face = event.target.closest(".card");
    if (face) tap(face.dataset.card);
  });
  $("hand").addEventListener("keydown", (event) => {
    const face = event.target.closest(".card");
    if (face && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      tap(face.dataset.card);
    }
  });
  $("throw").addEventListener("click", () => send({ do: "throw", cards: [...state.selected] }));
  $("claims").addEventListener("click", (event) => {
    const button = event.target.closest("button");
    const card = [...state.selected][0];
    if (button && card) send({ do: "play", card, claim: Number(button.dataset.claim) });
  });
  $("count-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = $("count-claim").value.trim();
    const most = Number($("count-claim").dataset.most);
    if (!/^\d{1,2}$/.test(typed) || Number(typed) > most) {
      show("error", `Type what your cards count, from 0 to ${most}.`);
      return;
    }
    send({ do: "count", claim: Number(typed) });
  });
}

const form = $("new-versus");
if (form) setUp(form);
const root = $("versus");
if (root) start(root);
