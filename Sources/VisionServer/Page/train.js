// The Train view: labels (one is `none`, there from the start), samples for each recorded from the live
// camera (a few frames a second while a button is held, or for some seconds) or added from files, and a
// training: the samples go as a zip of label folders (zip.js) to POST /api/v1/gesture-models with the
// training options (built from GET /api/v1/gesture-models, as the task settings are from /tasks); the
// report comes back and the trained model is handed to `onTrained`, which switches the Gesture Recognizer
// to it while the camera runs. Its state is document.body.dataset.training: idle, running, done or error.
import { apiURL, request, checked } from "./api.js";
import { settingsFor, apiQuery, renderForm } from "./settings.js";
import { zipStore } from "./zip.js";

const FRAMES_PER_SECOND = 4;
const LABEL = /^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$/; // a folder name the server takes (no /, no leading dot)
const MODEL_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/; // the server's rule for ?name=
const THUMBNAILS = 8; // the most recent samples shown per label

export class Trainer {
  /** `elements`: the view's controls by role; `camera`: the Camera whose video is recorded; `onTrained(model)`:
   *  called with the new model's file name once it is offered. */
  constructor(elements, camera, onTrained) {
    Object.assign(this, elements);
    this.camera = camera;
    this.onTrained = onTrained;
    this.labels = [];
    this.current = null;
    this.recording = null;
    this.description = null;
    this.settings = [];
    this.addLabel("none");
    this.addButton.addEventListener("click", () => this.addTypedLabel());
    this.labelInput.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); this.addTypedLabel(); } });
    const hold = this.holdButton;
    hold.addEventListener("pointerdown", (e) => { e.preventDefault(); this.record(); });
    for (const end of ["pointerup", "pointerleave", "pointercancel"]) hold.addEventListener(end, () => this.stopRecording());
    this.recordButton.addEventListener("click", () => this.record(Number(this.secondsInput.value) || 3));
    this.trainButton.addEventListener("click", () => this.train());
    this.setState("idle");
  }

  /** Takes the training's description (GET /api/v1/gesture-models): its options' form and its limits. */
  describe(description) {
    this.description = description;
    this.settings = settingsFor(description, new URLSearchParams());
    renderForm(this.optionsForm, this.settings, null, null, (name, value) => {
      this.settings = this.settings.map((s) => (s.name === name ? { ...s, value } : s));
    });
    if (!description.baseModel) this.say("The models folder has no gesture recognizer to train from.", true);
  }

  setState(training) {
    document.body.dataset.training = training;
    this.trainButton.disabled = training === "running";
  }

  /** The view's own status line (the page's is the camera's); an error also puts the view in error. */
  say(text, error = false) {
    this.statusLine.textContent = text;
    this.statusLine.classList.toggle("error", error);
    if (error) this.setState("error");
  }

  addTypedLabel() {
    const name = this.labelInput.value.trim();
    if (!LABEL.test(name)) return this.say(`"${name}" is not a label: 1 to 40 letters, digits, spaces, - or _.`, true);
    if (this.labels.some((l) => l.name.toLowerCase() === name.toLowerCase())) return this.say(`There is a label ${name} already.`, true);
    this.addLabel(name);
    this.labelInput.value = "";
    this.say("");
  }

  addLabel(name) {
    const label = { name, samples: [], row: document.createElement("tr") };
    this.labels.push(label);
    const pick = document.createElement("input");
    pick.type = "radio";
    pick.name = "train-label";
    pick.value = name;
    pick.addEventListener("change", () => { this.current = label; });
    const title = document.createElement("label");
    title.append(pick, ` ${name}`);
    const count = document.createElement("td");
    count.className = "count";
    const strip = document.createElement("td");
    strip.className = "thumbs";
    const actions = document.createElement("td");
    const files = document.createElement("input");
    files.type = "file";
    files.multiple = true;
    files.accept = "image/jpeg,image/png";
    files.addEventListener("change", () => this.addFiles(label, [...files.files]).finally(() => { files.value = ""; }));
    const pickFiles = document.createElement("label");
    pickFiles.className = "pick";
    pickFiles.append("add photos", files);
    const clear = document.createElement("button");
    clear.type = "button";
    clear.textContent = "clear";
    clear.addEventListener("click", () => { label.samples = []; this.show(label); });
    actions.append(pickFiles, " ", clear);
    if (name !== "none") {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "remove";
      remove.addEventListener("click", () => {
        this.labels = this.labels.filter((l) => l !== label);
        label.row.remove();
        if (this.current === label) this.select(this.labels[0]);
      });
      actions.append(" ", remove);
    }
    const cell = document.createElement("td");
    cell.append(title);
    label.row.dataset.label = name;
    label.row.append(cell, count, strip, actions);
    this.table.append(label.row);
    this.select(label);
    this.show(label);
  }

  select(label) {
    this.current = label;
    label.row.querySelector("input[type=radio]").checked = true;
  }

  /** Updates a label's count and its most recent thumbnails. */
  show(label) {
    label.row.querySelector(".count").textContent = String(label.samples.length);
    const strip = label.row.querySelector(".thumbs");
    strip.replaceChildren(...label.samples.slice(-THUMBNAILS).map((s) => {
      const img = document.createElement("img");
      img.src = s.url;
      img.alt = "";
      return img;
    }));
  }

  /** Adds a sample to `label`: `bytes` of `type`, `name` its file's name (null for a recorded frame). */
  addSample(label, bytes, type, name = null) {
    const url = URL.createObjectURL(new Blob([bytes], { type }));
    label.samples.push({ bytes, type, url, name });
    this.show(label);
  }

  /** Adds the JPEG and PNG photos of `files` (by their bytes, as the server reads them); any other file is named
   *  and left out, rather than failing the training later under a name the user never chose. */
  async addFiles(label, files) {
    const refused = [];
    for (const file of files) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const type = pictureType(bytes);
      if (type) this.addSample(label, bytes, type, file.name);
      else refused.push(file.name);
    }
    if (refused.length) this.say(`Not a JPEG or PNG photo, left out: ${refused.join(", ")}.`, true);
  }

  /** Records frames of the live video into the current label, FRAMES_PER_SECOND a second, for `seconds` or
   *  until `stopRecording`; starts the camera if it is off. */
  async record(seconds) {
    if (this.recording || !this.current) return;
    const label = this.current;
    const recording = { timer: null, stopAt: seconds ? performance.now() + seconds * 1000 : Infinity };
    this.recording = recording;
    document.body.dataset.recording = "yes";
    if (!this.camera.stream) await this.camera.start();
    const video = this.camera.video;
    const grab = document.createElement("canvas");
    const tick = () => {
      if (this.recording !== recording) return;
      if (performance.now() >= recording.stopAt) return this.stopRecording();
      if (video.videoWidth > 0) {
        grab.width = video.videoWidth;
        grab.height = video.videoHeight;
        grab.getContext("2d").drawImage(video, 0, 0);
        grab.toBlob(async (blob) => {
          if (blob) this.addSample(label, new Uint8Array(await blob.arrayBuffer()), "image/jpeg");
        }, "image/jpeg", 0.9);
      }
      this.say(`Recording ${label.name}…`);
    };
    tick();
    recording.timer = setInterval(tick, 1000 / FRAMES_PER_SECOND);
  }

  stopRecording() {
    if (!this.recording) return;
    clearInterval(this.recording.timer);
    this.recording = null;
    document.body.dataset.recording = "no";
    this.say(`${this.labels.map((l) => `${l.name}: ${l.samples.length}`).join(", ")} samples.`);
  }

  /** Zips the samples, trains on the server, shows the report and hands the model over. */
  async train() {
    const name = this.nameInput.value.trim();
    if (!MODEL_NAME.test(name)) return this.say(`"${name}" is not a model name: letters, digits, -, _ or ., at most 64.`, true);
    const empty = this.labels.filter((l) => !l.samples.length).map((l) => l.name);
    if (empty.length) return this.say(`Add samples to ${empty.join(", ")} (or remove the label).`, true);
    if (this.labels.length < 2) return this.say("Add a label for a gesture besides none.", true);
    const limits = this.description ? this.description.limits : {};
    const count = this.labels.reduce((sum, l) => sum + l.samples.length, 0);
    if (limits.maxPhotos && count > limits.maxPhotos) return this.say(`${count} samples: the server takes at most ${limits.maxPhotos}.`, true);
    const zip = zipEntries(this.labels);
    if (limits.maxBodyBytes && zip.size > limits.maxBodyBytes) {
      return this.say(`The samples take ${zip.size} bytes: the server takes at most ${limits.maxBodyBytes}.`, true);
    }
    this.setState("running");
    this.report.replaceChildren();
    const started = performance.now();
    const ticker = setInterval(() => this.say(`Training ${name} on ${count} samples… ${((performance.now() - started) / 1000).toFixed(0)} s`), 1000);
    try {
      const query = new URLSearchParams(apiQuery(this.settings, null));
      query.set("name", name);
      const response = await checked(await request(apiURL("gesture-models", query.toString()),
        { method: "POST", headers: { "Content-Type": "application/zip" }, body: zip }));
      const text = await response.text();
      const model = new URL(response.headers.get("Location"), location.href).searchParams.get("model");
      renderReport(this.report, JSON.parse(text));
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      const used = await this.onTrained(model);
      this.say(`Trained ${model} in ${seconds} s; ${used ? "the Gesture Recognizer uses it now" : "choose it under Gesture Recognizer"}.`);
      this.setState("done");
    } catch (error) {
      this.say(`Training failed: ${error.message}`, true);
    } finally {
      clearInterval(ticker);
    }
  }
}

