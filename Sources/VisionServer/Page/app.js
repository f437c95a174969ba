// The page: a task picker, Camera and Library tabs, settings per task. Its state is in the URL
// (?task=gesture-recognizer&tab=camera&autostart=1&numHands=2), so a link reproduces a view; the
// last result drawn is window.lastResult (the CLI's result JSON) and the page's state is
// document.body.dataset.status: loading, ready, running or error.
import { loadConnections, drawResult, showExtras } from "./overlays.js";
import { settingsFor, apiQuery, renderForm } from "./settings.js";
import { Camera } from "./camera.js";
import { Library } from "./library.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const state = {
  task: params.get("task") || "face-landmarker",
  tab: params.get("tab") === "library" ? "library" : "camera",
  models: {},
  model: params.get("model"),
  settings: [],
};
window.lastResult = null;

/** Sets the page state (body[data-status]) and the status line. */
export function setStatus(status, text) {
  document.body.dataset.status = status;
  if (text !== undefined) $("status-line").textContent = text;
}

/** Draws a result and keeps it as window.lastResult. */
export function showResult(canvas, result, mirrored) {
  window.lastResult = result;
  drawResult(canvas, state.task, result, mirrored);
  showExtras(result, $("blendshapes"), $("matrix"));
}

/** The API query for the current task's settings. */
export const currentQuery = () => apiQuery(state.settings, state.model);
/** The current task's URL name. */
export const currentTask = () => state.task;

function writeURL() {
  const url = new URLSearchParams({ task: state.task, tab: state.tab });
  if (state.model) url.set("model", state.model);
  for (const s of state.settings) if (String(s.value) !== String(s.default)) url.set(s.name, String(s.value));
  history.replaceState(null, "", "?" + url.toString());
}

const camera = new Camera({ video: $("camera-video"), overlay: $("camera-overlay"), button: $("camera-toggle") });
const library = new Library({
  image: $("library-image"), video: $("library-video"), overlay: $("library-overlay"),
  progress: $("progress"), input: $("file"), drop: $("drop"),
});

function selectTask(task) {
  state.task = task;
  $("task").value = task;
  const models = state.models[task] || [];
  if (!models.includes(state.model)) state.model = models[0] || null;
  state.settings = settingsFor(task, params);
  renderForm($("settings"), state.settings, models, state.model, changeSetting);
}

// A change recreates the task and re-runs the current picture at once.
function changeSetting(name, value) {
  if (name === "model") state.model = value;
  else state.settings = state.settings.map((s) => (s.name === name ? { ...s, value } : s));
  writeURL();
  rerun();
}

function rerun() {
  if (state.tab === "camera") camera.restart();
  else library.rerun();
}

function selectTab(tab) {
  state.tab = tab;
  document.body.dataset.tab = tab;
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("active", b.dataset.tab === tab);
  if (tab !== "camera") camera.stop();
  writeURL();
}

async function main() {
  try {
    const [models] = await Promise.all([fetch("/api/v1/models").then((r) => r.json()), loadConnections()]);
    state.models = models;
    selectTask(state.task in models ? state.task : "face-landmarker");
    selectTab(state.tab);
    $("task").addEventListener("change", () => { selectTask($("task").value); writeURL(); rerun(); });
    for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => selectTab(b.dataset.tab));
    writeURL();
    setStatus("ready", "Ready.");
    if (state.tab === "camera" && params.get("autostart") === "1") await camera.start();
  } catch (error) {
    setStatus("error", `Error: ${error.message}`);
  }
}

main();
