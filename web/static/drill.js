/* The drill loop (daily, practice, sprint): deal through the API, take the answer by keyboard
   or touch, show the verdict. The page's settings come from data- attributes on #drill. */
import { getJSON, postJSON } from "./api.js";
import { cardFace, cardText, cardValue, colour } from "./cards.js";
import { h } from "./dom.js";
import { showFeedback, showStep } from "./feedback.js";

const $ = (id) => document.getElementById(id);
const root = $("drill");
const page = {
  mode: root.dataset.mode,
  kind: root.dataset.kind,
  difficulty: root.dataset.difficulty,
  seconds: Number(root.dataset.seconds),
  penalty: Number(root.dataset.penalty),
  focus: root.dataset.focus,
};
const byKindBox = $("bykind");
const mugginsBox = $("muggins");
const cribModelChoice = $("crib-model");
const kindInputs = [...document.querySelectorAll("#by-kind input")];
const BY_KIND_KEY = "crib-by-kind";
const CRIB_MODEL_KEY = "crib-model";

const state = {
  drill: null,
  kind: page.kind,
  phase: "wait", // wait | ask | feedback | done
  selected: new Set(),
  byKind: false,
  typing: null,
  shownAt: 0,
  right: 0,
  asked: 0,
  left: page.seconds,
  timer: null,
  countAsked: false,
  step: 0, // a play drill: the card (or go) being pegged
  claims: [], // a play drill: what the player said of each step so far
  firstOfSprint: false,
  // a discard drill of given cards (a game's discard, from its review): the first deal's
  given: root.dataset.cards ? { cards: root.dataset.cards, dealer: root.dataset.dealer } : null,
};

/** The player's local date, YYYY-MM-DD. */
function localDate() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** Show each option only on the drills where it does something. */
function showOptionsFor(kind) {
  for (const label of document.querySelectorAll(".toggles [data-kinds]")) {
    label.hidden = !label.dataset.kinds.split(" ").includes(kind);
  }
}

async function deal() {
  state.phase = "wait";
  $("feedback").hidden = true;
  let drill;
  if (page.mode === "daily") {
    const day = await getJSON(`/api/daily?date=${localDate()}`);
    const todo = day.drills.filter((d) => !d.answered);
    $("step").textContent = `${Math.min(day.summary.done + 1, day.summary.of)} / ${day.summary.of}`;
    if (!todo.length) return showSummary(day.summary, day.drills);
    drill = todo[0];
  } else {
    const params = new URLSearchParams({
      kind: state.kind, difficulty: page.difficulty, mode: page.mode === "sprint" ? "sprint" : "practice",
    });
    if (page.focus) params.set("focus", page.focus);
    if (state.firstOfSprint) params.set("first", "1");
    if (state.given) for (const [name, value] of Object.entries(state.given)) params.set(name, value);
    state.firstOfSprint = false;
    state.given = null;
    drill = await getJSON(`/api/drills/next?${params}`);
  }
  show(drill);
}

function starterSlot(token) {
  return h("span", { className: "starter-slot" }, cardFace(token, "starter"),
    h("span", { className: "slot-label", text: "starter" }));
}

function lay(drill) {
  const cards = $("cards");
  cards.className = `cards ${drill.kind}`;
  if (drill.kind === "hand" || drill.kind === "crib") {
    cards.replaceChildren(...drill.hand.map((t) => cardFace(t)), starterSlot(drill.starter));
    return drill.kind === "crib"
      ? "Count the crib (your crib, with the starter)."
      : "Count the hand with the starter.";
  }
  if (drill.kind === "pegging") {
    cards.replaceChildren(...drill.played.map((t) => cardFace(t, "played")), cardFace(drill.card, "just"));
    const card = cardText(drill.card);
    if (drill.ask_count) {
      return `${card} is played on the cards since the count restarted. What is the count now, and what does ${card} peg?`;
    }
    if (drill.count === undefined) return `The count is ${drill.count_before}; ${card} is played. How many does it peg?`;
    const before = drill.count - cardValue(drill.card);
    return `The count is ${before}; ${card} is played, making ${drill.count}. How many does it peg?`;
  }
  if (drill.kind === "play") return layStep(drill);
  cards.replaceChildren(...drill.cards.map((t, i) => {
    const face = cardFace(t, "pick");
    face.dataset.key = String(i + 1);
    face.tabIndex = 0;
    face.setAttribute("role", "button");
    face.addEventListener("click", () => toggle(t));
    face.addEventListener("keydown", (event) => {
      if (event.key === " ") {
        event.preventDefault();
        toggle(t);
      }
    });
    return face;
  }));
  const whose = drill.dealer ? "your" : "the dealer’s";
  return `You are the ${drill.role}: tap or press 1–6 to pick two cards for ${whose} crib, then Enter.`;
}

