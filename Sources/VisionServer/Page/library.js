// The Library tab: an image goes to POST /api/v1/{task} and its result is drawn over it; a video
// goes to POST /api/v1/{task}/video (video mode), its per-frame results stream back with a
// progress bar, then it plays with the overlay of the frame at the playback position.
import { setStatus, showError, showResult, clearResult } from "./state.js";
import { taskURL, request, checked } from "./api.js";

export class Library {
  constructor({ image, video, overlay, progress, input, drop }) {
    Object.assign(this, { image, video, overlay, progress });
    this.file = null;
    this.frames = [];
    this.run = 0;
    input.addEventListener("change", () => input.files[0] && this.open(input.files[0]));
    drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("over");
      if (e.dataTransfer.files[0]) this.open(e.dataTransfer.files[0]);
    });
    const follow = () => {
      if (!this.video.hidden && this.frames.length) this.drawAt(this.video.currentTime * 1000);
      requestAnimationFrame(follow);
    };
    requestAnimationFrame(follow);
  }

  open(file) {
    this.file = file;
    this.rerun();
  }

  /** Runs the current file again (new file, task or settings). The last result is cleared first: a file that
   *  fails must not show it as its own. */
  rerun() {
    if (!this.file) return;
    const run = ++this.run, name = this.file.name;
    this.shown = null;
    this.progress.hidden = true;
    clearResult(this.overlay);
    (this.file.type.startsWith("video/") ? this.processVideo(run) : this.processImage(run)).catch((error) => {
      if (run !== this.run) return;
      this.progress.hidden = true;
      clearResult(this.overlay);
      showError(`Error: ${name}: ${error.message}`);
    });
  }

  /** POSTs `body` to the current task's URL with `suffix`; throws with the server's message on a failure. */
  async post(suffix, body) {
    return checked(await request(taskURL(suffix), { method: "POST", body }));
  }

  async processImage(run) {
    this.frames = [];
    this.video.hidden = true;
    this.video.pause();
    document.body.dataset.library = "image";
    // A PNG is shown as stored, the pixels the task saw: the browser would turn it by an EXIF orientation
    // (an eXIf chunk), which MediaPipe's loader, and so the library, applies to a JPEG only.
    const png = pngFacts(new Uint8Array(await this.file.slice(0, 1 << 16).arrayBuffer()));
    if (run !== this.run) return;
    this.image.style.imageOrientation = png ? "none" : "";
    this.image.src = URL.createObjectURL(this.file);
    this.image.hidden = false;
    try {
      await this.image.decode();
    } catch (_) {
      throw new Error("this browser cannot show it: it is empty, or not a picture it reads");
    }
    setStatus("running", "Processing the image…");
    const started = performance.now();
    const result = await (await this.post("", this.file)).json();
    if (run !== this.run) return;
    // naturalWidth and naturalHeight are those of the picture turned by its EXIF orientation, even shown as stored.
    this.overlay.width = png ? png.width : this.image.naturalWidth;
    this.overlay.height = png ? png.height : this.image.naturalHeight;
    showResult(this.overlay, result, false);
    const turned = png && png.orientation > 1
      ? ` (shown as stored: a PNG's EXIF orientation ${png.orientation} is not applied, as in MediaPipe)` : "";
    setStatus("ready", `Image: ${(performance.now() - started).toFixed(0)} ms round trip${turned}`);
  }

  async processVideo(run) {
    this.frames = [];
    this.image.hidden = true;
    this.video.pause();
    this.video.src = URL.createObjectURL(this.file);
    this.video.hidden = false;
    // The results are drawn over the browser's playback: a video it cannot play (its codec, or not a video) is
    // said so, not waited for.
    await new Promise((resolve, reject) => {
      if (this.video.readyState >= 1) return resolve();
      this.video.onloadedmetadata = resolve;
      this.video.onerror = () => reject(new Error(
        "this browser cannot play it (its codec, or not a video), and the results are drawn over its playback: "
        + "convert it to H.264 MP4 or WebM"));
    });
    if (run !== this.run) return;
    // Sized before the first result is drawn (frames are drawn while they stream in); sizing clears the canvas.
    this.overlay.width = this.video.videoWidth;
    this.overlay.height = this.video.videoHeight;
    document.body.dataset.library = "processing";
    const duration = this.video.duration * 1000 || 1;
    this.progress.hidden = false;
    this.progress.value = 0;
    setStatus("running", "Processing the video…");
    const reader = (await this.post("/video", this.file)).body.getReader();
    const decoder = new TextDecoder();
    let buffered = "", total = 0, errors = 0, warning = "";
    for (;;) {
      let part;
      try {
        part = await reader.read();
      } catch (error) {
        throw new Error(`the server's answer broke off after ${this.frames.length} frames (${error.message})`);
      }
      const { value, done } = part;
      if (run !== this.run) { reader.cancel(); return; }
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (line.result) {
          this.frames.push(line);
          total += line.inferenceMs;
        } else if (line.warning) {
          warning = line.warning;
        } else {
          errors += 1;
          if (line.frame === undefined) throw new Error(line.error);
        }
        this.progress.value = Math.min(1, (line.timestampInMilliseconds || 0) / duration);
      }
    }
    this.progress.hidden = true;
    const average = this.frames.length ? total / this.frames.length : 0;
    setStatus("ready", `Video: ${this.frames.length} frames, ${average.toFixed(1)} ms per frame on average${errors ? `, ${errors} failed` : ""}${warning ? `. Warning: ${warning}` : ""}`);
    document.body.dataset.library = "playing";
    this.video.currentTime = 0;
    await this.video.play().catch(() => {});
  }

  /** Draws the result of the last frame at or before `ms`. */
  drawAt(ms) {
    let low = 0, high = this.frames.length - 1, found = null;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.frames[mid].timestampInMilliseconds <= ms + 1) { found = this.frames[mid]; low = mid + 1; } else high = mid - 1;
    }
    if (found && found !== this.shown) {
      this.shown = found;
      showResult(this.overlay, found.result, false);
    }
  }
}

/** A PNG's stored size (its IHDR) and the EXIF orientation 1...8 of its eXIf chunk (1 when it has none or it
 *  cannot be read), from `bytes`, the file's start; null when `bytes` is no PNG. */
export function pngFacts(bytes) {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const facts = { width: view.getUint32(16), height: view.getUint32(20), orientation: 1 };
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = view.getUint32(at), type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === "IDAT" || type === "IEND") break;
    if (type === "eXIf" && at + 8 + length <= bytes.length) facts.orientation = tiffOrientation(view, at + 8, length);
    at += 12 + length;
  }
  return facts;
}

/** The orientation tag (0x0112) of IFD0 in the TIFF block at `start` (`length` bytes) of `view`, else 1. */
function tiffOrientation(view, start, length) {
  if (length < 8) return 1;
  const little = view.getUint16(start) === 0x4949;
  if (!little && view.getUint16(start) !== 0x4d4d) return 1;
  const ifd = start + view.getUint32(start + 4, little), end = start + length;
  if (ifd + 2 > end) return 1;
  const count = view.getUint16(ifd, little);
  for (let i = 0; i < count && ifd + 2 + 12 * (i + 1) <= end; i++) {
    const entry = ifd + 2 + 12 * i;
    if (view.getUint16(entry, little) === 0x0112) {
      const value = view.getUint16(entry + 8, little);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}
