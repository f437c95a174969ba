// The page: a task picker, Camera and Library tabs, settings per task, all built from the server's
// description of its tasks (GET /api/v1/tasks). Its state is in the URL, by the API's names
// (?task=gesture-recognizer&tab=camera&autostart=1&num-hands=2), so a link reproduces a view.
import { state, setStatus } from "./state.js";
import { getJSON } from "./api.js";
import { settingsFor, changed, renderForm } from "./settings.js";
import { Camera } from "./camera.js";
import { Library } from "./library.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
state.task = params.get("task");
state.tab = params.get("tab") === "library" ? "library" : "camera";
state.model = params.get("model");

function writeURL() {
  const url = new URLSearchParams({ task: state.task, tab: state.tab });
  if (state.model) url.set("model", state.model);
  for (const s of state.settings) if (changed(s)) url.set(s.name, String(s.value));
  history.replaceState(null, "", "?" + url.toString());
}

const camera = new Camera({ video: $("camera-video"), overlay: $("camera-overlay"), button: $("camera-toggle") });
const library = new Library({
  image: $("library-image"), video: $("library-video"), overlay: $("library-overlay"),
  progress: $("progress"), input: $("file"), drop: $("drop"),
});

function selectTask(name) {
  const description = state.tasks.find((t) => t.name === name) || state.tasks[0];
  state.task = description.name;
  $("task").value = description.name;
  const models = state.models[description.name] || [];
  if (!models.includes(state.model)) state.model = models[0] || null;
  state.settings = settingsFor(description, params);
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
    const [described, models, connections] = await Promise.all([getJSON("tasks"), getJSON("models"), getJSON("connections")]);
    state.tasks = described.tasks.filter((t) => t.name in models);
    if (!state.tasks.length) throw new Error("the server offers no task with a model");
    state.models = models;
    state.connections = connections;
    for (const t of state.tasks) $("task").append(new Option(t.title, t.name));
    selectTask(state.task || "face-landmarker");
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
