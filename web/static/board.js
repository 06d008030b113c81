/* Keep a game's score at the table: set a game up, draw its board and the match's tally, move
   its pegs (big buttons, or the play card by card), count each hand and the crib from a photo
   of the table (a card the reader is unsure of confirmed with a tap) or the cards typed, undo
   any move; every phone with the link asks for the board each second (a 304 while nothing
   moved) and draws each peg as it is made. Every message is in players' words. */
import { ApiError, postForm, postJSON } from "./api.js";
import { SUITS, cardText, colour, miniCards } from "./cards.js";
import { h } from "./dom.js";
import { COLOURS, drawBoard } from "./pegboard.js";
import { choiceButtons, takeAs } from "./reading.js";

const $ = (id) => document.getElementById(id);
/** How often a page asks whether the board moved (the issue: each peg seen within a second or two). */
const POLL_MS = 1000;
/** Seconds a photo of the whole table may take to read on a busy server. */
const READ_SECONDS = 90;
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
/** The 52 cards, a suit at a time, as the chips lay them out. */
const CARDS = [..."SHDC"].flatMap((suit) => RANKS.map((rank) => rank + suit));
/** The peg buttons: what players peg in the play, and the reason the log gives it. */
const PEGS = [
  { label: "1", points: 1, reason: "" },
  { label: "2", points: 2, reason: "" },
  { label: "3", points: 3, reason: "" },
  { label: "4", points: 4, reason: "" },
  { label: "6", points: 6, reason: "" },
  { label: "Go", points: 1, reason: "go" },
  { label: "31", points: 2, reason: "31" },
  { label: "Last card", points: 1, reason: "last card" },
  { label: "His heels", points: 2, reason: "his heels", dealer: true },
];

function problem(error) {
  if (!(error instanceof ApiError)) throw error;
  if (error.status === 413) return "That photo is too large to send: take one under 10 MB.";
  return error.message;
}

function show(id, message) {
  $(id).textContent = message;
  $(id).hidden = !message;
}

// --- setting a game up --------------------------------------------------------------------

function setUp(form) {
  const inputs = [...form.querySelectorAll("input[name=name]")];
  const players = () => Number(form.querySelector("input[name=players]:checked").value);
  const names = () => inputs.slice(0, players()).map((input) => input.value.trim() || input.placeholder);
  const seats = (select, first) => {
    const keep = select.value;
    select.replaceChildren(...first, ...names().map((name, seat) => h("option", { value: String(seat), text: name })));
    select.value = [...select.options].some((o) => o.value === keep) ? keep : select.options[0].value;
  };
  const refresh = () => {
    const count = players();
    inputs.forEach((input, seat) => {
      input.disabled = seat >= count;
      input.closest("label").hidden = seat >= count;
    });
    const rules = $("rules");
    for (const option of rules.options) option.disabled = option.hidden = Number(option.dataset.players) !== count;
    if (rules.selectedOptions[0].disabled) rules.value = [...rules.options].find((o) => !o.disabled).value;
    seats($("first-dealer"), []);
    seats($("me"), [h("option", { value: "", text: "keeping score only" })]);
  };
  const chooseLength = () => { $("length").value = $("rules").selectedOptions[0].dataset.game; };
  form.addEventListener("change", (event) => {
    if (event.target.name === "players") { refresh(); chooseLength(); }
    if (event.target.id === "rules") chooseLength();
  });
  for (const input of inputs) input.addEventListener("input", refresh);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const game = await postJSON("/api/games", {
        names: names(),
        rules: $("rules").value,
        length: Number($("length").value),
        first_dealer: Number($("first-dealer").value),
        muggins: $("muggins").checked,
        double_skunk_games: Number($("double-skunk").value),
        seat: $("me").value === "" ? null : Number($("me").value),
      });
      location.assign(`/board/${game.code}`);
    } catch (error) {
      show("new-error", problem(error));
      button.disabled = false;
    }
  });
  refresh();
  chooseLength();
}

// --- the board ------------------------------------------------------------------------------

const state = { game: null, version: -1, key: null, seat: null, busy: false, reading: null };

function storedKey(code) {
  const found = location.hash.match(/key=([0-9a-f]+)/);
  try {
    if (found) {
      keepKey(code, found[1]);
      history.replaceState(null, "", location.pathname);
    }
    return localStorage.getItem(`crib-board-key:${code}`);
  } catch {
    return found ? found[1] : null; // storage refused: keep the link's key for this visit
  }
}

