// A task's settings (the sample apps' bottom sheet), built from its description in
// GET /api/v1/tasks: the options' names (the API's and the page URL's, in kebab case), labels,
// types, defaults and ranges are the library's; the page declares none of its own.

/** How an option of `type` (int, float, bool, string, list) is edited: a float with both bounds is
 *  a slider in 20 steps, an int a number field, a bool a checkbox, a string or list a text field;
 *  a model file of another task (`modelOf`) a choice among that task's models in `models`. */
function control(option, models) {
  if (option.modelOf) return { kind: "select", choices: models[option.modelOf] || [] };
  const bounded = option.min != null && option.max != null; // absent or null: unbounded
  switch (option.type) {
    case "float": return bounded ? { kind: "range", step: (option.max - option.min) / 20 } : { kind: "number", step: "any" };
    case "int": return { kind: "number", step: 1 };
    case "bool": return { kind: "checkbox" };
    default: return { kind: "text" };
  }
}

/** The value a form field holds for a value of the description: "" for an unset default (null:
 *  the model's own) and an empty list, names joined by commas for a list. */
function fieldValue(value) {
  if (value === null || value === undefined) return "";
  return Array.isArray(value) ? value.join(",") : value;
}

/** Whether a number field shows `text` as it is (the browser's own rule: "+3", "5." and " 3" are not numbers to it). */
function numberFieldShows(text) {
  const probe = document.createElement("input");
  probe.type = "number";
  probe.value = text;
  return probe.value === text;
}

/** The settings of a task `description` with their values: from `params` (URLSearchParams, by
 *  option name) where given, else the option's default; `modelsOwn` when that default is unset (null).
 *  `models` (GET /api/v1/models) gives the choices of a model file option. */
export function settingsFor(description, params, models = {}) {
  return description.options.map((option) => {
    let { kind, step, choices } = control(option, models);
    const fallback = fieldValue(option.default);
    let given = params.get(option.name);
    if (kind === "checkbox" && given === "") given = null; // as the API reads it: the default
    let value = fallback, problem = null;
    if (given !== null) value = kind === "checkbox" ? given === "true" || given === "1" : given;
    // A URL value the field cannot show as given (a word or "+3" for a number, "maybe" for a bool) is shown as it
    // is, in a text field marked invalid, rather than as an empty field, a slider's middle or an unchecked box.
    if (given !== null && ((kind === "number" || kind === "range") && given !== "" && !numberFieldShows(given)
        || kind === "checkbox" && !["true", "false", "1", "0"].includes(given))) {
      kind = "text";
      value = given;
      problem = `not ${option.type === "bool" ? "true or false" : "a number"}`;
    }
    // A slider would show a value outside its range as its nearest end while the page sends the value
    // as given; such a value gets a number field, which shows it as it is (marked invalid).
    if (kind === "range" && given !== null && !(Number(given) >= option.min && Number(given) <= option.max)) {
      kind = "number";
      step = "any";
    }
    return { name: option.name, label: option.label, help: option.help, kind, step, choices, problem,
             min: option.min, max: option.max, default: fallback, value, modelsOwn: option.default === null };
  });
}

/** Whether a setting differs from its default (what the query strings keep). */
export const changed = (s) => s.value !== "" && s.value !== null && String(s.value) !== String(s.default);

/** The API query string for `settings` (defaults left out) and the `model` name. */
export function apiQuery(settings, model) {
  const query = new URLSearchParams();
  if (model) query.set("model", model);
  for (const s of settings) if (changed(s)) query.set(s.name, String(s.value));
  return query.toString();
}

/** Builds the settings form, with a choice of `models` first (none when `models` is null: the training's
 *  options); `onChange(name, value)` runs on every change. */
export function renderForm(form, settings, models, model, onChange) {
  form.replaceChildren();
  if (models !== null) {
    const modelLabel = document.createElement("label");
    modelLabel.textContent = "Model ";
    const select = document.createElement("select");
    select.name = "model";
    for (const name of models) select.append(new Option(name, name, false, name === model));
    select.addEventListener("change", () => onChange("model", select.value));
    modelLabel.append(select);
    form.append(modelLabel);
  }
  for (const s of settings) {
    const label = document.createElement("label");
    if (s.help) label.title = s.help;
    if (s.kind === "select") {
      // A model of another task, or none: the task's own (the bundle's detector).
      const choice = document.createElement("select");
      choice.name = s.name;
      choice.append(new Option("the model's own", "", false, s.value === ""));
      for (const name of s.choices) choice.append(new Option(name, name, false, name === s.value));
      choice.addEventListener("change", () => onChange(s.name, choice.value));
      const text = document.createElement("span");
      text.textContent = `${s.label} `;
      label.append(text, choice);
      form.append(label);
      continue;
    }
    const input = document.createElement("input");
    input.name = s.name;
    input.type = s.kind;
    const text = document.createElement("span");
    let unset = s.modelsOwn && s.value === ""; // the model's own value until the field is moved
    // A slider's or checkbox's label says its value; a number or text field shows its own.
    const shown = () => (s.kind === "checkbox" ? (input.checked ? "on" : "off")
      : unset ? "the model's" : s.kind === "range" ? input.value : null);
    const show = () => { const value = shown(); text.textContent = value === null ? `${s.label} ` : `${s.label}: ${value}`; };
    if (s.kind === "checkbox") {
      input.checked = !!s.value;
    } else {
      for (const key of ["min", "max", "step"]) if (s[key] != null) input[key] = s[key];
      input.value = s.value;
    }
    if (s.problem) input.setCustomValidity(s.problem);
    input.addEventListener("input", () => {
      input.setCustomValidity("");
      unset = s.modelsOwn && input.value === "" && s.kind !== "range";
      show();
    });
    input.addEventListener("change", () => onChange(s.name, s.kind === "checkbox" ? input.checked : input.value));
    show();
    if (s.kind === "checkbox") label.append(input, text); else label.append(text, input);
    form.append(label);
  }
}
