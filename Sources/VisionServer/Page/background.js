// The Image Segmenter's Background control in the Camera view: none, blur, or replace with a picture the
// user picks. Drawn on the overlay from the live frame and the person's confidence mask: the frame with the
// mask as alpha over the blurred frame or the picture (scaled to cover). The mask is the newest result's,
// laid over the frame shown when it is drawn (at most two frames in flight: a few tens of milliseconds apart).

/** The effect chosen: `mode` none, blur or replace; `picture` the replacement (an Image, or null). */
export const background = { mode: "none", picture: null, blurPixels: 12 };

/** Modes the control offers (the URL's `background` parameter takes the same names). */
export const BACKGROUND_MODES = ["none", "blur", "replace"];

/** Reads a picture file into `background.picture`; resolves once it is decoded, rejects naming the file when
 *  it cannot be (the previous picture stays). */
export function loadPicture(file) {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => { background.picture = image; resolve(image); };
    image.onerror = () => { URL.revokeObjectURL(url); reject(new Error(`${file.name} is not a picture this browser can read`)); };
    image.src = url;
  });
}

/** Whether `draw` should composite a background rather than tint the mask. */
export function backgroundActive() {
  return background.mode === "blur" || (background.mode === "replace" && background.picture !== null);
}

// Two canvases every frame draws through (setting their size clears them), made once.
const scratch = { alpha: document.createElement("canvas"), person: document.createElement("canvas") };

/** Draws `source` (the video) with its background changed by `mask` (a decoded mask image: 255 where the
 *  person is); `level` turns a mask byte into the person's alpha; `mirrored` (a stage shown mirrored) draws
 *  the picture turned so it reads the right way. */
export function drawBackground(ctx, mask, source, { w, h, mirrored }, level = (v) => v) {
  const { alpha, person } = scratch;
  alpha.width = mask.naturalWidth;
  alpha.height = mask.naturalHeight;
  const actx = alpha.getContext("2d");
  actx.drawImage(mask, 0, 0);
  const pixels = actx.getImageData(0, 0, alpha.width, alpha.height);
  for (let k = 0; k < pixels.data.length; k += 4) pixels.data[k + 3] = level(pixels.data[k]);
  actx.putImageData(pixels, 0, 0);
  // The person: the frame kept where the mask says so.
  person.width = w;
  person.height = h;
  const pctx = person.getContext("2d");
  pctx.drawImage(source, 0, 0, w, h);
  pctx.globalCompositeOperation = "destination-in";
  pctx.drawImage(alpha, 0, 0, w, h);
  // The background, then the person over it.
  ctx.save();
  if (background.mode === "blur") {
    ctx.filter = `blur(${background.blurPixels}px)`;
    ctx.drawImage(source, 0, 0, w, h);
    ctx.filter = "none";
  } else {
    const p = background.picture;
    const scale = Math.max(w / p.naturalWidth, h / p.naturalHeight);
    const pw = p.naturalWidth * scale, ph = p.naturalHeight * scale;
    if (mirrored) { ctx.translate(w, 0); ctx.scale(-1, 1); }
    ctx.drawImage(p, (w - pw) / 2, (h - ph) / 2, pw, ph);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  }
  ctx.drawImage(person, 0, 0);
  ctx.restore();
}
