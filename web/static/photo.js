/* The photo page: send the photo, draw the answer (each group read on it with its score), and
   let the player fix the table (retype, move, delete or add a card; mark the crib and the
   starter), re-scoring at once with /api/table. Every message is in players' words. */
import { ApiError, WAIT_SECONDS, postForm, postJSON } from "./api.js";
import { cardText, cardToken, miniCards } from "./cards.js";
import { h } from "./dom.js";
import { mountPicker, typedTokens } from "./picker.js";
import { choiceButtons, takeAs } from "./reading.js";

const $ = (id) => document.getElementById(id);
const ROLES = ["hand", "crib", "starter"];
const ASIDE = "aside";
/** A screen wide enough to show each group's items open (a phone shows them on a tap). */
const WIDE = window.matchMedia("(min-width: 700px)");

/** What the page knows: the photo's size, the rule set, and the groups as the player fixes them. */
const table = { size: [1, 1], rules: "six-card", groups: [], question: null };
/** Each group's `{score, crib}` (its score, and as the crib while it may be the crib), or null. */
let lastScores = [];

/** A message for a failed request, never the API's own words for a malformed call. */
function problem(error) {
  if (!(error instanceof ApiError)) throw error;
  if (error.status === 413) return "That photo is too large to send: take one under 10 MB.";
  // the photo or the table (players' words), the reader missing, or no answer at all
  if ([0, 400, 503].includes(error.status)) return error.message;
  return "Something went wrong on our side; please try again.";
}

/** Seconds a photo may take to read: the form's `data-wait-seconds` (a big table photo on a
    busy server takes several), else the API's usual wait. */
function readSeconds() {
  return Number($("photo-form").dataset.waitSeconds) || WAIT_SECONDS;
}

function fail(message) {
  $("photo-error").textContent = message;
  $("photo-error").hidden = !message;
}

/** A name for each group as players point at it: "hand 1", "the crib", "the starter". */
function groupNames() {
  const hands = table.groups.filter((g) => g.role === "hand").length;
  let seen = 0;
  return table.groups.map((g) => {
    if (g.role === "hand") return hands > 1 ? `hand ${++seen}` : "the hand";
    if (g.role === ASIDE) return "set aside";
    return g.role ? `the ${g.role}` : `group ${table.groups.indexOf(g) + 1}`;
  });
}

/** The rule set's sizes and players, from the form's options. */
function sizes() {
  const option = [...$("rules").options].find((o) => o.value === table.rules) || $("rules").options[1];
  const { handSize, cribSize, players } = option.dataset;
  return { hand: Number(handSize), crib: Number(cribSize), players: Number(players) };
}

/** Name the groups whose role the others settle: once the crib is named the rest can only be
    hands; with every hand named the one left is the crib; a lone group is the hand (or the
    crib, when the box is ticked). */
function settleRoles() {
  const open = table.groups.filter((g) => g.role === null);
  const hands = table.groups.filter((g) => g.role === "hand").length;
  const cribs = table.groups.filter((g) => g.role === "crib").length;
  const { hand, crib, players } = sizes();
  if (!open.length) return;
  if (cribs && hands + open.length <= players && open.every((g) => g.cards.length === hand)) {
    for (const g of open) g.role = "hand";
  } else if (!cribs && hands === players && open.length === 1 && open[0].cards.length === crib) {
    open[0].role = "crib";
  } else if (!cribs && !hands && open.length === 1 && open[0].cards.length === hand) {
    open[0].role = $("crib").checked ? "crib" : "hand";
  }
}

/** What the player still has to settle, in his words, or "" when the table can be scored. */
function pending() {
  const starters = table.groups.filter((g) => g.role === "starter").flatMap((g) => g.cards);
  if (starters.length === 0) return "Which card is the starter? Move it to “the starter”, or add it below if it is not in the photo.";
  if (starters.length > 1) return `The starter is one card, but ${starters.length} are marked: move the others back.`;
  const open = table.groups.filter((g) => g.role === null && g.cards.length);
  if (open.length && table.question && table.question.kind === "crib") return "Which group is the crib? Choose it in its group’s box.";
  if (open.length) return "What is each group: a hand or the crib? Choose it in its box.";
  return "";
}

