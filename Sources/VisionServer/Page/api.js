// The server's API: the one place its URLs are built.
import { state } from "./state.js";
import { apiQuery } from "./settings.js";

/** The URL of `path` under /api/v1/ with `query` (a query string, may be empty); `socket` gives
 *  the ws: or wss: URL of the same path. */
export function apiURL(path, query = "", { socket = false } = {}) {
  const url = new URL(`/api/v1/${path}`, location.href);
  url.search = query;
  if (socket) url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

/** The URL of the current task's `suffix` ("", "/video" or "/live") with its model and settings. */
export function taskURL(suffix, options) {
  return apiURL(state.task + suffix, apiQuery(state.settings, state.model), options);
}

/** fetch(), whose failure to reach the server ("Failed to fetch", "network error") says so. */
export async function request(url, init) {
  try {
    return await fetch(url, init);
  } catch (error) {
    throw new Error(`the server could not be reached (${error.message}); is it running?`);
  }
}

/** Throws with the server's message (its JSON `error`, else its text) and the status, unless `response` is ok. */
export async function checked(response) {
  if (response.ok) return response;
  const text = await response.text();
  let message = text;
  try { message = JSON.parse(text).error; } catch (_) { /* not JSON */ }
  throw new Error(`HTTP ${response.status}: ${message}`);
}

/** GET `path` under /api/v1/ as JSON; throws with the status on a failure. */
export async function getJSON(path) {
  const response = await request(apiURL(path));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}
