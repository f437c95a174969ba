// The page's shared state and status, imported by every view (no view imports another). The state
// is in the URL (app.js writes it); the last result drawn is window.lastResult (the CLI's result
// JSON); the page's status is document.body.dataset.status: loading, ready, running or error.
import { drawResult, showExtras } from "./overlays.js";

/** What the page shows: the task, tab and model chosen, the tasks' descriptions and models the
 *  server offers, and the current task's settings (see settings.js). */
export const state = {
  task: null,
  tab: "camera",
  model: null,
  /** GET /api/v1/tasks: each task's name, title, outputs and options. */
  tasks: [],
  /** GET /api/v1/models: the model file names by task name. */
  models: {},
  /** GET /api/v1/connections: the library's landmark connection lists, for the overlays. */
  connections: null,
  settings: [],
};
window.lastResult = null;

const $ = (id) => document.getElementById(id);

/** Sets the page's status (body[data-status]) and, if given, the status line's text. */
export function setStatus(status, text) {
  document.body.dataset.status = status;
  if (text !== undefined) $("status-line").textContent = text;
}

const ERROR_SHOWN_MS = 5000;
let lastError = null; // { text, at }: kept in view while live frames replace the status line

/** Puts the page in error with `text`, which stays on the status line for a few seconds even while a live
 *  camera's status replaces it frame by frame (`withRecentError`). */
export function showError(text) {
  lastError = { text, at: performance.now() };
  setStatus("error", text);
}

/** `text`, followed by the last error if it came within the last few seconds. */
export function withRecentError(text) {
  return lastError && performance.now() - lastError.at < ERROR_SHOWN_MS ? `${text} · ${lastError.text}` : text;
}

/** Clears what `canvas` shows of the last result, its extras and window.lastResult: a picture, task or socket
 *  that failed must not keep an earlier result drawn as if it were its own. A result still decoding its masks
 *  is not drawn after (its generation is passed, as drawResult counts them). */
export function clearResult(canvas) {
  window.lastResult = null;
  const generation = String(Number(canvas.dataset.generation || 0) + 1);
  canvas.dataset.generation = canvas.dataset.painted = generation;
  canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
  showExtras(null, $("blendshapes"), $("matrix"), $("objects"));
}

/** Draws a result of the current task on `canvas`, shows its extras and keeps it as window.lastResult;
 *  `source` is the live video the result came from (the camera's), null for the library's pictures.
 *  A task the page cannot draw puts the page in error. */
export function showResult(canvas, result, mirrored, source = null) {
  window.lastResult = result;
  try {
    drawResult(canvas, state.task, result, state.connections, mirrored, source);
  } catch (error) {
    setStatus("error", `Error: ${error.message}`);
  }
  showExtras(result, $("blendshapes"), $("matrix"), $("objects"));
}
