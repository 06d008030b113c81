/* Pointing at (or tapping, or tabbing to) a scoring item lifts its cards. */

/**
 * Lift the cards of `item` (its `data-cards`, tokens separated by spaces) among the card faces
 * in `table` while the item is pointed at, focused or tapped.
 *
 * @param {HTMLElement} item
 * @param {HTMLElement} table the element holding the `.card` faces
 */
export function liftOnPoint(item, table) {
  const cards = new Set((item.dataset.cards || "").split(" ").filter(Boolean));
  const lift = (on) => {
    for (const face of table.querySelectorAll(".card")) {
      face.classList.toggle("hl", on && cards.has(face.dataset.card));
    }
  };
  item.addEventListener("mouseenter", () => lift(true));
  item.addEventListener("mouseleave", () => lift(false));
  item.addEventListener("focus", () => lift(true));
  item.addEventListener("blur", () => lift(false));
  item.addEventListener("click", () => lift(true));
}
