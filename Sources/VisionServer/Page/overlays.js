// Draws a task's result over its picture, as the iOS samples and MediaPipe's web demo do, with the
// library's connection lists (GET /api/v1/connections, kept in the page's state). Imports only the
// Image Segmenter's background effect.
import { backgroundActive, drawBackground } from "./background.js";

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

// Text reads the right way round on a mirrored stage, starting at `x` as seen on the screen (the caller passes
// the object's right edge in the canvas's coordinates, its left edge on a mirrored screen).
function label(ctx, text, x, y, mirrored) {
  ctx.save();
  const size = Math.max(14, ctx.canvas.width / 40);
  ctx.font = `${size}px sans-serif`;
  const width = ctx.measureText(text).width;
  y = Math.max(y, size + 4); // a label above a box at the top edge stays inside the picture
  if (mirrored) { ctx.translate(x, y); ctx.scale(-1, 1); x = 0; y = 0; }
  ctx.fillStyle = "rgba(0,0,0,0.6)";
  ctx.fillRect(x - 2, y - size - 4, width + 4, size + 8);
  ctx.fillStyle = "white";
  ctx.fillText(text, x, y);
  ctx.restore();
}

// "#3 " for the i-th face or hand when the result has tracking ids (video and live stream), else "".
function idPrefix(result, i) {
  const ids = result.trackingIds;
  return ids && ids[i] !== undefined ? `#${ids[i]} ` : "";
}

/** The face's x (the person's left), y (up) and z (forwards) axes of a head pose in degrees, as
 *  picture directions (x right, y down) with their depth towards the viewer: the columns of
 *  Rz(roll)·Ry(yaw)·Rx(-pitch), the library's convention (HeadPose). */
export function poseAxes({ yaw, pitch, roll }) {
  const y = yaw * Math.PI / 180, p = -pitch * Math.PI / 180, r = roll * Math.PI / 180;
  const [cy, sy, cp, sp, cr, sr] = [Math.cos(y), Math.sin(y), Math.cos(p), Math.sin(p), Math.cos(r), Math.sin(r)];
  // Rows of Rz·Ry·Rx.
  const m = [
    [cr * cy, cr * sy * sp - sr * cp, cr * sy * cp + sr * sp],
    [sr * cy, sr * sy * sp + cr * cp, sr * sy * cp - cr * sp],
    [-sy, cy * sp, cy * cp],
  ];
  return [0, 1, 2].map((k) => ({ dx: m[0][k], dy: -m[1][k], towardsViewer: m[2][k] }));
}

const AXIS_COLORS = ["#FF4040", "#40E640", "#4080FF"];

// The head-pose gizmo: three axes from the nose tip (landmark 1), a third of the face long, back to front.
function drawPose(ctx, face, pose, w, h) {
  const xs = face.map((p) => p.x * w), ys = face.map((p) => p.y * h);
  const length = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) / 3;
  const nose = face[1];
  const axes = poseAxes(pose);
  const order = [0, 1, 2].sort((a, b) => axes[a].towardsViewer - axes[b].towardsViewer);
  ctx.lineWidth = Math.max(3, w / 150);
  for (const k of order) {
    ctx.strokeStyle = AXIS_COLORS[k];
    ctx.beginPath();
    ctx.moveTo(nose.x * w, nose.y * h);
    ctx.lineTo(nose.x * w + axes[k].dx * length, nose.y * h + axes[k].dy * length);
    ctx.stroke();
  }
}

// One drawing per task: (ctx, result, look) where look holds the canvas size, a dot radius, whether
// the stage is mirrored and the connection lists.
function drawFaceDetections(ctx, result, { w, h, radius, mirrored }) {
  (result.detections || []).forEach((d, i) => {
    const box = d.boundingBox;
    ctx.strokeStyle = "#12b5cb";
    ctx.lineWidth = Math.max(2, w / 200);
    ctx.strokeRect(box.originX, box.originY, box.width, box.height);
    dots(ctx, d.keypoints || [], "#FF3030", radius * 1.5, w, h);
    const score = d.categories && d.categories[0] ? d.categories[0].score : 0;
    label(ctx, `${idPrefix(result, i)}face ${score.toFixed(2)}`, mirrored ? box.originX + box.width : box.originX, box.originY - 4, mirrored);
  });
}

// Face meshes, each with its tracking id above it and, when head poses are output, its pose axes.
function drawFaceMeshes(ctx, result, { w, h, mirrored, connections }) {
  const faces = result.faceLandmarks || [];
  const poses = result.headPoses && result.headPoses.length === faces.length ? result.headPoses : null;
  faces.forEach((face, i) => {
    for (const [name, color, width] of FACE_STYLE) lines(ctx, face, connections.face[name], color, width, w, h);
    if (poses) drawPose(ctx, face, poses[i], w, h);
    const id = idPrefix(result, i).trim();
    if (id) {
      const xs = face.map((p) => p.x), ys = face.map((p) => p.y);
      label(ctx, id, (mirrored ? Math.max(...xs) : Math.min(...xs)) * w, Math.min(...ys) * h - 8, mirrored);
    }
  });
}