/** "image/jpeg" or "image/png" by the first bytes of `bytes`, or null for anything else. */
function pictureType(bytes) {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > 8 && png.every((b, i) => bytes[i] === b)) return "image/png";
  return null;
}

/** The zip of every label's samples, each under its own file's name (`thumb/IMG_0042.jpg`, so the server's report
 *  and errors name what the user chose) or, recorded, `thumb/recorded-0007.jpg`; names made distinct in a label. */
function zipEntries(labels) {
  return zipStore(labels.flatMap((l) => {
    const used = new Set();
    return l.samples.map((s, i) => ({ name: `${l.name}/${entryName(s, i, used)}`, bytes: s.bytes }));
  }));
}

/** A sample's file name in the zip: its own, with what the server refuses in a name (a path separator, a control
 *  character, a leading dot) replaced, its extension its bytes' type, and a number added when `used` has it. */
function entryName(sample, index, used) {
  const extension = sample.type === "image/png" ? "png" : "jpg";
  // Whole characters (a cut emoji would become U+FFFD), in NFC (the server's names compare as Swift strings do).
  const cleaned = sample.name === null ? "" : Array.from(sample.name.normalize("NFC").replace(/\.(jpe?g|png)$/i, "")
    .replace(/[\/\\\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\ufeff]/g, "_").replace(/^[.\s]+/, "").trim())
    .slice(0, 100).join("");
  const stem = sample.name === null ? `recorded-${String(index + 1).padStart(4, "0")}` : cleaned || `photo-${index + 1}`;
  let name = `${stem}.${extension}`;
  for (let n = 2; used.has(name.toLowerCase()); n++) name = `${stem}-${n}.${extension}`;
  used.add(name.toLowerCase());
  return name;
}