/** The cards of a play drill in play since the count restarted, up to step `upTo`: the
 *  pile a go or 31 cleared is gone. */
function pileAt(drill, upTo) {
  let pile = [];
  let count = 0;
  for (const step of drill.steps.slice(0, upTo)) {
    if (step.card === "go") {
      pile = [];
      count = 0;
    } else if (count + cardValue(step.card) === 31) {
      pile = [];
      count = 0;
    } else {
      pile.push(step.card);
      count += cardValue(step.card);
    }
  }
  return pile;
}

const ROLE = ["pone", "dealer"];

/** Lay a play drill's step: the pile since the count restarted, the card played on it (or
 *  the go), both hands with the cards still to play. */
function layStep(drill) {
  const step = drill.steps[state.step];
  const pile = pileAt(drill, state.step);
  const faces = pile.map((t) => cardFace(t, "played"));
  if (step.card !== "go") faces.push(cardFace(step.card, "just"));
  $("cards").replaceChildren(...faces);
  const played = new Set(drill.steps.slice(0, state.step + 1).map((s) => s.card));
  $("hands").replaceChildren(...["pone", "dealer"].map((role) =>
    h("p", { className: "hand-row" }, h("span", { className: "who", text: role }),
      ...drill[role].map((t) => h("span", { className: `${colour(t)}${played.has(t) ? " gone" : ""}`, text: cardText(t) })))));
  $("hands").hidden = false;
  const where = `Card ${state.step + 1} of ${drill.steps.length}: `;
  if (step.card === "go") return `${where}neither player can play without passing 31: go. The count, and what the go pegs?`;
  const before = drill.steps[state.step - 1];
  const went = pile.length && before.player === step.player
    ? `the ${ROLE[1 - step.player]} cannot play without passing 31: go, so ` : "";
  const lead = went ? "plays on" : pile.length ? "plays" : "leads";
  return `${where}${went}the ${ROLE[step.player]} ${lead} ${cardText(step.card)}. The count, and what it pegs?`;
}

function show(drill) {
  state.drill = drill;
  state.kind = drill.kind;
  state.selected.clear();
  if (drill.kind === "play") {
    state.step = 0;
    state.claims = [];
  }
  $("hands").hidden = true;
  showOptionsFor(drill.kind);
  ask();
}

/** Ask for the answer to the drill (for a play drill, to its current step). */
function ask() {
  const drill = state.drill;
  $("feedback").hidden = true;
  const counting = drill.kind !== "discard";
  state.countAsked = drill.kind === "play" || !!drill.ask_count;
  state.byKind = counting && ["hand", "crib"].includes(drill.kind) && !!byKindBox && byKindBox.checked;
  $("answer").hidden = !counting;
  $("pad").hidden = !counting;
  $("throw").hidden = counting;
  $("throw").disabled = true;
  $("count-box").hidden = !state.countAsked;
  $("points-label").hidden = !state.countAsked;
  $("count").value = "";
  $("points").value = "";
  $("points").hidden = state.byKind;
  $("by-kind").hidden = !state.byKind;
  for (const input of kindInputs) input.value = "";
  let prompt = lay(drill);
  if (drill.mode === "review") prompt = `Again (you missed this one before): ${prompt}`;
  $("prompt").textContent = prompt;
  state.phase = "ask";
  state.shownAt = performance.now();
  state.typing = state.byKind ? kindInputs[0] : state.countAsked ? $("count") : $("points");
  if (counting) state.typing.focus();
}

function toggle(token) {
  if (state.phase !== "ask") return;
  if (state.selected.has(token)) state.selected.delete(token);
  else if (state.selected.size < 2) state.selected.add(token);
  for (const face of $("cards").querySelectorAll(".card")) {
    face.classList.toggle("selected", state.selected.has(face.dataset.card));
  }
  $("throw").disabled = state.selected.size !== 2;
}