// Hands with their handedness and, for the Gesture Recognizer, their top gesture.
function drawHands(ctx, result, { w, h, radius, mirrored, connections }) {
  (result.landmarks || []).forEach((hand, i) => {
    lines(ctx, hand, connections.hand.hand, "#00FF00", Math.max(2, w / 200), w, h);
    dots(ctx, hand, "#FF0000", radius, w, h);
    const side = result.handedness && result.handedness[i] && result.handedness[i][0];
    const gesture = result.gestures && result.gestures[i] && result.gestures[i][0];
    let text = idPrefix(result, i) + (side ? `${side.categoryName} ${side.score.toFixed(2)}` : "");
    if (gesture) text += ` · ${gesture.categoryName} ${gesture.score.toFixed(2)}`;
    const xs = hand.map((p) => p.x), ys = hand.map((p) => p.y);
    const x = (mirrored ? Math.max(...xs) : Math.min(...xs)) * w;
    if (text.trim()) label(ctx, text.trim(), x, Math.min(...ys) * h - 8, mirrored);
  });
}

// Each person's segmentation mask (an 8-bit PNG, base64, decoded beforehand into `images`) tinted in its
// own colour behind what is drawn; `strength` turns a pixel's level into how strongly it is tinted (0...255).
const MASK_COLORS = [[64, 160, 255], [255, 96, 160], [120, 230, 80]];
// One canvas tints every mask in turn (each is drawn before the next is tinted), made once, not per mask per result.
const maskScratch = document.createElement("canvas");
const maskScratchContext = maskScratch.getContext("2d", { willReadFrequently: true });
function drawMasks(ctx, masks, w, h, images, strength = (level) => level) {
  masks.forEach((mask, i) => {
    maskScratch.width = mask.width; // also clears it
    maskScratch.height = mask.height;
    maskScratchContext.drawImage(images.get(mask), 0, 0);
    const pixels = maskScratchContext.getImageData(0, 0, mask.width, mask.height);
    const [r, g, b] = MASK_COLORS[i % MASK_COLORS.length];
    for (let k = 0; k < pixels.data.length; k += 4) {
      const p = strength(pixels.data[k]);
      pixels.data[k] = r; pixels.data[k + 1] = g; pixels.data[k + 2] = b; pixels.data[k + 3] = p / 2;
    }
    maskScratchContext.putImageData(pixels, 0, 0);
    ctx.save();
    ctx.globalCompositeOperation = "destination-over";
    ctx.drawImage(maskScratch, 0, 0, w, h);
    ctx.restore();
  });
}

// The masks a result carries (pose masks, segmenter masks), each decoded from its PNG before anything is drawn.
function masksOf(result) {
  return [...(result.segmentationMasks || []), ...(result.confidenceMasks || []), ...(result.categoryMask ? [result.categoryMask] : [])];
}
function decodeMasks(masks) {
  return Promise.all(masks.map((mask) => new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve([mask, image]);
    image.onerror = () => reject(new Error("a mask is not a PNG"));
    image.src = `data:image/png;base64,${mask.png}`;
  }))).then((pairs) => new Map(pairs));
}

// Bodies: the person's left side orange, right side cyan, the rest white (as MediaPipe's samples
// colour them), joints seen with visibility ≥ 0.5, the tracking id above, and the masks behind.
const POSE_SIDE = { left: "#FF8A00", right: "#00D9E7", center: "#E6E6E6" };
function poseSide({ start, end }) {
  if (start > 10 && end > 10 && start % 2 === 1 && end % 2 === 1) return "left";
  if (start > 10 && end > 10 && start % 2 === 0 && end % 2 === 0) return "right";
  return "center";
}
function drawPoses(ctx, result, { w, h, radius, mirrored, connections, images }) {
  const poses = result.landmarks || [];
  if (result.segmentationMasks) drawMasks(ctx, result.segmentationMasks, w, h, images);
  poses.forEach((pose, i) => {
    for (const side of ["center", "left", "right"]) {
      lines(ctx, pose, connections.pose.pose.filter((c) => poseSide(c) === side), POSE_SIDE[side], Math.max(2, w / 200), w, h);
    }
    dots(ctx, pose.filter((p) => p.visibility === undefined || p.visibility === null || p.visibility >= 0.5), "#FF3030", radius, w, h);
    const id = idPrefix(result, i).trim();
    if (id) {
      const xs = pose.map((p) => p.x), ys = pose.map((p) => p.y);
      label(ctx, id, (mirrored ? Math.max(...xs) : Math.min(...xs)) * w, Math.min(...ys) * h - 8, mirrored);
    }
  });
}

