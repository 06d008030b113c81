/* Live mode on the photo page: the rear camera reads the cards while the player aims. Each
   frame is scaled down, sent to /api/read (the photo's reader and answer, one frame in flight),
   and its cards outlined on the video with the running count; when the same cards are read on
   HOLD_FRAMES frames in a row the reading holds: the frame freezes under the photo's own
   result view (photo.js) to fix and share. Every failure is one sentence and the file form. */
import { ApiError, postForm } from "./api.js";
import { cardText } from "./cards.js";
import { h } from "./dom.js";
import { show } from "./photo.js";

const $ = (id) => document.getElementById(id);

/** Pixels on a frame's long side: enough for the corner indices, small to send and read. */
const LONG_SIDE = 960;
/** Frames in a row that must read the same cards (and groups at the show) for a hold. */
const HOLD_FRAMES = 3;
/** Seconds a frame may wait for its answer. */
const FRAME_SECONDS = 20;
/** Longest pause, in seconds, added between frames after refusals, or between tries while the
    trainer cannot be reached. */
const LONGEST_PAUSE = 10;

const SAY = {
  insecure: "The camera opens only on a page served over HTTPS: send a photo with the form below.",
  refused: "The camera was not allowed: allow it in the browser’s settings for this site, or send a photo with the form below.",
  missing: "No camera was found on this device: send a photo with the form below.",
  taken: "The camera is in use by another app: close that app and try again, or send a photo with the form below.",
  busy: "The trainer is busy, so the camera reads more slowly for a moment: or send a photo with the form below.",
  unreachable: "The trainer cannot be reached: reading goes on when it answers, or send a photo with the form below.",
  broken: "Something went wrong on our side: reading goes on in a moment, or send a photo with the form below.",
  empty: "No cards read yet: hold the phone over them with their corners in view.",
};
/** What each `getUserMedia` failure means for the player. */
const CAMERA_FAILURES = {
  NotAllowedError: SAY.refused,
  SecurityError: SAY.refused,
  NotFoundError: SAY.missing,
  OverconstrainedError: SAY.missing,
  NotReadableError: SAY.taken,
  AbortError: SAY.taken,
};

/** The camera session: its stream, which run of the frame loop is current, the frames that
    read the same cards, and the pause between frames the trainer has asked for. */
const live = { stream: null, run: 0, same: [], pause: 0, misses: 0, heldUrl: "" };
/** What live mode measured, for benchmarks/live.py: frames read, each frame's milliseconds
    from its capture to its outline on the video, and the milliseconds spent reading frames
    (`liveMs`, ended runs; `since`: when the current run began, null while held or stopped). */
window.liveStats = { frames: 0, latencies: [], liveMs: 0, since: null };

const video = $("live-video");
const marks = $("live-marks");
const grabber = document.createElement("canvas");

function sleep(seconds) {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

/** Say `message` (or nothing); with a message the file form is offered beside it. */
function say(message) {
  $("live-error").textContent = message;
  $("live-error").hidden = !message;
  $("photo-form").hidden = !message && !$("live").hidden;
}

/** Show the camera with its count and controls (`on`), or the Live button and the file form. */
function showLive(on) {
  $("live").hidden = !on;
  $("live-start").hidden = on;
  $("photo-form").hidden = on;
}

function stopCamera() {
  live.run += 1; // the frame loop running ends at its next step
  if (live.stream) for (const track of live.stream.getTracks()) track.stop();
  live.stream = null;
  video.srcObject = null;
}

/** Stop live mode: the page offers the file form and the Live button again. */
function stop(message = "") {
  stopCamera();
  showLive(false);
  say(message);
}

/** Open the rear camera and read its frames until the reading holds. */
async function start() {
  say("");
  for (const id of ["photo", "read", "live-again"]) $(id).hidden = true;
  $("live-count").replaceChildren(h("li", { className: "empty", text: "Looking for cards…" }));
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 960 } },
      audio: false,
    });
  } catch (error) {
    stop(CAMERA_FAILURES[error && error.name] || SAY.missing);
    return;
  }
  stopCamera();
  live.stream = stream;
  live.same = [];
  $("live-rules").value = $("rules").value;
  $("live-strict").checked = $("strict").checked;
  video.srcObject = stream;
  showLive(true);
  offerTorch(stream.getVideoTracks()[0]);
  try {
    await video.play();
  } catch {
    stop(SAY.taken);
    return;
  }
  readFrames(live.run);
}