/** A table of `rows` (arrays of cells) under `head`; the first column is a row header. */
function table(head, rows, className) {
  const t = document.createElement("table");
  t.className = className;
  const row = (cells, tag) => {
    const tr = document.createElement("tr");
    cells.forEach((text, i) => {
      const cell = document.createElement(tag === "th" || i === 0 ? "th" : "td");
      cell.textContent = text;
      tr.append(cell);
    });
    return tr;
  };
  t.append(row(head, "th"), ...rows.map((r) => row(r, "td")));
  return t;
}

/** The settings search of a report (its `search`): each candidate's settings and cross-validated accuracy
 *  (mean and spread over the folds), the chosen one marked; or why nothing was searched. */
function searchTable(search, percent) {
  const caption = document.createElement("p");
  if (search.skipped) {
    caption.textContent = `Settings search: nothing searched (${search.skipped}).`;
    return [caption];
  }
  caption.textContent = `Settings search: ${search.candidates.length} candidates, ${search.folds}-fold cross-validation, `
    + `${search.hands} hands, ${search.seconds.toFixed(2)} s` + (search.fixed.length ? `; fixed: ${search.fixed.join(", ")}` : "")
    + ". The chosen one (✓) was then trained on every training hand.";
  const names = ["layer-widths", "batch-size", "epochs", "dropout", "gamma", "balance-classes"];
  const rows = search.candidates.map((c, i) => [i === search.chosen ? "✓" : "", ...names.map((n) => c.settings[n] ?? ""),
                                               percent(c.meanAccuracy), percent(c.spread)]);
  return [caption, table(["chosen", ...names, "mean accuracy", "spread"], rows, "search")];
}

/** Shows a training report (GestureTrainingReport's JSON): accuracies, per-label counts, the validation
 *  confusion matrix, the settings search and the photos skipped. */
export function renderReport(element, report) {
  const percent = (x) => `${(100 * x).toFixed(1)} %`;
  const summary = document.createElement("p");
  summary.className = "accuracy";
  summary.textContent = `Train accuracy ${percent(report.trainAccuracy)}`
    + (report.validationAccuracy != null ? ` · validation accuracy ${percent(report.validationAccuracy)}` : " · no validation samples")
    + ` · epoch ${report.exportedEpoch} of ${report.epochs.length} kept · ${report.trainingSamples} training samples with augmentation`;
  const names = report.labels.map((l) => l.exportedName);
  const counts = table(["label", "photos", "hands", "no hand", "unreadable", "two hands", "second hand taken", "train", "validation"],
                       report.labels.map((l) => [l.exportedName, l.photos, l.hands, l.noHand, l.unreadable, l.twoHands, l.otherHand,
                                                 l.trainHands, l.validationHands]),
                       "counts");
  const parts = [summary];
  for (const text of report.warnings || []) {
    const warning = document.createElement("p");
    warning.className = "warning";
    warning.textContent = `Warning: ${text}.`;
    parts.push(warning);
  }
  parts.push(counts);
  if (report.validationAccuracy != null) {
    const caption = document.createElement("p");
    caption.textContent = "Validation: rows are the true labels, columns the predicted ones.";
    parts.push(caption, table(["true \\ predicted", ...names], report.confusion.map((row, i) => [names[i], ...row]), "confusion"));
  }
  if (report.search) parts.push(...searchTable(report.search, percent));
  if (report.skipped.length) {
    const skipped = document.createElement("p");
    skipped.textContent = `Skipped ${report.skipped.length}: `
      + report.skipped.slice(0, 5).map((s) => `${s.photo} (${s.reason})`).join(", ") + (report.skipped.length > 5 ? ", …" : "");
    parts.push(skipped);
  }
  element.replaceChildren(...parts);
}
