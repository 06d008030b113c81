/* The verdict on one answer: right or wrong, what was missed, every item and its rule, the
   discard table. Everything is built as nodes from the API's answer. */
import { cardText, miniCards } from "./cards.js";
import { h } from "./dom.js";
import { liftOnPoint } from "./highlight.js";

const $ = (id) => document.getElementById(id);

/** Expected points as shown: two decimals, or two significant digits under 0.01; a
 *  typographic minus, as in the crib column. */
export function expected(points) {
  const size = Math.abs(points);
  const text = size > 0 && size < 0.01 ? size.toPrecision(2) : size.toFixed(2);
  return points < 0 && Number(text) !== 0 ? `−${text}` : text;
}

function sameItem(a, b) {
  return a.kind === b.kind && a.cards.join() === b.cards.join();
}

/** Whether the missed items are the likeliest story rather than certain (a total alone was
 *  typed and some of the items could have been counted). */
export function missedIsGuess(result) {
  if (typeof result.missed_is_guess === "boolean") return result.missed_is_guess;
  return !result.by_kind && result.missed.length > 0 && result.missed.length < result.items.length;
}

function verdictText(result, { kind, penalty }) {
  if (kind === "discard") {
    return result.correct
      ? `✔ Best throw (${expected(result.claimed)} expected points)`
      : `✘ Costs ${expected(shownDifference(result.total, result.claimed))} expected points against the best throw`;
  }
  if (result.count) return countVerdict(result.count.claimed, result.count.right, result.claimed, result.total);
  if (result.correct) return `✔ Right: ${result.total}${kindsOff(result) ? ", but not kind by kind" : ""}`;
  const diff = result.over ? `you over-counted by ${result.over}` : `you missed ${result.under}`;
  return `✘ It is ${result.total}, not ${result.claimed}: ${diff}${penalty ? ` (−${penalty} s)` : ""}`;
}

/** The verdict on a count and the pegs said together (pegging that asks the count, a play's
 *  card): each wrong number named with the right one. */
function countVerdict(count, rightCount, points, rightPoints) {
  if (count === rightCount && points === rightPoints) return `✔ Right: the count is ${rightCount}, and it pegs ${rightPoints}`;
  const wrong = [];
  if (count !== rightCount) wrong.push(`the count is ${rightCount}, not ${count}`);
  wrong.push(points === rightPoints ? `it pegs ${rightPoints}, as you said` : `it pegs ${rightPoints}, not ${points}`);
  const text = wrong.join("; ");
  return `✘ ${text[0].toUpperCase()}${text.slice(1)}`;
}

/** Whether a count by kind has a kind wrong (its total may still be right). */
function kindsOff(result) {
  return (result.by_kind || []).some((row) => row.claimed !== row.right);
}

/** Discard figures as the table shows them: what the words say is the difference of the two
 *  numbers shown (14.00 − 13.55 = 0.45; throws the table shows alike tie, and are right). */
function shownDifference(best, chosen) {
  return (Math.round(best * 100) - Math.round(chosen * 100)) / 100;
}

/** The count said aloud, then the trainer's words: why the best throw is best, the likely
 *  mistake, his heels, and muggins. */
function sayLine(result) {
  const words = [result.reason, result.note, result.heels].filter(Boolean);
  const spans = words.map((text) => h("span", { className: "note", text }));
  if (result.muggins && result.muggins.opponent) {
    const text = `Muggins! Your opponent pegs the ${result.muggins.opponent} you missed; you peg ${result.muggins.you}.`;
    spans.push(h("span", { className: "muggins", text }));
  }
  return [result.say ? `“${result.say}”` : "", ...spans];
}

/** The heading over the missed items, saying no more than the verdict line does. */
function missedHeading(result) {
  if (result.by_kind) return "You missed";
  if (result.claimed === 0) return "You missed all of it (marked below)";
  const points = result.missed.reduce((sum, item) => sum + item.points, 0);
  if (points !== result.under) return `Nothing here is worth exactly ${result.under}: you probably miscounted`;
  return missedIsGuess(result) ? "You probably missed" : "You missed";
}

/**
 * What was missed: certain when counted by kind, "probably" when only a total was typed.
 *
 * @param {object} result the API's answer
 * @param {(() => void) | null} askByKind turns counting by kind on, where it can be
 */