/** The group the reader's question names as a card short (its index), or -1. */
function shortGroup() {
  const q = table.question;
  return q && q.kind === "groups" && q.choices.length ? q.choices[0] : -1;
}

function drawBoxes() {
  const [w, hgt] = table.size;
  const place = (el, [x1, y1, x2, y2]) =>
    Object.assign(el.style, {
      left: `${(100 * x1) / w}%`, top: `${(100 * y1) / hgt}%`,
      width: `${(100 * (x2 - x1)) / w}%`, height: `${(100 * (y2 - y1)) / hgt}%`,
    });
  const names = groupNames();
  const boxes = [];
  table.groups.forEach((g, i) => {
    const drawn = g.cards.filter((c) => c.box);
    if (!drawn.length) return;
    const around = [0, 1, 2, 3].map((k) => (k < 2 ? Math.min : Math.max)(...drawn.map((c) => c.box[k])));
    const pad = 0.25 * Math.max(around[2] - around[0], around[3] - around[1]) / drawn.length + 8;
    const scored = lastScores[i];
    const label = `${names[i]}${scored ? ` · ${scored.score.total}` : ""}${i === shortGroup() ? " · a card short" : ""}`;
    const box = h("span", { className: `group-box ${g.role || "open"}` }, h("span", { text: label }));
    place(box, [around[0] - pad, around[1] - pad, around[2] + pad, around[3] + pad]);
    boxes.push(box);
    for (const c of drawn) {
      const card = h("span", { className: `box${c.uncertain ? " unsure" : ""}${g.role === "starter" ? " start" : ""}`, title: `${cardText(c.card)} ${sureText(c)}` }, h("span", { text: cardText(c.card) }));
      place(card, c.box);
      boxes.push(card);
    }
  });
  $("boxes").replaceChildren(...boxes);
}

/** Move card `card` of group `from` to target ("new", "starter", "aside" or a group index). */
function move(from, card, target) {
  table.groups[from].cards = table.groups[from].cards.filter((c) => c !== card);
  if (target === "starter") {
    let starter = table.groups.find((g) => g.role === "starter");
    if (!starter) table.groups.push((starter = { role: "starter", cards: [] }));
    for (const old of starter.cards) table.groups[from].cards.push(old); // a swap
    starter.cards = [card];
  } else if (target === "new" || target === ASIDE) {
    table.groups.push({ role: target === ASIDE ? ASIDE : null, cards: [card] });
  } else {
    table.groups[Number(target)].cards.push(card);
  }
  changed();
}

/** Take `code` as what `card` is, and score the table again. */
function settle(card, code) {
  takeAs(card, code);
  changed();
}

/** The card typed in `input`, or null after saying why what was typed is not a card. */
function typedCard(input) {
  const [typed] = typedTokens(input);
  const token = typed && cardToken(typed);
  input.classList.toggle("invalid", !!typed && !token);
  if (typed && !token) {
    $("question").textContent = `“${typed}” is not a card: type a rank and a suit, like 5H, 10D or QS.`;
  }
  return token;
}

/** Whether `code` is already on the table (not counting `card` itself), said where, and how
 *  to make it the starter when that is what the player meant. */
function alreadyThere(code, card = null) {
  const at = table.groups.findIndex((g) => g.cards.some((c) => c !== card && c.card === code));
  if (at < 0) return false;
  const starter = $("add-to").value === "starter" && !card
    ? ": to make it the starter, pick “the starter” in its “Move to…” box" : ": each card is in the photo once";
  $("question").textContent = `${cardText(code)} is already in the photo, in ${groupNames()[at]}${starter}.`;
  return true;
}

/** How sure the page is of a card: the reader's confidence, or the player's own word. */
function sureText(card) {
  return card.typed || !card.box ? "typed by you" : `${Math.round(100 * card.confidence)}% sure`;
}