function keepKey(code, key) {
  try { localStorage.setItem(`crib-board-key:${code}`, key); } catch { /* storage refused */ }
}

function forgetKey(code) {
  state.key = null;
  try { localStorage.removeItem(`crib-board-key:${code}`); } catch { /* storage refused */ }
}

const keeper = () => Boolean(state.game && (state.game.keeper || state.key));

/** "Ann's hand", "Bob's crib". */
function whose(game, target) {
  return target === "crib" ? `${game.names[game.dealer]}’s crib` : `${game.names[target]}’s hand`;
}

function statusLine(game) {
  const deal = `Deal ${game.deal} · ${game.names[game.dealer]} deals`;
  if (game.phase === "over") return game.result.text;
  if (game.phase === "play") {
    const left = game.play.cards_left;
    if (!left) return `${deal} · the play is over: ${whose(game, game.next_to_show)} is counted first`;
    return `${deal} · the play${game.play.played.length ? ` · count ${game.play.count}, ${left} card${left === 1 ? "" : "s"} to play` : ""}`;
  }
  if (game.phase === "show") return `${deal} · the show: ${whose(game, game.next_to_show)} is counted next`;
  return `${deal} · the crib is counted: the deal passes to ${game.names[(game.dealer + 1) % game.names.length]}`;
}

function drawScores(game) {
  const last = {};
  for (const move of game.log) if (move.points || move.phase === "show") last[move.side] = move;
  $("scores").replaceChildren(...game.sides.map((side, index) => {
    const move = last[index];
    return h(
      "div", { className: "side", dataset: { side: String(index) } },
      h("span", { className: "swatch", "aria-hidden": "true" }, "●"),
      h("span", { className: "who", text: side.name }),
      h("strong", { className: "score", text: String(side.front) }),
      move ? h("small", { text: `+${move.points}${move.reason ? ` ${move.reason.split(" (")[0]}` : ""}` }) : null,
    );
  }));
  for (const swatch of $("scores").querySelectorAll(".side")) {
    swatch.querySelector(".swatch").style.color = COLOURS[Number(swatch.dataset.side)];
  }
}

function drawLog(game) {
  const items = game.log.map((move) => {
    const points = move.phase === "deal" ? "" : move.pegged < move.points ? `+${move.points} (home)` : `+${move.points}`;
    const text = move.phase === "deal" ? move.reason : `${move.who} ${points}${move.reason ? `: ${move.reason}` : ""}`;
    const undo = keeper() && move.phase !== "start"
      ? h("button", { type: "button", className: "undo-one secondary", text: "undo", dataset: { index: String(move.index) }, "aria-label": `undo move ${move.index + 1}` })
      : null;
    return h("li", { className: `move ${move.phase}`, value: move.index + 1 }, h("span", { text }), undo);
  });
  $("log").replaceChildren(...items.reverse());
}

function drawSeats(game) {
  if (state.seat === null || state.seat >= game.names.length) state.seat = game.play.next_seat;
  $("seats").replaceChildren(...game.names.map((name, seat) => {
    const button = h("button", {
      type: "button", className: "seat", text: name, dataset: { seat: String(seat) },
      "aria-pressed": String(seat === state.seat),
    });
    button.style.borderColor = COLOURS[game.sides.findIndex((side) => side.seats.includes(seat))];
    return button;
  }));
}

function drawChips(game) {
  const played = new Set(game.play.played.map((p) => p.card));
  if (!$("card-chips").childElementCount) {
    for (const suit of "SHDC") {
      const row = h("div", { className: "chip-row" });
      for (const rank of RANKS) {
        const card = rank + suit;
        row.append(h("button", { type: "button", className: `chip ${colour(card)}`, dataset: { card }, text: rank + SUITS[suit] }));
      }
      $("card-chips").append(row);
    }
  }
  for (const chip of $("card-chips").querySelectorAll(".chip")) chip.disabled = played.has(chip.dataset.card);
  $("count").textContent = String(game.play.count);
  $("pile").replaceChildren(miniCards(game.play.pile));
}

