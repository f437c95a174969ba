// The settings each task offers (the sample apps' bottom sheet), by the page's URL names; the API
// takes the same options in kebab case (numHands → num-hands).

const confidence = (name, text) => ({ name, text, kind: "range", min: 0, max: 1, step: 0.05, value: 0.5 });
const HANDS = [
  { name: "numHands", text: "Hands", kind: "number", min: 1, max: 4, value: 1 },
  confidence("minHandDetectionConfidence", "Hand detection confidence"),
  confidence("minHandPresenceConfidence", "Hand presence confidence"),
  confidence("minTrackingConfidence", "Tracking confidence"),
];

export const SETTINGS = {
  "face-detector": [
    confidence("minDetectionConfidence", "Detection confidence"),
    { ...confidence("minSuppressionThreshold", "Suppression threshold (IoU)"), value: 0.3 },
  ],
  "face-landmarker": [
    { name: "numFaces", text: "Faces", kind: "number", min: 1, max: 4, value: 1 },
    confidence("minFaceDetectionConfidence", "Face detection confidence"),
    confidence("minFacePresenceConfidence", "Face presence confidence"),
    confidence("minTrackingConfidence", "Tracking confidence"),
    { name: "outputFaceBlendshapes", text: "Blendshapes", kind: "checkbox", value: false },
    { name: "outputFacialTransformationMatrixes", text: "Transformation matrices", kind: "checkbox", value: false },
  ],
  "hand-landmarker": HANDS,
  "gesture-recognizer": [
    ...HANDS,
    { name: "cannedGesturesMaxResults", text: "Canned gestures: max results (-1: all)", kind: "number", min: -1, max: 8, value: -1 },
    { name: "cannedGesturesScoreThreshold", text: "Canned gestures: score threshold", kind: "range", min: 0, max: 1, step: 0.05, value: "" },
  ],
};

const COMMON = [{ name: "threads", text: "Threads", kind: "number", min: 1, max: 4, value: 1 }];

/** camelCase → kebab-case. */
export const kebab = (name) => name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());

/** The settings of `task` with their values: from `params` (URLSearchParams) where given. */
export function settingsFor(task, params) {
  return [...SETTINGS[task], ...COMMON].map((s) => {
    const given = params.get(s.name);
    let value = s.value;
    if (given !== null) value = s.kind === "checkbox" ? given === "true" || given === "1" : given;
    return { ...s, default: s.value, value };
  });
}

/** The API query string for settings (defaults left out) and the model name. */
export function apiQuery(settings, model) {
  const query = new URLSearchParams();
  if (model) query.set("model", model);
  for (const s of settings) {
    if (s.value === "" || s.value === null) continue;
    if (String(s.default) === String(s.value)) continue;
    query.set(kebab(s.name), String(s.value));
  }
  return query.toString();
}

/** Builds the settings form; `onChange(name, value)` runs on every change. */
export function renderForm(form, settings, models, model, onChange) {
  form.replaceChildren();
  const modelLabel = document.createElement("label");
  modelLabel.textContent = "Model ";
  const select = document.createElement("select");
  select.name = "model";
  for (const name of models) select.append(new Option(name, name, false, name === model));
  select.addEventListener("change", () => onChange("model", select.value));
  modelLabel.append(select);
  form.append(modelLabel);
  for (const s of settings) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = s.name;
    input.type = s.kind;
    const text = document.createElement("span");
    let unset = s.value === ""; // a range left at the model's own default until it is moved
    const show = () => { text.textContent = `${s.text}: ${s.kind === "checkbox" ? (input.checked ? "on" : "off") : unset ? "the model's" : input.value}`; };
    if (s.kind === "checkbox") {
      input.checked = !!s.value;
    } else {
      for (const key of ["min", "max", "step"]) if (s[key] !== undefined) input[key] = s[key];
      input.value = s.value;
    }
    input.addEventListener("input", () => { unset = false; show(); });
    input.addEventListener("change", () => onChange(s.name, s.kind === "checkbox" ? input.checked : input.value));
    show();
    if (s.kind === "checkbox") label.append(input, text); else label.append(text, input);
    form.append(label);
  }
}