function chip(group, index, card) {
  const names = groupNames();
  const input = h("input", { value: card.card, size: 3, "aria-label": `card ${cardText(card.card)} in ${names[index]}`, className: card.uncertain ? "unsure" : "" });
  input.addEventListener("change", () => {
    const token = typedCard(input);
    if (token && !alreadyThere(token, card)) settle(card, token);
  });
  const choices = card.uncertain && card.choices.length > 1 ? choiceButtons(card.choices, (code) => settle(card, code)) : null;
  const targets = [
    h("option", { value: "", text: "Move to…" }),
    ...table.groups.map((g, i) => (i === index || g.role === "starter" ? null : h("option", { value: String(i), text: names[i] }))),
    group.role === "starter" ? null : h("option", { value: "starter", text: "the starter" }),
    h("option", { value: "new", text: "a new group" }),
    group.role === ASIDE ? null : h("option", { value: ASIDE, text: "set aside (not counted)" }),
  ].filter(Boolean);
  const mover = h("select", { className: "move", "aria-label": `move ${cardText(card.card)}` }, ...targets);
  mover.addEventListener("change", () => mover.value && move(index, card, mover.value));
  const remove = h("button", { type: "button", className: "delete", text: "✕", title: "Delete this card", "aria-label": `delete ${cardText(card.card)}` });
  remove.addEventListener("click", () => {
    group.cards = group.cards.filter((c) => c !== card);
    changed();
  });
  const sure = sureText(card);
  return h("span", { className: `chip-edit${card.uncertain ? " unsure" : ""}` }, input, remove, mover, h("small", { text: card.uncertain ? `${sure}: check it` : sure }), choices);
}

function shareLink(group, starter) {
  const query = new URLSearchParams({ cards: group.cards.map((c) => c.card).join(" "), starter, rules: table.rules });
  if (group.role === "crib") query.set("crib", "1");
  return h("a", { className: "share", href: `/score?${query}`, text: "Share this count" });
}

function drawGroups() {
  const names = groupNames();
  const starter = table.groups.find((g) => g.role === "starter");
  const sections = table.groups.map((g, i) => {
    const role = h(
      "select", { className: "role", "aria-label": `what ${names[i]} is` },
      h("option", { value: "", text: "hand or crib?" }),
      h("option", { value: "hand", text: "a hand" }),
      h("option", { value: "crib", text: "the crib" }),
      h("option", { value: "starter", text: "the starter" }),
      h("option", { value: ASIDE, text: "set aside" }),
    );
    role.value = g.role || "";
    role.addEventListener("change", () => {
      g.role = role.value || null;
      if (g.role === "crib") for (const other of table.groups) if (other !== g && other.role === "crib") other.role = null;
      changed();
    });
    const scored = lastScores[i];
    const score = scored && scored.score;
    const items = score && score.items.length
      ? h("details", { className: "breakdown", open: WIDE.matches },
        h("summary", { text: `Item by item (${score.items.length})` }),
        h("ul", { className: "items" }, ...score.items.map((item) => h("li", { className: "item" }, h("span", { className: "what", text: item.kind }), miniCards(item.cards), h("span", { className: "pts", text: String(item.points) })))))
      : null;
    return h(
      "section", { className: `group ${g.role || "open"}`, dataset: { role: g.role || "" } },
      h("h2", {}, h("span", { text: names[i] }), " ", h("label", {}, "is ", role),
        score ? h("strong", { className: "group-total", text: ` ${score.total}` }) : null,
        scored && scored.crib ? h("small", { className: "crib-total", text: `${scored.crib.total} if the crib` }) : null),
      i === shortGroup() ? h("p", { className: "short", text: "A card seems to be missing here: add it." }) : null,
      h("div", { className: "chips" }, ...g.cards.map((c) => chip(g, i, c))),
      score ? h("p", { className: "say", text: `“${score.say}”` }) : null,
      items,
      score && starter && g.role ? shareLink(g, starter.cards[0].card) : null,
    );
  });
  $("groups").replaceChildren(...sections);
  const destinations = [
    h("option", { value: "starter", text: "the starter" }),
    ...table.groups.map((g, i) => (g.role === "starter" ? null : h("option", { value: String(i), text: names[i] }))).filter(Boolean),
    h("option", { value: "new", text: "a new group" }),
  ];
  $("add-to").replaceChildren(...destinations);
  const short = table.groups.findIndex((g) => (g.role === "hand" || g.role === null) && g.cards.length < sizes().hand);
  $("add-to").value = !starter ? "starter" : short >= 0 ? String(short) : "new";
}

