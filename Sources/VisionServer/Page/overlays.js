// Draws a task's result over its picture, as the iOS samples and MediaPipe's web demo do, with the
// library's connection lists (GET /api/v1/connections, kept in the page's state). Imports nothing.

const FACE_STYLE = [
  ["tesselation", "rgba(192,192,192,0.45)", 1],
  ["rightEye", "#FF3030", 2], ["rightEyebrow", "#FF3030", 2], ["rightIris", "#FF3030", 2],
  ["leftEye", "#30FF30", 2], ["leftEyebrow", "#30FF30", 2], ["leftIris", "#30FF30", 2],
  ["faceOval", "#E0E0E0", 2], ["lips", "#E0E0E0", 2],
];

function lines(ctx, points, list, color, width, w, h) {
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.beginPath();
  for (const { start, end } of list) {
    const a = points[start], b = points[end];
    if (!a || !b) continue;
    ctx.moveTo(a.x * w, a.y * h);
    ctx.lineTo(b.x * w, b.y * h);
  }
  ctx.stroke();
}

function dots(ctx, points, color, radius, w, h) {
  ctx.fillStyle = color;
  for (const p of points) {
    ctx.beginPath();
    ctx.arc(p.x * w, p.y * h, radius, 0, 2 * Math.PI);
    ctx.fill();
  }
}

// Text reads the right way round on a mirrored stage.
function label(ctx, text, x, y, mirrored) {
  ctx.save();
  const size = Math.max(14, ctx.canvas.width / 40);
  ctx.font = `${size}px sans-serif`;
  const width = ctx.measureText(text).width;
  y = Math.max(y, size + 4); // a label above a box at the top edge stays inside the picture
  if (mirrored) { ctx.translate(x, y); ctx.scale(-1, 1); x = -width; y = 0; }
  ctx.fillStyle = "rgba(0,0,0,0.6)";
  ctx.fillRect(x - 2, y - size - 4, width + 4, size + 8);
  ctx.fillStyle = "white";
  ctx.fillText(text, x, y);
  ctx.restore();
}

// One drawing per task: (ctx, result, look) where look holds the canvas size, a dot radius, whether
// the stage is mirrored and the connection lists.
function drawFaceDetections(ctx, result, { w, h, radius, mirrored }) {
  for (const d of result.detections || []) {
    const box = d.boundingBox;
    ctx.strokeStyle = "#12b5cb";
    ctx.lineWidth = Math.max(2, w / 200);
    ctx.strokeRect(box.originX, box.originY, box.width, box.height);
    dots(ctx, d.keypoints || [], "#FF3030", radius * 1.5, w, h);
    const score = d.categories && d.categories[0] ? d.categories[0].score : 0;
    label(ctx, `face ${score.toFixed(2)}`, mirrored ? box.originX + box.width : box.originX, box.originY - 4, mirrored);
  }
}

function drawFaceMeshes(ctx, result, { w, h, connections }) {
  for (const face of result.faceLandmarks || []) {
    for (const [name, color, width] of FACE_STYLE) lines(ctx, face, connections.face[name], color, width, w, h);
  }
}

// Hands with their handedness and, for the Gesture Recognizer, their top gesture.
function drawHands(ctx, result, { w, h, radius, mirrored, connections }) {
  (result.landmarks || []).forEach((hand, i) => {
    lines(ctx, hand, connections.hand.hand, "#00FF00", Math.max(2, w / 200), w, h);
    dots(ctx, hand, "#FF0000", radius, w, h);
    const side = result.handedness && result.handedness[i] && result.handedness[i][0];
    const gesture = result.gestures && result.gestures[i] && result.gestures[i][0];
    let text = side ? `${side.categoryName} ${side.score.toFixed(2)}` : "";
    if (gesture) text += ` · ${gesture.categoryName} ${gesture.score.toFixed(2)}`;
    const xs = hand.map((p) => p.x), ys = hand.map((p) => p.y);
    const x = (mirrored ? Math.max(...xs) : Math.min(...xs)) * w;
    if (text) label(ctx, text, x, Math.min(...ys) * h - 8, mirrored);
  });
}

/** The overlay of each task, by the task's name. */
const OVERLAYS = {
  "face-detector": drawFaceDetections,
  "face-landmarker": drawFaceMeshes,
  "hand-landmarker": drawHands,
  "gesture-recognizer": drawHands,
};

/** Draws `result` of `task` on `canvas` (sized to the picture) with the `connections` lists;
 *  `mirrored` for a front camera. A task without an overlay throws (showResult puts the page in error). */
export function drawResult(canvas, task, result, connections, mirrored = false) {
  const ctx = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height;
  ctx.clearRect(0, 0, w, h);
  const draw = OVERLAYS[task];
  if (!draw) throw new Error(`no overlay for the task ${task}`);
  if (!result || !connections) return;
  draw(ctx, result, { w, h, radius: Math.max(2, w / 250), mirrored, connections });
}

/** Shows the 52 blendshapes of the first face as a bar chart, and its transformation matrix. */
export function showExtras(result, chart, matrix) {
  chart.replaceChildren();
  matrix.textContent = "";
  const shapes = result && result.faceBlendshapes && result.faceBlendshapes[0];
  if (shapes) {
    for (const c of shapes.categories) {
      const bar = document.createElement("div");
      bar.className = "bar";
      const name = document.createElement("span");
      name.textContent = `${c.categoryName} ${c.score.toFixed(2)}`;
      const fill = document.createElement("i");
      fill.style.width = `${Math.round(c.score * 9)}rem`;
      bar.append(name, fill);
      chart.append(bar);
    }
  }
  const m = result && result.facialTransformationMatrixes && result.facialTransformationMatrixes[0];
  if (m) {
    const rows = [];
    for (let r = 0; r < m.rows; r++) rows.push(m.data.slice(r * m.columns, (r + 1) * m.columns).map((v) => v.toFixed(3).padStart(9)).join(" "));
    matrix.textContent = "Facial transformation matrix\n" + rows.join("\n");
  }
}