// The Image Segmenter's confidence masks, one colour per label; without them, the category mask's
// labelled pixels (a one-label model writes 0 for the person and 255 for background). Over the live
// camera (`source`) with a Background effect chosen, the frame with its background blurred or replaced.
function drawSegmentation(ctx, result, { w, h, mirrored, source, images }) {
  const confidence = result.confidenceMasks && result.confidenceMasks.length ? result.confidenceMasks[0] : null;
  const fromCategory = (level) => (level === 255 ? 0 : 255);
  const mask = confidence || result.categoryMask;
  if (source && backgroundActive() && mask) {
    drawBackground(ctx, images.get(mask), source, { w, h, mirrored }, confidence ? (v) => v : fromCategory);
  } else if (confidence) drawMasks(ctx, result.confidenceMasks, w, h, images);
  else if (result.categoryMask) drawMasks(ctx, [result.categoryMask], w, h, images, fromCategory);
}

/** The overlay of each task, by the task's name. */
const OVERLAYS = {
  "face-detector": drawFaceDetections,
  "face-landmarker": drawFaceMeshes,
  "hand-landmarker": drawHands,
  "gesture-recognizer": drawHands,
  "pose-landmarker": drawPoses,
  "image-segmenter": drawSegmentation,
};

/** Draws `result` of `task` on `canvas` (sized to the picture) with the `connections` lists;
 *  `mirrored` for a front camera; `source` the live video, for the background effect. A task without an
 *  overlay throws (showResult puts the page in error). The result's masks are decoded first and the canvas is
 *  cleared and drawn in one go, so it never shows a half-drawn result; one that finishes decoding after a newer
 *  result was drawn is dropped. */
export function drawResult(canvas, task, result, connections, mirrored = false, source = null) {
  const ctx = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height;
  const generation = Number(canvas.dataset.generation || 0) + 1;
  canvas.dataset.generation = String(generation);
  const draw = OVERLAYS[task];
  if (!draw) throw new Error(`no overlay for the task ${task}`);
  const paint = (images) => {
    if (generation < Number(canvas.dataset.painted || 0)) return;
    canvas.dataset.painted = String(generation);
    ctx.clearRect(0, 0, w, h);
    if (result && connections) draw(ctx, result, { w, h, radius: Math.max(2, w / 250), mirrored, connections, source, images });
  };
  const masks = result ? masksOf(result) : [];
  if (!masks.length) paint(new Map());
  else decodeMasks(masks).then(paint, (error) => console.error(error));
}

/** The faces, hands or people of a result, one line each, by tracking id when there are ids (else by
 *  place): a face's pose and top three blendshapes, a hand's handedness and gesture, a person's joint angles. */
export function objectLines(result) {
  if (!result) return [];
  const name = (i) => (result.trackingIds ? `#${result.trackingIds[i]}` : `${i + 1}.`);
  const top = (c) => (c ? `${c.categoryName} ${c.score.toFixed(2)}` : "");
  if (result.faceLandmarks) {
    return result.faceLandmarks.map((_, i) => {
      const parts = [`${name(i)} face`];
      const pose = result.headPoses && result.headPoses.length === result.faceLandmarks.length ? result.headPoses[i] : null;
      if (pose) parts.push(`yaw ${pose.yaw.toFixed(0)}° pitch ${pose.pitch.toFixed(0)}° roll ${pose.roll.toFixed(0)}°`);
      const shapes = result.faceBlendshapes && result.faceBlendshapes[i];
      if (shapes) {
        const best = shapes.categories.filter((c) => c.categoryName !== "_neutral").sort((a, b) => b.score - a.score).slice(0, 3);
        parts.push(best.map(top).join(", "));
      }
      return parts.join(" · ");
    });
  }
  if (result.detections) return result.detections.map((d, i) => `${name(i)} face ${d.categories[0] ? d.categories[0].score.toFixed(2) : ""}`);
  if (result.worldLandmarks && !result.handedness) {
    // Poses: the person and, when output, the elbow and knee angles.
    return (result.landmarks || []).map((_, i) => {
      const angles = result.jointAngles && result.jointAngles[i];
      const parts = [`${name(i)} person`];
      if (angles) {
        parts.push(["leftElbow", "rightElbow", "leftKnee", "rightKnee"].filter((j) => angles[j] !== undefined)
          .map((j) => `${j.replace(/([A-Z])/g, " $1").toLowerCase()} ${angles[j].toFixed(0)}°`).join(", "));
      }
      return parts.join(" · ");
    });
  }
  if (result.qualityScores) return result.qualityScores.map((q, i) => `${i + 1}. mask · quality ${q.toFixed(2)}`);
  const hands = result.landmarks || [];
  const gestures = result.gestures && result.gestures.length === hands.length ? result.gestures : null;
  return hands.map((_, i) => [`${name(i)} hand`, top(result.handedness && result.handedness[i] && result.handedness[i][0]),
    gestures ? top(gestures[i][0]) : ""].filter((t) => t).join(" · "));
}

/** Lists the result's faces or hands by id (`objects`), shows the 52 blendshapes of the first face as
 *  a bar chart, and its transformation matrix. */
export function showExtras(result, chart, matrix, objects) {
  objects.replaceChildren(...objectLines(result).map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
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