/** Show the torch switch when the camera has a torch. */
function offerTorch(track) {
  const torch = $("live-torch");
  const capabilities = track && track.getCapabilities ? track.getCapabilities() : {};
  torch.hidden = !capabilities.torch;
  torch.setAttribute("aria-pressed", "false");
}

async function toggleTorch() {
  const track = live.stream && live.stream.getVideoTracks()[0];
  if (!track) return;
  const on = $("live-torch").getAttribute("aria-pressed") !== "true";
  try {
    await track.applyConstraints({ advanced: [{ torch: on }] });
    $("live-torch").setAttribute("aria-pressed", String(on));
  } catch {
    $("live-torch").hidden = true; // the camera said it had one, but will not light it
  }
}

/** The video's current picture, its long side scaled to LONG_SIDE, as a JPEG; null before
    the camera gives a picture. */
async function grab() {
  const { videoWidth: width, videoHeight: height } = video;
  if (!width || !height) return null;
  const scale = Math.min(1, LONG_SIDE / Math.max(width, height));
  grabber.width = Math.round(width * scale);
  grabber.height = Math.round(height * scale);
  const at = performance.now();
  grabber.getContext("2d").drawImage(video, 0, 0, grabber.width, grabber.height);
  const blob = await new Promise((resolve) => grabber.toBlob(resolve, "image/jpeg", 0.85));
  return blob && { blob, at };
}

/** The frame as the photo form would send it, with the live controls' choices. */
function frameForm(blob) {
  const form = new FormData();
  form.append("image", blob, "frame.jpg");
  form.append("rules", $("live-rules").value);
  if ($("live-mode").value === "crib") form.append("crib", "1");
  // dim light or a webcam: small, soft indices, where an index alone may name the wrong suit
  // with confidence; the strict rule keeps such a card certain only where its body agrees
  if ($("live-strict").checked) form.append("strict", "1");
  return form;
}

/** Read frames while run `run` is current (`readUntilHeld`), its time counted in
    `liveStats.liveMs`. */
async function readFrames(run) {
  window.liveStats.since = performance.now();
  try {
    await readUntilHeld(run);
  } finally {
    window.liveStats.liveMs += performance.now() - window.liveStats.since;
    window.liveStats.since = null;
  }
}

/** Read frames one at a time (the next taken when an answer arrives) while run `run` is
    current; end in a hold. */
async function readUntilHeld(run) {
  while (run === live.run) {
    const frame = await grab();
    if (!frame) {
      await sleep(0.1);
      continue;
    }
    let answer;
    try {
      answer = await postForm("/api/read", frameForm(frame.blob), FRAME_SECONDS);
    } catch (error) {
      if (run === live.run) await setBack(error);
      continue;
    }
    if (run !== live.run) return;
    live.misses = 0;
    live.pause /= 2;
    say("");
    outline(answer);
    window.liveStats.frames += 1;
    window.liveStats.latencies.push(performance.now() - frame.at);
    if (holds(answer)) {
      hold(answer, frame.blob);
      return;
    }
    if (live.pause > 0.05) await sleep(live.pause);
  }
}

/** A frame's answer was a refusal or none: say why, and wait as long as the trainer asks (a
    429 or 503 `Retry-After`), longer each time it cannot be reached. */
async function setBack(error) {
  if (!(error instanceof ApiError)) throw error;
  if (error.status === 400) { // no cards on the frame (or not a picture): nothing to count
    live.same = [];
    outline(null);
    return;
  }
  if (error.retryAfter && [429, 503].includes(error.status)) {
    live.pause = Math.min(Math.max(2 * live.pause, 0.5), LONGEST_PAUSE);
    say(SAY.busy);
    await sleep(error.retryAfter + live.pause);
    return;
  }
  if (error.status === 503) { // the reader is not installed, or could not load
    stop(error.message);
    return;
  }
  live.misses += 1;
  say(error.status === 0 ? SAY.unreachable : SAY.broken);
  await sleep(Math.min(2 ** live.misses, LONGEST_PAUSE));
}

/** The answer's cards outlined on the video (unsure ones dashed and marked "?") and the
    running count; null: nothing read. */
