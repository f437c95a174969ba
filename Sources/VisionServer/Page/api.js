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

/** GET `path` under /api/v1/ as JSON; throws with the status on a failure. */
export async function getJSON(path) {
  const response = await fetch(apiURL(path));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}