/** The answer's body, or null when what was typed is not an answer yet. */
function answerBody() {
  if (state.kind === "discard") {
    if (state.selected.size !== 2) return null;
    return { discard: [...state.selected], crib_model: cribModelChoice ? cribModelChoice.value : "uniform" };
  }
  let body;
  if (state.countAsked) {
    const [count, points] = [$("count").value.trim(), $("points").value.trim()];
    if (!/^\d{1,2}$/.test(count) || !/^\d{1,2}$/.test(points)) return null;
    const claim = { count: Number(count), points: Number(points) };
    if (state.kind === "play") return { steps: [...state.claims, claim] };
    body = claim;
  } else if (state.byKind) {
    if (kindInputs.some((input) => !/^\d{0,2}$/.test(input.value.trim()))) return null;
    body = { by_kind: Object.fromEntries(kindInputs.map((input) => [input.dataset.kind, Number(input.value.trim()) || 0])) };
  } else {
    const text = $("points").value.trim();
    if (!/^\d{1,2}$/.test(text)) return null;
    body = { points: Number(text) };
  }
  body.muggins = !!mugginsBox && mugginsBox.checked && !mugginsBox.closest("label").hidden;
  return body;
}

async function submit() {
  if (state.phase !== "ask") return;
  if (state.countAsked && state.typing === $("count") && /^\d{1,2}$/.test($("count").value.trim())
      && !$("points").value.trim()) {
    $("points").focus(); // the count first, then the pegs
    return;
  }
  const body = answerBody();
  if (body === null) {
    const empty = [$("count"), $("points")].find((input) => state.countAsked && !input.value.trim());
    (empty || state.typing)?.focus();
    return;
  }
  body.seconds = (performance.now() - state.shownAt) / 1000;
  state.phase = "wait";
  try {
    feedback(await postJSON(`/api/drills/${state.drill.id}/answer`, body));
  } catch (error) {
    $("prompt").textContent = error.message;
    state.phase = "ask";
  }
}

function turnOnByKind() {
  byKindBox.checked = true;
  byKindBox.dispatchEvent(new Event("change"));
  $("ask-by-kind").replaceChildren("Counting by kind from the next hand on.");
}

function feedback(result) {
  if (state.kind === "play") return stepFeedback(result);
  state.asked += 1;
  let penalty = 0;
  if (result.correct) state.right += 1;
  else if (page.mode === "sprint") {
    penalty = page.penalty;
    state.left = Math.max(0, state.left - penalty);
    renderClock();
  }
  if (page.mode === "sprint") $("tally").textContent = `${state.right} right`;
  showFeedback(result, {
    kind: state.kind,
    chosen: [...state.selected],
    dealer: !!state.drill.dealer,
    penalty,
    askByKind: byKindBox && !byKindBox.checked && state.kind !== "pegging" ? turnOnByKind : null,
  });
  $("feedback").hidden = false;
  $("pad").hidden = true;
  $("throw").hidden = true;
  state.phase = "feedback";
  $("next").focus();
  $("feedback").scrollIntoView({ block: "nearest" });
}

/** The verdict on a play drill's step; the whole play once its last card is pegged. */
function stepFeedback(result) {
  const step = result.steps[result.steps.length - 1];
  state.claims.push(step.claimed);
  showStep(result, state.drill);
  $("next").replaceChildren(result.complete ? "Next play " : "Next card ", h("kbd", { text: "Enter" }));
  $("feedback").hidden = false;
  $("pad").hidden = true;
  state.phase = "feedback";
  $("next").focus();
  $("feedback").scrollIntoView({ block: "nearest" });
}

/** After feedback: the play's next step, or the next drill. */
function next() {
  if (state.phase !== "feedback") return;
  if (state.kind === "play" && state.step + 1 < state.drill.steps.length) {
    state.step += 1;
    ask();
    return;
  }
  $("next").replaceChildren("Next ", h("kbd", { text: "Enter" }), " / ", h("kbd", { text: "N" }));
  deal().catch(fail);
}

/** The end of a sprint: the player's best, and whether this one beat it. */
function sprintBest() {
  const best = Number(root.dataset.best || 0);
  const line = $("best");
  line.hidden = false;
  if (state.right > best) {
    line.className = "best new";
    line.textContent = best ? `New best! (your best was ${best} right)` : "New best! Your first sprint on the board.";
    root.dataset.best = String(state.right);
    root.dataset.bestDay = localDate();
  } else {
    line.className = "best";
    line.textContent = best ? `Your best: ${best} right (${root.dataset.bestDay}).` : "No hand counted right yet: your best is still to come.";
  }
}

