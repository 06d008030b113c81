/* The account forms' proof of work (docs/security.md#rate-limits).

While the trainer's budget of password checks for new browsers is spent, a log-in, a
registration or a password change gets past it only with a nonce whose SHA-256, after the
form's challenge and a colon, starts with `difficulty` zero bits. Each form carrying a challenge
starts solving it as the page opens (in slices, so the page stays responsive while the player
types); a form sent before it is solved says "checking your browser…" and sends itself once it
is. SHA-256 is pure JavaScript in a synchronous loop, the challenge's whole blocks hashed once:
WebCrypto's digest is asynchronous and costs far more a call, so a browser would pay many times
what a script pays. */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];
const W = new Uint32Array(64);

/** Hash the 64-byte block of `bytes` at `offset` into `state` (8 words, changed in place). */
function compress(state, bytes, offset) {
  for (let i = 0; i < 16; i++) {
    const at = offset + 4 * i;
    W[i] = (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
  }
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15];
    const y = W[i - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
  }
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  let f = state[5];
  let g = state[6];
  let h = state[7];
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

/**
 * A search for the nonce of `challenge` at `difficulty` bits (at most 32), resumable:
 * `step(hashes)` tries that many more nonces and gives the one found, or null.
 * @param {string} challenge
 * @param {number} difficulty
 */
export function solver(challenge, difficulty) {
  const prefix = new TextEncoder().encode(`${challenge}:`);
  const whole = prefix.length - (prefix.length % 64);
  const midstate = new Uint32Array(INITIAL);
  for (let offset = 0; offset < whole; offset += 64) compress(midstate, prefix, offset);
  const tail = new Uint8Array(128);
  tail.set(prefix.subarray(whole));
  const start = prefix.length - whole;
  const state = new Uint32Array(8);
  const shift = 32 - difficulty;
  let nonce = 0;
  return {
    step(hashes) {
      for (let tried = 0; tried < hashes; tried++, nonce++) {
        const digits = String(nonce);
        let end = start;
        for (let i = 0; i < digits.length; i++) tail[end++] = digits.charCodeAt(i);
        const bits = (prefix.length + digits.length) * 8;
        const blocks = end + 9 <= 64 ? 1 : 2;
        tail.fill(0, end, blocks * 64);
        tail[end] = 0x80;
        const last = blocks * 64;
        tail[last - 4] = bits >>> 24;
        tail[last - 3] = bits >>> 16;
        tail[last - 2] = bits >>> 8;
        tail[last - 1] = bits;
        state.set(midstate);
        compress(state, tail, 0);
        if (blocks === 2) compress(state, tail, 64);
        if (difficulty === 0 || state[0] >>> shift === 0) return digits;
      }
      return null;
    },
  };
}

/** Hashes tried between two looks at the page (a few milliseconds' work). */
const SLICE = 20000;

/** Solve `form`'s challenge as the page opens; hold its sending until it is solved. */
function protect(form) {
  const challenge = form.elements.namedItem("proof_challenge");
  const nonce = form.elements.namedItem("proof_nonce");
  const status = form.querySelector(".proof-status");
  const work = solver(challenge.value, Number(challenge.dataset.difficulty));
  let sending = false;
  const step = () => {
    const found = work.step(SLICE);
    if (found === null) {
      setTimeout(step, 0);
      return;
    }
    nonce.value = found;
    if (sending) form.submit();
  };
  form.addEventListener("submit", (event) => {
    if (nonce.value) return;
    event.preventDefault();
    sending = true;
    if (status) status.hidden = false;
  });
  setTimeout(step, 0);
}

if (typeof document !== "undefined") {
  for (const form of document.querySelectorAll("form")) {
    if (form.elements.namedItem("proof_challenge")) protect(form);
  }
}
