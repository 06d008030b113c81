/* Talking to the trainer's JSON API: one place for requests, answers and their errors. */

/** A request the trainer refused or could not answer; `message` is in players' words. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status the HTTP status (0 when the trainer could not be reached)
   * @param {number} [retryAfter] seconds the trainer asked to wait (its `Retry-After`), or 0
   * @param {any} [body] the JSON of the answer, if any (a 409's state as it is now)
   */
  constructor(message, status, retryAfter = 0, body = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.retryAfter = retryAfter;
    this.body = body;
  }
}

/** The page's CSRF token, where the page carries one (`<meta name="csrf-token">`). */
function csrfHeaders() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? { "X-CSRFToken": meta.content } : {};
}

/** Seconds a request may take before the page stops waiting and says so. */
export const WAIT_SECONDS = 30;

const TOO_SLOW = "The trainer took too long to answer: try again in a moment.";
const UNREACHABLE = "The trainer cannot be reached: check the connection and try again.";

/** The failure of a request that got no (whole) answer, in players' words. */
function noAnswer(error) {
  return new ApiError(error && error.name === "TimeoutError" ? TOO_SLOW : UNREACHABLE, 0);
}

async function request(url, init = {}, seconds = WAIT_SECONDS) {
  const signal = AbortSignal.timeout(seconds * 1000);
  let response;
  let data = null;
  try {
    response = await fetch(url, {
      ...init,
      signal,
      headers: { Accept: "application/json", ...csrfHeaders(), ...init.headers },
    });
    const isJson = (response.headers.get("Content-Type") || "").includes("application/json");
    if (isJson) data = await response.json().catch((error) => {
      if (signal.aborted) throw error;
      return null; // a body that is not the JSON it says it is
    });
  } catch (error) {
    throw noAnswer(error);
  }
  if (!response.ok) {
    const why = data && typeof data.error === "string" ? data.error : response.statusText;
    const wait = Number(response.headers.get("Retry-After")) || 0;
    throw new ApiError(why || `The trainer answered ${response.status}.`, response.status, wait, data);
  }
  if (data === null) throw new ApiError("The trainer gave an answer this page cannot read.", response.status);
  return data;
}

/**
 * GET a JSON answer.
 *
 * @param {string} url
 * @returns {Promise<any>}
 * @throws {ApiError}
 */
export function getJSON(url) {
  return request(url);
}

/**
 * POST a JSON body and read the JSON answer.
 *
 * @param {string} url
 * @param {unknown} body
 * @returns {Promise<any>}
 * @throws {ApiError}
 */
export function postJSON(url, body) {
  return request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * POST a form (a file upload, say) and read the JSON answer.
 *
 * @param {string} url
 * @param {FormData} form
 * @param {number} [seconds] how long to wait for the answer
 * @returns {Promise<any>}
 * @throws {ApiError}
 */
export function postForm(url, form, seconds = WAIT_SECONDS) {
  return request(url, { method: "POST", body: form }, seconds);
}