function showSummary(summary, drills) {
  state.phase = "done";
  clearInterval(state.timer);
  for (const id of ["answer", "pad", "feedback", "throw", "table"]) $(id).hidden = true;
  $("marks").replaceChildren(...(drills || []).map((d) =>
    h("span", { className: d.correct ? "right" : "wrong", title: d.kind, text: d.correct ? "✔" : "✘" })));
  $("prompt").textContent = "";
  $("summary").hidden = false;
  if (page.mode === "daily") {
    $("summary-title").textContent = `Today: ${summary.score} / ${summary.of}`;
    $("share").textContent = summary.share;
  } else {
    $("summary-title").textContent = `Sprint over: ${state.right} right of ${state.asked}`;
    $("share").textContent = `Cribbage sprint ${localDate()}\n${state.right} hands counted right in ${page.seconds / 60} minutes`;
    sprintBest();
    $("again").focus();
  }
}

function renderClock() {
  const left = Math.max(0, state.left);
  $("clock").textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

function tick() {
  state.left -= 1;
  renderClock();
  if (state.left <= 0) showSummary(null);
}

function fail(error) {
  $("prompt").textContent = `Could not deal: ${error.message}`;
}

/** The sprint's clock starts when the player is ready. */
function startSprint() {
  if (state.phase !== "wait" || state.timer !== null) return;
  $("start").hidden = true;
  $("table").hidden = false;
  state.firstOfSprint = true;
  state.timer = setInterval(tick, 1000);
  deal().catch(fail);
}

/** Another sprint at once, from a full clock. */
function sprintAgain() {
  if (state.phase !== "done") return;
  Object.assign(state, { right: 0, asked: 0, left: page.seconds, timer: null, phase: "wait" });
  renderClock();
  $("tally").textContent = "0 right";
  $("summary").hidden = true;
  $("best").hidden = true;
  $("answer").hidden = false;
  startSprint();
}

function press(key) {
  if (state.phase !== "ask") return;
  const input = state.typing;
  if (key === "Enter" && state.countAsked && input === $("count") && !$("count").value) return;
  if (key === "Enter") submit();
  else if (key === "Backspace") input.value = input.value.slice(0, -1);
  else if (input.value.length < 2) input.value += key;
}

$("answer").addEventListener("submit", (event) => {
  event.preventDefault();
  submit();
});
$("throw").addEventListener("click", submit);
$("next").addEventListener("click", next);
$("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("share").textContent));
$("pad").addEventListener("click", (event) => {
  const key = event.target.closest("button")?.dataset.key;
  if (key) press(key);
});
for (const input of [...kindInputs, $("points"), $("count")]) {
  input.addEventListener("focus", () => { state.typing = input; });
}
document.addEventListener("keydown", (event) => {
  if (page.mode === "sprint" && state.phase === "done" && event.key === "Enter") {
    event.preventDefault();
    sprintAgain();
  } else if (page.mode === "sprint" && state.timer === null && event.key === "Enter") {
    event.preventDefault();
    startSprint();
  } else if (state.phase === "feedback" && ["Enter", "n", "N", " "].includes(event.key)) {
    event.preventDefault();
    next();
  } else if (state.phase === "ask" && state.kind === "discard") {
    const face = $("cards").querySelector(`.card[data-key="${event.key}"]`);
    if (face) toggle(face.dataset.card);
    else if (event.key === "Enter") {
      event.preventDefault();
      submit();
    }
  }
});

const level = $("difficulty");
if (level) level.addEventListener("change", () => level.form.submit());
if (cribModelChoice) {
  cribModelChoice.value = localStorage.getItem(CRIB_MODEL_KEY) === "weighted" ? "weighted" : "uniform";
  cribModelChoice.addEventListener("change", () => localStorage.setItem(CRIB_MODEL_KEY, cribModelChoice.value));
}
if (byKindBox) {
  byKindBox.checked = localStorage.getItem(BY_KIND_KEY) === "1";
  byKindBox.addEventListener("change", () => {
    localStorage.setItem(BY_KIND_KEY, byKindBox.checked ? "1" : "0");
    if (state.phase === "ask") show(state.drill);
  });
}

if (page.mode === "sprint") {
  const start = $("start");
  start.addEventListener("click", startSprint);
  $("again").addEventListener("click", sprintAgain);
  start.focus();
} else {
  deal().catch(fail);
}
