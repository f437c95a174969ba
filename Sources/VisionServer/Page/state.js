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
