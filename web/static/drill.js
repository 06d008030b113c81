/* The drill loop: deal through the API, take the answer by keyboard or touch, show feedback. */
import { cardFace, cardText, cardValue, miniCards } from "./cards.js";
import { getJSON, postJSON } from "./api.js";

{
  const root = document.getElementById("drill");
  const $ = (id) => document.getElementById(id);
  const mode = root.dataset.mode;
  let kind = root.dataset.kind;
  const byKindBox = $("bykind");
  if (byKindBox) {
    byKindBox.checked = localStorage.getItem("crib-by-kind") === "1";
    byKindBox.addEventListener("change", () => { localStorage.setItem("crib-by-kind", byKindBox.checked ? "1" : "0"); if (state.drill && state.phase === "ask") show(state.drill); });
  }
  const kindInputs = [...document.querySelectorAll("#by-kind input")];
  const state = { drill: null, phase: "wait", selected: new Set(), right: 0, asked: 0, timer: null, left: +root.dataset.seconds };

  function localDate() {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  }

  const api = (url, body) => (body === undefined ? getJSON(url) : postJSON(url, body));

  async function deal() {
    state.phase = "wait";
    $("feedback").hidden = true;
    let drill;
    if (mode === "daily") {
      const day = await api(`/api/daily?date=${localDate()}`);
      const todo = day.drills.filter((d) => !d.answered);
      $("step").textContent = `${Math.min(day.summary.done + 1, day.summary.of)} / ${day.summary.of}`;
      if (!todo.length) return showSummary(day.summary, day.drills);
      drill = todo[0];
    } else {
      const params = new URLSearchParams({ kind, difficulty: root.dataset.difficulty, mode: mode === "sprint" ? "sprint" : "practice" });
      drill = await api(`/api/drills/next?${params}`);
    }
    show(drill);
  }

  function show(drill) {
    state.drill = drill;
    kind = drill.kind;
    state.selected.clear();
    const cards = $("cards");
    cards.replaceChildren();
    cards.className = `cards ${kind}`;
    const counting = kind !== "discard";
    $("answer").hidden = !counting;
    $("pad").hidden = !counting;
    $("throw").hidden = counting;
    $("throw").disabled = true;
    $("points").value = "";
    const byKind = !!(byKindBox && byKindBox.checked) && (kind === "hand" || kind === "crib");
    state.byKind = byKind;
    $("points").hidden = byKind;
    $("by-kind").hidden = !byKind;
    kindInputs.forEach((input) => { input.value = ""; });
    if (kind === "hand" || kind === "crib") {
      drill.hand.forEach((t) => cards.append(cardFace(t)));
      const gap = document.createElement("span");
      gap.className = "starter-gap";
      cards.append(gap, cardFace(drill.starter, "starter"));
      $("prompt").textContent = kind === "crib" ? "Count the crib (your crib, with the starter)." : "Count the hand with the starter.";
    } else if (kind === "pegging") {
      drill.played.forEach((t) => cards.append(cardFace(t, "played")));
      cards.append(cardFace(drill.card, "just"));
      const before = drill.count - cardValue(drill.card);
      $("prompt").textContent = `The count is ${before}; ${cardText(drill.card)} is played, making ${drill.count}. How many does it peg?`;
    } else {
      drill.cards.forEach((t, i) => {
        const face = cardFace(t, "pick");
        face.dataset.key = String(i + 1);
        face.tabIndex = 0;
        face.addEventListener("click", () => toggle(t));
        cards.append(face);
      });
      $("prompt").textContent = `You are the ${drill.role}: tap or press 1–6 to pick two cards for ${drill.dealer ? "your" : "their"} crib, then Enter.`;
    }
    if (drill.mode === "review") $("prompt").textContent = `Again (you missed this one before): ${$("prompt").textContent}`;
    state.phase = "ask";
    state.shownAt = performance.now();
    state.typing = state.byKind ? kindInputs[0] : $("points");
    if (counting) state.typing.focus();
  }

  function toggle(token) {
    if (state.phase !== "ask") return;
    if (state.selected.has(token)) state.selected.delete(token);
    else if (state.selected.size < 2) state.selected.add(token);
    document.querySelectorAll("#cards .card").forEach((c) => c.classList.toggle("selected", state.selected.has(c.dataset.card)));
    $("throw").disabled = state.selected.size !== 2;
  }

  async function submit() {
    if (state.phase !== "ask") return;
    let body;
    if (kind === "discard") {
      if (state.selected.size !== 2) return;
      body = { discard: [...state.selected] };
    } else if (state.byKind) {
      if (kindInputs.some((input) => !/^\d{0,2}$/.test(input.value.trim()))) return;
      body = { by_kind: Object.fromEntries(kindInputs.map((input) => [input.dataset.kind, +input.value.trim() || 0])) };
    } else {
      const text = $("points").value.trim();
      if (!/^\d{1,2}$/.test(text)) { $("points").focus(); return; }
      body = { points: +text };
    }
    if (kind !== "discard") body.muggins = !!($("muggins") && $("muggins").checked);
    state.phase = "wait";
    body.seconds = (performance.now() - state.shownAt) / 1000;
    try {
      feedback(await api(`/api/drills/${state.drill.id}/answer`, body));
    } catch (error) {
      $("prompt").textContent = error.message;
      state.phase = "ask";
    }
  }

  function feedback(result) {
    state.asked += 1;
    if (result.correct) state.right += 1;
    else if (mode === "sprint") {
      state.left = Math.max(0, state.left - +root.dataset.penalty);
      renderClock();
    }
    if (mode === "sprint") $("tally").textContent = `${state.right} right`;
    const verdict = $("verdict");
    verdict.className = `verdict ${result.correct ? "right" : "wrong"}`;
    if (kind === "discard") {
      verdict.textContent = result.correct ? `✔ Best throw (${result.claimed} expected points)` :
        `✘ Costs ${result.lost} expected points against the best throw`;
    } else {
      const diff = result.over ? `you over-counted by ${result.over}` : `you missed ${result.under}`;
      verdict.textContent = result.correct ? `✔ Right: ${result.total}` : `✘ It is ${result.total}, not ${result.claimed}: ${diff}`;
      if (!result.correct && mode === "sprint") verdict.textContent += ` (−${root.dataset.penalty} s)`;
    }
    $("say").textContent = result.say ? `“${result.say}”` : "";
    if (result.note) {
      const note = document.createElement("span");
      note.className = "muggins";
      note.textContent = result.note;
      $("say").append(note);
    }
    if (result.muggins && result.muggins.opponent) {
      const note = document.createElement("span");
      note.className = "muggins";
      note.textContent = `Muggins! Your opponent pegs the ${result.muggins.opponent} you missed; you peg ${result.muggins.you}.`;
      $("say").append(note);
    }
    const missed = $("missed");
    const all = result.missed.length && result.missed.length === result.items.length;
    missed.innerHTML = !result.missed.length ? "" : all ? "<h3>You missed all of it (marked below)</h3>" :
      `<h3>You missed</h3>` + result.missed.map((i) => `<div class="miss">${i.kind} ${miniCards(i.cards).outerHTML} for ${i.points}</div>`).join("");
    const claimedBy = new Set(result.missed.flatMap((i) => i.cards));
    document.querySelectorAll("#cards .card").forEach((c) => c.classList.toggle("missed", claimedBy.has(c.dataset.card)));
    const items = $("items");
    items.innerHTML = result.items.map((i, n) => `<li class="item${result.missed.some((m) => sameItem(m, i)) ? " was-missed" : ""}" data-n="${n}" tabindex="0">
      <span class="what">${i.kind}</span>${miniCards(i.cards).outerHTML}<span class="pts">${i.points}</span>
      <span class="rule">${(result.rule_text || {})[i.kind] || ""}</span></li>`).join("") || (kind === "discard" ? "" : "<li>Nothing to count.</li>");
    items.querySelectorAll("li[data-n]").forEach((li) => {
      const cards = new Set(result.items[+li.dataset.n].cards);
      const on = (flag) => document.querySelectorAll("#cards .card").forEach((c) => c.classList.toggle("hl", flag && cards.has(c.dataset.card)));
      li.addEventListener("mouseenter", () => on(true));
      li.addEventListener("mouseleave", () => on(false));
      li.addEventListener("focus", () => on(true));
      li.addEventListener("blur", () => on(false));
      li.addEventListener("click", () => on(true));
    });
    $("options").innerHTML = result.options ? discardTable(result) : "";
    $("kind-table").innerHTML = result.by_kind ? `<table class="kind-table"><thead><tr><th>Kind</th><th>You</th><th>Right</th></tr></thead><tbody>${
      result.by_kind.map((r) => `<tr class="${r.claimed === r.right ? "" : "off"}"><td>${r.kind}</td><td>${r.claimed}</td><td>${r.right}</td></tr>`).join("")}</tbody></table>` : "";
    if (kind === "discard") {
      const best = new Set(result.options[0].discard);
      document.querySelectorAll("#cards .card").forEach((c) => c.classList.toggle("best", best.has(c.dataset.card)));
    }
    $("feedback").hidden = false;
    $("pad").hidden = true;
    $("throw").hidden = true;
    state.phase = "feedback";
    $("next").focus();
    $("feedback").scrollIntoView({ block: "nearest" });
  }

  function sameItem(a, b) { return a.kind === b.kind && a.cards.join() === b.cards.join(); }

  function discardTable(result) {
    const chosen = [...state.selected].sort().join();
    const shown = result.options.slice(0, 6);
    const mine = result.options.find((o) => o.discard.slice().sort().join() === chosen);
    if (mine && !shown.includes(mine)) shown.push(mine);
    const rows = shown.map((o) =>
      `<tr class="${o.discard.slice().sort().join() === chosen ? "chosen" : ""}"><td>${miniCards(o.discard).outerHTML}</td><td>${o.hand_ev.toFixed(2)}</td><td>${o.crib_ev.toFixed(2)}</td><td>${o.net_ev.toFixed(2)}</td></tr>`).join("");
    return `<table class="ev-table"><thead><tr><th>Throw</th><th>Hand</th><th>Crib</th><th>Net</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  function showSummary(summary, drills) {
    state.phase = "done";
    clearInterval(state.timer);
    ["answer", "pad", "feedback", "throw"].forEach((id) => { $(id).hidden = true; });
    document.querySelector(".table").hidden = true;
    $("marks").innerHTML = (drills || []).map((d) => `<span class="${d.correct ? "right" : "wrong"}" title="${d.kind}">${d.correct ? "✔" : "✘"}</span>`).join("");
    $("prompt").textContent = "";
    $("summary").hidden = false;
    if (mode === "daily") {
      $("summary-title").textContent = `Today: ${summary.score} / ${summary.of}`;
      $("share").textContent = summary.share;
    } else {
      $("summary-title").textContent = `Sprint over: ${state.right} right of ${state.asked}`;
      $("share").textContent = `Cribbage sprint ${localDate()}\n${state.right} hands counted right in ${root.dataset.seconds / 60} minutes`;
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

  $("answer").addEventListener("submit", (event) => { event.preventDefault(); submit(); });
  $("throw").addEventListener("click", submit);
  $("next").addEventListener("click", () => { if (state.phase === "feedback") deal().catch(fail); });
  $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("share").textContent));
  $("pad").addEventListener("click", (event) => {
    const key = event.target.dataset.key;
    if (!key || state.phase !== "ask") return;
    const input = state.typing;
    if (key === "Enter") submit();
    else if (key === "Backspace") input.value = input.value.slice(0, -1);
    else if (input.value.length < 2) input.value += key;
  });
  kindInputs.concat([$("points")]).forEach((input) => input.addEventListener("focus", () => { state.typing = input; }));
  document.addEventListener("keydown", (event) => {
    if (state.phase === "feedback" && (event.key === "Enter" || event.key === "n" || event.key === "N" || event.key === " ")) {
      event.preventDefault();
      deal().catch(fail);
    } else if (state.phase === "ask" && kind === "discard") {
      const card = document.querySelector(`#cards .card[data-key="${event.key}"]`);
      if (card) toggle(card.dataset.card);
      else if (event.key === "Enter") { event.preventDefault(); submit(); }
    }
  });

  function fail(error) { $("prompt").textContent = `Could not deal: ${error.message}`; }

  if (mode === "sprint") state.timer = setInterval(tick, 1000);
  deal().catch(fail);
}