function draw(game) {
  const fresh = !state.game || state.game.deal !== game.deal;
  state.game = game;
  state.version = game.version;
  const title = game.sides.map((side) => side.name).join(" v ");
  $("game-title").textContent = title;
  document.title = `${title} · The board`;
  $("status").textContent = statusLine(game);
  show("result", game.result ? game.result.text : "");
  $("result").classList.toggle("lurch", Boolean(game.result && game.result.lurch));
  drawBoard($("board"), game);
  drawScores(game);
  show("match", game.match ? `Match: ${game.match.text}` : "");
  const keeping = keeper();
  $("keep").hidden = !keeping;
  $("game").classList.toggle("keeping", keeping);
  $("game").dataset.phase = game.phase;
  if (keeping) {
    const open = game.phase !== "over";
    $("seats").hidden = $("play-panel").hidden = !open || game.phase !== "play";
    $("show-panel").hidden = !open || !["play", "show"].includes(game.phase);
    $("next-deal").hidden = $("dealt-by-label").hidden = game.phase !== "deal";
    const due = (game.dealer + 1) % game.names.length;
    $("next-deal").textContent = `Next deal: ${game.names[due]} deals`;
    $("dealt-by").replaceChildren(...game.names.map((name, seat) => h("option", {
      value: String(seat), text: seat === due ? `${name} (in turn)` : name,
    })));
    $("dealt-by").value = String(due);
    $("undo").disabled = !game.log.some((move) => move.phase !== "start");
    $("misdeal").hidden = !open;
    drawSeats(game);
    drawChips(game);
    if (game.next_to_show !== null) $("show-title").textContent = `Count ${whose(game, game.next_to_show)}`;
    if (fresh) { $("typed-starter").value = ""; closeReading(); }
    if (game.key) {
      keepKey(game.code, game.key); // the keeper's browser keeps its key: a lost cookie loses nothing
      $("keeper-share").hidden = false;
      $("keeper-link").href = `${location.origin}/board/${game.code}#key=${game.key}`;
    }
  }
  drawLog(game);
}

async function send(move) {
  if (state.busy) return false;
  state.busy = true;
  const body = { ...move, version: state.version };
  if (state.key) body.key = state.key;
  try {
    draw(await postJSON(`/api/games/${state.game.code}/moves`, body));
    show("board-error", "");
    return true;
  } catch (error) {
    show("board-error", problem(error));
    if (error.status === 403 && state.key) forgetKey(state.game.code);
    if (error.status === 409 || error.status === 403) await refresh(true);
    return false;
  } finally {
    state.busy = false;
  }
}

/** Ask for the board: a 304 while this page has the latest version (every `POLL_MS`). */
async function refresh(force = false) {
  if (document.hidden && !force) return;
  const code = $("game").dataset.code;
  const headers = { Accept: "application/json" };
  if (!force && state.version >= 0) headers["If-None-Match"] = `"${state.version}"`;
  try {
    const response = await fetch(`/api/games/${code}`, { headers, cache: "no-store", signal: AbortSignal.timeout(10000) });
    if (response.status === 304) return;
    const data = await response.json();
    if (!response.ok) throw new ApiError(data.error || response.statusText, response.status);
    draw(data);
    $("status").classList.remove("stale");
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) show("board-error", error.message);
    $("status").classList.add("stale"); // no answer: the board may be behind
  }
}

function poll() {
  refresh().finally(() => setTimeout(poll, POLL_MS));
}

// --- the show from a photo of the table ---------------------------------------------------------

function closeReading() {
  state.reading = null;
  $("photo-read").hidden = true;
  $("photo-read").replaceChildren();
  $("table-photo").value = "";
}

async function readPhoto(file, extra = {}) {
  const game = state.game;
  const form = new FormData();
  form.append("image", file);
  form.append("players", String(game.names.length));
  form.append("rules", game.rules);
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  show("photo-status", "Reading the cards…");
  show("board-error", "");
  try {
    const answer = await postForm("/api/read", form, READ_SECONDS);
    state.reading = { file, answer, roles: answer.groups.map((g) => g.role), owners: [] };
    drawReading();
  } catch (error) {
    closeReading();
    show("board-error", problem(error));
  } finally {
    show("photo-status", "");
  }
}

/** What keeps the photo from counting, in players' words; "" when it can be counted. */
function readingProblem(game, answer, roles) {
  const size = game.names.length * game.hand_size + game.crib_size + 1;
  const read = answer.groups.flatMap((group) => group.cards).length;
  if (read !== size) {
    return `This photo shows ${read} card${read === 1 ? "" : "s"}; at the show this table has ${size}: ` +
      `${game.names.length} hands of ${game.hand_size}, the crib of ${game.crib_size} and the starter. ` +
      "Take it again with every card in view, or type the cards.";
  }
  if (answer.question && answer.question.kind === "groups") return `${answer.question.text} Take it again with the groups apart, or type the cards.`;
  const hands = roles.filter((r) => r === "hand").length;
  if (hands > game.names.length || roles.filter((r) => r === "crib").length > 1) return answer.note;
  return "";
}