function outline(answer) {
  const paint = marks.getContext("2d");
  if (!answer) {
    paint.clearRect(0, 0, marks.width, marks.height);
    $("live-count").replaceChildren(h("li", { className: "empty", text: SAY.empty }));
    return;
  }
  [marks.width, marks.height] = answer.image_size;
  const line = Math.max(2, Math.round(marks.width / 320));
  paint.font = `700 ${8 * line}px system-ui, sans-serif`;
  paint.textBaseline = "bottom";
  for (const card of answer.cards) {
    if (!card.box) continue;
    const [x1, y1, x2, y2] = card.box;
    const colour = card.uncertain ? "#ef6c00" : "#2e7d32";
    paint.lineWidth = line;
    paint.strokeStyle = colour;
    paint.setLineDash(card.uncertain ? [3 * line, 2 * line] : []);
    paint.strokeRect(x1, y1, x2 - x1, y2 - y1);
    const name = cardText(card.card) + (card.uncertain ? "?" : "");
    const width = paint.measureText(name).width + 2 * line;
    paint.fillStyle = colour;
    paint.fillRect(x1, y1 - 9 * line, width, 9 * line);
    paint.fillStyle = "#fff";
    paint.fillText(name, x1 + line, y1);
  }
  $("live-count").replaceChildren(...counted(answer));
}

/** A line for each group read (its name, its cards, its score) and one for unsure cards. */
function counted(answer) {
  const named = (i) => {
    const card = answer.cards[i];
    return h("span", { className: card.uncertain ? "unsure" : "", text: cardText(card.card) + (card.uncertain ? "?" : "") });
  };
  const lines = answer.groups.map((g) => h(
    "li", {},
    h("span", { className: "name", text: g.name }), " ",
    h("span", { className: "cards" }, ...g.cards.flatMap((i) => [named(i), " "])),
    g.score ? h("strong", { className: "total", text: String(g.score.total) }) : null,
    g.crib_score ? h("small", { text: ` (${g.crib_score.total} if the crib)` }) : null,
  ));
  if (answer.left_out.length) {
    lines.push(h("li", { className: "unsure" }, h("span", { className: "name", text: "not counted" }), " ", ...answer.left_out.flatMap((i) => [named(i), " "])));
  }
  return lines.length ? lines : [h("li", { className: "empty", text: SAY.empty })];
}

/** Whether the last HOLD_FRAMES answers read the same certain cards (at the show, in the
    same groups) and at least one. */
function holds(answer) {
  const sure = answer.cards.filter((c) => !c.uncertain).map((c) => c.card).sort();
  const groups = $("live-mode").value === "table"
    ? answer.groups.map((g) => `${g.role}:${g.cards.map((i) => answer.cards[i].card).sort()}`).sort()
    : [];
  live.same.push(`${sure}|${groups.join(";")}`);
  live.same = live.same.slice(-HOLD_FRAMES);
  return sure.length > 0 && live.same.length === HOLD_FRAMES && new Set(live.same).size === 1;
}

/** Freeze the frame under the photo's result view (fix, score and share as for a photo). */
function hold(answer, blob) {
  stopCamera();
  showLive(false);
  $("live-start").hidden = true;
  $("live-again").hidden = false;
  if (live.heldUrl) URL.revokeObjectURL(live.heldUrl);
  live.heldUrl = URL.createObjectURL(blob);
  $("shot").src = live.heldUrl;
  $("photo").hidden = false;
  show(answer);
}

/** Offer live mode where the browser can open a camera; on plain HTTP from another machine,
    say why it cannot. */
function offer() {
  if (!window.isSecureContext) {
    say(SAY.insecure);
    return;
  }
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return;
  $("live-rules").replaceChildren(...[...$("rules").options].map((option) => option.cloneNode(true)));
  $("live-rules").addEventListener("change", () => {
    $("rules").value = $("live-rules").value;
    live.same = [];
  });
  $("live-strict").addEventListener("change", () => {
    $("strict").checked = $("live-strict").checked;
    live.same = [];
  });
  $("live-mode").addEventListener("change", () => {
    live.same = [];
  });
  $("live-start").addEventListener("click", start);
  $("live-again").addEventListener("click", start);
  $("live-stop").addEventListener("click", () => stop());
  $("live-torch").addEventListener("click", toggleTorch);
  $("live-start").hidden = false;
}

offer();