function missedBlock(result, askByKind) {
  const some = result.missed_kinds || [];
  if (!result.missed.length && !some.length) return [];
  if (!result.by_kind && result.claimed === 0) return [h("h3", { text: missedHeading(result) })];
  const guess = missedIsGuess(result);
  const block = [
    h("h3", { text: missedHeading(result) }),
    ...result.missed.map((item) =>
      h("div", { className: "miss" }, `${item.kind} `, miniCards(item.cards), ` for ${item.points}`)),
    ...some.map((row) => h("div", { className: "miss", text: row.text })),
  ];
  if (guess && askByKind) {
    const button = h("button", { type: "button", className: "link", text: "Count by kind" });
    button.addEventListener("click", askByKind);
    block.push(h("p", { className: "hint", id: "ask-by-kind" },
      "A total alone cannot tell which items you missed. ", button,
      " from the next hand on, and the feedback will say exactly."));
  }
  return block;
}

function kindTable(rows) {
  return h("table", { className: "kind-table" },
    h("thead", {}, h("tr", {}, h("th", { text: "Kind" }), h("th", { text: "You" }), h("th", { text: "Right" }))),
    h("tbody", {}, ...rows.map((row) =>
      h("tr", { className: row.claimed === row.right ? "" : "off" },
        h("td", { text: row.kind }), h("td", { text: row.claimed }), h("td", { text: row.right })))));
}

/** One line per kind scored, with its rule. */
export function rulesList(items, ruleText) {
  const kinds = [...new Set(items.map((item) => item.kind))].filter((kind) => ruleText[kind]);
  if (!kinds.length) return [];
  return [h("dl", { className: "rules" }, ...kinds.map((kind) =>
    h("div", {}, h("dt", { text: kind }), h("dd", { text: ruleText[kind] }))))];
}

/**
 * The discard table: the best six throws (and the player's own), with a legend. The crib by
 * both models side by side, the one the answer was graded by marked; as pone the crib is shown
 * subtracted. Net is by the graded model.
 */
export function discardTable(result, { chosen, dealer }) {
  const key = (cards) => [...cards].sort().join();
  const mine = key(chosen);
  const shown = result.options.slice(0, 6);
  const own = result.options.find((option) => key(option.discard) === mine);
  if (own && !shown.includes(own)) shown.push(own);
  const sign = dealer ? "+" : "−";
  const graded = result.crib_model === "weighted" ? "weighted" : "uniform";
  const models = shown.every((option) => option.crib_ev_weighted !== null && option.crib_ev_weighted !== undefined)
    ? ["uniform", "weighted"] : ["uniform"];
  const cribCell = (option, model) =>
    h("td", { className: model === graded ? "graded" : "", text: `${sign}${expected(option[`crib_ev_${model}`])}` });
  const rows = shown.map((option) =>
    h("tr", { className: key(option.discard) === mine ? "chosen" : "" },
      h("td", {}, miniCards(option.discard)),
      h("td", { text: expected(option.hand_ev) }),
      ...models.map((model) => cribCell(option, model)),
      h("td", { text: expected(option.net_ev) })));
  const whose = dealer ? "your crib: added" : "the dealer’s crib: subtracted";
  const span = models.length > 1 ? 2 : 1;
  const head = [h("tr", {},
    h("th", { rowSpan: span, text: "Throw" }), h("th", { rowSpan: span, text: "Hand" }),
    h("th", { colSpan: models.length, text: `Crib (${sign})` }),
    h("th", { rowSpan: span, text: "Net" }))];
  if (models.length > 1) {
    head.push(h("tr", {}, ...models.map((model) =>
      h("th", { className: model === graded ? "graded" : "", text: model }))));
  }
  return [
    h("div", { className: "ev-scroll" },
      h("table", { className: "ev-table" }, h("thead", {}, ...head), h("tbody", {}, ...rows))),
    h("dl", { className: "legend" },
      h("div", {}, h("dt", { text: "Hand" }),
        h("dd", { text: "what the four cards you keep score with the starter, on average over every starter" })),
      h("div", {}, h("dt", { text: "Crib" }),
        h("dd", { text: `what the two cards you throw bring to ${whose}, on average over every starter and the two cards the other player throws: uniform, any two cards alike; weighted, as players throw (the dealer good cards to his own crib, the pone poor ones). Graded by the ${graded} crib (bold)` })),
      h("div", {}, h("dt", { text: "Net" }),
        h("dd", { text: `${dealer ? "hand + crib" : "hand − crib"} by the ${graded} crib: what the throw is worth to you` }))),
  ];
}