function drawReading() {
  const game = state.game;
  const { answer, roles } = state.reading;
  const box = $("photo-read");
  box.hidden = false;
  const trouble = readingProblem(game, answer, roles);
  if (trouble) {
    box.replaceChildren(h("p", { className: "error", role: "alert", text: trouble }));
    return;
  }
  const question = answer.question;
  if (question && question.kind === "starter") {
    box.replaceChildren(
      h("p", { text: "Which card is the starter?" }),
      ...question.choices.map((i) => {
        const button = h("button", { type: "button", className: "secondary", text: cardText(answer.cards[i].card) });
        button.addEventListener("click", () => readPhoto(state.reading.file, { starter: answer.cards[i].card }));
        return button;
      }),
    );
    return;
  }
  const unsure = answer.groups.flatMap((group) => group.cards).find((i) => answer.cards[i].uncertain);
  if (unsure !== undefined) {
    box.replaceChildren(...askCard(unsure));
    return;
  }
  const hands = roles.map((role, i) => (role === "hand" ? i : -1)).filter((i) => i >= 0);
  const seatsInOrder = game.show_order.filter((target) => target !== "crib");
  if (!state.reading.owners.length) state.reading.owners = hands.map((_, k) => seatsInOrder[k]);
  const cribAsked = !roles.includes("crib");
  const rows = answer.groups.map((group, i) => {
    const cards = group.cards.map((c) => answer.cards[c].card);
    const role = roles[i];
    let label;
    if (role === "starter") label = h("span", { className: "role", text: "the starter" });
    else if (role === "crib") label = h("span", { className: "role", text: `${game.names[game.dealer]}’s crib` });
    else if (role === "hand") {
      const k = hands.indexOf(i);
      const select = h("select", { className: "owner", dataset: { group: String(i) }, "aria-label": "whose hand" },
        ...game.names.map((name, seat) => h("option", { value: String(seat), text: `${name}’s hand` })));
      select.value = String(state.reading.owners[k]);
      select.addEventListener("change", () => { state.reading.owners[k] = Number(select.value); });
      label = select;
    } else {
      const button = h("button", { type: "button", className: "secondary crib-pick", text: `This is ${game.names[game.dealer]}’s crib` });
      button.addEventListener("click", () => {
        state.reading.roles = roles.map((r, j) => (j === i ? "crib" : r === null ? "hand" : r));
        state.reading.owners = [];
        drawReading();
      });
      label = button;
    }
    const claimed = role === "hand" || role === "crib"
      ? h("input", { type: "number", min: "0", max: "29", className: "claimed", dataset: { group: String(i) }, placeholder: "claimed", "aria-label": "claimed", inputMode: "numeric" })
      : null;
    return h("div", { className: "read-group" }, label, miniCards(cards), claimed);
  });
  const count = h("button", { type: "button", id: "count-photo", text: "Count them" });
  count.disabled = cribAsked;
  count.addEventListener("click", countReading);
  const asked = cribAsked ? [h("p", { className: "question", text: `Which group is ${game.names[game.dealer]}’s crib (${game.names[game.dealer]} deals)?` })] : [];
  box.replaceChildren(...asked, ...rows, count); // (replaceChildren writes a null as "null")
}

/** Ask what card `i` is, the reader unsure of it: its guess taken with one tap, one of its
 *  other choices, or any card not read elsewhere on the table; then read on. */
function askCard(i) {
  const { answer } = state.reading;
  const read = answer.cards[i];
  const beside = answer.groups.find((group) => group.cards.includes(i)).cards.filter((c) => c !== i)
    .map((c) => cardText(answer.cards[c].card));
  const elsewhere = new Set(answer.cards.filter((c) => c !== read).map((c) => c.card));
  const settle = (code) => { takeAs(read, code); drawReading(); };
  const other = h("select", { className: "other-card", "aria-label": "another card" },
    h("option", { value: "", text: "Another card…" }),
    ...CARDS.filter((code) => !elsewhere.has(code)).map((code) => h("option", { value: code, text: cardText(code) })));
  other.addEventListener("change", () => { if (other.value) settle(other.value); });
  const where = beside.length ? `, in a group with ${beside.join(" ")}` : "";
  return [
    h("p", { className: "question", text: `The reader is unsure of a card${where}: is it ${cardText(read.card)}?` }),
    h("div", { className: "unsure-card" }, choiceButtons(read.choices, settle), other),
  ];
}

