/* A cribbage board drawn in SVG: a street of 30 holes a row (in fives), a lane a side, two pegs
   a side (the front peg the score, the back peg the score before the last count, leapfrogging
   as the rule book says), the start holes, the game hole, and the lurch and skunk lines. */

const SVG = "http://www.w3.org/2000/svg";
const STREET = 30;
const STEP = 11; // between holes
const GROUP_GAP = 7; // between fives
const LANE = 12; // between a street's lanes
const ROW_GAP = 20; // between streets
const LEFT = 40; // the start holes and the street's first number
const TOP = 14;
/** Each side's colour: its lane and its pegs. */
export const COLOURS = ["#c62828", "#1565c0", "#2e7d32"];

function svg(tag, attrs = {}, text = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (text !== null) el.textContent = text;
  return el;
}

/** Where hole `n` (1 to length - 1) lies: its street, the x of its column. */
function column(n) {
  const i = (n - 1) % STREET;
  return { street: Math.floor((n - 1) / STREET), x: LEFT + 14 + i * STEP + Math.floor(i / 5) * GROUP_GAP };
}

const END = column(STREET).x + 26; // x of the game hole, past a street's last hole

/** The board's geometry for `sides` lanes and a game of `length`. */
function layout(sides, length) {
  const streets = (length - 1) / STREET;
  const rowHeight = sides * LANE;
  const rowTop = (street) => TOP + street * (rowHeight + ROW_GAP);
  /** The centre of side `side`'s hole `score` (0: its start hole, length: the game hole). */
  const hole = (side, score) => {
    if (score >= length) return { x: END, y: rowTop(streets - 1) + rowHeight / 2 };
    if (score <= 0) return { x: LEFT, y: rowTop(0) + side * LANE + LANE / 2 };
    const { street, x } = column(score);
    return { x, y: rowTop(street) + side * LANE + LANE / 2 };
  };
  return { streets, rowHeight, rowTop, hole, width: END + 24, height: rowTop(streets) - ROW_GAP + 22 };
}

/** A line across the board between two streets, at the score a loser must reach. */
function line(geometry, street, label, className) {
  const y = geometry.rowTop(street) - ROW_GAP / 2;
  return [
    svg("line", { x1: LEFT - 10, x2: END + 14, y1: y, y2: y, class: className }),
    svg("text", { x: END + 14, y: y - 2, class: `${className}-label`, "text-anchor": "end" }, label),
  ];
}

/**
 * Draw the board of `game` (the JSON of GET /api/games/<code>) into the <svg> `target`.
 *
 * @param {SVGSVGElement} target
 * @param {any} game
 */
export function drawBoard(target, game) {
  const sides = game.sides.length;
  const geometry = layout(sides, game.length);
  target.setAttribute("viewBox", `0 0 ${geometry.width} ${geometry.height}`);
  target.replaceChildren();
  const holes = svg("g", { class: "holes" });
  for (let street = 0; street < geometry.streets; street++) {
    const top = geometry.rowTop(street);
    holes.append(
      svg("rect", { x: LEFT - 10, y: top - 3, width: END - LEFT + 2, height: geometry.rowHeight + 6, rx: 5, class: "street" }),
      svg("text", { x: LEFT - 14, y: top + geometry.rowHeight / 2 + 4, class: "street-number", "text-anchor": "end" }, String(street * STREET + 1)),
    );
    for (let side = 0; side < sides; side++) {
      for (let i = 1; i <= STREET; i++) {
        const { x, y } = geometry.hole(side, street * STREET + i);
        holes.append(svg("circle", { cx: x, cy: y, r: 2.2, class: "hole", fill: COLOURS[side] }));
      }
    }
  }
  for (let side = 0; side < sides; side++) {
    const { x, y } = geometry.hole(side, 0);
    holes.append(svg("circle", { cx: x, cy: y, r: 2.6, class: "hole start", fill: COLOURS[side] }));
  }
  const home = geometry.hole(0, game.length);
  holes.append(
    svg("circle", { cx: home.x, cy: home.y, r: 5, class: "hole game" }),
    svg("text", { x: home.x, y: home.y + geometry.rowHeight / 2 + 12, class: "street-number", "text-anchor": "middle" }, String(game.length)),
  );
  target.append(holes);
  // the lurch line: a loser short of it (91 in 121, 31 in 61) loses two games
  const lurchStreet = (game.lurch_line - 1) / STREET;
  target.append(...line(geometry, lurchStreet, `lurch ${game.lurch_line}`, "lurch"));
  if (game.double_skunk_line) {
    target.append(...line(geometry, (game.double_skunk_line - 1) / STREET, `double skunk ${game.double_skunk_line}`, "skunk"));
  }
  const pegs = svg("g", { class: "pegs" });
  game.sides.forEach((side, index) => {
    for (const [score, kind] of [[side.back, "back"], [side.front, "front"]]) {
      const { x, y } = geometry.hole(index, score);
      const peg = svg("circle", { cx: x, cy: y, r: kind === "front" ? 4.6 : 3.8, class: `peg ${kind}`, fill: COLOURS[index] });
      peg.append(svg("title", {}, `${side.name}: ${kind} peg at ${score}`));
      pegs.append(peg);
    }
  });
  target.append(pegs);
}