/** Who scored what: a row for each group scored (and its score as the crib, while asked). */
function showTotals() {
  const names = groupNames();
  const rows = lastScores.map((s, i) => s && h(
    "tr", {},
    h("th", { scope: "row", text: names[i] }),
    h("td", { text: String(s.score.total) }),
    h("td", { className: "if-crib", text: s.crib ? `${s.crib.total} if the crib` : "" }),
  )).filter(Boolean);
  $("table-total").replaceChildren(h("caption", { text: "Who scored what" }), h("tbody", {}, ...rows));
  $("table-total").hidden = !rows.length;
}

function draw() {
  drawGroups();
  drawBoxes();
  showTotals();
}

/** The groups the engine counts: hands, the crib, the starter, and those not yet named. */
function counted() {
  return table.groups.filter((g) => g.role === null || ROLES.includes(g.role));
}

/** Re-score the table as the player has it now (saying what is left to settle). */
async function rescore() {
  table.groups = table.groups.filter((g) => g.cards.length);
  settleRoles();
  lastScores = [];
  const todo = pending();
  $("question").textContent = todo;
  const starters = table.groups.filter((g) => g.role === "starter").flatMap((g) => g.cards);
  if (starters.length === 1) {
    const groups = counted();
    const body = { rules: table.rules, groups: groups.map((g) => ({ role: g.role, cards: g.cards.map((c) => c.card) })) };
    try {
      const scored = (await postJSON("/api/table", body)).groups;
      lastScores = table.groups.map((g) => {
        const found = scored[groups.indexOf(g)];
        return found && found.score ? { score: found.score, crib: found.crib_score } : null;
      });
    } catch (error) {
      $("question").textContent = problem(error);
    }
  }
  draw();
}

function changed() {
  table.question = null;
  rescore();
}

/** Send the photo and wait for the reading, saying so; on a failure, say why (null). */
async function readPhoto() {
  const button = $("photo-form").querySelector("button[type=submit]");
  button.disabled = true;
  $("photo-status").hidden = false;
  try {
    return await postForm("/api/read", new FormData($("photo-form")), readSeconds());
  } catch (error) {
    fail(problem(error));
    return null;
  } finally {
    button.disabled = false;
    $("photo-status").hidden = true;
  }
}

$("photo-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  fail("");
  const file = $("image").files[0];
  if (!file) return;
  const before = $("shot").src; // the photo the cards shown were read on, if any
  $("shot").src = URL.createObjectURL(file);
  $("photo").hidden = false;
  const data = await readPhoto();
  if (data) {
    show(data);
  } else if ($("read").hidden) {
    $("photo").hidden = true; // nothing read: no photo without its cards
  } else {
    $("shot").src = before;
    fail(`${$("photo-error").textContent} The cards below are still those of your previous photo.`);
  }
});

/** Draw the reader's answer as it came: the groups, their scores, the question still open. */
export function show(answer) {
  const cards = answer.cards.map((c) => ({ ...c }));
  table.size = answer.image_size;
  table.rules = answer.rules;
  table.question = answer.question;
  table.groups = answer.groups.map((g) => ({ role: g.role, cards: g.cards.map((i) => cards[i]) }));
  lastScores = answer.groups.map((g) => (g.score ? { score: g.score, crib: g.crib_score } : null));
  if (answer.left_out.length) table.groups.push({ role: ASIDE, cards: answer.left_out.map((i) => cards[i]) });
  $("read").hidden = false;
  const question = answer.question;
  $("question").textContent = question && question.kind !== "starter" ? question.text : pending();
  draw();
}

$("add-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const token = typedCard($("add-card"));
  if (!token || alreadyThere(token)) return;
  const card = { card: token, confidence: 1, uncertain: false, box: null, choices: [token], typed: true };
  const target = $("add-to").value;
  if (target === "starter") {
    const starter = table.groups.find((g) => g.role === "starter");
    if (starter) starter.cards = [card];
    else table.groups.push({ role: "starter", cards: [card] });
  } else if (target === "new") {
    table.groups.push({ role: null, cards: [card] });
  } else {
    table.groups[Number(target)].cards.push(card);
  }
  $("add-card").value = "";
  changed();
});

$("crib").addEventListener("change", () => {
  if (!$("read").hidden) changed();
});

mountPicker($("picker"), { hand: $("picked-none"), starter: $("add-card"), handSize: () => 0 });