/** Count each hand still to show and the crib, in the show's order, from the photo. */
async function countReading() {
  const { answer, roles, owners } = state.reading;
  const game = state.game;
  const cardsOf = (i) => answer.groups[i].cards.map((c) => answer.cards[c].card);
  const starter = cardsOf(roles.indexOf("starter"))[0];
  const hands = roles.map((role, i) => (role === "hand" ? i : -1)).filter((i) => i >= 0);
  if (new Set(owners).size !== owners.length) {
    show("board-error", "Two hands are marked as one player’s: choose whose each hand is.");
    return;
  }
  const claimed = (i) => {
    const input = $("photo-read").querySelector(`input.claimed[data-group="${i}"]`);
    return input && input.value !== "" ? Number(input.value) : null;
  };
  const order = game.show_order.slice(game.show_order.indexOf(game.next_to_show));
  for (const target of order) {
    const group = target === "crib" ? roles.indexOf("crib") : hands[owners.indexOf(target)];
    const move = { move: "show", hand: target, cards: cardsOf(group), starter, source: "photo" };
    if (claimed(group) !== null) move.claimed = claimed(group);
    if (!(await send(move)) || state.game.phase === "over") break;
  }
  if (state.game.phase !== "show") closeReading();
}

// --- wiring ---------------------------------------------------------------------------------

function wire() {
  $("peg-buttons").replaceChildren(...PEGS.map((peg, i) => h("button", {
    type: "button", className: "peg", text: peg.label, dataset: { peg: String(i) },
  })));
  $("peg-buttons").addEventListener("click", (event) => {
    const button = event.target.closest("button.peg");
    if (!button) return;
    const peg = PEGS[Number(button.dataset.peg)];
    const seat = peg.dealer ? state.game.dealer : state.seat;
    const reason = peg.reason || $("peg-for").value; // a number's reason, when one is chosen
    $("peg-for").value = "";
    send({ move: "peg", seat, points: peg.points, reason });
  });
  $("seats").addEventListener("click", (event) => {
    const button = event.target.closest("button.seat");
    if (!button) return;
    state.seat = Number(button.dataset.seat);
    drawSeats(state.game);
  });
  $("card-chips").addEventListener("click", async (event) => {
    const chip = event.target.closest("button.chip");
    if (!chip) return;
    if (await send({ move: "card", seat: state.seat, card: chip.dataset.card })) {
      state.seat = state.game.play.next_seat;
      drawSeats(state.game);
    }
  });
  $("go").addEventListener("click", async () => {
    if (await send({ move: "go" })) {
      state.seat = state.game.play.next_seat;
      drawSeats(state.game);
    }
  });
  $("typed-show").addEventListener("submit", async (event) => {
    event.preventDefault();
    const move = {
      move: "show", hand: state.game.next_to_show, cards: $("typed-cards").value,
      starter: $("typed-starter").value.trim() || null, source: "typed",
    };
    if ($("typed-claimed").value !== "") move.claimed = Number($("typed-claimed").value);
    if (await send(move)) {
      $("typed-cards").value = "";
      $("typed-claimed").value = "";
    }
  });
  $("table-photo").addEventListener("change", () => {
    const file = $("table-photo").files[0];
    if (file) readPhoto(file);
  });
  $("next-deal").addEventListener("click", () => send({ move: "deal" }));
  $("dealt-by").addEventListener("change", () => {
    // "after pone has taken up his cards, deal out of turn must stand" (the rule book)
    send({ move: "deal", dealer: Number($("dealt-by").value) });
  });
  $("misdeal").addEventListener("click", () => send({ move: "deal", misdeal: true }));
  $("undo").addEventListener("click", () => send({ move: "undo" }));
  $("log").addEventListener("click", (event) => {
    const button = event.target.closest("button.undo-one");
    if (button) send({ move: "undo", index: Number(button.dataset.index) });
  });
  $("turn").addEventListener("click", () => {
    const turned = $("board-box").classList.toggle("turned");
    $("turn").setAttribute("aria-pressed", String(turned));
  });
  $("copy-watch").addEventListener("click", async () => {
    const link = `${location.origin}/board/${$("game").dataset.code}`;
    try {
      await navigator.clipboard.writeText(link);
      $("copy-watch").textContent = "Copied";
    } catch {
      $("copy-watch").textContent = link; // no clipboard here (plain http): show it to copy
    }
  });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}

if ($("new-game")) setUp($("new-game"));
if ($("game")) {
  state.key = storedKey($("game").dataset.code);
  wire();
  refresh(true).finally(() => setTimeout(poll, POLL_MS));
}
