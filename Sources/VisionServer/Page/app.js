// The page: a task picker, Camera, Library and Train tabs, settings per task, all built from the server's
// description of its tasks (GET /api/v1/tasks). Its state is in the URL, by the API's names
// (?task=gesture-recognizer&tab=camera&autostart=1&num-hands=2), so a link reproduces a view. The Train tab
// shows the live camera too: it trains a gesture model and switches the Gesture Recognizer to it, the
// camera running on.
import { state, setStatus, showError } from "./state.js";
import { getJSON } from "./api.js";
import { settingsFor, changed, renderForm } from "./settings.js";
import { Camera } from "./camera.js";
import { Library } from "./library.js";
import { Trainer } from "./train.js";
import { background, BACKGROUND_MODES, loadPicture } from "./background.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
state.task = params.get("task");
state.tab = ["library", "train"].includes(params.get("tab")) ? params.get("tab") : "camera";
state.model = params.get("model");

function writeURL() {
  const url = new URLSearchParams({ task: state.task, tab: state.tab });
  if (state.model) url.set("model", state.model);
  if (background.mode !== "none") url.set("background", background.mode);
  for (const s of state.settings) if (changed(s)) url.set(s.name, String(s.value));
  history.replaceState(null, "", "?" + url.toString());
}

const camera = new Camera({ video: $("camera-video"), overlay: $("camera-overlay"), button: $("camera-toggle") });
const library = new Library({
  image: $("library-image"), video: $("library-video"), overlay: $("library-overlay"),
  progress: $("progress"), input: $("file"), drop: $("drop"),
});
const GESTURES = "gesture-recognizer";
const trainer = new Trainer({
  labelInput: $("train-label-name"), addButton: $("train-add-label"), table: $("train-labels").tBodies[0],
  holdButton: $("train-hold"), recordButton: $("train-record"), secondsInput: $("train-seconds"),
  optionsForm: $("train-options"), nameInput: $("train-name"), trainButton: $("train-start"),
  statusLine: $("train-status"), report: $("train-report"),
}, camera, useTrainedModel);

function selectTask(name) {
  const description = state.tasks.find((t) => t.name === name) || state.tasks[0];
  state.task = description.name;
  $("task").value = description.name;
  const models = state.models[description.name] || [];
  if (!models.includes(state.model)) state.model = models[0] || null;
  state.settings = settingsFor(description, params, state.models);
  renderForm($("settings"), state.settings, models, state.model, changeSetting);
  $("background-control").hidden = description.name !== SEGMENTER;
}

// The Image Segmenter's Background control (Camera view): the effect applies from the next result drawn.
const SEGMENTER = "image-segmenter";
function setUpBackground() {
  const select = $("background-mode");
  for (const mode of BACKGROUND_MODES) select.append(new Option(mode, mode));
  if (BACKGROUND_MODES.includes(params.get("background"))) background.mode = params.get("background");
  select.value = background.mode;
  select.addEventListener("change", () => { background.mode = select.value; writeURL(); });
  $("background-picture").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      await loadPicture(file);
      background.mode = select.value = "replace";
      writeURL();
    } catch (error) {
      showError(`Background: ${error.message}`);
    }
  });
}

// A change recreates the task and re-runs the current picture at once.
function changeSetting(name, value) {
  if (name === "model") state.model = value;
  else state.settings = state.settings.map((s) => (s.name === name ? { ...s, value } : s));
  writeURL();
  rerun();
}

function rerun() {
  if (state.tab === "library") library.rerun();
  else camera.restart();
}

// The Train tab shows the camera with the Gesture Recognizer, so the gestures trained can be tried at once.
function selectTab(tab) {
  state.tab = tab;
  document.body.dataset.tab = tab;
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("active", b.dataset.tab === tab);
  if (tab === "library") camera.stop();
  if (tab === "train" && state.task !== GESTURES && (state.models[GESTURES] || []).length) {
    state.model = null;
    selectTask(GESTURES);
    rerun();
  }
  writeURL();
}

/** A model just trained: the models list again from the server, then, while the Train tab is shown, the Gesture
 *  Recognizer with `model`; a running camera reconnects with it (a new socket on the same stream), the page is not
 *  reloaded. A user who went on to another tab keeps the task and picture there: the model is only offered in the
 *  list. Returns whether the Gesture Recognizer uses it now. */
async function useTrainedModel(model) {
  state.models = await getJSON("models");
  if (state.tab !== "train") {
    if (state.task === GESTURES) renderForm($("settings"), state.settings, state.models[GESTURES], state.model, changeSetting);
    setStatus(document.body.dataset.status, `Trained ${model}: choose it under Gesture Recognizer.`);
    return false;
  }
  state.model = model;
  selectTask(GESTURES);
  writeURL();
  rerun();
  return true;
}

async function main() {
  try {
    const [described, models, connections] = await Promise.all([getJSON("tasks"), getJSON("models"), getJSON("connections")]);
    state.tasks = described.tasks.filter((t) => (models[t.name] || []).length);
    if (!state.tasks.length) throw new Error("the server offers no task with a model");
    state.models = models;
    state.connections = connections;
    for (const t of state.tasks) $("task").append(new Option(t.title, t.name));
    setUpBackground();
    const asked = state.task;
    selectTask(state.task || "face-landmarker");
    const unknown = asked && asked !== state.task; // before the Train tab makes it the Gesture Recognizer
    await describeTraining();
    selectTab(state.tab);
    // A task chosen anew starts with its own default model (another task's file may also load, as the Face
    // Landmarker's bundle does in the Face Detector, but was not chosen for it).
    $("task").addEventListener("change", () => { state.model = null; selectTask($("task").value); writeURL(); rerun(); });
    for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => selectTab(b.dataset.tab));
    writeURL();
    if (unknown) showError(`The server offers no task "${asked}": showing ${state.task}.`);
    else setStatus("ready", "Ready.");
    if (state.tab !== "library" && params.get("autostart") === "1") await camera.start();
  } catch (error) {
    setStatus("error", `Error: ${error.message}`);
  }
}

/** The Train tab, when the server trains gesture models from a gesture recognizer it has. */
async function describeTraining() {
  let training = null;
  try { training = await getJSON("gesture-models"); } catch (_) { /* a server without training */ }
  const usable = training && training.baseModel && (state.models[GESTURES] || []).length;
  $("tab-train").hidden = !usable;
  if (usable) trainer.describe(training);
  else if (state.tab === "train") state.tab = "camera";
}

main();
