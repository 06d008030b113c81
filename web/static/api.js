/* Talking to the trainer's JSON API: one place for requests, answers and their errors. */

/** A request the trainer refused or could not answer; `message` is in players' words. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status the HTTP status (0 when the trainer could not be reached)
   */
  constructor(message, status) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

/** The page's CSRF token, where the page carries one (`<meta name="csrf-token">`). */
function csrfHeaders() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? { "X-CSRFToken": meta.content } : {};
}

async function request(url, init = {}) {
  let response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { Accept: "application/json", ...csrfHeaders(), ...init.headers },
    });
  } catch {
    throw new ApiError("The trainer cannot be reached: check the connection and try again.", 0);
  }
  const isJson = (response.headers.get("Content-Type") || "").includes("application/json");
  const data = isJson ? await response.json() : null;
  if (!response.ok) {
    const why = data && typeof data.error === "string" ? data.error : response.statusText;
    throw new ApiError(why || `The trainer answered ${response.status}.`, response.status);
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
 * @returns {Promise<any>}
 * @throws {ApiError}
 */
export function postForm(url, form) {
  return request(url, { method: "POST", body: form });
}