function itemRow(item, missed) {
  const li = h("li", {
    className: `item${missed ? " was-missed" : ""}`,
    tabIndex: 0,
    dataset: { cards: item.cards.join(" ") },
  }, h("span", { className: "what", text: item.kind }), miniCards(item.cards),
  h("span", { className: "pts", text: item.points }));
  liftOnPoint(li, $("cards"));
  return li;
}

/** The whole play once pegged: each card and go, who pegged what, the player's words beside. */
function playTable(steps, drill) {
  const role = ["pone", "dealer"];
  const rows = steps.map((step) => h("tr", { className: step.correct ? "" : "off" },
    h("td", { text: step.card === "go" ? "" : role[step.player] }),
    h("td", {}, step.card === "go" ? `go: 1 to the ${role[step.player]}` : miniCards([step.card])),
    h("td", { text: step.count }),
    h("td", { text: step.points }),
    h("td", { text: step.correct ? "✔" : `✘ ${step.claimed.count} / ${step.claimed.points}` })));
  const totals = [0, 1].map((who) => steps.filter((s) => s.player === who).reduce((sum, s) => sum + s.points, 0));
  return [
    h("table", { className: "pegs" },
      h("thead", {}, h("tr", {}, ...["Who", "Card", "Count", "Pegs", "You said"].map((text) => h("th", { text })))),
      h("tbody", {}, ...rows)),
    h("p", { className: "total", text: `Pegged: pone ${totals[0]}, dealer ${totals[1]} (${drill.pone.length + drill.dealer.length} cards)` }),
  ];
}

/**
 * Show the verdict on one step of a play drill (a card or a go) with what it pegged and the
 * play's rule of each kind; once the last card is pegged, the whole play.
 *
 * @param {object} result the API's answer to the steps so far
 * @param {object} drill the play drill
 */
export function showStep(result, drill) {
  const step = result.steps[result.steps.length - 1];
  const verdict = $("verdict");
  verdict.className = `verdict ${step.correct ? "right" : "wrong"}`;
  const what = step.card === "go" ? "The go" : cardText(step.card);
  verdict.textContent = `${what}: ${countVerdict(step.claimed.count, step.count, step.claimed.points, step.points)}`;
  const right = result.steps.filter((s) => s.correct).length;
  const words = result.complete
    ? [h("span", { className: "note", text: `The play is over: ${right} of ${result.steps.length} right.` })]
    : [];
  if (step.card === "go") words.push(h("span", { className: "note", text: "The count starts again from nothing." }));
  $("say").replaceChildren(...words);
  for (const id of ["missed", "kind-table", "options"]) $(id).replaceChildren();
  const items = step.items.map((item) => itemRow(item, step.claimed.points < step.points));
  if (!items.length) items.push(h("li", { text: "Nothing to peg." }));
  $("items").replaceChildren(...items);
  $("rules").replaceChildren(...rulesList(step.items, result.rule_text || {}));
  $("play-table").replaceChildren(...(result.complete ? playTable(result.steps, drill) : []));
}

/**
 * Show the verdict on an answer in the feedback section, and mark the cards on the table.
 *
 * @param {object} result the API's answer
 * @param {{kind: string, chosen: string[], dealer: boolean, penalty: number,
 *          askByKind: (() => void) | null}} drill what the page knows of the drill
 */
export function showFeedback(result, drill) {
  const table = $("cards");
  const faces = () => table.querySelectorAll(".card");
  const verdict = $("verdict");
  verdict.className = `verdict ${result.correct ? "right" : "wrong"}`;
  verdict.textContent = verdictText(result, drill);
  $("say").replaceChildren(...sayLine(result));
  $("missed").replaceChildren(...missedBlock(result, drill.askByKind));
  const missedCards = new Set(result.missed.flatMap((item) => item.cards));
  for (const face of faces()) face.classList.toggle("missed", missedCards.has(face.dataset.card));
  $("kind-table").replaceChildren(...(result.by_kind ? [kindTable(result.by_kind)] : []));
  $("play-table").replaceChildren();

  const items = result.items.map((item) => itemRow(item, result.missed.some((m) => sameItem(m, item))));
  if (!items.length && drill.kind !== "discard") items.push(h("li", { text: "Nothing to count." }));
  $("items").replaceChildren(...items);
  $("rules").replaceChildren(...rulesList(result.items, result.rule_text || {}));

  $("options").replaceChildren(...(result.options ? discardTable(result, drill) : []));
  if (result.options) {
    const best = new Set(result.options[0].discard);
    for (const face of faces()) face.classList.toggle("best", best.has(face.dataset.card));
  }
}
